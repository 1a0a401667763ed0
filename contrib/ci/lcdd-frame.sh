#!/usr/bin/env bash
# lcdd-frame.sh - print the newest complete frame LCDd's text driver wrote.
#
# Usage:  contrib/ci/lcdd-frame.sh                    # rows only, no borders
#         contrib/ci/lcdd-frame.sh --wait 'Hello' [--timeout 5]
#             polls (every 0.1 s) until the newest frame contains the text,
#             prints that frame; exit 1 and the last frame on timeout.
#         --raw   keep the |...| borders (shows trailing spaces)
#
# Needs CW_LCDD_FRAMES (or CW_LCDD_DIR) as exported by lcdd-start.sh.
# Frames are written line by line, so the file may end in a half-written
# frame; we only return a frame whose closing border has been written. Only the
# last 64 KiB of the file are read, so this stays cheap on long runs.
set -euo pipefail

FRAMES="${CW_LCDD_FRAMES:-${CW_LCDD_DIR:-${TMPDIR:-/tmp}/clickwheel-lcdd}/frames.txt}"
SIZE="${CW_LCDD_SIZE:-20x4}"
H="${SIZE#*x}"
WAIT=""; TIMEOUT=5; RAW=0
while [ $# -gt 0 ]; do
  case "$1" in
    --wait) WAIT="$2"; shift 2 ;;
    --timeout) TIMEOUT="$2"; shift 2 ;;
    --raw) RAW=1; shift ;;
    *) echo "usage: $0 [--wait TEXT] [--timeout SEC] [--raw]" >&2; exit 2 ;;
  esac
done
[ -r "$FRAMES" ] || { echo "[lcdd-frame] no frames file $FRAMES (is LCDd started?)" >&2; exit 2; }

latest() {
  # A border line starts a frame, or closes one once H rows were collected.
  tail -c 65536 "$FRAMES" | awk -v h="$H" -v raw="$RAW" '
    /^\+-*\+$/ { if (open && n == h) { last = cur; open = 0 } else { open = 1; n = 0; cur = "" } next }
    /^\|.*\|$/ { if (open) { n++; row = raw ? $0 : substr($0, 2, length($0) - 2); cur = cur row "\n" } next }
    { open = 0 }
    END { printf "%s", last }'
}

if [ -z "$WAIT" ]; then latest; exit 0; fi
deadline=$(( $(date +%s%N) + TIMEOUT * 1000000000 ))
while :; do
  f="$(latest)"
  if grep -qF -- "$WAIT" <<<"$f"; then printf '%s\n' "$f"; exit 0; fi
  [ "$(date +%s%N)" -lt "$deadline" ] || break
  sleep 0.1
done
echo "[lcdd-frame] timeout: '$WAIT' not on screen after ${TIMEOUT}s; last frame:" >&2
printf '%s\n' "$f" >&2
exit 1
