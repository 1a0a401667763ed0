#!/usr/bin/env bash
# package-test.sh - the Debian package in a clean Debian 12 root without Swift: builds the .deb
# (contrib/package/build-deb.sh), runs lintian (0 errors), makes (or reuses) a `debootstrap
# --variant=minbase bookworm` root cached outside the repository, and in a fresh copy of it checks:
#   1. `apt-get install ./clickwheel_….deb` resolves every dependency from Debian's archive
#   2. no Swift in the root (no toolchain, no libswift*/Foundation/dispatch), ldd: nothing missing
#   3. `clickwheel --version` runs; the user, groups, state folder, unit, udev rule, man pages,
#      completions and conffile are in place; the unit is enabled, not started (no systemd here)
#   4. `clickwheel index` indexes a small tagged folder (made here with sox and lame)
#   5. the service (as user clickwheel, null output) answers `mpc status` on its socket
#   6. an upgrade to a second build (another version, the same binary) keeps the database, a
#      sticker, and an edited configuration
#   7. `apt-get remove` keeps the data and the user; `apt-get purge` leaves nothing of the package
#   8. the systemd path: a second cached root with systemd, booted with `systemd-nspawn
#      -b`; `apt-get install` there enables and starts the unit, which answers `mpc status` on
#      /run/clickwheel/socket; an upgrade restarts it; `remove` stops it; `purge` removes its state
# Prints the time taken (cold: the root was made by this run; cached: reused).
#
# Usage: contrib/ci/package-test.sh        (as root: debootstrap, chroot, mount)
# Env: CLICKWHEEL_DEBOOTSTRAP_CACHE (default /var/cache/clickwheel-debootstrap; remove it for a cold run),
#      DEBIAN_MIRROR (default: the Debian mirror in /etc/apt/sources.list*), KEEP=1 (keep the work dir),
#      CLICKWHEEL_BINARY (package this static binary instead of building one),
#      SYSTEMD_TEST (0 skips step 8, which needs systemd-nspawn from systemd-container; default 1).
set -euo pipefail
cd "$(dirname "$0")/../.."
repo="$PWD"
t_start=$(date +%s)

log() { printf '[package-test] %s\n' "$*" >&2; }
die() { printf '[package-test] FAIL: %s\n' "$*" >&2; exit 1; }
pass() { printf '[package-test] ok (%3d s): %s\n' "$(( $(date +%s) - t_start ))" "$*" >&2; }
trap 'printf "[package-test] FAIL: line %s: %s\n" "$LINENO" "$BASH_COMMAND" >&2' ERR

[ "$(id -u)" -eq 0 ] || die "run as root (debootstrap, chroot, mount)"
SKIP_APT_UPDATE="${SKIP_APT_UPDATE:-1}" bash contrib/ci/install-deps.sh
for t in debootstrap lintian dpkg-shlibdeps mpc sox lame nsenter; do command -v "$t" >/dev/null || die "$t missing"; done

CACHE="${CLICKWHEEL_DEBOOTSTRAP_CACHE:-/var/cache/clickwheel-debootstrap}"
pristine="$CACHE/bookworm-minbase"
work="$(mktemp -d /var/tmp/cw-pkgtest.XXXXXX)"   # short: the socket path inside the root must fit 108 bytes
root="$work/root"
sdroot="$work/sdroot"
svc_pid="" nspawn_pid=""

cleanup() {
  [ -z "$svc_pid" ] || kill "$svc_pid" 2>/dev/null || true
  if [ -n "$nspawn_pid" ] && kill -0 "$nspawn_pid" 2>/dev/null; then
    kill -TERM "$nspawn_pid" 2>/dev/null || true   # nspawn asks the container's systemd to shut down
    for _ in $(seq 1 100); do kill -0 "$nspawn_pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$nspawn_pid" 2>/dev/null || true
  fi
  for m in "$root/proc" "$root/sys" "$root" "$sdroot"; do mountpoint -q "$m" 2>/dev/null && umount -l "$m"; done
  if [ "${KEEP:-0}" = 1 ]; then
    log "kept $work"
  elif [ -z "$(findmnt -rn -o TARGET | grep -F "$work/" || true)" ]; then
    rm -rf "$work"
  else
    log "something is still mounted under $work: not removed"
  fi
}
trap cleanup EXIT

