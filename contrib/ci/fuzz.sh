#!/usr/bin/env bash
# CI's fuzzing stage (issue 21): each libFuzzer target of contrib/fuzz for SECONDS (60 by default), one at
# a time, from its seeds (a fresh clone has no corpus). Needs the debug build (`swift build`), whose
# modules some targets link. A crash, hang (over 10 s) or failed check fails the stage; the input is left
# in .build-fuzz/TARGET/artifacts/ and printed in base64 by libFuzzer. Prints each target's build time and
# executions.
#   contrib/ci/fuzz.sh [SECONDS] [TARGET…]
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-60}
shift || true
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(mpd tags m3u config lcdproc evdev)
for target in "${targets[@]}"; do
    log=.build-fuzz/$target.log
    mkdir -p .build-fuzz
    start=$SECONDS
    if ! bash contrib/fuzz/run.sh "$target" "$seconds" >"$log" 2>&1; then
        echo "[fuzz] $target FAILED after $((SECONDS - start)) s:" >&2
        grep -E "Fatal error|ERROR|SUMMARY|Test unit written|Base64" "$log" | head -20 >&2
        exit 1
    fi
    built=$(grep -o "built $target in [0-9]* s" "$log" || echo "not rebuilt")
    executions=$(grep -o "number_of_executed_units: [0-9]*" "$log" | grep -o "[0-9]*$")
    echo "[fuzz] $target: $built, $executions inputs in $seconds s, nothing found ($((SECONDS - start)) s in all)" >&2
done
