#!/usr/bin/env bash
# The module rules of README.md's "Architecture in ten lines" (and the doc comments of ClickWheelService), checked with grep over every `import` in Sources/ and contrib/bench/ and a
# read of Package.swift. Prints one line per violation (file:line: rule) and exits 1 when there is any.
#
#   1. Pure modules: ClickWheelCore, MPDProtocol and AudioFormats (the format parsers) import only Swift's own modules (Synchronization,
#      _Concurrency, …) and, for MPDProtocol, ClickWheelCore: no C module, no libc (Glibc, Musl, Darwin),
#      no Foundation (files, clocks and processes enter as values and events), no Dispatch, NIO, GRDB,
#      Logging or project module with I/O.
#   2. ClickWheelConfig imports only ClickWheelCore, Yams, Foundation and the platform libc (its atomic
#      save needs fsync of the file and its directory, which Foundation does not offer).
#   3. Each C module (CMpg123, CPulse, CEvdev, CI2C, CSonic, CFLAC, CVorbisFile, COpusFile, CFFmpeg) is imported
#      only by its wrapper, and CTimex (the
#      kernel clock's sync status) only by Devices (SystemClock).
#   4. Nothing imports upward or sideways. Layers, low to high: the wrappers (Mpg123, Pulse, Evdev, I2C, Sonic,
#      FLAC, VorbisFile, OpusFile, FFmpeg) and the pure AudioFormats;
#      ClickWheelCore; the ports' implementations and codecs (Library, Playback, MPDProtocol, Devices,
#      ClickWheelConfig, Podcasts), which do not import one another; ControlServer, WebRemote and Snapcast (beside each other);
#      ClickWheelService; clickwheel.
#      A module imports only modules of lower layers. ClickWheelTestKit sits beside the ports' layer.
#   5. ClickWheelService (when its folder exists) is imported by no module of Sources/ but clickwheel, and
#      by no benchmark (tests may drive it).
#   6. ClickWheelTestKit is imported by no module of Sources/, and in Package.swift it is a dependency of
#      test targets and of the benchmarks in contrib/bench only: never of clickwheel or a library target.
#   7. No closure kept bare as a lock's value (see the rule below).
#   8. The concurrency rule (ClickWheelService's doc comment): every thread is started through NamedThread
#      (`pthread_create` in Sources/NamedThreads only; no Foundation `Thread`); SwiftNIO runs on one event
#      loop group, made once, in ClickWheelService.swift (no other `MultiThreadedEventLoopGroup(`, no
#      `.singleton`); Dispatch's shared pool only where the rule names it (the scan's `concurrentPerform`
#      readers in LibraryScanner, the control server's deferred memory trim); and the engine loop never
#      writes to a blocking display: DeviceSetup hands it a `ThreadedDisplay` or the terminal only.
set -uo pipefail
cd "$(dirname "$0")/../.."
violations=0
say() { printf '%s\n' "$*"; violations=$((violations + 1)); }

# file:line:module for every import in a folder (attributes, access levels and `import struct M.T` allowed).
imports() {
  grep -rnE --include='*.swift' \
    '^[[:space:]]*(@[A-Za-z_]+[[:space:]]+)*((public|package|internal|fileprivate|private)[[:space:]]+)?import[[:space:]]+((struct|class|enum|protocol|typealias|func|var|let)[[:space:]]+)?[A-Za-z0-9_]+' \
    "$1" 2>/dev/null |
    sed -E 's/^([^:]+:[0-9]+):[[:space:]]*(@[A-Za-z_]+[[:space:]]+)*((public|package|internal|fileprivate|private)[[:space:]]+)?import[[:space:]]+((struct|class|enum|protocol|typealias|func|var|let)[[:space:]]+)?([A-Za-z0-9_]+).*/\1:\7/'
}