# --- The packages: the build, and a second one (same binary, higher version) for the upgrade. -----
if [ -n "${CLICKWHEEL_BINARY:-}" ]; then
  bin="$CLICKWHEEL_BINARY"
  deb1="$(bash contrib/package/build-deb.sh --binary "$bin" --out "$work/debs" | tail -n 1)"
else
  deb1="$(bash contrib/package/build-deb.sh --out "$work/debs" | tail -n 1)"
  bin="$(swift build -c release --static-swift-stdlib --product clickwheel --scratch-path .build-package --show-bin-path)/clickwheel"
fi
v1="$(dpkg-deb -f "$deb1" Version)"
v2="${v1}.1"
deb2="$(bash contrib/package/build-deb.sh --binary "$bin" --version "$v2" --out "$work/debs" | tail -n 1)"
dpkg --compare-versions "$v2" gt "$v1" || die "$v2 is not newer than $v1"
pass "built $(basename "$deb1") and $(basename "$deb2")"

log "lintian $(basename "$deb1"):"
lintian_out="$(lintian --fail-on none --display-info "$deb1" 2>&1 || true)"
printf '%s\n' "$lintian_out" | sed 's/^/[package-test]   /' >&2
! printf '%s\n' "$lintian_out" | grep -q '^E: ' || die "lintian reports errors"
pass "lintian: 0 errors ($(printf '%s\n' "$lintian_out" | grep -c '^W: ' || true) warnings)"

# --- The Debian 12 root, made once and copied for each run. ---------------------------------------
# The host's apt sources (deb822 and one-line), for Debian's mirror and its security archive.
apt_uris() {
  cat /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '$1 == "URIs:" { for (i = 2; i <= NF; i++) print $i }'
  cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | awk '$1 == "deb" { print ($2 ~ /^\[/ ? $3 : $2) }'
}
mirror="${DEBIAN_MIRROR:-$(apt_uris | grep -E '/debian/?$' | head -n 1 || true)}"
mirror="${mirror:-http://deb.debian.org/debian}"
security="$(apt_uris | grep -E '/debian-security/?$' | head -n 1 || true)"
# make_root DIR [debootstrap options]: a bookworm minbase root in DIR with the Debian sources, unless one is there.
make_root() {
  local dir="$1"; shift
  [ ! -x "$dir/usr/bin/apt-get" ] || return 0
  cold=cold
  log "debootstrap --variant=minbase $* bookworm $dir $mirror"
  rm -rf "$dir.new"; mkdir -p "$CACHE"
  local t0; t0=$(date +%s)
  debootstrap --variant=minbase "$@" bookworm "$dir.new" "$mirror" > "$work/debootstrap.log" 2>&1 ||
    { tail -n 20 "$work/debootstrap.log" >&2; die "debootstrap failed"; }
  {
    echo "deb $mirror bookworm main"
    echo "deb $mirror bookworm-updates main"
    [ -z "$security" ] || echo "deb $security bookworm-security main"
  } > "$dir.new/etc/apt/sources.list"
  rm -f "$dir.new/var/cache/apt/archives/"*.deb
  rm -rf "$dir"; mv "$dir.new" "$dir"
  log "root made in $(( $(date +%s) - t0 )) s, $(du -sh "$dir" | cut -f1)"
}
cold=cached
make_root "$pristine"
# The copy goes to a tmpfs where memory allows: removing the installed root from disk takes longer
# than the whole test (about 90 s here); unmounting the tmpfs takes none. KEEP=1: on disk.
mkdir -p "$root"
if [ "${KEEP:-0}" != 1 ] && [ "$(awk '$1 == "MemAvailable:" { print int($2 / 1024) }' /proc/meminfo)" -gt 4096 ]; then
  mount -t tmpfs -o size=3g,mode=0755 cw-pkgtest "$root"
