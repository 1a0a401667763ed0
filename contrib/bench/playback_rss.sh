#!/usr/bin/env bash
# playback_rss.sh - the clickwheel service's memory and CPU while it plays, against MPD's anchor
# (../shared/bench/ANCHORS.md: MPD 0.23 with the 10k corpus, RSS 61.2 MiB while playing after 12 s, CPU
# 0.5 % of one core).
#
# Usage: contrib/bench/playback_rss.sh [MUSIC_DIR=/tmp/clickwheel-corpus/music] [SECONDS=12]
# Indexes MUSIC_DIR once into a database of its own (kept in WORK), starts a private PulseAudio with a null
# sink, runs `clickwheel run --display none --input none` on that library, starts playing over the control
# socket (`mpc -h SOCKET add FILE; mpc -h SOCKET play`) and reads /proc after SECONDS of playing.
# Needs: mpc pulseaudio pulseaudio-utils; builds clickwheel (release) unless CLICKWHEEL_BIN names one.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"; ROOT="$(cd "$HERE/../.." && pwd)"
MUSIC="${1:-/tmp/clickwheel-corpus/music}"
SECS="${2:-12}"
WORK="${TMPDIR:-/tmp}/clickwheel-rss-bench"; mkdir -p "$WORK"
export CW_PULSE_DIR="$WORK/pulse"
die() { printf '[rss-bench] ERROR: %s\n' "$*" >&2; exit 1; }
for c in mpc pactl; do command -v "$c" >/dev/null || die "$c missing"; done
[ -d "$MUSIC" ] || die "no music folder $MUSIC (make one with ../shared/bench/make_corpus.py)"
# CLICKWHEEL_BIN: a clickwheel binary to measure instead of building the release one.
CW="${CLICKWHEEL_BIN:-}"
if [ -z "$CW" ]; then
  (cd "$ROOT" && swift build -c release --product clickwheel >&2)
  CW="$ROOT/.build/release/clickwheel"
fi
DB="$WORK/library.sqlite"; SOCK="$WORK/socket"
if [ ! -s "$DB" ]; then
  printf '[rss-bench] indexing %s\n' "$MUSIC" >&2
  "$CW" index --music "$MUSIC" --db "$DB" --json >&2
fi

env_lines="$("$ROOT/contrib/ci/pulse-start.sh")" || die "pulse-start failed"
eval "$env_lines"
pid=""
cleanup() {
  if [ -n "$pid" ]; then kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  "$ROOT/contrib/ci/pulse-stop.sh"
}
trap cleanup EXIT
rm -f "$SOCK"
"$CW" run --display none --input none --music "$MUSIC" --db "$DB" --socket "$SOCK" </dev/null >"$WORK/run.log" 2>&1 &
pid=$!
for _ in $(seq 400); do [ -S "$SOCK" ] && break; sleep 0.05; done
[ -S "$SOCK" ] || die "no control socket (see $WORK/run.log)"
sleep 3
kib() { awk -v k="$1:" '$1 == k {print $2}' "/proc/$pid/status"; }
ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
idle=$(kib VmRSS)
# The first plain-named MP3 of the folder (found with find, not `mpc listall`: a 10,000-entry reply would
# count in the service's RSS; awk reads to the end, so nothing dies of SIGPIPE under pipefail).
file="$(cd "$MUSIC" && find . -name '*.mp3' | awk '/^\.\/[A-Za-z0-9][ -~]*\.mp3$/ && !f { print substr($0, 3); f = 1 }')"
[ -n "$file" ] || die "the library is empty"
# Its whole folder, repeated: a corpus track may be shorter than SECONDS.
mpc -h "$SOCK" add "$(dirname "$file")" >/dev/null
mpc -h "$SOCK" repeat on >/dev/null
mpc -h "$SOCK" play >/dev/null
sleep 2
t0=$(ticks)
sleep $((SECS - 2))
t1=$(ticks)
state="$(mpc -h "$SOCK" status | sed -n 2p)"
playing=$(kib VmRSS); peak=$(kib VmHWM)
hz=$(getconf CLK_TCK)
tracks=$(mpc -h "$SOCK" stats | awk '/^Songs:/ {print $2}')
printf 'library: %s tracks; playing: %s\n' "$tracks" "$state"
awk -v i="$idle" -v p="$playing" -v h="$peak" -v d="$((t1 - t0))" -v hz="$hz" -v s="$((SECS - 2))" -v n="$SECS" 'BEGIN {
  printf "clickwheel RSS idle %.1f MiB, while playing (after %d s) %.1f MiB, peak %.1f MiB (MPD 0.23: 61.2 MiB)\n", i/1024, n, p/1024, h/1024
  printf "clickwheel CPU while playing: %.1f %% of one core over %d s (MPD 0.23, null output: 0.5 %%)\n", 100*d/hz/s, s }'
