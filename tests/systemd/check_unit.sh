#!/usr/bin/env bash
# The service unit as systemd itself judges it:
#   check_unit.sh security UNIT            systemd-analyze security --offline: exposure 2.0 or better ("OK")
#   check_unit.sh verify UNIT BOARDBANK    systemd-analyze verify prints nothing, in a throwaway root that holds
#                                          the unit, the binary and the system's own units
# Exits 77 (skipped) with the reason when systemd-analyze cannot do it here.
set -euo pipefail
skip() { echo "SKIP: $*"; exit 77; }
what=${1:?usage: check_unit.sh security UNIT | verify UNIT BOARDBANK}
unit=${2:?the unit file}
[ -f "$unit" ] || { echo "no unit file at $unit" >&2; exit 1; }
command -v systemd-analyze >/dev/null || skip "systemd-analyze is not installed (Debian package systemd)"

case "$what" in
  security)
    # grep reads all of the help (no -q): with pipefail, a grep that stops at the first match leaves
    # systemd-analyze to die of SIGPIPE on a long help text (systemd 257), and the check would be skipped.
    systemd-analyze security --help 2>/dev/null | grep -- '--offline' >/dev/null ||
      skip "this systemd-analyze has no --offline (systemd 250 or newer needed)"
    out=$(systemd-analyze security --offline=true --no-pager "$unit" 2>&1) || true
    echo "$out" | grep -E '✗|Overall' || true
    level=$(echo "$out" | sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p')
    [ -n "$level" ] || { echo "no overall exposure level in the output:" >&2; echo "$out" >&2; exit 1; }
    if awk -v l="$level" 'BEGIN { exit !(l <= 2.0) }'; then
      echo "exposure $level: 2.0 or better"
    else
      echo "exposure $level is worse than 2.0" >&2
      exit 1
    fi
    ;;
  verify)
    binary=${3:?the boardbank binary}
    units=""
    for d in /lib/systemd/system /usr/lib/systemd/system; do [ -f "$d/sysinit.target" ] && units=$d && break; done
    [ -n "$units" ] || skip "no systemd units on this machine to verify against"
    kill=$(command -v kill || true)
    [ -x /bin/kill ] && kill=/bin/kill
    [ -n "$kill" ] || skip "no kill binary for ExecReload="
    root=$(mktemp -d "${TMPDIR:-/tmp}/boardbank-verify.XXXXXX")
    trap 'rm -rf "$root"' EXIT
    # A merged-/usr root, as Debian 12 and 13 are: systemd 255 and newer look for units only under /usr/lib and
    # /etc, and /lib is a link to usr/lib (older packages' /lib/systemd/system lands in /usr/lib/systemd/system).
    mkdir -p "$root/usr/lib/systemd/system" "$root/usr/bin"
    ln -s usr/lib "$root/lib"
    ln -s usr/bin "$root/bin"
    cp -r "$units/." "$root/lib/systemd/system/"
    cp "$unit" "$root/lib/systemd/system/boardbank.service"
    cp "$binary" "$root/usr/bin/boardbank"
    cp "$kill" "$root/bin/kill"
    status=0
    out=$(systemd-analyze verify --root="$root" --man=no boardbank.service 2>&1) || status=$?
    if [ "$status" -ne 0 ] || [ -n "$out" ]; then
      echo "systemd-analyze verify (status $status):" >&2
      echo "$out" >&2
      exit 1
    fi
    echo "systemd-analyze verify: clean"
    ;;
  *) echo "usage: check_unit.sh security UNIT | verify UNIT BOARDBANK" >&2; exit 2 ;;
esac