fi
cp -a "$pristine/." "$root/"
cp /etc/resolv.conf "$root/etc/resolv.conf"
printf '#!/bin/sh\nexit 101\n' > "$root/usr/sbin/policy-rc.d"; chmod 755 "$root/usr/sbin/policy-rc.d"
mount -t proc proc "$root/proc"
mount -t sysfs -o ro sysfs "$root/sys"
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }
APT=(-y -q -o Dpkg::Use-Pty=0 -o Acquire::Retries=3)
in_root apt-get "${APT[@]}" update > "$work/apt-update.log" 2>&1 || { cat "$work/apt-update.log" >&2; die "apt-get update in the root failed"; }

# --- 1. Install. ----------------------------------------------------------------------------------
# A Pi has groups i2c and gpio (Raspberry Pi OS makes them): here too, so postinst's group step is seen.
for g in i2c gpio; do in_root getent group "$g" >/dev/null || in_root groupadd --system "$g"; done
in_root dpkg-query -W -f '${Package}\n' | sort > "$work/before.txt"
cp "$deb1" "$deb2" "$root/tmp/"
in_root apt-get "${APT[@]}" install "/tmp/$(basename "$deb1")" > "$work/install.log" 2>&1 ||
  { tail -n 30 "$work/install.log" >&2; die "apt-get install ./$(basename "$deb1") failed"; }
in_root dpkg-query -W -f '${Package}\n' | sort > "$work/after.txt"
added="$(comm -13 "$work/before.txt" "$work/after.txt" | grep -vx clickwheel || true)"
origins=(-e "$mirror"); [ -z "$security" ] || origins+=(-e "$security")
# Each new package's installed version must come from the root's Debian sources (not /var/lib/dpkg/status only).
foreign="$(for p in $added; do in_root apt-cache policy "$p" | awk '/^ \*\*\* /{f=1; next} f && /^        [0-9]/{print; next} f{exit}' | grep -qF "${origins[@]}" || echo "$p"; done)"
[ -z "$foreign" ] || die "not from Debian's archive: $foreign"
[ "$(in_root dpkg-query -W -f '${db:Status-Abbrev}' clickwheel)" = "ii " ] || die "clickwheel is not installed"
pass "installed $v1 with $(printf '%s\n' "$added" | grep -c . || true) dependencies, all from $mirror${security:+ and $security}"

# --- 2. No Swift. ---------------------------------------------------------------------------------
swift_files="$(find "$root" -xdev \( -name 'libswift*' -o -name 'libFoundation*' -o -name 'lib_Foundation*' \
  -o -name 'libdispatch*' -o -name 'libBlocksRuntime*' -o -name 'swift' -o -name 'swiftc' \) -print | head)"
[ -z "$swift_files" ] || die "Swift in the root: $swift_files"
! in_root sh -c 'command -v swift' >/dev/null || die "swift is on the root's PATH"
in_root ldd /usr/bin/clickwheel > "$work/ldd.txt"
! grep -q 'not found' "$work/ldd.txt" || die "missing libraries: $(grep 'not found' "$work/ldd.txt")"
! grep -qiE 'swift|Foundation|dispatch|BlocksRuntime' "$work/ldd.txt" || die "Swift libraries in ldd"
pass "no Swift in the root; ldd: $(wc -l < "$work/ldd.txt") libraries, 0 missing"

# --- 3. The binary and what the package put in place. ---------------------------------------------
version_out="$(in_root clickwheel --version)" || die "clickwheel --version failed"
pass "clickwheel --version: $version_out"
in_root getent passwd clickwheel > /dev/null || die "no user clickwheel"
groups="$(in_root id -nG clickwheel)"
for g in audio input i2c gpio; do
  printf '%s\n' $groups | grep -qx "$g" || die "clickwheel is not in group $g"
