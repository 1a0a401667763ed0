#!/usr/bin/env bash
# tsan.sh - the suites that run threads, built with Thread Sanitizer, and a summary of what it reports.
#
# Usage:  contrib/ci/tsan.sh [--no-build] [control|playback|service|devices|evdev ...]   (default: all five)
#         contrib/ci/tsan.sh --build-only   (the build alone: contrib/test.sh makes it early, in the background)
#
#   control   ControlServerTests (SwiftNIO event loop, the library read on its queue, stalled clients)
#   playback  PlaybackTests on the null output (the audio thread; RealServerTests need PULSE_SERVER and
#             are skipped: PULSE_SERVER and CW_PULSE_* are removed from the environment)
#   service   EndToEndTests' service tests: the TSan-built `clickwheel` binary run as a child (control
#             socket, lifecycle and signals, resume, hostile numbers, play order and command races, the
#             demo library, the terminal in tmux)
#   devices   DevicesTests that need no device (folder watcher, keyboard, terminal, HD44780 writer thread),
#             and NamedThreadsTests (`Locked` contended by four threads)
#   evdev     DevicesTests' evdev readers under umockdev (contrib/ci/evdev-tests.sh with the TSan build)
#
# The build goes to its own scratch path, .build-tsan (git-ignored), so it never disturbs .build. Every
# instrumented process (the test runners and the clickwheel children) writes its reports to files of
# its own (TSAN_OPTIONS log_path) in a folder of this run; the summary lists the suites, the tests run and
# each distinct race with the first frame in this repository of both accesses. Exit status: 0 when every
# suite passed and TSan reported nothing, 1 otherwise (a report makes an instrumented process exit 66, so
# a test that checks a child's exit status fails as well).
#
# Read a report before believing it: Synchronization's Mutex hands a contended lock over through a PI
# futex inside the uninstrumented Swift library (`_lockSlow`, `_unlockSlow`), which TSan cannot see, so
# two accesses under one Mutex are reported as a race when the lock was contended (four threads adding
# under one Mutex give the right sum and four reports). The summary marks a report whose two accesses
# both sit on a `withLock` line; LibraryScanner.read was one, and now needs no lock. Where a lock is
# contended by design (SongTable's columns, ThreadedDisplay's mailbox, calibrate's event queue, the tests'
# report logs) it is NamedThreads' `Locked`, a pthread mutex whose hand-off TSan sees (a report on its
# `withLock` lines is a real race).
# The tests that run `clickwheel` find the one built beside the test bundle (`BuiltProducts`): the
# sanitized one here.
#
# contrib/test.sh (and so CI) runs the control and service suites, with the build made earlier in the
# background; `contrib/test.sh --tsan` all five.
set -uo pipefail
cd "$(dirname "$0")/../.."
die() { printf '[tsan] ERROR: %s\n' "$*" >&2; exit 1; }

