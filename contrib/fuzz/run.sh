#!/usr/bin/env bash
# Builds and runs one libFuzzer target for SECONDS (one job; the machine is shared).
#   contrib/fuzz/run.sh mpd 600 [extra libFuzzer flags…]
# Build and corpus live in .build-fuzz/ (never .build): .build-fuzz/TARGET/corpus grows from run to run,
# .build-fuzz/TARGET/seeds is regenerated from the transcripts, crashes land in .build-fuzz/TARGET/artifacts/.
set -euo pipefail  # pipefail: a failed swiftc fails the build step through the filter
target=${1:?usage: run.sh TARGET SECONDS [libFuzzer flags…]}
seconds=${2:?usage: run.sh TARGET SECONDS [libFuzzer flags…]}
shift 2
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=${CW_FUZZ_DIR:-$repo/.build-fuzz}/$target
mkdir -p "$work/corpus" "$work/artifacts"

case "$target" in
mpd)
    python3 "$repo/contrib/fuzz/mpd/generate.py" "$repo" "$work"
    sources=("$repo"/Sources/MPDProtocol/*.swift "$repo/contrib/fuzz/mpd/FuzzMPD.swift" "$work/CommandRows.swift")
    ;;
*)
    echo "run.sh: unknown target $target (known: mpd)" >&2
    exit 2
    ;;
esac

binary=$work/fuzz-$target
if [[ ! -x $binary ]] || [[ -n $(find "${sources[@]}" -newer "$binary" 2>/dev/null) ]]; then
    echo "run.sh: building $binary" >&2
    # From the work directory: swiftc leaves its module files (.swiftmodule, .swiftdoc) in the current one.
    (cd "$work" && swiftc -swift-version 6 -parse-as-library -O -wmo -g -sanitize=fuzzer,address \
        -module-name "Fuzz_$target" "${sources[@]}" -o "$binary" 2>&1 | { grep -v "Cannot export local symbol" || true; })
fi

# New inputs go to corpus/; seeds/ is read only. A hang is an input taking over 10 s.
cd "$work/artifacts"
exec "$binary" "$work/corpus" "$work/seeds" -dict="$work/generated.dict" -max_total_time="$seconds" \
    -timeout=10 -rss_limit_mb=2048 -max_len=131072 -print_final_stats=1 \
    -artifact_prefix="$work/artifacts/" "$@"
