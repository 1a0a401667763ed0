#!/usr/bin/env bash
# asan.sh - the suites that touch C (SQLite through GRDB, libmpg123, libpulse, libevdev) built with
# AddressSanitizer, and a summary of what it reports; LeakSanitizer over the service on request.
#
# Usage:  contrib/ci/asan.sh [--no-build] [library|playback|pulse|evdev|service ...]   (default: the first four)
#
#   library   LibraryTests (real SQLite files, the hostile MP3s of the fixtures, the scanner, libmpg123's scan)
#   playback  PlaybackTests on the null output (libmpg123 decoding, the audio thread; RealServerTests skipped)
#   pulse     PlaybackTests' RealServerTests against a private PulseAudio (contrib/ci/pulse-start.sh): libpulse
#   evdev     DevicesTests' evdev readers under umockdev (contrib/ci/evdev-tests.sh with this build): libevdev
#   service   LeakSanitizer over the ASan-built `clickwheel run` under the soak's traffic for CW_LSAN_MINUTES
#             (default 10) without kills (contrib/soak/soak.py --no-kill): its leak report at the SIGTERM exit
#
# UndefinedBehaviorSanitizer: swiftc refuses `-sanitize=undefined` for x86_64-unknown-linux-gnu (Swift checks
# overflow, bounds and nil itself and traps), so only AddressSanitizer runs; its LeakSanitizer is on in the
# service run and off in the test runners (a test process's leaks at exit are not the service's).
#
# The build goes to .build-asan (git-ignored). Reports go to files of this run (ASAN_OPTIONS log_path); the
# summary prints each distinct report with its first frame in this repository. Exit status 0 when every
# suite passed and nothing was reported. Time on the project's 2-core VM: the build about 15 minutes, the
# four suites about 10, the service run CW_LSAN_MINUTES plus a minute.
set -uo pipefail
cd "$(dirname "$0")/../.."
die() { printf '[asan] ERROR: %s\n' "$*" >&2; exit 1; }

build=1
if [ "${1:-}" = --no-build ]; then build=0; shift; fi
suites=("$@")
[ ${#suites[@]} -gt 0 ] || suites=(library playback pulse evdev)

flags=(--sanitize=address --scratch-path .build-asan)
run_dir="$(mktemp -d "${TMPDIR:-/tmp}/clickwheel-asan.XXXXXX")"
mkdir -p "$run_dir/reports"
# Writable by all: LibraryTests runs the binary as `nobody` (an unreadable file must be skipped), and an
# instrumented process that cannot open its log_path exits 1 before doing anything.
chmod 755 "$run_dir"; chmod 1777 "$run_dir/reports"
symbolizer="$(dirname "$(readlink -f "$(command -v swift)")")/llvm-symbolizer"
[ -x "$symbolizer" ] || symbolizer="$(command -v llvm-symbolizer || true)"
base="log_path=$run_dir/reports/asan halt_on_error=0 detect_odr_violation=0${symbolizer:+ external_symbolizer_path=$symbolizer}"
export ASAN_OPTIONS="$base detect_leaks=0 ${ASAN_OPTIONS:-}"
echo "[asan] reports and logs in $run_dir" >&2

start=$SECONDS
if [ "$build" = 1 ]; then
  echo "[asan] building with --sanitize=address in .build-asan" >&2
  swift build --build-tests "${flags[@]}" >"$run_dir/build.log" 2>&1 || {
    grep -E 'error' "$run_dir/build.log" | sort -u | head -20 >&2; die "build failed (log: $run_dir/build.log)"; }
fi
build_seconds=$((SECONDS - start))

rc=0
declare -A result
run_suite() {  # name, then the command
  local name="$1"; shift
  local log="$run_dir/$name.log" t0=$SECONDS
  echo "[asan] $name: $*" >&2
  if "$@" >"$log" 2>&1; then result[$name]="passed"; else result[$name]="FAILED"; rc=1; fi
  result[$name]="${result[$name]} in $((SECONDS - t0)) s"
}

bin="$(swift build "${flags[@]}" --show-bin-path)"
for s in "${suites[@]}"; do
  case "$s" in
    library)  run_suite library swift test --skip-build "${flags[@]}" --filter LibraryTests;;
    playback) run_suite playback env -u PULSE_SERVER -u CW_PULSE_SINK -u CW_PULSE_MONITOR -u CW_PULSE_DIR \
                -u CW_PULSE_KIND swift test --skip-build "${flags[@]}" --filter PlaybackTests --skip RealServerTests;;
    pulse)    export CW_PULSE_DIR="$run_dir/pulse"
              if env_lines="$(bash contrib/ci/pulse-start.sh)"; then
                eval "$env_lines"
                run_suite pulse flock /tmp/clickwheel-audio.lock swift test --skip-build "${flags[@]}" \
                  --filter PlaybackTests.RealServerTests
                bash contrib/ci/pulse-stop.sh
              else result[pulse]="FAILED: no PulseAudio"; rc=1; fi
              unset PULSE_SERVER CW_PULSE_SINK CW_PULSE_MONITOR CW_PULSE_DIR CW_PULSE_KIND;;
    evdev)    run_suite evdev env CW_SWIFTPM_FLAGS="${flags[*]}" CW_EVDEV_TIMEOUT=600 bash contrib/ci/evdev-tests.sh;;
    service)  run_suite service env ASAN_OPTIONS="$base detect_leaks=1" \
                python3 contrib/soak/soak.py --minutes "${CW_LSAN_MINUTES:-10}" --no-kill --binary "$bin/clickwheel" \
                --work "$run_dir/soak";;
    *) die "unknown suite '$s' (library|playback|pulse|evdev|service)";;
  esac
