#!/usr/bin/env bash
# Sets up this machine and runs every test: system packages, the architecture check, the build,
# the tests that need a real component started for them (libevdev under umockdev, LCDd), then the
# whole suite with `swift test` (real MP3 fixtures, SQLite files, mpc and python-mpd2 against the
# control socket, the real clickwheel binary in tmux).
# Usage: contrib/test.sh [extra swift test arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
bash contrib/ci/install-deps.sh
bash contrib/ci/check-architecture.sh
swift build --build-tests
bash contrib/ci/evdev-tests.sh
bash contrib/ci/lcdd-tests.sh
swift test --skip-build "$@"
