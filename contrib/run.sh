#!/usr/bin/env bash
# Sets up this machine, builds ClickWheel (release) and runs it on a music folder: the terminal is the
# LCD (20x4), the keyboard the click wheel (arrows or j/k turn, Enter selects, Esc = Menu, space =
# Play/Pause, n/p skip, q quits). Without a terminal it indexes the folder and prints the summary.
# Usage: contrib/run.sh [MUSIC_DIR] [clickwheel run options…]
#   MUSIC_DIR defaults to $CLICKWHEEL_MUSIC, else ~/Music; when none of them exists, the demo library:
#   `clickwheel run --demo` makes a small tagged one once (with lame) under
#   ${XDG_DATA_HOME:-~/.local/share}/clickwheel/demo, with its own database, and plays it; the demo also
#   serves the web remote (the device in a browser) on http://127.0.0.1:8080/ (or the next free port: the
#   status line under the LCD says which).
set -euo pipefail
cd "$(dirname "$0")/.."
bash contrib/ci/install-deps.sh --runtime   # includes lame, which --demo encodes with
swift build -c release --product clickwheel
bin=.build/release/clickwheel
music=""
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then   # a first argument that is not an option is the folder
  music="$1"
  shift
elif [ -d "${CLICKWHEEL_MUSIC:-$HOME/Music}" ]; then
  music="${CLICKWHEEL_MUSIC:-$HOME/Music}"
fi
if [ -n "$music" ]; then
  where=(--music "$music")
else
  echo "[run] no music folder (${CLICKWHEEL_MUSIC:-$HOME/Music}): using the demo library (clickwheel run --demo)" >&2
  where=(--demo)
fi
if [ -t 0 ] && [ -t 1 ]; then
  exec "$bin" run "${where[@]}" "$@"
fi
# No terminal: index (the demo library is made first when it is the one) and list what was skipped.
exec "$bin" index "${where[@]}" --report
