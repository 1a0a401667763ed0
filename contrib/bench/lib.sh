# lib.sh - what the benchmark scripts share (sourced, not run).

# make_music_mp3 SECONDS WORK OUT: the music-like VBR fixture of ../shared/ci/mpg123-anchor.sh (sweeps,
# square bass, pink noise, plucks), SECONDS long, lame -V2, at OUT (kept: made only when missing).
make_music_mp3() {
  local secs=$1 work=$2 out=$3
  [ -s "$out" ] && return 0
  gen() { echo "|sox -n -r 44100 -c 2 -p synth $secs $*"; }
  sox -m "$(gen sine 110:1760 sine 165:2640 tremolo 0.5 60)" "$(gen square 55 square 82.5 vol 0.15 tremolo 2 90)" \
         "$(gen pinknoise pinknoise vol 0.25 tremolo 4 80)" "$(gen pluck 440 pluck 660 vol 0.3 tremolo 1 70)" \
         -b 16 "$work/music.wav" norm -3
  lame --quiet -V2 "$work/music.wav" "$out"; rm -f "$work/music.wav"
}

# clickwheel_binary ROOT: $CLICKWHEEL_BIN when set, else the release build (built now), printed.
clickwheel_binary() {
  if [ -n "${CLICKWHEEL_BIN:-}" ]; then echo "$CLICKWHEEL_BIN"; return; fi
  (cd "$1" && swift build -c release --product clickwheel >&2)
  echo "$1/.build/release/clickwheel"
}
