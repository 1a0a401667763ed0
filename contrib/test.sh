#!/usr/bin/env bash
# Sets up this machine and runs every test: system packages, the architecture check, the build,
# the tests that need a real component started for them (libevdev under umockdev, LCDd), then the
# whole suite with `swift test` beside a private PulseAudio server with a
# null sink (real MP3 fixtures, SQLite files, captured audio, mpc and python-mpd2 against the control
# socket, the real clickwheel binary in tmux).
# Usage: contrib/test.sh [extra swift test arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
bash contrib/ci/install-deps.sh
bash contrib/ci/check-architecture.sh
swift build --build-tests
bash contrib/ci/evdev-tests.sh
bash contrib/ci/lcdd-tests.sh

# The audio tests run against PulseAudio 16 below. PipeWire's pulse server (Raspberry Pi OS's
# default; contrib/ci/pipewire-start.sh) is not part of this run yet (issue 5 is open for it): by hand
# most audio tests pass there, but restarting PipeWire from a test hangs and one full run aborted in
# libpulse's mainloop (fixed since, not yet re-run whole). To try them:
#   WITH_PIPEWIRE=1 bash contrib/ci/install-deps.sh; eval "$(contrib/ci/pipewire-start.sh)"
#   swift test --skip-build --filter PlaybackTests

# The audio tests against a private PulseAudio 16 with a null sink, captured with parec, on their
# own: they share the sink and play in real time, so they do not run beside the rest of the suite.
env_lines="$(bash contrib/ci/pulse-start.sh)" || exit 1
eval "$env_lines"
trap 'bash contrib/ci/pulse-stop.sh' EXIT
swift test --skip-build --filter PlaybackTests
bash contrib/ci/pulse-stop.sh
trap - EXIT
unset PULSE_SERVER CW_PULSE_SINK CW_PULSE_MONITOR CW_PULSE_DIR

# Everything else.
swift test --skip-build --skip PlaybackTests "$@"
