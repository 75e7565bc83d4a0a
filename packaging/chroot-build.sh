#!/usr/bin/env bash
# Builds and tests boardbank inside a Debian tree made by debootstrap, never inside the source tree:
#   packaging/chroot-build.sh cross-arm64   bookworm (amd64) with arm64 multiarch: cross build, tests under
#                                           qemu-aarch64-static (registered in binfmt_misc with the F flag
#                                           when it is not yet, so child processes of tests run), the arm64 .deb
#   packaging/chroot-build.sh cross-arm64 --suite trixie
#                                           the same on Debian 13 (trixie, what Raspberry Pi OS is now based on):
#                                           its own tree, an arm64 .deb built against trixie's libraries
#   packaging/chroot-build.sh trixie        Debian 13: native build and the whole test suite
#   packaging/chroot-build.sh cross-arm64|trixie PART
#                                           only one part of the tree: the targets and tests of the folder PART
#                                           (say tests/vision), for a machine too busy to build everything at once;
#                                           the next part reuses what this one built (and ccache)
#   packaging/chroot-build.sh cross-arm64 [--suite trixie] package
#                                           only the `boardbank` command and the arm64 .deb (copied to out/), no tests
#   packaging/chroot-build.sh install-test DEB [--suite trixie]
#                                           apt installs the .deb with its dependencies into a Debian tree of the
#                                           package's own architecture (an arm64 .deb: an arm64 tree, run under
#                                           qemu through binfmt_misc) and runs its maintainer scripts; then checks
#                                           the user, the groups, the enabled unit, the unit and udev rules under
#                                           /usr/lib, the state directory, the conffile, --version, check-config,
#                                           and that a purge keeps the ledger unless asked (debconf) and then
#                                           deletes it
# Needs root (debootstrap, chroot, mounts). The trees live in $BOARDBANK_CHROOTS (default
# /var/tmp/boardbank-chroots) and are reused; a tree whose setup did not finish is made again. Results (the log,
# the .deb) are copied to out/ in the source tree. Set BOARDBANK_MIRROR to use another Debian mirror.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
usage="usage: packaging/chroot-build.sh cross-arm64 [--suite bookworm|trixie] [PART|package] | trixie [PART] |
       install-test DEB [--suite bookworm|trixie]"
what=${1:?$usage}
shift
suite=bookworm
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --suite) suite=${2:?$usage}; shift 2 ;;
    --suite=*) suite=${1#--suite=}; shift ;;
    *) args+=("$1"); shift ;;
  esac
done
case "$suite" in
  bookworm | trixie) ;;
  *) echo "chroot-build: --suite is bookworm (Debian 12) or trixie (Debian 13), not '$suite'" >&2; exit 2 ;;
esac
[ "$what" != trixie ] || [ "$suite" = bookworm ] || { echo "chroot-build: trixie takes no --suite" >&2; exit 2; }
part=""
package_only=false
if [ "$what" != install-test ] && [ -n "${args[0]:-}" ]; then
  part=${args[0]%/}
  if [ "$what" = cross-arm64 ] && [ "$part" = package ]; then
    package_only=true
    part=""
  else
    [ -f "$(dirname "$0")/../$part/CMakeLists.txt" ] || {
      echo "chroot-build: no CMakeLists.txt in $part: a part is a folder of the tree, say tests/vision" >&2
      exit 2
    }
  fi
