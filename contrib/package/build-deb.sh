#!/usr/bin/env bash
# Builds the Debian package clickwheel_VERSION_ARCH.deb: a release build linked with the static Swift
# runtime and Foundation (so the target needs no Swift), stripped, with the systemd unit, the udev
# rule, the example configuration as a conffile, man pages and shell completions generated from the
# binary's own help, the DEP-5 copyright file of every bundled component, and maintainer scripts
# that add the `clickwheel` system user. Depends: from dpkg-shlibdeps. See contrib/package/README.md.
#
# Usage: contrib/package/build-deb.sh [--arch ARCH] [--version VERSION] [--binary PATH] [--out DIR]
#   --arch ARCH        Debian architecture (default: dpkg --print-architecture). Must be the build
#                      machine's: the binary is not cross-compiled.
#   --version VERSION  package version (default: from `git describe --tags --always --dirty`, e.g.
#                      0.0~git20261128.93e5396-1 without a tag, 1.2.0+git3.gabc1234-1 three commits after
#                      v1.2.0, 1.2.0-1 on it; +dirty with uncommitted changes)
#   --binary PATH      package this already built (static) binary instead of building one
#   --out DIR          where the .deb goes (default: the current directory)
#   --build-only       only build what packaging needs (the static binary and the man page tool) and
#                      print the binary's path: contrib/test.sh makes these builds early, in the background
# Env: SCRATCH (default .build-package), TOOLS_SCRATCH (default .build-package-tools), JOBS (swift build -j N;
#      1 runs one compiler process at a time, for a board with 2 GB),
#      DEBFULLNAME/DEBEMAIL (Maintainer; default: git config user.name/user.email),
#      SOURCE_DATE_EPOCH (default: the commit's time: file dates, man page dates, changelog date).
# Prints the path of the .deb on stdout as its last line.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cd "$repo"

log() { printf '[build-deb] %s\n' "$*" >&2; }
die() { printf '[build-deb] ERROR: %s\n' "$*" >&2; exit 1; }

arch="" version="" binary="" out="$PWD" build_only=0
while [ $# -gt 0 ]; do
  case "$1" in
    --arch) arch="${2:?--arch needs a value}"; shift 2 ;;
    --version) version="${2:?--version needs a value}"; shift 2 ;;
    --binary) binary="${2:?--binary needs a path}"; shift 2 ;;
    --out) out="${2:?--out needs a directory}"; shift 2 ;;
    --build-only) build_only=1; shift ;;
    -h | --help) sed -n '2,/^set -/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown option '$1' (see --help)" ;;
  esac
done

for tool in dpkg-deb dpkg-shlibdeps strip readelf gzip ldd git; do
  command -v "$tool" >/dev/null || die "$tool is missing (contrib/ci/install-deps.sh installs dpkg-dev, binutils)"
done

host_arch="$(dpkg --print-architecture)"
arch="${arch:-$host_arch}"
[ "$arch" = "$host_arch" ] || [ -n "$binary" ] ||
  die "--arch $arch on a $host_arch machine: build on a $arch machine (or give --binary built there)"

SCRATCH="${SCRATCH:-.build-package}"
TOOLS_SCRATCH="${TOOLS_SCRATCH:-.build-package-tools}"
export SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}"
commit="$(git rev-parse --short=7 HEAD 2>/dev/null || echo unknown)"

# --- The version: git describe, made a valid Debian version. -------------------------------------
if [ -z "$version" ]; then
  desc="$(git describe --tags --always --dirty)"
  dirty=""
  case "$desc" in *-dirty) dirty=1; desc="${desc%-dirty}" ;; esac
  day="$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y%m%d)"
  if [[ "$desc" =~ ^(.*)-([0-9]+)-g([0-9a-f]+)$ ]]; then      # TAG-N-gSHA
    version="${BASH_REMATCH[1]#v}+git${BASH_REMATCH[2]}.g${BASH_REMATCH[3]}"
  elif [[ "$desc" =~ ^[0-9a-f]{7,}$ ]]; then                   # no tag: the commit only
    version="0.0~git${day}.${desc}"
  else                                                         # exactly on a tag
    version="${desc#v}"
  fi
  version="$(printf '%s' "$version" | tr '_' '.' | tr -c 'A-Za-z0-9.+~\n' '.')"
  [[ "$version" =~ ^[0-9] ]] || version="0.0~${version}"
  if [ -n "$dirty" ]; then
    case "$version" in *+*) version="${version}.dirty" ;; *) version="${version}+dirty" ;; esac
  fi
  version="${version}-1"   # the Debian revision: this is not a native Debian package