done
[ "$(in_root stat -c "%U:%G %a" /var/lib/clickwheel)" = "clickwheel:clickwheel 750" ] || die "/var/lib/clickwheel: $(in_root stat -c "%U:%G %a" /var/lib/clickwheel)"
[ "$(in_root stat -c "%G %a" /etc/clickwheel)" = "clickwheel 2775" ] || die "/etc/clickwheel: $(in_root stat -c "%G %a" /etc/clickwheel)"
grep -qx /etc/clickwheel/clickwheel.yaml "$root/var/lib/dpkg/info/clickwheel.conffiles" || die "the configuration is not a conffile"
for f in lib/systemd/system/clickwheel.service lib/udev/rules.d/71-clickwheel.rules usr/share/man/man1/clickwheel.1.gz \
  usr/share/man/man1/clickwheel-run.1.gz usr/share/man/man1/clickwheel-index.1.gz usr/share/bash-completion/completions/clickwheel \
  usr/share/zsh/vendor-completions/_clickwheel usr/share/fish/vendor_completions.d/clickwheel.fish usr/share/doc/clickwheel/copyright; do
  [ -s "$root/$f" ] || die "missing /$f"
done
[ -L "$root/etc/systemd/system/multi-user.target.wants/clickwheel.service" ] || die "the unit is not enabled"
man -l "$root/usr/share/man/man1/clickwheel-index.1.gz" 2>/dev/null | grep -q -- '--music' || die "man clickwheel-index lacks --music"
pass "user clickwheel (groups: $groups), /var/lib/clickwheel, conffile, unit enabled (not started: no systemd), udev rule, $(ls "$root/usr/share/man/man1" | grep -c clickwheel) man pages, 3 completions"

# --- 4. Index a small tagged folder. -------------------------------------------------------------
music="$root/srv/music/Test Artist/Test Album"
mkdir -p "$music"
for n in 1 2 3; do
  sox -q -n -r 44100 -c 2 "$work/t$n.wav" synth 2 sine $((220 * n)) vol 0.3
  lame --quiet -b 128 --tt "Track $n" --ta "Test Artist" --tl "Test Album" --tn "$n/3" --ty 2026 --tg Rock \
    "$work/t$n.wav" "$music/0$n Track $n.mp3"
done
chmod -R a+rX "$root/srv/music"
cw_uid="$(in_root id -u clickwheel)"; cw_gid="$(in_root id -g clickwheel)"
as_cw=(chroot --userspec="$cw_uid:$cw_gid" --groups="$(in_root id -G clickwheel | tr ' ' ,)" "$root" /usr/bin/env -i PATH=/usr/bin:/bin HOME=/var/lib/clickwheel
       XDG_DATA_HOME=/var/lib LANG=C.UTF-8)
index_json="$("${as_cw[@]}" clickwheel index --music /srv/music --json)" || die "clickwheel index failed"
printf '%s\n' "$index_json" | grep -q . || die "clickwheel index printed nothing"
db="$root/var/lib/clickwheel/library.sqlite"
[ -s "$db" ] || die "no database at /var/lib/clickwheel/library.sqlite"
pass "clickwheel index: $index_json"

