#!/usr/bin/env bash
# Installs ClickWheel as a service on this machine (a Raspberry Pi, or any Debian 12 with systemd):
# builds the release binary, installs it to /usr/local/bin, the udev rule, the example configuration
# (only when /etc/clickwheel/clickwheel.yaml does not exist yet), and a systemd unit, enabled and
# (re)started. Idempotent: run it again after a `git pull` to update.
#
# Usage: sudo contrib/install.sh [--user] [--dry-run] [--no-build]
#   (default)   system unit: user `clickwheel` (groups input, audio, i2c), /var/lib/clickwheel,
#               /run/clickwheel/socket. For an appliance whose audio server it can reach.
#   --user      user unit instead, for the user who runs sudo (SUDO_USER): runs in that user's session
#               and so reaches its PipeWire/PulseAudio server; lingering enabled so it starts at boot.
#   --dry-run   print what would be done, change nothing (no root needed)
#   --no-build  use the binary already built in .build/release
# Which unit to choose: contrib/raspberrypi/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=system dry=0 build=1
for arg in "$@"; do
  case "$arg" in
    --user) mode=user ;;
    --dry-run) dry=1 ;;
    --no-build) build=0 ;;
    -h | --help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install.sh: unknown option '$arg' (see --help)" >&2; exit 64 ;;
  esac
done

log() { printf '[install] %s\n' "$*" >&2; }
die() { printf '[install] ERROR: %s\n' "$*" >&2; exit 1; }
# Runs a command, or with --dry-run prints it (as `+ command`, shell-quoted) on stdout.
run() {
  if [ "$dry" = 1 ]; then
    printf '+'; printf ' %q' "$@"; printf '\n'
  else
    "$@"
  fi
}
# Says what is already in place (nothing to do), on stdout in a dry run.
keep() { if [ "$dry" = 1 ]; then printf '= %s\n' "$*"; else log "$*"; fi; }

[ "$dry" = 1 ] || [ "$(id -u)" -eq 0 ] || die "run as root: sudo $0 $*"

BIN=/usr/local/bin/clickwheel
CONFIG=/etc/clickwheel/clickwheel.yaml
RULE=/etc/udev/rules.d/71-clickwheel.rules
SERVICE_GROUPS=(input audio i2c)
if [ "$mode" = system ]; then
  UNIT_SRC=contrib/systemd/clickwheel.service
  UNIT=/etc/systemd/system/clickwheel.service
  account=clickwheel
else
  UNIT_SRC=contrib/systemd/clickwheel-user.service
  UNIT=/etc/systemd/user/clickwheel.service
  account="${SUDO_USER:-}"
  if [ -z "$account" ] || [ "$account" = root ]; then
    [ "$dry" = 1 ] && account="${USER:-$(id -un)}" || die "--user: run with sudo from the user who will run ClickWheel"
  fi
fi

# 1. The packages and the binary.
run bash contrib/ci/install-deps.sh --runtime
if [ "$build" = 1 ]; then
  if [ -n "${SUDO_USER:-}" ] && [ "$SUDO_USER" != root ]; then
    # Build as the user who owns the checkout (and whose PATH finds swift), not as root.
    run sudo -u "$SUDO_USER" env "PATH=$PATH" swift build -c release --product clickwheel
  else
    run swift build -c release --product clickwheel
  fi
fi
[ "$dry" = 1 ] || [ -x .build/release/clickwheel ] || die "no .build/release/clickwheel: build it first"
run install -D -m 0755 .build/release/clickwheel "$BIN.new"
run mv -f "$BIN.new" "$BIN"

# 2. Groups and the service user.
for g in "${SERVICE_GROUPS[@]}"; do
  if getent group "$g" >/dev/null; then keep "group $g exists"; else run groupadd --system "$g"; fi
done
if [ "$mode" = system ]; then
  if getent passwd clickwheel >/dev/null; then
    keep "user clickwheel exists"
  else
    run useradd --system --user-group --home-dir /var/lib/clickwheel --no-create-home \
      --shell /usr/sbin/nologin --comment "ClickWheel music player" clickwheel
  fi
fi
missing=()
for g in "${SERVICE_GROUPS[@]}"; do
  id -nG "$account" 2>/dev/null | tr ' ' '\n' | grep -qx "$g" || missing+=("$g")
done
if [ ${#missing[@]} -gt 0 ]; then
  run usermod -aG "$(IFS=,; echo "${missing[*]}")" "$account"
else
  keep "user $account is in groups ${SERVICE_GROUPS[*]}"
fi

# 3. The udev rule and the configuration (an existing configuration is never overwritten).
run install -D -m 0644 contrib/raspberrypi/71-clickwheel.rules "$RULE"
if command -v udevadm >/dev/null && [ -d /run/udev ]; then
  run udevadm control --reload
  run udevadm trigger --subsystem-match=input --subsystem-match=i2c-dev
fi
if [ -e "$CONFIG" ]; then
  keep "$CONFIG exists: kept"
else
  run install -D -m 0644 contrib/clickwheel.example.yaml "$CONFIG"
fi
# Settings → Wheel saves into the configuration from the running service: the folder and the file
# belong to the service's group and are group-writable (the file is replaced by a rename, which needs
# the folder; setgid keeps the group on the new file).
cfg_dir="$(dirname "$CONFIG")"
cfg_group="$(id -gn "$account" 2>/dev/null || echo "$account")"
if [ "$(stat -c '%G %a' "$cfg_dir" 2>/dev/null)" = "$cfg_group 2775" ] &&
   [ "$(stat -c '%G' "$CONFIG" 2>/dev/null)" = "$cfg_group" ] && [ -w "$CONFIG" ]; then
  keep "$cfg_dir is writable by group $cfg_group"
else
  run chgrp "$cfg_group" "$cfg_dir" "$CONFIG"
  run chmod 2775 "$cfg_dir"
  run chmod g+rw "$CONFIG"
fi

# 4. The unit: installed, enabled, (re)started.
run install -D -m 0644 "$UNIT_SRC" "$UNIT"
if [ ! -d /run/systemd/system ] && [ "$dry" = 0 ]; then
  log "systemd is not running here: the unit is installed at $UNIT but not enabled"
elif [ "$mode" = system ]; then
  run systemctl daemon-reload
  run systemctl enable clickwheel.service
  run systemctl restart clickwheel.service
else
  run systemctl --global enable clickwheel.service
  run loginctl enable-linger "$account"
  run systemctl --user --machine="$account@" daemon-reload
  run systemctl --user --machine="$account@" restart clickwheel.service
fi

if [ "$mode" = system ]; then
  log "done: edit $CONFIG (music:, display:), then: sudo systemctl restart clickwheel; journalctl -u clickwheel -f"
else
  log "done: edit $CONFIG (music:, display:), then: systemctl --user restart clickwheel; journalctl --user -u clickwheel -f"
fi
[ ${#missing[@]} -eq 0 ] || log "group changes for $account take effect at its next login (or reboot)"
