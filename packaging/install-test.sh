#!/usr/bin/env bash
# Run inside a throwaway Debian tree by `packaging/chroot-build.sh install-test DEB`, never on a real machine:
# it installs, purges and deletes the boardbank user. apt installs the package with its dependencies and runs
# its maintainer scripts; each check prints ok or FAIL.
set -euo pipefail
deb=${1:?usage: install-test.sh DEB}
failed=0
check() { # check DESCRIPTION COMMAND...
  local what=$1; shift
  if "$@" >/dev/null 2>&1; then echo "ok: $what"; else echo "FAIL: $what" >&2; failed=1; fi
}
in_group() { id -nG boardbank | tr ' ' '\n' | grep -qx "$1"; }
owner_mode() { [ "$(stat -c %U:%a "$1")" = "$2" ]; }
owner_group_mode() { [ "$(stat -c %U:%G:%a "$1")" = "$2" ]; }
is_conffile() { dpkg-query -W -f='${Conffiles}' boardbank | grep -q " *$1 "; }
not_overridden() { ! dpkg-statoverride --list /etc/boardbank/boardbank.toml; }
owned_file() { [ -f "$1" ] && dpkg -L boardbank | grep -qx "$1"; }
verify_clean() { [ -z "$(systemd-analyze verify boardbank.service 2>&1)" ]; }

apt-get install -y -q "$deb"
check "postinst made the user boardbank" id boardbank
for g in gpio spi video render input audio; do check "boardbank is in $g" in_group "$g"; done
check "the service is enabled" test -L /etc/systemd/system/multi-user.target.wants/boardbank.service
check "/var/lib/boardbank is boardbank:750" owner_mode /var/lib/boardbank boardbank:750
check "the configuration is root:boardbank 640 (it holds the PIN hash)" owner_group_mode /etc/boardbank/boardbank.toml root:boardbank:640
check "/etc/boardbank/boardbank.toml is a registered conffile" is_conffile /etc/boardbank/boardbank.toml
# The unit and the udev rules under /usr/lib (on merged-/usr Debian 13, /lib is only an alias of it; bookworm's
# systemd and udev read /usr/lib too), known to dpkg at that place.
check "the unit is /usr/lib/systemd/system/boardbank.service" owned_file /usr/lib/systemd/system/boardbank.service
check "the udev rules are /usr/lib/udev/rules.d/60-boardbank.rules" owned_file /usr/lib/udev/rules.d/60-boardbank.rules
check "boardbank --version runs with the installed libraries" boardbank --version
check "the installed configuration passes check-config" boardbank check-config /etc/boardbank/boardbank.toml
echo "$(dpkg --print-architecture) $(. /etc/os-release && echo "$PRETTY_NAME"): $(boardbank --version 2>&1)"
boardbank check-config /etc/boardbank/boardbank.toml || true
check "systemd-analyze verify is clean" verify_clean

touch /var/lib/boardbank/ledger.db
apt-get purge -y -q boardbank
check "a purge without asking keeps the ledger" test -e /var/lib/boardbank/ledger.db
check "a purge removes the configuration" test ! -e /etc/boardbank/boardbank.toml
check "a purge removes the configuration's mode override" not_overridden
check "a purge removes the enablement" test ! -e /etc/systemd/system/multi-user.target.wants/boardbank.service

apt-get install -y -q "$deb" >/dev/null
echo "boardbank boardbank/purge-ledger boolean true" | debconf-set-selections
apt-get purge -y -q boardbank
check "a purge told to delete the ledger deletes it" test ! -e /var/lib/boardbank
userdel boardbank 2>/dev/null || true
[ "$failed" -eq 0 ] && echo "install-test: all checks passed" || { echo "install-test: checks failed" >&2; exit 1; }
