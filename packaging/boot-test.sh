#!/usr/bin/env bash
# Boots a debootstrapped bookworm tree with the .deb installed under systemd-nspawn (systemd as PID 1 in a
# container) and checks that boardbank.service really starts under systemd with its sandbox: Type=notify
# READY, the watchdog pinged past WatchdogSec, the dedicated user, the state directory, a reload (SIGHUP).
#   packaging/boot-test.sh DEB
# Needs root and systemd-nspawn (apt-get install systemd-container). Uses the tree of
# `packaging/chroot-build.sh install-test` ($BOARDBANK_CHROOTS/bookworm-install, made by that command first);
# it leaves the package installed there. No GPIO, camera or display in the container: the service says so
# and runs on (offscreen). Results: out/boot-test.log.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
deb=${1:?usage: packaging/boot-test.sh DEB}
root=${BOARDBANK_CHROOTS:-/var/tmp/boardbank-chroots}/bookworm-install
[ -f "$deb" ] || { echo "boot-test: no package at $deb" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "boot-test: needs root (chroot, systemd-nspawn)" >&2; exit 1; }
command -v systemd-nspawn >/dev/null ||
  { echo "boot-test: needs systemd-nspawn (apt-get install systemd-container)" >&2; exit 1; }
[ -e "$root/.boardbank-ready" ] ||
  { echo "boot-test: no tree at $root: run packaging/chroot-build.sh install-test DEB first" >&2; exit 1; }

cp "$deb" "$root/tmp/boardbank-boot-test.deb"
mkdir -p "$src/out"
mount -t proc proc "$root/proc"
trap 'umount -l "$root/proc" 2>/dev/null || true' EXIT
chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
  apt-get install -y -q --reinstall /tmp/boardbank-boot-test.deb >"$src/out/boot-test.install.log" 2>&1 ||
  { echo "boot-test: apt could not install the package (out/boot-test.install.log)" >&2; exit 1; }
umount -l "$root/proc"
trap - EXIT

# A one-shot unit that looks at the service after longer than its watchdog period, reloads it, writes what it
# saw and powers the container off.
probe=$root/etc/systemd/system/boardbank-boot-probe.service
cat >"$probe" <<'EOF'
[Unit]
Description=Look at boardbank.service after it started, then power off (boardbank's boot test)
After=boardbank.service
[Service]
Type=oneshot
ExecStart=/bin/sh -c 'sleep 45; systemctl reload boardbank; sleep 5; { systemctl show boardbank -p FragmentPath -p ActiveState -p SubState -p NRestarts -p User -p Result -p WatchdogUSec -p StatusText; stat -c "state %%U:%%a" /var/lib/boardbank; journalctl -u boardbank -b --no-pager; } >/boot-probe.txt 2>&1; systemctl poweroff'
[Install]
WantedBy=multi-user.target
EOF
ln -sf /etc/systemd/system/boardbank-boot-probe.service \
  "$root/etc/systemd/system/multi-user.target.wants/boardbank-boot-probe.service"
rm -f "$root/boot-probe.txt"
log=$src/out/boot-test.log
# --register=no --keep-unit: no systemd on the host needed (a container or a build machine without it).
timeout 300 systemd-nspawn -q -D "$root" -b --private-network --register=no --keep-unit >"$src/out/boot-test.console" 2>&1 ||
  true
rm -f "$probe" "$root/etc/systemd/system/multi-user.target.wants/boardbank-boot-probe.service"
[ -f "$root/boot-probe.txt" ] || { echo "boot-test: the container did not report (see out/boot-test.console)" >&2; exit 1; }
cp "$root/boot-probe.txt" "$log"

failed=0
check() { # check DESCRIPTION PATTERN
  if grep -q -- "$2" "$log"; then echo "ok: $1"; else echo "FAIL: $1" >&2; failed=1; fi
}
check "the service is running" "^ActiveState=active"
# The package puts the unit in /usr/lib/systemd/system; bookworm's systemd 252 names it by its first search path,
# /lib/systemd/system, which on merged-/usr Debian is the same directory.
check "systemd loaded the package's unit (/usr/lib/systemd/system, alias /lib)" \
  "^FragmentPath=\(/usr\)\?/lib/systemd/system/boardbank.service$"
check "it runs as the user boardbank" "^User=boardbank"
check "it told systemd it was ready (Type=notify)" "Started boardbank.service"
check "no restart: the watchdog was pinged past WatchdogSec" "^NRestarts=0"
check "systemd made /var/lib/boardbank for it" "^state boardbank:750"
check "a reload re-reads the configuration" "configuration reloaded"
[ "$failed" -eq 0 ] && echo "boot-test: all checks passed (log: out/boot-test.log)" ||
  { echo "boot-test: checks failed (log: out/boot-test.log)" >&2; exit 1; }