build=1
if [ "${1:-}" = --no-build ]; then build=0; shift; fi
suites=("$@")
[ ${#suites[@]} -gt 0 ] || suites=(control playback service devices evdev)

flags=(--sanitize=thread --scratch-path .build-tsan)
[ "${suites[0]:-}" != --build-only ] || exec swift build --build-tests "${flags[@]}"
run_dir="$(mktemp -d "${TMPDIR:-/tmp}/clickwheel-tsan.XXXXXX")"
mkdir -p "$run_dir/reports"
# halt_on_error=0: report every race and carry on; history_size=7: the previous access's stack is kept
# for longer (fewer "failed to restore the stack" reports) at some memory.
export TSAN_OPTIONS="log_path=$run_dir/reports/tsan halt_on_error=0 history_size=7 ${TSAN_OPTIONS:-}"
# The toolchain's llvm-symbolizer demangles Swift names; the system's (if any) does not.
symbolizer="$(dirname "$(readlink -f "$(command -v swift)")")/llvm-symbolizer"
[ -x "$symbolizer" ] || symbolizer="$(command -v llvm-symbolizer || true)"
[ -n "$symbolizer" ] && export TSAN_OPTIONS="$TSAN_OPTIONS external_symbolizer_path=$symbolizer"
echo "[tsan] reports and logs in $run_dir" >&2

start=$SECONDS
if [ "$build" = 1 ]; then
  echo "[tsan] building with --sanitize=thread in .build-tsan" >&2
  swift build --build-tests "${flags[@]}" >"$run_dir/build.log" 2>&1 || {
    grep -E 'error' "$run_dir/build.log" | sort -u | head -20 >&2; die "build failed (log: $run_dir/build.log)"; }
fi
build_seconds=$((SECONDS - start))

rc=0
declare -A result
run_suite() {  # name, then the command
  local name="$1"; shift
  local log="$run_dir/$name.log" t0=$SECONDS
  echo "[tsan] $name: $*" >&2
  if "$@" >"$log" 2>&1; then result[$name]="passed"; else result[$name]="FAILED"; rc=1; fi
  result[$name]="${result[$name]} in $((SECONDS - t0)) s"
}

for s in "${suites[@]}"; do
  case "$s" in
    control)  run_suite control swift test --skip-build "${flags[@]}" --filter ControlServerTests;;
    playback) run_suite playback env -u PULSE_SERVER -u CW_PULSE_SINK -u CW_PULSE_MONITOR -u CW_PULSE_DIR \
                -u CW_PULSE_KIND CW_TEST_TIMEOUT_SCALE=4 swift test --skip-build "${flags[@]}" --filter PlaybackTests --skip RealServerTests;;
    # PlayOrderTests races play against pause, stop, next and seekcur 100 times each (1,000 in CI).
    service)  run_suite service env CW_RACE_ROUNDS=100 swift test --skip-build "${flags[@]}" --filter \
                'EndToEndTests\.(ControlSocketServiceTests|ServiceLifecycleTests|ResumeEndToEndTests|HostileNumbersTests|PlayOrderTests|DemoLibraryTests|TerminalDemoTests)';;
    devices)  run_suite devices env -u CW_TEST_EVDEV_DIR -u CW_TEST_EVDEV_DEVICES swift test --skip-build "${flags[@]}" \
                --filter 'DevicesTests|NamedThreadsTests' --skip 'LCDprocDisplayTests';;
    evdev)    run_suite evdev env CW_SWIFTPM_FLAGS="${flags[*]}" CW_EVDEV_TIMEOUT=600 bash contrib/ci/evdev-tests.sh;;
    *) die "unknown suite '$s' (control|playback|service|devices|evdev)";;
  esac
done

# The summary: tests per suite from swift-testing's last line ("Test run with N tests …"), then the
# reports, one line per distinct warning (kind and the first frame in Sources/ or Tests/ of each access).
python3 - "$run_dir" "$PWD" "$build_seconds" $((SECONDS - start - build_seconds)) "${suites[@]}" <<'EOF'
import glob, os, re, subprocess, sys
run_dir, root, build_s, test_s, suites = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
total = 0
print(f"[tsan] build {build_s} s, suites {test_s} s")
for s in suites:
    text = open(os.path.join(run_dir, s + ".log"), errors="replace").read()
    runs = re.findall(r"Test run with (\d+) tests?(?: in \d+ suites?)? (passed|failed)[^\n]*", text)
    n = sum(int(r[0]) for r in runs)
    test = r'^\S+ Test (?:\S+\([^)\n]*\)|"[^"\n]*")'
    skipped = len(re.findall(test + " skipped", text, re.M))
    failed = len(re.findall(test + " failed after", text, re.M))
    total += n
    print(f"[tsan] {s}: {n} tests in {len(runs)} run(s), {skipped} skipped, {failed} failed")
print(f"[tsan] {total} tests in {len(suites)} suites")