done

python3 - "$run_dir" "$PWD" "$build_seconds" $((SECONDS - start - build_seconds)) "${suites[@]}" <<'EOF'
import glob, os, re, subprocess, sys
run_dir, root, build_s, test_s, suites = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
print(f"[asan] build {build_s} s, suites {test_s} s")
for s in suites:
    text = open(os.path.join(run_dir, s + ".log"), errors="replace").read()
    runs = re.findall(r"Test run with (\d+) tests?(?: in \d+ suites?)? (passed|failed)", text)
    n = sum(int(r[0]) for r in runs)
    failed = len(re.findall(r"^\S+ Test (?:\S+\([^)\n]*\)|\"[^\"\n]*\") failed after", text, re.M))
    print(f"[asan] {s}: {n} tests, {failed} failed" if runs else f"[asan] {s}: see {s}.log")
frame_re = re.compile(r"^\s+#\d+ 0x[0-9a-f]+ in (.+?) (/\S+?)(?::(\d+))?(?::\d+)?$")
reports = {}
for path in sorted(glob.glob(os.path.join(run_dir, "reports", "asan*"))):
    text = open(path, errors="replace").read()
    for block in re.split(r"(?m)^=+\d+=+ERROR: ", text)[1:]:
        kind = block.splitlines()[0].strip()
        kind = re.sub(r" on (address|unknown address) 0x[0-9a-f]+.*", "", kind)
        kind = re.sub(r"\d+ byte\(s\)", "N bytes", kind)
        where = "?"
        for line in block.splitlines():
            m = frame_re.match(line)
            if m and (m.group(2).startswith(root + "/Sources") or m.group(2).startswith(root + "/Tests")):
                where = f"{os.path.relpath(m.group(2), root)}:{m.group(3)} ({m.group(1)[:80]})"
                break
        key = (kind, where)
        reports.setdefault(key, [0, os.path.basename(path)])[0] += 1
print(f"[asan] {sum(v[0] for v in reports.values())} report(s), {len(reports)} distinct")
for (kind, where), (n, f) in sorted(reports.items(), key=lambda kv: -kv[1][0]):
    print(f"[asan] {kind} x{n}: {where}  [{f}]")
sys.exit(1 if reports else 0)
EOF
summary_rc=$?
for s in "${suites[@]}"; do echo "[asan] $s: ${result[$s]} (log: $run_dir/$s.log)"; done
[ "$summary_rc" = 0 ] || rc=1
[ "$rc" = 0 ] && echo "[asan] clean: every suite passed, no ASan report" || echo "[asan] FAILED: see above"
exit "$rc"
