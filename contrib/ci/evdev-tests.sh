#!/usr/bin/env bash
# evdev-tests.sh - runs the evdev reader tests against fake input devices under umockdev.
#
# Usage:  contrib/ci/evdev-tests.sh [rotary|buttons|touchpad|debugger|hotplug|calibrate-rotary|calibrate-touchpad|live-profile|wheel-menu ...]
#         (default: all nine)
#
# No /dev/input or uinput needed: umockdev-run (LD_PRELOAD) gives the child a fake /sys and
# /dev/input/eventN answering libevdev's ioctls (Tests/DevicesTests/Evdev/NAME.ioctl) and replays
# NAME.evemu into the node. The preload applies to everything under umockdev-run, so the build runs
# first, outside it; then each device gets its own umockdev-run (its trace's clock starts there) with
# only the tests for that device (`--filter`). A run may replay several devices at once, and its own
# traces (NAME-calibrate.evemu for `clickwheel calibrate` and Settings → Wheel). The tests read CW_TEST_EVDEV_DIR and
# CW_TEST_EVDEV_DEVICES; without them they are skipped.
# CW_SWIFTPM_FLAGS adds flags to its `swift build` and `swift test` (contrib/ci/tsan.sh passes
# `--sanitize=thread --scratch-path .build-tsan`); CW_EVDEV_TIMEOUT is each run's limit in seconds (180).
# Regenerate the fixtures after editing Tests/DevicesTests/Evdev/mkmock.py (or on a host whose `long`
# is not 8 bytes): python3 Tests/DevicesTests/Evdev/mkmock.py
set -euo pipefail
cd "$(dirname "$0")/../.."
EV=Tests/DevicesTests/Evdev
die() { printf '[evdev-tests] ERROR: %s\n' "$*" >&2; exit 1; }
command -v umockdev-run >/dev/null || die "umockdev-run missing (apt-get install umockdev)"

read -r -a swiftpm_flags <<< "${CW_SWIFTPM_FLAGS:-}"
runs=("$@")
[ ${#runs[@]} -gt 0 ] || runs=(rotary buttons touchpad debugger hotplug calibrate-rotary calibrate-touchpad live-profile wheel-menu)

# The .ioctl answers hold `unsigned long` bitmaps: on a host whose long is not 8 bytes (armhf), use
# fixtures generated for it (same devices and traces) instead of the committed ones.
long_bytes="$(python3 -c 'import struct; print(struct.calcsize("l"))')"
if ! grep -q "; ${long_bytes}-byte longs" "$EV/rotary.ioctl"; then
  gen="$(mktemp -d "${TMPDIR:-/tmp}/clickwheel-evdev-fixtures.XXXXXX")"
  python3 "$EV/mkmock.py" "$gen" >/dev/null
  EV="$gen"
  echo "[evdev-tests] ${long_bytes}-byte longs here: using fixtures regenerated in $gen" >&2
fi

swift build --build-tests "${swiftpm_flags[@]}"

# run name -> the fake devices it replays (space separated), the suffix of their traces' names, and
# the suite whose tests check it. A trace is replayed once per umockdev-run, so two readers of one
# device need two runs.
declare -A device=([rotary]=rotary [buttons]=buttons [touchpad]=touchpad [debugger]=buttons [hotplug]=rotary
                   [live-profile]=rotary [wheel-menu]="rotary buttons"
                   [calibrate-rotary]="rotary buttons" [calibrate-touchpad]=touchpad)
declare -A trace=([calibrate-rotary]=-calibrate [calibrate-touchpad]=-calibrate [wheel-menu]=-calibrate)
declare -A suite=([rotary]=EvdevReplayTests [buttons]=EvdevReplayTests [touchpad]=EvdevReplayTests
                  [debugger]=HarnessTests [hotplug]=EvdevHotplugTests
                  [calibrate-rotary]=CalibrateReplayTests [calibrate-touchpad]=CalibrateReplayTests
                  [live-profile]=EvdevLiveProfileTests [wheel-menu]=WheelMenuReplayTests)
rc=0
for run in "${runs[@]}"; do
  ds="${device[$run]:-}"
  [ -n "$ds" ] || die "unknown run '$run' (rotary|buttons|touchpad|debugger|hotplug|calibrate-rotary|calibrate-touchpad|live-profile|wheel-menu)"
  mock=(); nodes=()
  for d in $ds; do
    evemu="$EV/$d${trace[$run]:-}.evemu"
    node="$(sed -n 's/^# device //p' "$evemu")"
    mock+=(-d "$EV/$d.umockdev" -i "$node=$EV/$d.ioctl" -e "$node=$evemu")
    nodes+=("$d on $node")
  done
  echo "[evdev-tests] $run: ${nodes[*]}" >&2
  if ! CW_TEST_EVDEV_DIR=/dev/input CW_TEST_EVDEV_DEVICES="$run" timeout -k 15 "${CW_EVDEV_TIMEOUT:-180}" \
       umockdev-run "${mock[@]}" -- \
       swift test --skip-build "${swiftpm_flags[@]}" --filter "DevicesTests.${suite[$run]}"; then
    echo "[evdev-tests] $run: FAILED" >&2; rc=1
  fi
done
[ "$rc" = 0 ] && echo "[evdev-tests] all passed: ${runs[*]}" >&2
exit "$rc"
