#!/usr/bin/env bash
# Builds and runs one libFuzzer target for SECONDS (one job; the machine is shared).
#   contrib/fuzz/run.sh TARGET SECONDS [libFuzzer flags…]     TARGET: mpd tags m3u config lcdproc evdev mp4 xiph pcm feed
# Build and corpus live in .build-fuzz/ (never .build): .build-fuzz/TARGET/corpus grows from run to run,
# .build-fuzz/TARGET/seeds is regenerated from the repository's fixtures, crashes land in .build-fuzz/TARGET/artifacts/.
#
# How a target is built (swiftc -sanitize=fuzzer,address, one module): the code under test is compiled from
# its sources together with the target's Fuzz*.swift, so all of it is instrumented for coverage and ASan.
# Modules it only calls into (ClickWheelCore, Mpg123, Yams) are linked from the debug build `swift build`
# leaves in .build/debug (their objects and .swiftmodule files): not instrumented, but nothing is compiled
# twice, and each fuzz binary builds in one swiftc run of one module (a SwiftPM build with
# `--sanitize fuzzer` would rebuild every dependency, GRDB and SwiftNIO included, into a second build tree).
set -euo pipefail  # pipefail: a failed swiftc fails the build step through the filter
target=${1:?usage: run.sh TARGET SECONDS [libFuzzer flags…]}
seconds=${2:?usage: run.sh TARGET SECONDS [libFuzzer flags…]}
shift 2
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=${CW_FUZZ_DIR:-$repo/.build-fuzz}/$target
debug=$repo/.build/debug
mkdir -p "$work/corpus" "$work/artifacts"
here=$repo/contrib/fuzz/$target
common=$repo/contrib/fuzz/common/FuzzCheck.swift
sources=()
objects=()
flags=()
dict=$repo/contrib/fuzz/$target.dict
max_len=65536
options=()