swift_modules=" Swift _Concurrency _StringProcessing RegexBuilder Synchronization Observation Distributed "
c_modules=" CMpg123:Mpg123 CPulse:Pulse CEvdev:Evdev CI2C:I2C CSonic:Sonic CFLAC:FLAC CVorbisFile:VorbisFile COpusFile:OpusFile CFFmpeg:FFmpeg CTimex:Devices "
libc=" Glibc Musl Darwin "
layer() {
  case "$1" in
    Mpg123|Pulse|Evdev|I2C|Sonic|FLAC|VorbisFile|OpusFile|FFmpeg|AudioFormats) echo 1;;
    ClickWheelCore) echo 2;;
    Library|Playback|MPDProtocol|Devices|ClickWheelConfig|Podcasts|ClickWheelTestKit) echo 3;;
    ControlServer|WebRemote|Snapcast) echo 4;;
    ClickWheelService) echo 5;;
    clickwheel) echo 6;;
    *) echo "";;
  esac
}

for dir in Sources/*/; do
  name=$(basename "$dir")
  case "$name" in C[A-Z]*) [ -f "$dir/module.modulemap" ] && continue;; esac
  mine=$(layer "$name")
  while IFS=: read -r file line m; do
    [ -n "$m" ] || continue
    at="$file:$line: $name imports $m"
    # 3. C modules only in their wrapper.
    for c in $c_modules; do
      if [ "$m" = "${c%%:*}" ] && [ "$name" != "${c#*:}" ]; then say "$at: only ${c#*:} may import ${c%%:*}"; fi
    done
    case "$name" in
      ClickWheelCore|MPDProtocol|AudioFormats)  # 1. pure modules
        if [[ "$swift_modules" != *" $m "* ]] && ! { [ "$name" = MPDProtocol ] && [ "$m" = ClickWheelCore ]; }; then
          say "$at: $name must stay pure Swift (no C, libc, Foundation, Dispatch, NIO, GRDB, Logging or I/O module)"
          continue
        fi;;
      ClickWheelConfig)  # 2.
        if [[ "$swift_modules $libc" != *" $m "* ]] && [[ " ClickWheelCore Yams Foundation " != *" $m "* ]]; then
          say "$at: ClickWheelConfig may import only ClickWheelCore, Yams, Foundation and libc"
          continue
        fi;;
    esac
    # 5. and 6.
    if [ "$m" = ClickWheelService ] && [ "$name" != clickwheel ]; then
      say "$at: only Sources/clickwheel may import ClickWheelService"; continue
    fi
    if [ "$m" = ClickWheelTestKit ]; then say "$at: ClickWheelTestKit is for tests and benchmarks only"; continue; fi
    # 4. layers
    theirs=$(layer "$m")
    if [ -n "$mine" ] && [ -n "$theirs" ] && [ "$m" != "$name" ] && [ "$theirs" -ge "$mine" ]; then
      if [ "$theirs" = "$mine" ]; then say "$at: sideways (modules of one layer do not import one another)"
      else say "$at: upward"; fi
    fi
  done < <(imports "$dir")
done

# Benchmarks: no C module, no ClickWheelService.
while IFS=: read -r file line m; do
  for c in $c_modules; do
    [ "$m" = "${c%%:*}" ] && say "$file:$line: a benchmark imports $m: only ${c#*:} may"
  done
  [ "$m" = ClickWheelService ] && say "$file:$line: a benchmark imports ClickWheelService: only Sources/clickwheel may"
done < <(imports contrib/bench)

# 6. Package.swift: which targets depend on ClickWheelTestKit.
while IFS= read -r row; do say "$row"; done < <(python3 - <<'EOF'
import re
text = open("Package.swift").read()
text = re.sub(r"//[^\n]*", "", text)
starts = [(m.start(), m.group(1)) for m in re.finditer(r"\.(target|executableTarget|testTarget|systemLibrary|plugin|macro)\(", text)]
for i, (pos, kind) in enumerate(starts):
    chunk = text[pos:starts[i + 1][0] if i + 1 < len(starts) else len(text)]
    name = re.search(r'name:\s*"([^"]+)"', chunk)
    if not name or name.group(1) == "ClickWheelTestKit":
        continue
    if not re.search(r'"ClickWheelTestKit"', chunk):
        continue
    path = re.search(r'path:\s*"([^"]+)"', chunk)
    if kind == "testTarget" or (path and path.group(1).startswith("contrib/bench/")):
        continue
    line = text[:pos].count("\n") + 1
    print(f"Package.swift:{line}: {kind} {name.group(1)} depends on ClickWheelTestKit: only tests and contrib/bench may")
EOF
)

# 7. No bare function type (or optional of one) as a lock's value: Swift writes a function value read
#    through `Mutex.withLock`'s `inout` back wrapped in two more reabstraction thunks, so a callback read per
#    event calls through thousands of them after a while (the soak found 20,000, 770 KiB of stack:
#    MessageBoard). Keep the closure in a struct (`struct Sink { let call: ... }`).
while IFS= read -r hit; do
  say "${hit%%:*}:$(echo "$hit" | cut -d: -f2): a closure kept bare in a lock (rule 7: put it in a struct)"
done < <(grep -rnE --include='*.swift' '(Mutex|Locked|LockedValueBox|NIOLockedValueBox|Atomic)<\(*(@Sendable[[:space:]]*)?\([^)]*\)[[:space:]]*(async[[:space:]]*)?(throws[[:space:]]*)?->' Sources contrib 2>/dev/null)

# 8. The concurrency rule.
src_grep() { grep -rnE --include='*.swift' "$1" Sources 2>/dev/null | grep -vE '^[^:]+:[0-9]+:[[:space:]]*///?'; }
while IFS= read -r hit; do
  say "${hit%%:*}:$(echo "$hit" | cut -d: -f2): a raw thread (rule 8: start threads through NamedThread)"
