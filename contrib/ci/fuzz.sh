#!/usr/bin/env bash
# CI's fuzzing stage (issue 21): each libFuzzer target of contrib/fuzz for SECONDS (60 by default), two at
# a time (FUZZ_JOBS; one target is one process, and CI's machine has two cores), from its seeds (a fresh
# clone has no corpus). Needs the debug build (`swift build`), whose
# modules some targets link. A crash, hang (over 10 s) or failed check fails the stage; the input is left
# in .build-fuzz/TARGET/artifacts/ and printed in base64 by libFuzzer. Prints each target's build time and
# executions.
#   contrib/ci/fuzz.sh [SECONDS] [TARGET…]
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-60}
shift || true
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(mpd tags m3u config lcdproc evdev mp4 xiph pcm feed)
jobs=${FUZZ_JOBS:-2}
mkdir -p .build-fuzz

# One target: build if needed, run, one line on success; on failure what libFuzzer said (or, when it
# never ran, the end of the log: a build error) and a non-zero status.
fuzz_one() {
    local target=$1 log=.build-fuzz/$1.log start=$SECONDS
    if ! bash contrib/fuzz/run.sh "$target" "$seconds" >"$log" 2>&1; then
        echo "[fuzz] $target FAILED after $((SECONDS - start)) s:" >&2
        grep -E "Fatal error|ERROR|SUMMARY|Test unit written|Base64" "$log" | head -20 >&2 || tail -20 "$log" >&2
        return 1
    fi
    local built executions
    built=$(grep -o "built $target in [0-9]* s" "$log" || echo "not rebuilt")
    executions=$(grep -o "number_of_executed_units: [0-9]*" "$log" | grep -o "[0-9]*$")
    echo "[fuzz] $target: $built, $executions inputs in $seconds s, nothing found ($((SECONDS - start)) s in all)" >&2
}

failed=0
for ((i = 0; i < ${#targets[@]}; i += jobs)); do
    pids=()
    for target in "${targets[@]:i:jobs}"; do
        fuzz_one "$target" &
        pids+=($!)
    done
    for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
done
exit "$failed"