fi
dpkg --validate-version "$version" 2>/dev/null || die "not a valid Debian version: '$version'"
log "version $version, architecture $arch"

# The man page tool: swift-argument-parser's generate-manual, the tool its plugin runs. The plugin
# (`swift package plugin generate-manual`) first builds every product of the package in release mode,
# dynamically linked; here the same tool runs on the binary being packaged instead. Prints its path.
# A fresh clone has no $TOOLS_SCRATCH yet: find's failure there is "not built", not an error.
manual_tool() {
  local tool
  tool="$( (find "$TOOLS_SCRATCH" -type f -perm -u+x -name 'generate-manual-tool' 2>/dev/null || true) | head -n 1)"
  if [ -z "$tool" ]; then
    log "building swift-argument-parser's generate-manual tool (swift package plugin generate-manual --help)"
    swift package --scratch-path "$TOOLS_SCRATCH" plugin generate-manual --help >/dev/null
    tool="$(find "$TOOLS_SCRATCH" -type f -perm -u+x -name 'generate-manual-tool' | head -n 1)"
    [ -n "$tool" ] || die "generate-manual tool not found under $TOOLS_SCRATCH"
  fi
  printf '%s\n' "$tool"
}

# --- The binary. ---------------------------------------------------------------------------------
# Linked by the toolchain's lld with packed relative relocations (DT_RELR, `-z pack-relative-relocs`):
# the static Swift runtime and Foundation's metadata need 130,000-odd relative relocations, 24 bytes
# each as RELA, a few bytes as RELR (3.2 MiB less; glibc 2.36, Debian 12's, applies them; dpkg-shlibdeps
# then asks for it). The default linker, gold, has no such option. A toolset changes only the link:
# the compiled modules are reused. See README.md (Size).
if [ -z "$binary" ]; then
  jobs=(); [ -z "${JOBS:-}" ] || jobs=(-j "$JOBS")
  lld="$(dirname "$(readlink -f "$(command -v swiftc)")")/ld.lld"
  [ -x "$lld" ] || die "no ld.lld beside swiftc ($lld): the Swift toolchain for Linux ships it"
  mkdir -p "$SCRATCH"; toolset="$SCRATCH/clickwheel-toolset.json"   # a fixed path: the same build each run
  printf '{ "schemaVersion": "1.0", "linker": { "path": "%s", "extraCLIOptions": ["-z", "pack-relative-relocs"] } }\n' \
    "$lld" > "$toolset"
  build=(swift build -c release --static-swift-stdlib --product clickwheel --scratch-path "$SCRATCH" --toolset "$toolset")
  log "${build[*]} ${jobs[*]} (toolset: $lld -z pack-relative-relocs)"
  "${build[@]}" "${jobs[@]}" >&2
  binary="$("${build[@]}" --show-bin-path)/clickwheel"
  readelf -d "$binary" | grep -q '(RELR)' || die "the binary has no DT_RELR: the toolset's linker options were not applied"
fi
[ -x "$binary" ] || die "no executable at $binary"
if [ "$build_only" = 1 ]; then
  manual_tool >/dev/null
  printf '%s\n' "$binary"
  exit 0
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/clickwheel-deb.XXXXXX")"
trap 'rm -rf "$work"' EXIT
root="$work/root"
mkdir -p "$root/DEBIAN"

install -D -m 0755 "$binary" "$root/usr/bin/clickwheel"
strip --remove-section=.comment --remove-section=.note "$root/usr/bin/clickwheel"
bin="$root/usr/bin/clickwheel"

# No Swift runtime may be left to load from the system.
needed="$(ldd "$bin" | awk '{print $1}' | sed 's|.*/||' | sort -u)"
direct="$(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')"
log "after the static link, the binary needs (NEEDED): $direct"
log "ldd: $(printf '%s\n' "$needed" | grep -c .) libraries in all"
swift_left="$(printf '%s\n' "$needed" | grep -E '^(libswift|libFoundation|lib_Foundation|libdispatch|libBlocksRuntime|libicu(data|i18n|uc)swift)' || true)"
[ -z "$swift_left" ] || die "Swift libraries still dynamically linked: $swift_left"
! ldd "$bin" | grep -q 'not found' || die "ldd: libraries not found on this machine"
"$bin" --version >/dev/null || die "the stripped binary does not run"

