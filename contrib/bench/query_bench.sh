#!/usr/bin/env bash
# Menu query benchmark: any page of 20 rows of any list on a 100,000-track library (goal: <= 1 ms),
# and 10,000 wheel steps through Songs from event to finished frame over that database (goal: p99 <= 1 ms).
# Indexes the 10k benchmark corpus (made with make_corpus.py if missing), grows the database tenfold,
# then times every list the menus page through (with a listener's history written in, so the smart
# playlists have songs: one in ten played, one in twenty rated).
# Usage: contrib/bench/query_bench.sh [CORPUS_DIR] [FACTOR]
set -euo pipefail
cd "$(dirname "$0")/../.."
corpus="${1:-/tmp/clickwheel-corpus}"
factor="${2:-10}"
shared="${CLICKWHEEL_SHARED:-../shared}"
if [ ! -f "$corpus/manifest.json" ]; then
  python3 "$shared/bench/make_corpus.py" --out "$corpus"
fi
swift build -c release --product clickwheel >/dev/null
swift build -c release --product clickwheel-bench >/dev/null
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
.build/release/clickwheel index --music "$corpus/music" --db "$work/10k.sqlite" 2>/dev/null
python3 contrib/bench/grow_library.py --source "$work/10k.sqlite" --dest "$work/big.sqlite" --factor "$factor"
.build/release/clickwheel-bench "$work/big.sqlite" 300 --renumber --listening >/dev/null
.build/release/clickwheel-bench "$work/big.sqlite" 500 --engine 10000
