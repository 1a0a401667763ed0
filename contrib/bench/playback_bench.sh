#!/usr/bin/env bash
# playback_bench.sh - CPU per minute of audio of ClickWheel's player against `mpg123 -o pulse`, same file,
# same run, private PulseAudio null sink; and the time from the play command to the first non-silent
# captured sample.
#
# Usage: contrib/bench/playback_bench.sh [SECONDS=300]      (real time: about 2 x SECONDS of wall clock)
# Needs: sox lame mpg123 pulseaudio pulseaudio-utils python3 /usr/bin/time; builds clickwheel-play (release).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"; ROOT="$(cd "$HERE/../.." && pwd)"
SECS="${1:-300}"
WORK="${TMPDIR:-/tmp}/clickwheel-playback-bench"; mkdir -p "$WORK"
MP3="$WORK/music-${SECS}s-V2.mp3"
export CW_PULSE_DIR="$WORK/pulse"
die() { printf '[bench] ERROR: %s\n' "$*" >&2; exit 1; }
for c in sox lame mpg123 parec python3 /usr/bin/time; do command -v "$c" >/dev/null || die "$c missing"; done

# The same music-like VBR fixture as ../shared/ci/mpg123-anchor.sh (sweeps, square bass, pink noise, plucks).
if [ ! -s "$MP3" ]; then
  gen() { echo "|sox -n -r 44100 -c 2 -p synth $SECS $*"; }
  sox -m "$(gen sine 110:1760 sine 165:2640 tremolo 0.5 60)" "$(gen square 55 square 82.5 vol 0.15 tremolo 2 90)" \
         "$(gen pinknoise pinknoise vol 0.25 tremolo 4 80)" "$(gen pluck 440 pluck 660 vol 0.3 tremolo 1 70)" \
         -b 16 "$WORK/music.wav" norm -3
  lame --quiet -V2 "$WORK/music.wav" "$MP3"; rm -f "$WORK/music.wav"
fi
(cd "$ROOT" && swift build -c release --product clickwheel-play >&2)
PLAY="$ROOT/.build/release/clickwheel-play"

env_lines="$("$ROOT/contrib/ci/pulse-start.sh")" || die "pulse-start failed"
eval "$env_lines"
trap '"$ROOT/contrib/ci/pulse-stop.sh"' EXIT

# cpu NAME CMD...: user+sys seconds and peak RSS of one run
cpu() {
  local name=$1; shift
  /usr/bin/time -f '%U %S %M %e' -o "$WORK/$name.time" "$@" >"$WORK/$name.out" 2>"$WORK/$name.err"
  read -r u s m e < "$WORK/$name.time"
  awk -v n="$name" -v u="$u" -v s="$s" -v m="$m" -v e="$e" -v d="$SECS" \
    'BEGIN{printf "%-16s cpu %6.2f s  %6.3f s/audio-min  rss %5.1f MiB  wall %6.1f s\n", n, u+s, (u+s)/(d/60), m/1024, e}'
}
cpu "mpg123 -o pulse" mpg123 -q -o pulse "$MP3"
cpu "clickwheel-play" "$PLAY" --quiet "$MP3"

# play -> first sound: a capture timestamps the first chunk above -60 dBFS; clickwheel-play prints when it
# sent play. Three runs on a 3 s tone, capture live before each.
sox -n -r 44100 -c 2 -b 16 "$WORK/tone.wav" synth 3 sine 1000 vol 0.5; lame --quiet -V2 "$WORK/tone.wav" "$WORK/tone.mp3"
for i in 1 2 3; do
  parec -d "$CW_PULSE_MONITOR" --raw --format=s16le --rate=44100 --channels=2 --latency-msec=10 | python3 -c '
import sys, time, array
live = False
while True:
    b = sys.stdin.buffer.read(1764)
    if not b: break
    if not live: print("live", flush=True); live = True
    a = array.array("h", b[: len(b) // 2 * 2])
    if max(abs(x) for x in a) > 33:
        print("sound %d" % time.time_ns(), flush=True); break
' > "$WORK/first.txt" &
  cap=$!
  for _ in $(seq 100); do grep -q live "$WORK/first.txt" 2>/dev/null && break; sleep 0.05; done
  "$PLAY" --quiet "$WORK/tone.mp3" > "$WORK/play.txt" 2>/dev/null
  wait "$cap" 2>/dev/null || true
  t0=$(awk '/play-issued/ {print $2}' "$WORK/play.txt"); t1=$(awk '/sound/ {print $2}' "$WORK/first.txt")
  awk -v a="$t0" -v b="$t1" 'BEGIN{printf "play -> sound run '"$i"': %.0f ms\n", (b-a)/1e6}'
done
