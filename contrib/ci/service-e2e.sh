#!/usr/bin/env bash
# service-e2e.sh - the whole service against every real part at once: the `clickwheel` binary with a
# private PulseAudio (null sink, captured with parec), a private LCDd (text driver, 20x4) and a rotary
# encoder replayed through libevdev under umockdev, driven by the wheel trace, `clickwheel ctl`, mpc and
# python-mpd2 (Tests/EndToEndTests/FullServiceTests.swift; skipped without the CW_* variables set here).
#
# Usage:  contrib/ci/service-e2e.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
EV=Tests/DevicesTests/Evdev
swift build --build-tests

pulse_env="$(bash contrib/ci/pulse-start.sh)" || exit 1
eval "$pulse_env"
export CW_LCDD_DIR; CW_LCDD_DIR="$(mktemp -d "${TMPDIR:-/tmp}/clickwheel-e2e-lcdd.XXXXXX")"
export CW_LCDD_SIZE=20x4 CW_LCDD_PORT=auto
lcdd_env="$(bash contrib/ci/lcdd-start.sh)" || { bash contrib/ci/pulse-stop.sh; exit 1; }
eval "$lcdd_env"
trap 'bash contrib/ci/lcdd-stop.sh; bash contrib/ci/pulse-stop.sh' EXIT

node="$(sed -n 's/^# device //p' "$EV/rotary.evemu")"
echo "[service-e2e] PulseAudio $PULSE_SERVER, LCDd $CW_LCDD_HOST:$CW_LCDD_PORT, rotary encoder on $node" >&2
CW_E2E_WHEEL="$node" timeout -k 15 300 \
  umockdev-run -d "$EV/rotary.umockdev" -i "$node=$EV/rotary.ioctl" -e "$node=$EV/rotary.evemu" -- \
  swift test --skip-build --filter "EndToEndTests.FullServiceTests"
