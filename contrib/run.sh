#!/usr/bin/env bash
# Sets up this machine, builds ClickWheel (release) and runs it on a music folder: the terminal is the
# LCD (20x4), the keyboard the click wheel (arrows or j/k turn, Enter selects, Esc = Menu, space =
# Play/Pause, n/p skip, q quits). Without a terminal it indexes the folder and prints the summary.
# Usage: contrib/run.sh [MUSIC_DIR] [clickwheel run options…]   (default: ~/Music, else the bundled demo library)
set -euo pipefail
cd "$(dirname "$0")/.."
bash contrib/ci/install-deps.sh --runtime
swift build -c release --product clickwheel
music="${1:-${CLICKWHEEL_MUSIC:-$HOME/Music}}"
[ $# -gt 0 ] && shift
if [ ! -d "$music" ]; then
  echo "[run] no music folder at $music: using the bundled demo library" >&2
  music="$PWD/Tests/LibraryTests/Fixtures/music"
fi
if [ -t 0 ] && [ -t 1 ]; then
  exec .build/release/clickwheel run --music "$music" "$@"
fi
exec .build/release/clickwheel index --music "$music" --report
