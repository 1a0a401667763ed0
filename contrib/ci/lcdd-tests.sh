#!/usr/bin/env bash
# lcdd-tests.sh - runs the LCDproc display tests against a real LCDd (text driver), 20x4 and 16x2.
#
# Usage:  contrib/ci/lcdd-tests.sh [SIZE ...]        (default: 20x4 16x2)
#
# Builds first, then for each size starts a private LCDd (contrib/ci/lcdd-start.sh, its own folder
# and the first free port from 13666), runs only the LCDd suites (the ones that freeze LCDd each on its own,
# after the others) with the CW_LCDD_* variables
# set (the tests read the text driver's frames from CW_LCDD_FRAMES and restart LCDd through
# contrib/ci/lcdd-stop.sh + lcdd-start.sh), and stops it by its pid file. Without those variables
# the tests are skipped.
set -euo pipefail
cd "$(dirname "$0")/../.."
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(20x4 16x2)

swift build --build-tests

rc=0
for size in "${sizes[@]}"; do
  export CW_LCDD_DIR; CW_LCDD_DIR="$(mktemp -d "${TMPDIR:-/tmp}/clickwheel-lcdd-tests.XXXXXX")"
  export CW_LCDD_SIZE="$size" CW_LCDD_PORT=auto
  env_lines="$(contrib/ci/lcdd-start.sh)" || exit 1
  eval "$env_lines"
  trap 'contrib/ci/lcdd-stop.sh' EXIT
  echo "[lcdd-tests] LCDd $size on $CW_LCDD_HOST:$CW_LCDD_PORT" >&2
  swift test --skip-build --filter "DevicesTests.LCDprocDisplayTests|EndToEndTests.LCDprocServiceTests" || rc=1
  # LCDd frozen by SIGSTOP: alone, one suite at a time (it would stall any LCDd test beside it).
  swift test --skip-build --filter "DevicesTests.LCDdFreezeDisplayTests" || rc=1
  swift test --skip-build --filter "EndToEndTests.LCDdFreezeServiceTests" || rc=1
  contrib/ci/lcdd-stop.sh
  trap - EXIT
done
[ "$rc" = 0 ] && echo "[lcdd-tests] all passed: ${sizes[*]}" >&2
exit "$rc"
