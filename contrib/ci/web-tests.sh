#!/usr/bin/env bash
# web-tests.sh - the web remote in a real Chromium (headless; Debian's chromium and chromium-driver,
# driven by Selenium) against the real `clickwheel run` on a generated library: contrib/ci/web/browser_test.py.
# Screenshots (PNG) land in $CW_WEB_ARTIFACTS (default .build/web-artifacts) for CI to keep.
#
# Usage:  contrib/ci/web-tests.sh        (after `swift build`)
set -euo pipefail
cd "$(dirname "$0")/../.."
py=python3
# Debian's python3 has python3-selenium; another python3 first on PATH (pyenv) gets Selenium from PyPI.
if ! "$py" -c 'import selenium' 2>/dev/null; then
  if /usr/bin/python3 -c 'import selenium' 2>/dev/null; then py=/usr/bin/python3
  else python3 -m pip install -q --disable-pip-version-check selenium; fi
fi
timeout -k 10 240 "$py" contrib/ci/web/browser_test.py "${CLICKWHEEL_BIN:-.build/debug/clickwheel}"
