#!/usr/bin/env bash
# snapcast-start.sh - start a private snapserver and two snapclients ("rooms") playing into one
# PulseAudio server, so one parec captures both rooms on one sample clock.
#
# Usage:  eval "$(contrib/ci/pulse-start.sh)"              # first: the PulseAudio server the rooms play into
#         env_lines="$(contrib/ci/snapcast-start.sh)" || exit 1; eval "$env_lines"
#         contrib/ci/snapcast-stop.sh                        # stops exactly these
#
# Idempotent: whatever of it still runs is kept, whatever died is started again (the Playback tests kill
# snapserver mid-song and call this to bring it back).
#
# Exports CW_SNAP_SOURCE (where ClickWheel sends: the snapserver tcp source, server mode, 44100:16:2),
# CW_SNAP_CONTROL (JSON-RPC HOST:PORT), CW_SNAP_DIR and CW_SNAP_ROOMS_MONITOR: a 4-channel null sink's
# monitor, room A on channels 1-2 (front-left/right), room B on 3-4 (rear-left/right).
#
# Facts behind the choices (see /work/shared/reference/components-tried.md):
#   * snapclient 0.26's `--player pulse` crashes (segfault) when snapserver is killed; its ALSA player
#     through the pulse plugin (libasound2-plugins' `pulse` PCM) holds. PULSE_SINK picks each room's sink.
#   * Remap sinks of one multi-channel null sink: both rooms are mixed into one stream of one clock, so
#     an onset difference in the capture is the rooms' own, not two captures' start times.
#   * codec=pcm: no FLAC encoding on a 2-core CI machine shared with other jobs.
#
# stdout: only `export` lines; messages go to stderr.
# Env (optional): CW_SNAP_DIR (default ${TMPDIR:-/tmp}/clickwheel-snap), CW_SNAP_PORT_BASE (default 14700:
#   stream port BASE+4, control BASE+5, source BASE+253, as snapcast's 1704/1705/4953).
set -euo pipefail

log() { printf '[snapcast-start] %s\n' "$*" >&2; }
die() { printf '[snapcast-start] ERROR: %s\n' "$*" >&2; exit 1; }

DIR="${CW_SNAP_DIR:-${TMPDIR:-/tmp}/clickwheel-snap}"
BASE="${CW_SNAP_PORT_BASE:-14700}"
STREAM_PORT=$((BASE + 4)); CONTROL_PORT=$((BASE + 5)); SOURCE_PORT=$((BASE + 253))
SOURCE="tcp://127.0.0.1:$SOURCE_PORT?name=ClickWheel&mode=server&sampleformat=44100:16:2&codec=pcm"

command -v snapserver >/dev/null || die "snapserver not installed (apt-get install snapserver)"
command -v snapclient >/dev/null || die "snapclient not installed (apt-get install snapclient)"
[ -e /usr/share/alsa/alsa.conf.d/50-pulseaudio.conf ] || die "the ALSA pulse plugin is missing (apt-get install libasound2-plugins)"
[ -n "${PULSE_SERVER:-}" ] || die "PULSE_SERVER is not set: start contrib/ci/pulse-start.sh first"
mkdir -p "$DIR"

# The daemons must not keep the caller's other descriptors open (as in pipewire-start.sh): started from
# inside a test, they would hold what Foundation's Process watches for the script's exit, and the test
# would wait for the script forever (seen).
close_fds() {
  local fd
  for fd in /proc/$BASHPID/fd/*; do
    fd=${fd##*/}
    [ "$fd" -gt 2 ] 2>/dev/null && eval "exec $fd>&-"
  done
  return 0
}
running() { [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null && [ "$(awk '{print $3}' "/proc/$(cat "$1")/stat" 2>/dev/null)" != Z ]; }
listening() { ss -ltn "sport = :$1" 2>/dev/null | grep -q LISTEN; }

# The rooms: one 4-channel null sink, a stereo remap sink on each half.
if ! pactl list short sinks | grep -q '\bcw_rooms\b'; then
  pactl load-module module-null-sink sink_name=cw_rooms rate=44100 channels=4 \
    channel_map=front-left,front-right,rear-left,rear-right >/dev/null
  pactl load-module module-remap-sink sink_name=cw_room_a master=cw_rooms channels=2 remix=no \
    master_channel_map=front-left,front-right channel_map=front-left,front-right >/dev/null
  pactl load-module module-remap-sink sink_name=cw_room_b master=cw_rooms channels=2 remix=no \
    master_channel_map=rear-left,rear-right channel_map=front-left,front-right >/dev/null
  log "rooms: cw_room_a, cw_room_b on cw_rooms (4 channels)"
fi

if ! running "$DIR/snapserver.pid"; then
  cat > "$DIR/snapserver.conf" <<CONF
[server]
datadir = $DIR
[stream]
source = $SOURCE
port = $STREAM_PORT
buffer = 1000
[tcp]
port = $CONTROL_PORT
[http]
enabled = false
CONF
  ( close_fds; exec snapserver -c "$DIR/snapserver.conf" ) </dev/null >>"$DIR/snapserver.log" 2>&1 &
  echo $! > "$DIR/snapserver.pid"
  for _ in $(seq 100); do listening "$SOURCE_PORT" && listening "$CONTROL_PORT" && break; sleep 0.05; done
  listening "$SOURCE_PORT" || die "snapserver did not listen on $SOURCE_PORT (see $DIR/snapserver.log)"
  # Another snapserver on these ports answers the checks above while ours exits ("bind: Address already in
  # use"): the rooms would then play someone else's stream (seen with two checkouts on one base).
  sleep 0.2
  running "$DIR/snapserver.pid" || die "snapserver exited (ports $BASE+ taken? set CW_SNAP_PORT_BASE; see $DIR/snapserver.log)"
  log "snapserver pid $(cat "$DIR/snapserver.pid"): source $SOURCE, clients :$STREAM_PORT, control :$CONTROL_PORT"
fi

for room in a b; do
  pidfile="$DIR/snapclient-$room.pid"
  running "$pidfile" && continue
  instance=$([ $room = a ] && echo 1 || echo 2)
  ( close_fds; PULSE_SINK="cw_room_$room" exec snapclient -h 127.0.0.1 -p "$STREAM_PORT" --hostID "room-$room" \
      -i "$instance" --player alsa -s pulse --logsink stderr ) </dev/null >>"$DIR/snapclient-$room.log" 2>&1 &
  echo $! > "$pidfile"
  log "snapclient room-$room pid $(cat "$pidfile") into cw_room_$room"
done

printf 'export CW_SNAP_SOURCE=%q\n' "tcp://127.0.0.1:$SOURCE_PORT"
printf 'export CW_SNAP_CONTROL=%q\n' "127.0.0.1:$CONTROL_PORT"
printf 'export CW_SNAP_DIR=%q\n' "$DIR"
printf 'export CW_SNAP_ROOMS_MONITOR=cw_rooms.monitor\n'