def demangle(names):
    if not names:
        return {}
    try:
        out = subprocess.run(["swift", "demangle", "--simplified", "--compact"], input="\n".join(names),
                             capture_output=True, text=True, timeout=60).stdout.splitlines()
        return dict(zip(names, out)) if len(out) == len(names) else {}
    except Exception:
        return {}

# "    #3 Playback.PlayerLoop.run() -> () /path/File.swift:12:5 (Tests.xctest+0x1234)": the function may
# hold spaces, so the line is read from the right.
frame_re = re.compile(r"^\s+#\d+ (.+) (\S+?)(?::(\d+))?(?::\d+)? \([^()]*\)$")
warnings = []
for path in sorted(glob.glob(os.path.join(run_dir, "reports", "tsan*"))):
    blocks = open(path, errors="replace").read().split("==================")
    for b in blocks:
        m = re.search(r"WARNING: ThreadSanitizer: ([^(\n]+)", b)
        if not m:
            continue
        kind = m.group(1).strip()
        # The stacks: the access, then "Previous …" (a race) or the other stacks of the report.
        stacks, cur = [], None
        for line in b.splitlines():
            if re.match(r"^  \S", line) and line.rstrip().endswith(":"):
                cur = {"title": line.strip(), "frames": []}
                stacks.append(cur)
            elif cur is not None and line.startswith("    #"):
                f = frame_re.match(re.sub(r" \(BuildId: [0-9a-f]+\)$", "", line))
                if f:
                    cur["frames"].append((f.group(1), f.group(2), f.group(3)))
        def under_lock(st):
            # The first two frames of this repository with a line: does either call `withLock`?
            lines = [fr for fr in st["frames"] if fr[1].startswith(root + "/") and fr[2]][:2]
            for _, file, line in lines:
                try:
                    if "withLock" in open(file, errors="replace").read().splitlines()[int(line) - 1]:
                        return True
                except (OSError, IndexError):
                    pass
            return False
        def where(st):
            mine = [fr for fr in st["frames"] if fr[1].startswith(root + "/Sources") or fr[1].startswith(root + "/Tests")]
            fr = mine[0] if mine else (st["frames"][0] if st["frames"] else ("?", "?", None))
            loc = os.path.relpath(fr[1], root) if fr[1].startswith(root) else os.path.basename(fr[1])
            return fr[0], f"{loc}:{fr[2]}" if fr[2] else loc
        accesses = [st for st in stacks if re.match(r"(Write|Read|Atomic|Modifying|Previous)", st["title"])][:2]
        if not accesses:
            accesses = [st for st in stacks if st["frames"]][:2]
        locked = len(accesses) == 2 and all(under_lock(a) for a in accesses)
        warnings.append((kind + (" (both under Mutex.withLock)" if locked else ""), [where(a) for a in accesses],
                         os.path.basename(path)))

names = demangle(sorted({fn for _, ws, _ in warnings for fn, _ in ws}))
distinct = {}
for kind, ws, file in warnings:
    key = (kind, tuple(loc for _, loc in ws))
    distinct.setdefault(key, [0, ws, file])[0] += 1
print(f"[tsan] {len(warnings)} report(s), {len(distinct)} distinct")
for (kind, _), (count, ws, file) in sorted(distinct.items(), key=lambda kv: -kv[1][0]):
    parts = [f"{loc} ({names.get(fn, fn)[:90]})" for fn, loc in ws]
    print(f"[tsan] {kind} x{count}: " + "  <->  ".join(parts) + f"  [{file}]")
if any("withLock" in k for k, _, _ in warnings):
    print("[tsan] (both under Mutex.withLock: most likely TSan missing a contended Mutex hand-off, see the header)")
sys.exit(1 if warnings else 0)
EOF
summary_rc=$?
for s in "${suites[@]}"; do echo "[tsan] $s: ${result[$s]} (log: $run_dir/$s.log)"; done
[ "$summary_rc" = 0 ] || rc=1
[ "$rc" = 0 ] && echo "[tsan] clean: every suite passed, no TSan report" || echo "[tsan] FAILED: see above"
exit "$rc"