# --- 5. The service on the null output, asked with mpc through its socket. -----------------------
sock="$root/run/clickwheel/socket"
start_service() {
  install -d -o "$cw_uid" -g "$cw_gid" -m 0750 "$root/run/clickwheel"
  "${as_cw[@]}" clickwheel run --output null --display none --input none --music /srv/music > "$work/service.log" 2>&1 &
  svc_pid=$!
  for _ in $(seq 1 100); do [ -S "$sock" ] && mpc -q -h "$sock" status >/dev/null 2>&1 && return 0; sleep 0.1; done
  cat "$work/service.log" >&2; die "the service did not answer on $sock"
}
stop_service() {
  kill -TERM "$svc_pid"; wait "$svc_pid" || true; svc_pid=""
  rm -rf "$root/run/clickwheel"
}
start_service
status="$(mpc -h "$sock" status)"
songs="$(mpc -h "$sock" stats | sed -n 's/^Songs: *//p')"
[ "$songs" = 3 ] || die "mpc stats: $songs songs, not 3"
uri="$(mpc -h "$sock" listall | head -n 1)"
mpc -h "$sock" sticker "$uri" set rating 8 || die "mpc sticker set failed"
mpc -h "$sock" -q add / && mpc -h "$sock" -q play && sleep 1
mpc -h "$sock" status | grep -q '^\[playing\]' || die "mpc play: not playing on the null output"
mpc -h "$sock" -q stop
stop_service
pass "service: mpc status '$(printf '%s' "$status" | tr '\n' ' ')', $songs songs, a sticker set, playing on the null output"

# --- 6. Upgrade: the database, the sticker and the edited configuration stay. ---------------------
sed -i 's/^volume: 50 /volume: 35 /' "$root/etc/clickwheel/clickwheel.yaml"
echo "# edited before the upgrade" >> "$root/etc/clickwheel/clickwheel.yaml"
db_sum="$(md5sum < "$db")"; cfg_sum="$(md5sum < "$root/etc/clickwheel/clickwheel.yaml")"
in_root apt-get "${APT[@]}" install "/tmp/$(basename "$deb2")" > "$work/upgrade.log" 2>&1 ||
  { tail -n 30 "$work/upgrade.log" >&2; die "the upgrade failed"; }
[ "$(in_root dpkg-query -W -f '${Version}' clickwheel)" = "$v2" ] || die "not upgraded to $v2"
[ "$(md5sum < "$db")" = "$db_sum" ] || die "the upgrade changed the database"
[ "$(md5sum < "$root/etc/clickwheel/clickwheel.yaml")" = "$cfg_sum" ] || die "the upgrade changed the edited configuration"
[ "$(in_root stat -c %G /etc/clickwheel/clickwheel.yaml)" = clickwheel ] || die "the configuration lost its group"
start_service
[ "$(mpc -h "$sock" sticker "$uri" get rating)" = "rating=8" ] || die "the sticker is gone after the upgrade"
[ "$(mpc -h "$sock" stats | sed -n 's/^Songs: *//p')" = 3 ] || die "songs lost in the upgrade"
stop_service
pass "upgrade $v1 → $v2: database unchanged (md5), sticker kept, edited configuration kept"

# --- 7. Remove keeps the data; purge leaves nothing. ----------------------------------------------
in_root apt-get "${APT[@]}" remove clickwheel > "$work/remove.log" 2>&1 || die "apt-get remove failed"
[ -s "$db" ] && [ -f "$root/etc/clickwheel/clickwheel.yaml" ] && in_root getent passwd clickwheel >/dev/null ||
  die "remove did not keep the database, the configuration and the user"
[ ! -e "$root/usr/bin/clickwheel" ] || die "remove left /usr/bin/clickwheel"
in_root apt-get "${APT[@]}" purge clickwheel > "$work/purge.log" 2>&1 || die "apt-get purge failed"
[ -z "$(in_root dpkg -L clickwheel 2>/dev/null || true)" ] || die "dpkg -L clickwheel still lists files"
case "$(in_root dpkg-query -W -f '${db:Status-Abbrev}' clickwheel 2>/dev/null || true)" in "" | "un " | "pn ") ;; *) die "dpkg still knows clickwheel" ;; esac
[ ! -e "$root/var/lib/clickwheel" ] || die "/var/lib/clickwheel is still there"
[ ! -e "$root/etc/clickwheel" ] || die "/etc/clickwheel is still there"
! in_root getent passwd clickwheel >/dev/null || die "the user clickwheel is still there"
! in_root getent group clickwheel >/dev/null || die "the group clickwheel is still there"
! grep -q clickwheel "$root/etc/passwd" "$root/etc/group" "$root/etc/shadow" "$root/etc/gshadow" || die "clickwheel is still in /etc/passwd, group, shadow or gshadow"
left="$(find "$root" -xdev \( -path "$root/srv/music" -o -path "$root/tmp" -o -path "$root/var/log" \) -prune -o -iname '*clickwheel*' -print)"
[ -z "$left" ] || die "left behind: $left"
while read -r path; do
  path="${path#.}"
  [ -z "$path" ] || [ -d "$root$path" ] || [ ! -e "$root$path" ] || die "left behind: $path"