fi
chroots=${BOARDBANK_CHROOTS:-/var/tmp/boardbank-chroots}
mirror=${BOARDBANK_MIRROR:-http://deb.debian.org/debian}
jobs=$(nproc)

# systemd (for systemd-analyze) and lintian let tests/systemd judge the unit and the package in the tree too
# (without them those tests say SKIP).
case "$what" in
  cross-arm64)
    root=$chroots/$suite-cross-arm64
    packages=(crossbuild-essential-arm64 cmake ninja-build pkg-config qemu-user-static dpkg-dev file ccache
      libgtest-dev:arm64 libgmock-dev:arm64 libbenchmark-dev:arm64 libfmt-dev:arm64 libtomlplusplus-dev:arm64
      libcli11-dev nlohmann-json3-dev libsqlite3-dev:arm64 libgpiod-dev:arm64
      libopencv-dev:arm64 libopencv-contrib-dev:arm64 libjpeg62-turbo-dev:arm64 libpng-dev:arm64
      libsdl2-dev:arm64 libsdl2-ttf-dev:arm64 libsdl2-mixer-dev:arm64 libsdl2-image-dev:arm64
      libsystemd-dev:arm64 libssl-dev:arm64 fonts-dejavu-core sqlite3 systemd lintian)
    ;;
  trixie)
    suite=trixie
    root=$chroots/trixie
    packages=(build-essential cmake pkg-config ninja-build dpkg-dev file ccache
      libgtest-dev libgmock-dev libbenchmark-dev libfmt-dev libtomlplusplus-dev libcli11-dev nlohmann-json3-dev
      libsqlite3-dev sqlite3 libgpiod-dev gpiod libopencv-dev libopencv-contrib-dev
      libjpeg62-turbo-dev libpng-dev
      libsdl2-dev libsdl2-ttf-dev libsdl2-mixer-dev libsdl2-image-dev libsystemd-dev libssl-dev fonts-dejavu-core
      systemd lintian)
    ;;
  install-test)
    deb=${args[0]:?$usage}
    [ -f "$deb" ] || { echo "chroot-build: no package at $deb" >&2; exit 1; }
    deb_arch=$(dpkg-deb -f "$deb" Architecture) || { echo "chroot-build: $deb is not a Debian package" >&2; exit 1; }
    host_arch=$(dpkg --print-architecture)
    # The host's own architecture: the tree that was always used (bookworm-install); another one (an arm64
    # package on an amd64 machine): a tree of that architecture, whose programs run under qemu.
    if [ "$deb_arch" = "$host_arch" ]; then root=$chroots/$suite-install; else root=$chroots/$suite-$deb_arch-install; fi
    [ "$deb_arch" = "$host_arch" ] || [ "$deb_arch" = arm64 ] ||
      { echo "chroot-build: can install-test $host_arch and arm64 packages here, not $deb_arch" >&2; exit 2; }
    packages=()
    ;;
  *) echo "$usage" >&2; exit 2 ;;
esac

[ "$(id -u)" -eq 0 ] || { echo "chroot-build: needs root (debootstrap and chroot)" >&2; exit 1; }
command -v debootstrap >/dev/null || { echo "chroot-build: needs debootstrap (apt-get install debootstrap)" >&2; exit 1; }

mounted=()
cleanup() { for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[i]}" 2>/dev/null || true; done; }
trap cleanup EXIT
mount_in() { # mount_in TYPE SOURCE TARGET-inside-root [options]
  mkdir -p "$root$3"
  mount -t "$1" "$2" "$root$3" ${4:+-o "$4"}
  mounted+=("$root$3")
}
in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
  DEBIAN_FRONTEND=noninteractive bash -euo pipefail -c "$1"; }

install_test() {
  cp "$deb" "$root/tmp/boardbank.deb"
  cp "$src/packaging/install-test.sh" "$root/tmp/install-test.sh"
  local tag=""
  [ "$suite-$deb_arch" = "bookworm-$host_arch" ] || tag=-$suite-$deb_arch
  # The trees are reused: an install stopped halfway (a run killed under qemu, where it takes long) leaves dpkg
  # "interrupted", and apt refuses to install anything until that is finished.
  in_root "dpkg --configure -a" 2>&1 | tail -n 3
  in_root "bash /tmp/install-test.sh /tmp/boardbank.deb" 2>&1 | tee "$src/out/install-test$tag.log"
}

