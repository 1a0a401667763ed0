#!/usr/bin/env bash
# snapcast_bench.sh - CPU per minute of audio of the ClickWheel service with `pulse` + `snapcast` outputs
# against `pulse` alone (goal: at most 1.3 times), and against MPD 0.23 with a `pulse` and a `fifo` output
# feeding the same snapserver; all three playing the same VBR MP3 at once, ROUNDS times, ratios of the same
# round and their medians. The measuring is snapcast_bench.py's (see there).
#
# Usage: contrib/bench/snapcast_bench.sh [SECONDS=120] [ROUNDS=3]   (wall clock: about ROUNDS x SECONDS)
# Needs: sox lame mpd snapserver pulseaudio pulseaudio-utils python3; builds clickwheel (release) unless
# CLICKWHEEL_BIN names a clickwheel binary; CW_SNAP_BENCH_THREADS=1 also prints each ClickWheel player's CPU
# by thread name. Its own PulseAudio server and snapserver (ports
# CW_SNAP_BENCH_PORT_BASE, default 16700: control +5, ClickWheel's tcp source +253), stopped at the end.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"; ROOT="$(cd "$HERE/../.." && pwd)"
. "$HERE/lib.sh"
SECS="${1:-120}"
ROUNDS="${2:-3}"
WORK="${TMPDIR:-/tmp}/clickwheel-snapcast-bench"
MUSIC="$WORK/music-$SECS"; mkdir -p "$MUSIC"
MP3="$MUSIC/music-${SECS}s-V2.mp3"
BASE="${CW_SNAP_BENCH_PORT_BASE:-16700}"
CONTROL_PORT=$((BASE + 5)); SOURCE_PORT=$((BASE + 253))
export CW_PULSE_DIR="$WORK/pulse"
die() { printf '[bench] ERROR: %s\n' "$*" >&2; exit 1; }
for c in sox lame mpd snapserver python3 pactl; do command -v "$c" >/dev/null || die "$c missing"; done

# The music-like VBR fixture (contrib/bench/lib.sh).
make_music_mp3 "$SECS" "$WORK" "$MP3"
CW="$(clickwheel_binary "$ROOT")"

env_lines="$("$ROOT/contrib/ci/pulse-start.sh")" || die "pulse-start failed"
eval "$env_lines"
SNAP="$WORK/snapserver"; mkdir -p "$SNAP"; rm -f "$SNAP/snapfifo"
stop_all() {
  if [ -s "$SNAP/pid" ]; then kill "$(cat "$SNAP/pid")" 2>/dev/null || true; rm -f "$SNAP/pid"; fi
  "$ROOT/contrib/ci/pulse-stop.sh"
}
trap stop_all EXIT
# One snapserver, two streams: ClickWheel's tcp source (server mode) and MPD's pipe source, both 44100:16:2,
# PCM to the clients (no clients: what is measured is the players feeding the server).
cat > "$SNAP/snapserver.conf" <<CONF
[server]
datadir = $SNAP
[stream]
source = tcp://127.0.0.1:$SOURCE_PORT?name=ClickWheel&mode=server&sampleformat=44100:16:2&codec=pcm
source = pipe://$SNAP/snapfifo?name=MPD&mode=create&sampleformat=44100:16:2&codec=pcm
port = $((BASE + 4))
[tcp]
port = $CONTROL_PORT
[http]
enabled = false
CONF
snapserver -c "$SNAP/snapserver.conf" </dev/null >"$SNAP/log" 2>&1 &
echo $! > "$SNAP/pid"
for _ in $(seq 100); do [ -p "$SNAP/snapfifo" ] && ss -ltn "sport = :$CONTROL_PORT" | grep -q LISTEN && break; sleep 0.05; done
[ -p "$SNAP/snapfifo" ] || die "snapserver made no FIFO (see $SNAP/log)"

python3 "$HERE/snapcast_bench.py" --mp3 "$MP3" --seconds "$SECS" --rounds "$ROUNDS" --binary "$CW" \
  --snap-source "tcp://127.0.0.1:$SOURCE_PORT" --snap-fifo "$SNAP/snapfifo" --snap-control "127.0.0.1:$CONTROL_PORT" \
  ${CW_SNAP_BENCH_THREADS:+--threads}
