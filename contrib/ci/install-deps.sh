#!/usr/bin/env bash
# Installs the Debian 12 / Raspberry Pi OS packages ClickWheel builds, runs and tests against.
# Idempotent: when everything is present it only checks, in about a second.
#   --runtime   only what building and running needs (no test servers and tools; lame for --demo)
# Env: SKIP_APT_UPDATE=1 (package lists known to be fresh), WITH_PIPEWIRE=1 (PipeWire's pulse server too).
set -euo pipefail
log() { printf '[install-deps] %s\n' "$*" >&2; }
die() { printf '[install-deps] ERROR: %s\n' "$*" >&2; exit 1; }

runtime_only=0
[ "${1:-}" = "--runtime" ] && runtime_only=1

# The decoders: libmpg123 (MP3), libFLAC, libvorbisfile, libopusfile, FFmpeg's libavformat + libavcodec (AAC, ALAC).
PKGS=(pkg-config libmpg123-dev libpulse-dev libsqlite3-dev libevdev-dev libsonic-dev lame
      libflac-dev libvorbis-dev libopusfile-dev libavcodec-dev libavformat-dev libavutil-dev)
if [ "$runtime_only" = 0 ]; then
  PKGS+=(pulseaudio pulseaudio-utils lcdproc umockdev evemu-tools mpg123 sox mpc mpd
         python3-mutagen python3-mpd tmux ffmpeg flac opus-tools vorbis-tools time mpdscribble espeak-ng
         snapserver snapclient libasound2-plugins python3-dbus python3-gi python3-musicbrainzngs
         chromium chromium-driver python3-selenium  # the web remote's browser test (contrib/ci/web-tests.sh)
         debootstrap lintian dpkg-dev systemd-container)  # the Debian package's test (contrib/ci/package-test.sh)
fi
[ "${WITH_PIPEWIRE:-0}" = 1 ] && PKGS+=(pipewire pipewire-pulse wireplumber dbus-daemon)

missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || die "need root (or sudo) to install: ${missing[*]}"
    SUDO=sudo
  fi
  log "installing: ${missing[*]}"
  # Installing mpd, pulseaudio and lcdproc would start system daemons; the tests run private ones.
  POLICY=/usr/sbin/policy-rc.d
  made_policy=0
  if [ ! -e "$POLICY" ]; then
    printf '#!/bin/sh\nexit 101\n' | $SUDO tee "$POLICY" >/dev/null
    $SUDO chmod 755 "$POLICY"
    made_policy=1
  fi
  cleanup() { [ "$made_policy" = 1 ] && $SUDO rm -f "$POLICY"; return 0; }
  trap cleanup EXIT
  export DEBIAN_FRONTEND=noninteractive
  APT=(-y -q -o Dpkg::Use-Pty=0 -o Acquire::Retries=3 -o DPkg::Lock::Timeout=600)
  [ "${SKIP_APT_UPDATE:-0}" = 1 ] || $SUDO apt-get "${APT[@]}" update >/dev/null || die "apt-get update failed"
  if ! $SUDO apt-get "${APT[@]}" install --no-install-recommends "${missing[@]}" >/dev/null; then
    log "apt-get install failed once; repairing and retrying"
    $SUDO dpkg --configure -a || true
    $SUDO apt-get "${APT[@]}" install --no-install-recommends "${missing[@]}" >/dev/null || die "apt-get install failed"
  fi
fi

if [ "$runtime_only" = 0 ] && ! python3 -c 'import mutagen, mpd' 2>/dev/null; then
  # python3 on PATH may not be Debian's (pyenv, venv): give it the same modules.
  log "python3 on PATH lacks mutagen/python-mpd2: installing them with pip"
  python3 -m pip install -q --disable-pip-version-check mutagen python-mpd2 || die "pip install failed"
fi
log "ok: libmpg123 $(pkg-config --modversion libmpg123), libpulse $(pkg-config --modversion libpulse), libevdev $(pkg-config --modversion libevdev), sqlite $(pkg-config --modversion sqlite3)"