# Tests that start a child process (the ledger's crash tests) need the kernel to run an arm64 binary by itself:
# qemu-aarch64 registered in binfmt_misc. The F flag makes the kernel open the interpreter now, so the
# registration also works inside the chroot, where the host's path means nothing.
# An arm64 install tree needs the same to run at all (its programs are arm64).
register_qemu_aarch64() { # register_qemu_aarch64 QEMU-AARCH64-STATIC (a path on the host)
  local dir=/proc/sys/fs/binfmt_misc qemu=$1
  [ -e "$dir/qemu-aarch64" ] && { echo "chroot-build: qemu-aarch64 is registered in binfmt_misc"; return 0; }
  [ -e "$dir/register" ] || mount -t binfmt_misc binfmt_misc "$dir" 2>/dev/null || true
  if [ -w "$dir/register" ] && [ -x "$qemu" ]; then
    local magic='\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xb7\x00'
    local mask='\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff'
    if echo ":qemu-aarch64:M::$magic:$mask:$qemu:F" >"$dir/register"; then
      echo "chroot-build: registered $qemu for arm64 binaries in binfmt_misc"
      return 0
    fi
  fi
  echo "chroot-build: could not register qemu-aarch64 in binfmt_misc (no binfmt_misc here, or no $qemu?):" \
    "tests that start a child process (the ledger's crash tests) will fail with exit 127, an arm64 tree cannot be made" >&2
  return 1
}
# The interpreter for an arm64 install tree: the host's qemu-user-static, else the one in the cross tree.
host_qemu_aarch64() {
  local q
  for q in "$(command -v qemu-aarch64-static || true)" "$chroots/$suite-cross-arm64/usr/bin/qemu-aarch64-static" \
    "$chroots/bookworm-cross-arm64/usr/bin/qemu-aarch64-static"; do
    [ -n "$q" ] && [ -x "$q" ] && { echo "$q"; return 0; }
  done
  echo "chroot-build: an arm64 tree needs qemu-aarch64-static (apt-get install qemu-user-static)" >&2
  return 1
}

foreign=false
[ "$what" = install-test ] && [ "$deb_arch" != "$host_arch" ] && foreign=true
if $foreign; then register_qemu_aarch64 "$(host_qemu_aarch64)"; fi

if [ ! -e "$root/.boardbank-ready" ]; then
  echo "chroot-build: making a $suite tree in $root"
  rm -rf "$root"
  mkdir -p "$chroots"
  if $foreign; then
    # A tree of the package's architecture: unpacked here, its second stage run under qemu (binfmt_misc above).
    debootstrap --variant=minbase --arch="$deb_arch" --foreign "$suite" "$root" "$mirror"
    chroot "$root" /debootstrap/debootstrap --second-stage
  else
    debootstrap --variant=minbase "$suite" "$root" "$mirror"
  fi
  mount_in proc proc /proc
  if [ "$what" = cross-arm64 ]; then in_root "dpkg --add-architecture arm64"; fi
  echo "deb $mirror $suite main" >"$root/etc/apt/sources.list"
  in_root "apt-get update -q"
  touch "$root/.boardbank-ready"
else
  mount_in proc proc /proc
fi
[ "$what" = install-test ] && { mkdir -p "$src/out"; install_test; exit; }
# Every run: what the build needs now (a no-op when all is there; the list grows with the project).
in_root "apt-get install -y -q --no-install-recommends ${packages[*]} ||
         { apt-get update -q && apt-get install -y -q --no-install-recommends ${packages[*]}; }"
if [ "$what" = cross-arm64 ]; then register_qemu_aarch64 "$root/usr/bin/qemu-aarch64-static" || true; fi


# ccache inside the tree (its cache lives there too) makes the next run's rebuild of unchanged files cheap.
ccache="CCACHE_DIR=/var/cache/ccache CCACHE_BASEDIR=/src CCACHE_MAXSIZE=5G"
launchers="-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache"

# The tree as it is now (tracked and new files, not build directories), copied fresh each run. Ninja rebuilds
# what is newer than its output, so the copy must not keep the files' own times: a file changed in the source
# tree before the last build finished (but after that build's copy) would look older than the object built from
# its old content, and the build would link that stale object. So every file is copied with the time of the
# copy (tar -m), and one whose content is the same as in the last copy keeps that copy's time (only what changed
# is rebuilt). A copy made before this rule (no marker) cannot be trusted: everything is rebuilt once (ccache
# makes that cheap).
fresh=$root/src.fresh
rm -rf "$fresh" && mkdir -p "$fresh"
(cd "$src" && git ls-files -co --exclude-standard -z | tar --null -T - -cf -) | tar -xmf - -C "$fresh"
copied_marker=.boardbank-copied-with-copy-times
if [ -e "$root/src/$copied_marker" ]; then
  (cd "$fresh" && find . -type f -print0) | while IFS= read -r -d '' file; do
    if cmp -s "$fresh/$file" "$root/src/$file"; then touch -r "$root/src/$file" "$fresh/$file"; fi
  done
fi
touch "$fresh/$copied_marker"
rm -rf "$root/src" && mv "$fresh" "$root/src"

