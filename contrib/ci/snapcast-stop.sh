#!/usr/bin/env bash
# snapcast-stop.sh - stop what snapcast-start.sh started (same CW_SNAP_DIR): the pids in its files, each
# only if it still is that program. The rooms' sinks go with the PulseAudio server. Safe when nothing runs.
set -euo pipefail
DIR="${CW_SNAP_DIR:-${TMPDIR:-/tmp}/clickwheel-snap}"
for name in snapclient-a snapclient-b snapserver; do
  pidfile="$DIR/$name.pid"
  [ -s "$pidfile" ] || continue
  pid="$(cat "$pidfile")"
  if kill -0 "$pid" 2>/dev/null && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "${name%-*}" ]; then
    kill -TERM "$pid"
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
    printf '[snapcast-stop] stopped %s (pid %s)\n' "$name" "$pid" >&2
  fi
  rm -f "$pidfile"
done