# --- Man pages: swift-argument-parser's generate-manual (the tool its plugin runs). -------------
tool="$(manual_tool)"
man_date="$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%d)"
mkdir -p "$work/man"
"$tool" "$bin" --multi-page --date "$man_date" --section 1 -o "$work/man" >&2
mkdir -p "$root/usr/share/man/man1"
# clickwheel.run.1 → clickwheel-run.1 (`man clickwheel-run`, as git-commit), named so in NAME (whatis)
# while SYNOPSIS keeps the command as typed; the built-in `help` subcommand's page is left out.
rm -f "$work/man/clickwheel.help.1"
for page in "$work/man"/*.1; do
  dashed="$(basename "$page" .1 | tr . -)"
  awk -v dashed="$dashed" -v spaced="${dashed//-/ }" '
    /^\.Dt / { $0 = ".Dt " toupper(dashed) " 1" }
    /^\.Nm "/ && !named { $0 = ".Nm " dashed; named = 1 }
    /^\.Nm$/ && spaced != dashed { $0 = ".Nm \"" spaced "\"" }
    /^\.Xr clickwheel\.help / { next }
    /^\.Xr clickwheel\./ { n = $2; gsub(/\./, "-", n); $2 = n }
    { lines[++count] = $0 }
    END {
      for (i = 1; i <= count; i++) {
        l = lines[i]
        if (l ~ /^\.Xr / && lines[i + 1] !~ /^\.Xr /) sub(/ ,$/, "", l)   # the last SEE ALSO entry
        print l
      }
    }' "$page" | gzip -9n > "$root/usr/share/man/man1/$dashed.1.gz"
done

# --- Shell completions. ---------------------------------------------------------------------------
"$bin" --generate-completion-script bash | sed '1{/^#!/d}' | install -D -m 0644 /dev/stdin "$root/usr/share/bash-completion/completions/clickwheel"
"$bin" --generate-completion-script zsh | install -D -m 0644 /dev/stdin "$root/usr/share/zsh/vendor-completions/_clickwheel"
"$bin" --generate-completion-script fish | install -D -m 0644 /dev/stdin "$root/usr/share/fish/vendor_completions.d/clickwheel.fish"

# --- The unit (contrib/systemd's, for /usr/bin), the udev rule, the configuration. ---------------
unit_src=contrib/systemd/clickwheel.service
mkdir -p "$root/lib/systemd/system"
{
  echo "# Installed by the clickwheel Debian package (contrib/package/build-deb.sh from $unit_src)."
  echo "# The user's groups (audio, input, i2c, gpio where they exist) are set by the package's postinst."
  sed -e 's|/usr/local/bin/clickwheel|/usr/bin/clickwheel|g' \
      -e 's|^Description=.*|&\nDocumentation=man:clickwheel(1) man:clickwheel-run(1)|' \
      -e '/^SupplementaryGroups=/d' \
      -e 's|(install.sh makes the folder|(the package makes the folder|' \
      -e 's|^# Installed by contrib/install.sh as .*|# Installed by the package as /lib/systemd/system/clickwheel.service; settings live in|' \
      "$unit_src"
} > "$root/lib/systemd/system/clickwheel.service"
grep -qx 'ExecStart=/usr/bin/clickwheel run' "$root/lib/systemd/system/clickwheel.service" ||
  die "$unit_src changed: its ExecStart is no longer /usr/local/bin/clickwheel run"
! grep -q '/usr/local' "$root/lib/systemd/system/clickwheel.service" || die "the unit still names /usr/local"
# SupplementaryGroups= is dropped: a group missing on the machine (i2c, gpio off a Pi) would stop the
# unit from starting; systemd gives User= all its groups from /etc/group anyway.

rules="$(find contrib/raspberrypi contrib/systemd -maxdepth 1 -name '*.rules' | sort | head -n 1)"
[ -n "$rules" ] || die "no udev rules in contrib/raspberrypi or contrib/systemd"
install -D -m 0644 "$rules" "$root/lib/udev/rules.d/$(basename "$rules")"
install -D -m 0644 contrib/clickwheel.example.yaml "$root/etc/clickwheel/clickwheel.yaml"
echo /etc/clickwheel/clickwheel.yaml > "$root/DEBIAN/conffiles"

# --- Documentation: copyright, changelog. --------------------------------------------------------
doc="$root/usr/share/doc/clickwheel"
install -D -m 0644 "$here/copyright" "$doc/copyright"
maint_name="${DEBFULLNAME:-$(git config user.name || echo 'ClickWheel maintainers')}"
maint_mail="${DEBEMAIL:-$(git config user.email || echo 'clickwheel@example.org')}"
maintainer="$maint_name <$maint_mail>"
{
  echo "clickwheel ($version) unstable; urgency=medium"
  echo
  echo "  * Built by contrib/package/build-deb.sh from commit $commit."
  echo
  echo " -- $maintainer  $(date -u -R -d "@$SOURCE_DATE_EPOCH")"
} | gzip -9n > "$doc/changelog.Debian.gz"
install -D -m 0644 "$here/lintian-overrides" "$root/usr/share/lintian/overrides/clickwheel"

# --- Maintainer scripts. -------------------------------------------------------------------------
for s in postinst prerm postrm; do install -m 0755 "$here/$s" "$root/DEBIAN/$s"; done

# --- Depends: dpkg-shlibdeps on the binary, the standard way (a debian/control beside it). ------
mkdir -p "$work/src/debian"
cat > "$work/src/debian/control" <<EOF
Source: clickwheel

Package: clickwheel
Architecture: $arch
EOF
# FFmpeg's libraries are opened with dlopen on the first MP4 track (Sources/CFFmpeg/loader.c), so the binary
# does not name them: the same file built as a program linked to every symbol it resolves names them.
ffmpeg_stub="$work/src/debian/clickwheel/ffmpeg-symbols"
mkdir -p "$(dirname "$ffmpeg_stub")"
cc="${CC:-$(command -v cc || command -v clang || echo cc)}"
"$cc" -DCW_FFMPEG_LINK_STUB -I"$here/../../Sources/CFFmpeg/include" "$here/../../Sources/CFFmpeg/loader.c" \
  -o "$ffmpeg_stub" -lavformat -lavcodec -lavutil || die "cannot build the FFmpeg symbol stub (needs cc and FFmpeg's -dev packages)"
shlibs="$(cd "$work/src" && dpkg-shlibdeps -O -e"$bin" -e"$ffmpeg_stub" 2>"$work/shlibdeps.err" | sed -n 's/^shlibs:Depends=//p')" ||
  { cat "$work/shlibdeps.err" >&2; die "dpkg-shlibdeps failed"; }
grep -v '^$' "$work/shlibdeps.err" | sed 's/^/[build-deb] dpkg-shlibdeps: /' >&2 || true
[ -n "$shlibs" ] || die "dpkg-shlibdeps found no dependencies"
# Packed relative relocations need glibc 2.36's loader: the binary asks for GLIBC_ABI_DT_RELR, a version
# without symbols, which libc6's symbols file does not map; the bound is raised here.
if readelf -V "$bin" | grep -q GLIBC_ABI_DT_RELR; then
  shlibs="$(printf '%s' "$shlibs" | sed -E 's/libc6 \(>= [^)]*\)/libc6 (>= 2.36)/')"
  printf '%s' "$shlibs" | grep -q 'libc6 (>= 2.36)' || shlibs="libc6 (>= 2.36), $shlibs"
fi
log "Depends from dpkg-shlibdeps: $shlibs"

installed_kb="$(du -s -k --apparent-size --exclude=DEBIAN "$root" | cut -f1)"
cat > "$root/DEBIAN/control" <<EOF
Package: clickwheel
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $installed_kb
Depends: $shlibs, adduser
Recommends: pulseaudio | pipewire-pulse, lcdproc
Suggests: snapserver, mpc
Section: sound
Priority: optional
Description: music player service for a click wheel and a character LCD
 ClickWheel turns a Raspberry Pi into an iPod classic: it indexes a music
 folder into a SQLite library, is driven by a rotary encoder or touch ring
 and buttons, shows its menus on a character LCD (HD44780 over I2C, or
 LCDproc), plays through PulseAudio or PipeWire (and Snapcast) and answers
 MPD clients on its control socket.
 .
 This package runs it as a systemd service under its own user, with the
 udev rule for the wheel and buttons and the configuration in
 /etc/clickwheel/clickwheel.yaml. The Swift runtime is linked in: no Swift
 toolchain is needed.
EOF

(cd "$root" && find . -path ./DEBIAN -prune -o -type f -printf '%P\n' | LC_ALL=C sort | xargs -d '\n' md5sum) > "$root/DEBIAN/md5sums"

# Reproducible file dates and modes.
find "$root" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
find "$root" -type d -exec chmod 0755 {} +
chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/conffiles" "$root/DEBIAN/md5sums"

mkdir -p "$out"
deb="$(cd "$out" && pwd)/clickwheel_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >&2
log "$(du -h "$deb" | cut -f1) $deb, installed size $((installed_kb / 1024)) MiB"
echo "$deb"
