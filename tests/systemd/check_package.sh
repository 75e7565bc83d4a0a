#!/usr/bin/env bash
# Builds the .deb from a finished build directory (cpack) and checks it as it would be installed, in a
# throwaway root: the file list, the conffile, the dependencies computed by dpkg-shlibdeps, the unit (verify
# and security in that root), the sysusers.d file (the user and its groups made in that root), the maintainer
# scripts' syntax, `boardbank --version` from the installed binary, and lintian (no errors) when installed.
#   check_package.sh BUILD_DIR WORK_DIR VERSION ARCH [EMULATOR]
# ARCH is the Debian architecture the package is built for; EMULATOR (qemu-aarch64-static) runs a cross-built
# binary.
# Exits 77 (skipped) with the reason when a tool it needs is missing.
set -euo pipefail
build=${1:?usage: check_package.sh BUILD_DIR WORK_DIR VERSION}
work=${2:?the work directory}
version=${3:?the project version}
arch=${4:?the Debian architecture}
emulator=${5:-}
here=$(cd "$(dirname "$0")" && pwd)
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
for tool in cpack dpkg-deb dpkg-shlibdeps; do
  command -v "$tool" >/dev/null || skip "$tool is not installed (Debian packages cmake, dpkg-dev)"
done

rm -rf "$work" && mkdir -p "$work/pkg" "$work/root"
(cd "$work/pkg" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work/pkg" >"$work/cpack.log" 2>&1) ||
  { cat "$work/cpack.log" >&2; fail "cpack could not build the package"; }
deb=$work/pkg/boardbank_${version}_${arch}.deb
[ -f "$deb" ] || fail "no $deb after cpack (see $work/cpack.log)"
echo "package: $(basename "$deb"), $(stat -c %s "$deb") bytes"

# The file list: what must be there, and nothing outside boardbank's own places.
dpkg-deb -c "$deb" | awk '{print $NF}' | sed 's|^\./|/|' >"$work/files"
for f in /usr/bin/boardbank /usr/lib/systemd/system/boardbank.service /usr/lib/sysusers.d/boardbank.conf \
  /usr/lib/tmpfiles.d/boardbank.conf /usr/lib/udev/rules.d/60-boardbank.rules \
  /usr/share/boardbank/editions/classic.toml /usr/share/doc/boardbank/copyright \
  /usr/share/doc/boardbank/changelog.gz /usr/share/doc/boardbank/install-pi.md \
  /usr/share/doc/boardbank/operations.md /usr/share/man/man1/boardbank.1.gz /etc/boardbank/boardbank.toml \
  "/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH -a"$arch" 2>/dev/null)/boardbank/boardbank_capture.so"; do
  grep -qx "$f" "$work/files" || fail "the package lacks $f"
done
outside=$(grep -v '/$' "$work/files" | grep -Ev '^/(usr/bin/boardbank|usr/share/boardbank/|usr/share/doc/boardbank/|usr/share/man/man1/boardbank\.1\.gz|etc/boardbank/|usr/lib/systemd/system/boardbank\.service|usr/lib/sysusers\.d/boardbank\.conf|usr/lib/tmpfiles\.d/boardbank\.conf|usr/lib/udev/rules\.d/60-boardbank\.rules|usr/lib/[a-z0-9_-]+/boardbank/boardbank_capture\.so)' || true)
[ -z "$outside" ] || fail "files outside boardbank's places: $outside"
echo "file list: $(grep -vc '/$' "$work/files") files, all in boardbank's places"

# Control: the conffile, the dependencies from the binary's shared libraries, the architecture.
dpkg-deb -e "$deb" "$work/control"
grep -qx /etc/boardbank/boardbank.toml "$work/control/conffiles" 2>/dev/null ||
  fail "/etc/boardbank/boardbank.toml is not a conffile"
[ "$(dpkg-deb -f "$deb" Architecture)" = "$arch" ] || fail "architecture is not $arch"
depends=$(dpkg-deb -f "$deb" Depends)
for lib in libc6 libsqlite3-0 libsdl2-2.0-0 libgpiod fonts-dejavu-core; do  # libgpiod2 on 12, libgpiod3 on 13
  [[ ",$depends" == *", $lib"* || "$depends" == "$lib"* ]] || fail "Depends lacks $lib: $depends"
done
for script in postinst prerm postrm config; do
  [ -x "$work/control/$script" ] || fail "$script is missing or not executable"
  sh -n "$work/control/$script" || fail "$script is not valid sh"
done
echo "control: conffile, shlibs dependencies, maintainer scripts ok"

# Installed into the throwaway root.
dpkg-deb -x "$deb" "$work/root"
grep -q '^\[' "$work/root/etc/boardbank/boardbank.toml" || fail "the installed configuration has no table"
got=$($emulator "$work/root/usr/bin/boardbank" --version)
[ "$got" = "boardbank $version" ] || fail "boardbank --version printed '$got', not 'boardbank $version'"
echo "installed boardbank --version: $got"
# The camera module (dlopen'ed, so dpkg-shlibdeps read its libraries from the module itself) is found beside
# the installed binary: a file that is no video is refused as such, not for a missing module.
got=$($emulator "$work/root/usr/bin/boardbank" track "$work/root/etc/boardbank/boardbank.toml" 2>&1 || true)
[[ "$got" == *"cannot read the video"* ]] || fail "the installed boardbank did not load its camera module: $got"
[[ "$depends" == *libopencv-videoio* ]] || fail "Depends lacks the camera module's libopencv-videoio: $depends"
echo "installed camera module: loaded by the installed binary"
$emulator "$work/root/usr/bin/boardbank" check-config "$work/root/etc/boardbank/boardbank.toml" >"$work/check-config.log" 2>&1 ||
  { cat "$work/check-config.log" >&2; fail "the installed configuration does not pass boardbank check-config"; }
echo "installed configuration: $(tail -n1 "$work/check-config.log")"
"$here/check_unit.sh" verify "$work/root/usr/lib/systemd/system/boardbank.service" "$work/root/usr/bin/boardbank" ||
  [ $? -eq 77 ] || fail "systemd-analyze verify"
"$here/check_unit.sh" security "$work/root/usr/lib/systemd/system/boardbank.service" >/dev/null ||
  [ $? -eq 77 ] || fail "systemd-analyze security"
if command -v systemd-sysusers >/dev/null && [ "$(id -u)" -eq 0 ]; then
  mkdir -p "$work/root/etc"
  systemd-sysusers --root="$work/root" boardbank.conf
  grep -q '^boardbank:x:[0-9]*:[0-9]*:boardbank game bank:/var/lib/boardbank:' "$work/root/etc/passwd" ||
    fail "systemd-sysusers made no boardbank user"
  for group in gpio spi video render input audio; do
    grep -Eq "^$group:x:[0-9]+:(.*,)?boardbank(,|$)" "$work/root/etc/group" || fail "boardbank is not in $group"
  done
  echo "sysusers: user boardbank in gpio, spi, video, render, input, audio"
else
  echo "sysusers: not checked (needs systemd-sysusers and root)"
fi

if command -v lintian >/dev/null; then
  lintian --fail-on error "$deb" 2>&1 | grep -v 'running with root privileges' || true
  lintian --fail-on error "$deb" >/dev/null 2>&1 || fail "lintian reports errors"
  echo "lintian: no errors"
else
  echo "lintian: not checked (apt-get install lintian)"
fi
echo "package ok"