# A part's targets: the folder's own, and the boardbank command when the folder's tests run it (tests/daemon,
# tests/systemd), as ninja's folder target does not build what a test only names on its command line.
targets=""
if [ -n "$part" ]; then
  targets="$part/all"
  if grep -qE 'TARGET_FILE:boardbank>|COMMAND boardbank ' "$src/$part/CMakeLists.txt"; then targets+=" boardbank"; fi
fi

suite_tag=""
[ "$what" != cross-arm64 ] || [ "$suite" = bookworm ] || suite_tag=-$suite
log=$src/out/$what$suite_tag${part:+-${part//\//-}}$($package_only && echo -package || true).log
mkdir -p "$src/out"
# Where the arm64 .deb goes: out/ for bookworm's, out/trixie/ for trixie's (the two have the same name).
debs=$src/out${suite_tag:+/$suite}
mkdir -p "$debs"
start=$(date +%s)
status=0

# The test suite folder by folder, the quick folders first and the camera's long scenarios last, each folder's
# result, test count and wall time in the log: under qemu the whole suite takes hours, and a run stopped early
# still says what passed. ctest's own limits come from the build (BOARDBANK_TEST_TIME_FACTOR, tests/CMakeLists.txt).
suite_by_folder() { # suite_by_folder BUILD-DIR-inside-root
  echo "for folder in rules odds ledger peripherals table display daemon systemd vision; do
          began=\$(date +%s)
          folder_status=0
          ctest --test-dir $1/tests/\$folder -j $jobs --output-on-failure --timeout 3000 || folder_status=\$?
          echo \"chroot-build: tests/\$folder finished with status \$folder_status after \$(( \$(date +%s) - began )) s\"
          [ \$folder_status -eq 0 ] || failed=1
        done
        exit \${failed:-0}"
}

case "$what" in
  cross-arm64)
    configure="export $ccache
               cd /src && cmake -S . -B /build-arm64 -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBOARDBANK_BENCH=OFF \
                 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-aarch64-linux-gnu.cmake $launchers"
    if $package_only; then
      # The command and the .deb only (cpack installs what the package holds; it needs no other target).
      in_root "$configure
               cmake --build /build-arm64 -j $jobs --target boardbank
               file /build-arm64/daemon/boardbank
               qemu-aarch64-static /build-arm64/daemon/boardbank --version
               cd /build-arm64 && rm -f boardbank_*_arm64.deb && cpack -G DEB" 2>&1 | tee "$log" || status=$?
      cp "$root"/build-arm64/boardbank_*_arm64.deb "$debs/" 2>/dev/null || true
    elif [ -n "$part" ]; then
      # Ninja's per-folder target builds only what the folder's programs need; ctest in the folder runs its tests.
      in_root "$configure
               cmake --build /build-arm64 -j $jobs --target $targets
               ctest --test-dir /build-arm64/$part -j $jobs --output-on-failure --timeout 3000" 2>&1 | tee "$log" ||
        status=$?
    else
      # The package first (it is copied out before the long test run starts), then the suite.
      in_root "$configure
               cmake --build /build-arm64 -j $jobs
               file /build-arm64/daemon/boardbank
               qemu-aarch64-static /build-arm64/daemon/boardbank --version
               cd /build-arm64 && cpack -G DEB" 2>&1 | tee "$log" || status=$?
      cp "$root"/build-arm64/boardbank_*_arm64.deb "$debs/" 2>/dev/null || true
      [ "$status" -ne 0 ] || in_root "$(suite_by_folder /build-arm64)" 2>&1 | tee -a "$log" || status=$?
    fi
    ;;
  trixie)
    configure="export $ccache
               cd /src && cmake -S . -B /build -G Ninja -DBOARDBANK_BENCH=OFF $launchers"
    if [ -n "$part" ]; then
      in_root "$configure
               cmake --build /build -j $jobs --target $targets
               ctest --test-dir /build/$part -j $jobs --output-on-failure" 2>&1 | tee "$log" || status=$?
    else
      in_root "$configure
               cmake --build /build -j $jobs
               /build/daemon/boardbank --version" 2>&1 | tee "$log" || status=$?
      [ "$status" -ne 0 ] || in_root "$(suite_by_folder /build)" 2>&1 | tee -a "$log" || status=$?
    fi
    ;;
esac
echo "chroot-build: $what$suite_tag${part:+ $part}$($package_only && echo " package" || true) finished with status $status after $(( $(date +%s) - start )) s (log: ${log#$src/})" |
  tee -a "$log"
exit "$status"