done < <(dpkg-deb --fsys-tarfile "$deb1" | tar -t | sed 's|/$||')
pass "remove kept data and user; purge: dpkg -L empty, /var/lib/clickwheel, /etc/clickwheel, user and group gone, no file left"

# --- 8. The systemd path: a root with systemd, booted with systemd-nspawn. -----------------------
# postinst starts the unit only where systemd runs, prerm stops it; steps 1-7 run in a chroot, where
# neither happens. Here the package is installed with apt inside a booted container (commands enter
# it with nsenter: the host needs no systemd, machined or D-Bus; nspawn runs with --register=no
# --keep-unit for that reason), and the unit's state is read from the container's systemd.
if [ "${SYSTEMD_TEST:-1}" = 1 ]; then
  command -v systemd-nspawn >/dev/null || die "step 8 needs systemd-nspawn (package systemd-container; SYSTEMD_TEST=0 skips it)"
  t8=$(date +%s)
  for m in "$root/proc" "$root/sys" "$root"; do mountpoint -q "$m" && umount -l "$m"; done   # its memory back
  pristine_sd="$CACHE/bookworm-systemd"
  make_root "$pristine_sd" --include=systemd,systemd-sysv,dbus
  mkdir -p "$sdroot"
  if [ "${KEEP:-0}" != 1 ] && [ "$(awk '$1 == "MemAvailable:" { print int($2 / 1024) }' /proc/meminfo)" -gt 4096 ]; then
    mount -t tmpfs -o size=3g,mode=0755 cw-pkgtest-sd "$sdroot"
  fi
  cp -a "$pristine_sd/." "$sdroot/"
  cp "$deb1" "$deb2" "$sdroot/root/"   # not /tmp: the booted system mounts a tmpfs there
  systemd-nspawn -D "$sdroot" -b --register=no --keep-unit --console=passive --resolv-conf=copy-host \
    -M "cw-pkgtest-$$" > "$work/nspawn.log" 2>&1 &
  nspawn_pid=$!
  leader=""
  for _ in $(seq 1 200); do
    leader="$(pgrep -P "$nspawn_pid" -x systemd || true)"; [ -z "$leader" ] || break
    kill -0 "$nspawn_pid" 2>/dev/null || { cat "$work/nspawn.log" >&2; die "systemd-nspawn exited"; }
    sleep 0.1
  done
  [ -n "$leader" ] || { cat "$work/nspawn.log" >&2; die "no systemd in the container"; }
  in_sd() { nsenter -t "$leader" -a /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }
  for _ in $(seq 1 300); do in_sd test -S /run/systemd/private 2>/dev/null && break; sleep 0.1; done
  boot_state="$(in_sd systemctl is-system-running --wait 2>/dev/null || true)"
  [ "$boot_state" = running ] || log "the container's systemd: $boot_state ($(in_sd systemctl --failed --no-legend --plain | tr '\n' ';'))"
  in_sd test -d /run/systemd/system || die "the container does not look like a systemd system"
  pass "booted $(basename "$pristine_sd") with systemd-nspawn: $boot_state"

  in_sd apt-get "${APT[@]}" update > "$work/sd-apt-update.log" 2>&1 || { cat "$work/sd-apt-update.log" >&2; die "apt-get update in the container failed"; }
  in_sd apt-get "${APT[@]}" install "/root/$(basename "$deb1")" > "$work/sd-install.log" 2>&1 ||
    { tail -n 30 "$work/sd-install.log" >&2; die "apt-get install in the container failed"; }
  sd_sock="/proc/$leader/root/run/clickwheel/socket"   # the container's /run, from the host
  sd_wait_socket() {
    for _ in $(seq 1 100); do mpc -q -h "$sd_sock" status >/dev/null 2>&1 && return 0; sleep 0.1; done
    in_sd systemctl status --no-pager clickwheel >&2 || true
    in_sd journalctl --no-pager -n 30 -u clickwheel >&2 || true
    die "the unit does not answer on /run/clickwheel/socket"
  }
  [ "$(in_sd systemctl is-enabled clickwheel)" = enabled ] || die "the unit is not enabled"
  [ "$(in_sd systemctl is-active clickwheel)" = active ] || { in_sd journalctl --no-pager -n 30 -u clickwheel >&2; die "postinst did not start the unit"; }
  sd_wait_socket
  [ "$(in_sd stat -c '%U' /proc/"$(in_sd systemctl show -P MainPID clickwheel)")" = clickwheel ] || die "the service does not run as user clickwheel"
  pid1="$(in_sd systemctl show -P MainPID clickwheel)"
  pass "systemd: installed, unit enabled and active (pid $pid1, user clickwheel), mpc status on /run/clickwheel/socket: $(mpc -h "$sd_sock" status | tr '\n' ' ')"

  in_sd apt-get "${APT[@]}" install "/root/$(basename "$deb2")" > "$work/sd-upgrade.log" 2>&1 ||
    { tail -n 30 "$work/sd-upgrade.log" >&2; die "the upgrade in the container failed"; }
  [ "$(in_sd systemctl is-active clickwheel)" = active ] || die "the unit is not active after the upgrade"
  pid2="$(in_sd systemctl show -P MainPID clickwheel)"
  [ "$pid2" != "$pid1" ] || die "the upgrade did not restart the service (pid $pid1)"
  sd_wait_socket
  pass "systemd: upgrade to $v2 restarted the unit (pid $pid1 → $pid2), it answers again"

  in_sd apt-get "${APT[@]}" remove clickwheel > "$work/sd-remove.log" 2>&1 || die "apt-get remove in the container failed"
  state="$(in_sd systemctl is-active clickwheel || true)"
  [ "$state" = inactive ] || die "after remove the unit is '$state', not inactive"
  [ "$(in_sd systemctl show -P MainPID clickwheel)" = 0 ] || die "the unit still has a main process after remove"
  in_sd test -d /var/lib/clickwheel || die "remove did not keep /var/lib/clickwheel"
  in_sd apt-get "${APT[@]}" purge clickwheel > "$work/sd-purge.log" 2>&1 || die "apt-get purge in the container failed"
  in_sd systemctl daemon-reload
  load="$(in_sd systemctl show -P LoadState clickwheel)"
  [ "$load" = not-found ] || die "after purge the unit's LoadState is '$load'"
  left="$(in_sd find /etc/systemd /var/lib/systemd /var/lib/clickwheel /etc/clickwheel /run/clickwheel -iname '*clickwheel*' 2>/dev/null || true)"
  [ -z "$left" ] || die "after purge: $left"
  ! in_sd getent passwd clickwheel >/dev/null || die "the user clickwheel is still there after purge"
  in_sd systemctl poweroff >/dev/null 2>&1 || true
  for _ in $(seq 1 200); do kill -0 "$nspawn_pid" 2>/dev/null || break; sleep 0.1; done
  wait "$nspawn_pid" 2>/dev/null || true; nspawn_pid=""
  pass "systemd: remove stopped the unit and kept the data; purge: unit not found, no state left; container shut down ($(( $(date +%s) - t8 )) s for step 8)"
fi

log "all checks passed in $(( $(date +%s) - t_start )) s ($cold root)"
