#!/usr/bin/env bash
# playback_bench.sh - CPU per minute of audio of the ClickWheel service playing a VBR MP3 to a private
# PulseAudio null sink, against `mpg123 -o pulse` on the same file at the same time (and the bare audio
# path, clickwheel-play, beside them); then the time from a `play` command to the first non-silent
# captured sample; then spoken word (espeak-ng speech, SPEECH_SECONDS long, default 120) played by
# clickwheel-play at 1.0x and at 1.5x side by side: CPU per audio minute of each. The measuring is
# playback_bench.py's (see there).
#
# Usage: contrib/bench/playback_bench.sh [SECONDS=300] [ROUNDS=1]   (wall clock: about ROUNDS x SECONDS)
# Needs: sox lame mpg123 espeak-ng pulseaudio pulseaudio-utils python3; builds clickwheel and clickwheel-play
# (release) unless CLICKWHEEL_BIN names a clickwheel binary and CLICKWHEEL_PLAY_BIN a clickwheel-play binary
# (another scratch path's build, say).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"; ROOT="$(cd "$HERE/../.." && pwd)"
. "$HERE/lib.sh"
SECS="${1:-300}"
ROUNDS="${2:-1}"
WORK="${TMPDIR:-/tmp}/clickwheel-playback-bench"
MUSIC="$WORK/music-$SECS"; mkdir -p "$MUSIC"
MP3="$MUSIC/music-${SECS}s-V2.mp3"
export CW_PULSE_DIR="$WORK/pulse"
die() { printf '[bench] ERROR: %s\n' "$*" >&2; exit 1; }
for c in sox lame mpg123 espeak-ng parec python3; do command -v "$c" >/dev/null || die "$c missing"; done

# The music-like VBR fixture (contrib/bench/lib.sh).
make_music_mp3 "$SECS" "$WORK" "$MP3"
if [ ! -s "$MUSIC/tone.mp3" ]; then
  sox -n -r 44100 -c 2 -b 16 "$WORK/tone.wav" synth 3 sine 1000 vol 0.5
  lame --quiet -V2 "$WORK/tone.wav" "$MUSIC/tone.mp3"; rm -f "$WORK/tone.wav"
fi
# Spoken word: a paragraph read by espeak-ng, repeated to SPEECH_SECONDS, made 44.1 kHz stereo (as a
# podcast is) and encoded like the music.
SPEECH_SECS="${SPEECH_SECONDS:-120}"
SPEECH="$WORK/speech-${SPEECH_SECS}s.mp3"
if [ ! -s "$SPEECH" ]; then
  espeak-ng -s 170 -w "$WORK/para.wav" "Chapter one. It was a bright cold day in April, and the clocks were \
striking thirteen. The wind blew along the street, and the dust swirled into small spirals. Nobody was about, \
and the shops along the square were shut; somewhere a radio played an old song about the sea."
  para="$(soxi -D "$WORK/para.wav")"
  n="$(python3 -c "import math; print(math.ceil($SPEECH_SECS / $para))")"
  parts=(); for _ in $(seq "$n"); do parts+=("$WORK/para.wav"); done
  sox "${parts[@]}" -r 44100 -c 2 -b 16 "$WORK/speech.wav" trim 0 "$SPEECH_SECS"
  lame --quiet -V2 "$WORK/speech.wav" "$SPEECH"; rm -f "$WORK/speech.wav" "$WORK/para.wav"
fi
if [ -n "${CLICKWHEEL_PLAY_BIN:-}" ]; then PLAY="$CLICKWHEEL_PLAY_BIN"; else
  (cd "$ROOT" && swift build -c release --product clickwheel-play >&2)
  PLAY="$ROOT/.build/release/clickwheel-play"
fi
CW="$(clickwheel_binary "$ROOT")"

env_lines="$("$ROOT/contrib/ci/pulse-start.sh")" || die "pulse-start failed"
eval "$env_lines"
trap '"$ROOT/contrib/ci/pulse-stop.sh"' EXIT
python3 "$HERE/playback_bench.py" --mp3 "$MP3" --tone "$MUSIC/tone.mp3" --seconds "$SECS" --rounds "$ROUNDS" \
  --binary "$CW" --play "$PLAY" --speech "$SPEECH" --speech-seconds "$SPEECH_SECS"
