#!/usr/bin/env bash
# The dependency rules of DESIGN: the core is pure (no C module, no Glibc, no file APIs), nothing
# imports upward, and each C module is imported only by its own wrapper.
set -uo pipefail
cd "$(dirname "$0")/../.."
fail=0
say() { printf '[architecture] %s\n' "$*" >&2; fail=1; }

imports() { grep -rhoE '^\s*(@_implementationOnly\s+|@testable\s+|public\s+|package\s+|internal\s+)?import\s+[A-Za-z0-9_]+' "$1" 2>/dev/null | awk '{print $NF}' | sort -u; }

if [ -d Sources/ClickWheelCore ]; then
  for m in $(imports Sources/ClickWheelCore); do
    case "$m" in
      C[A-Z]*|Glibc|Musl|Foundation|FoundationEssentials|Dispatch|GRDB|NIO*|Library|Playback|MPDProtocol|Devices|ControlServer|Mpg123|Pulse|Evdev|I2C)
        say "ClickWheelCore imports $m: the core must stay pure Swift (no C, no I/O)";;
    esac
  done
fi
for c in CMpg123:Mpg123 CPulse:Pulse CEvdev:Evdev CI2C:I2C; do
  module=${c%%:*}; wrapper=${c#*:}
  for dir in Sources/*/; do
    name=$(basename "$dir")
    [ "$name" = "$wrapper" ] && continue
    if imports "$dir" | grep -qx "$module"; then say "$name imports $module: only $wrapper may"; fi
  done
done
for low in Library Playback MPDProtocol Devices; do
  [ -d "Sources/$low" ] || continue
  for m in $(imports "Sources/$low"); do
    case "$m" in ControlServer|clickwheel) say "$low imports $m (upward)";; esac
  done
done
[ "$fail" = 0 ] && echo "[architecture] ok: core is pure, C modules only in their wrappers, no upward imports" >&2
exit "$fail"
