#!/usr/bin/env bash
# Sets up this machine and runs every test: system packages, the architecture check, the build,
# then `swift test` (real MP3 fixtures, real SQLite files, the real clickwheel binary).
# Usage: contrib/test.sh [extra swift test arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
bash contrib/ci/install-deps.sh
bash contrib/ci/check-architecture.sh
swift build --build-tests
swift test --skip-build "$@"
