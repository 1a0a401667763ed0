#!/usr/bin/env bash
# Sets up this machine, builds ClickWheel (release) and indexes a music folder, printing the summary.
# Usage: contrib/run.sh [MUSIC_DIR]   (default: ~/Music, else the bundled test library)
set -euo pipefail
cd "$(dirname "$0")/.."
bash contrib/ci/install-deps.sh --runtime
swift build -c release --product clickwheel
music="${1:-${CLICKWHEEL_MUSIC:-$HOME/Music}}"
if [ ! -d "$music" ]; then
  echo "[run] no music folder at $music: indexing the bundled demo library instead" >&2
  music="$PWD/Tests/LibraryTests/Fixtures/music"
fi
exec .build/release/clickwheel index --music "$music" --report