# Links the debug build's objects of each module named, and lets the target import it.
link_debug() {
    for module in "$@"; do
        if ! compgen -G "$debug/$module.build/*.o" >/dev/null && ! compgen -G "$debug/$module.build/src/*.o" >/dev/null; then
            echo "run.sh: $debug/$module.build has no objects: run 'swift build' first" >&2
            exit 2
        fi
        for object in "$debug/$module.build"/*.o "$debug/$module.build"/src/*.o; do
            [[ -e $object && $object != *.swiftmodule.o ]] && objects+=("$object")
        done
    done
    flags+=(-I "$debug/Modules")
}

# Copies files into seeds/ (emptied first), one seed each, named by their path.
seed_files() {
    rm -rf "$work/seeds"
    mkdir -p "$work/seeds"
    local file
    for file in "$@"; do
        [[ -f $file ]] && cp "$file" "$work/seeds/$(echo "${file#"$repo"/}" | tr '/ ' '__')"
    done
    return 0
}

case "$target" in
mpd)
    python3 "$here/generate.py" "$repo" "$work"
    sources=("$repo"/Sources/MPDProtocol/*.swift "$here/FuzzMPD.swift" "$work/CommandRows.swift")
    dict=$work/generated.dict
    max_len=131072
    # Comparisons of numbers (argument values, limits) as features: libFuzzer's comparison hooks see the
    # integer compares of the instrumented code; Swift's String compares and dictionary lookups of
    # command names are invisible to them, which the dictionary and the per-command seeds make up for.
    options+=(-use_value_profile=1)
    ;;
lcdproc)
    # The codec only: LCDprocConnection feeds it the socket's bytes.
    sources=("$repo/Sources/Devices/Display/LCDprocLines.swift" "$here/FuzzLCDproc.swift" "$common")
    seed_files "$here"/seeds/*
    max_len=16384
    ;;
m3u)
    # The reader the indexer uses, and the text decoding it falls back on.
    sources=("$repo/Sources/Library/Scanner/M3UReader.swift" "$repo"/Sources/Library/Text/*.swift "$here/FuzzM3U.swift"
        "$common")
    link_debug AudioFormats  # the genre names the text folder's ID3Genres reads
    # Seeds: the fixtures' playlists, each behind a first byte that picks where it lies (see FuzzM3U.swift).
    seed_files
    for file in "$repo"/Tests/LibraryTests/Fixtures/music/Playlists/*.m3u*; do
        { printf '\x01'; cat "$file"; } >"$work/seeds/$(basename "$file" | tr ' ' _)"
    done
    max_len=16384
    ;;
evdev)
    # The core's input folder (decoders and calibration analysers) and the model types they use; not the
    # wheel setup screens and the accelerator (they need the menus and settings): a small, fast build.
    mapfile -t input < <(find "$repo/Sources/ClickWheelCore/Input" -name '*.swift' ! -name 'WheelSetup*' \
        ! -name WheelAccelerator.swift | sort)
    sources=("${input[@]}" "$repo"/Sources/ClickWheelCore/Model/{Button,Timestamp}.swift "$here/FuzzEvdev.swift"
        "$common")
    python3 "$here/seeds.py" "$repo" "$work"
    max_len=16384
    ;;
config)
    # The loader and the editor; ClickWheelCore and Yams (with its C part) from the debug build.
    sources=("$repo"/Sources/ClickWheelConfig/*.swift "$here/FuzzConfig.swift" "$common")
    link_debug ClickWheelCore Yams CYaml
    flags+=(-I "$repo/.build/checkouts/Yams/Sources/CYaml/include")  # Yams's module imports CYaml
    python3 "$here/seeds.py" "$repo" "$work"
    max_len=16384
    ;;
mp4)
    # The MP4 reader (Sources/AudioFormats/MP4) and the module's common part: pure Swift, nothing linked.
    sources=("$repo"/Sources/AudioFormats/Common/*.swift "$repo"/Sources/AudioFormats/MP4/*.swift "$here/FuzzMP4.swift" "$common")
    seed_files "$here"/seeds/*
    max_len=65536
    ;;
tags)
    # The reader the scanner runs on each file, and what it calls; the Mpg123 wrapper, ClickWheelCore and
    # AudioFormats from the debug build, libmpg123 (the system's) through the CMpg123 module map.
    scanner=$repo/Sources/Library/Scanner
    sources=("$scanner"/{TrackReader,FileReader,ID3v2Layout,AudioStart,MPEGFrameHeader,TagMapping,TrackMetadata}.swift
        "$scanner"/{ChapterFrames,Podcasts,Audiobooks,PathHints,RawPath,FileAdvice}.swift "$repo"/Sources/Library/Text/*.swift
        "$scanner"/{FormatTrackReader,FormatTagMapping}.swift "$here/FuzzTags.swift" "$common")
    # The other formats' readers (files of those formats go to AudioFormats; the mp4, xiph and pcm targets
    # fuzz them instrumented) from the debug build.
    link_debug ClickWheelCore Mpg123 AudioFormats
    flags+=(-I "$repo/Sources/CMpg123" -lmpg123)
    mapfile -t fixtures < <(find "$repo/Tests" -name '*.mp3' -size -128k | sort)
    seed_files "${fixtures[@]}"
    max_len=131072
    ;;
xiph)
    # The FLAC, Ogg and Vorbis comment readers with the module's common types: pure Swift, nothing linked.
    sources=("$repo"/Sources/AudioFormats/{Common,Xiph}/*.swift "$here/FuzzXiph.swift" "$common")
    seed_files "$here"/seeds/*
    max_len=65536
    ;;
pcm)
    # The WAV and AIFF readers with the module's common types: pure Swift, nothing linked.
    sources=("$repo"/Sources/AudioFormats/{Common,PCM}/*.swift "$here/FuzzPCM.swift" "$common")
    seed_files "$here"/seeds/*
    max_len=16384
    ;;
feed)
    # The podcast module's pure part (feed and OPML parsing over Foundation's XMLParser, dates, file names):
    # nothing linked from the debug build.
    sources=("$repo"/Sources/Podcasts/Feed/*.swift "$here/FuzzFeed.swift" "$common")
    seed_files "$here"/seeds/*
    # Foundation's own leak on each XML error (lsan.supp says which), not this code's: suppressed for the
    # check at exit, and no leak check per input (it would run LeakSanitizer on every refused document,
    # 100 times slower).
    export LSAN_OPTIONS="suppressions=$here/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
    options+=(-detect_leaks=0)
    max_len=65536
    ;;
*)
    echo "run.sh: unknown target $target (known: mpd tags m3u config lcdproc evdev mp4 xiph pcm feed)" >&2
    exit 2
    ;;
esac

binary=$work/fuzz-$target
if [[ ! -x $binary ]] || [[ -n $(find "${sources[@]}" "${objects[@]}" -newer "$binary" 2>/dev/null) ]]; then
    echo "run.sh: building $binary" >&2
    start=$SECONDS
    # From the work directory: swiftc leaves its module files (.swiftmodule, .swiftdoc) in the current one.
    (cd "$work" && swiftc -swift-version 6 -parse-as-library -O -wmo -g -sanitize=fuzzer,address \
        -module-name "Fuzz_$target" "${flags[@]}" "${sources[@]}" "${objects[@]}" -o "$binary" 2>&1 |
        { grep -v "Cannot export local symbol" || true; })
    echo "run.sh: built $target in $((SECONDS - start)) s" >&2
fi

dict_flag=()
[[ -f $dict ]] && dict_flag=(-dict="$dict")
# New inputs go to corpus/; seeds/ is read only. A hang is an input taking over 10 s.
cd "$work/artifacts"
exec "$binary" "$work/corpus" "$work/seeds" "${dict_flag[@]}" -max_total_time="$seconds" \
    -timeout=10 -rss_limit_mb=2048 -max_len="$max_len" -print_final_stats=1 \
    -artifact_prefix="$work/artifacts/" "${options[@]}" "$@"