done < <(src_grep '(pthread_create[[:space:]]*\(|Thread\.detachNewThread|[^A-Za-z]Thread\([^)]*\))' | grep -v '^Sources/NamedThreads/')
while IFS= read -r hit; do
  say "${hit%%:*}:$(echo "$hit" | cut -d: -f2): an event loop group (rule 8: the service makes one, in ClickWheelService.swift)"
done < <(src_grep '(MultiThreadedEventLoopGroup\(|EventLoopGroup\.singleton|MultiThreadedEventLoopGroup\.singleton)' | grep -v '^Sources/ClickWheelService/ClickWheelService.swift:')
[ "$(src_grep 'MultiThreadedEventLoopGroup\(' | wc -l)" -le 1 ] || say "Sources/ClickWheelService/ClickWheelService.swift: more than one event loop group (rule 8)"
while IFS= read -r hit; do
  say "${hit%%:*}:$(echo "$hit" | cut -d: -f2): Dispatch's shared pool outside the rule (rule 8)"
done < <(src_grep '(DispatchQueue\.global|concurrentPerform)' | grep -vE '^Sources/(Library/Scanner/LibraryScanner|ControlServer/ControlServer)\.swift:')
while IFS= read -r hit; do
  say "Sources/ClickWheelService/DeviceSetup.swift:${hit%%:*}: a display handed to the engine loop unthreaded (rule 8: wrap its device in ThreadedDisplay)"
done < <(grep -nE 'return try [A-Za-z0-9_]+(Display|Screen)\(' Sources/ClickWheelService/DeviceSetup.swift | grep -vE 'return try (ThreadedDisplay|TerminalDisplay)\(')

if [ "$violations" = 0 ]; then
  echo "[architecture] ok: pure core and codec, config, C modules in their wrappers, layers, ClickWheelService, test kit, no closure bare in a lock, the concurrency rule" >&2
  exit 0
fi
echo "[architecture] $violations violation(s)" >&2
exit 1
