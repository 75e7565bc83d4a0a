#!/usr/bin/env bash
# One entry point for a fresh Debian 12 / Raspberry Pi OS bookworm machine (run as root or with sudo):
#   ./run.sh demo [ARGS]     install what is missing, build, play a demo game at a virtual table
#   ./run.sh test            install what is missing, build, run every test
#   ./run.sh test --sanitize the same with AddressSanitizer + UndefinedBehaviorSanitizer, less the whole-game
#                            demos labelled "long" (their code paths run in the shorter demo tests there)
#   ./run.sh bench           build and run the benchmarks, printing their figures
#   ./run.sh build           install what is missing and build only
#   ./run.sh build --sanitize
#                            the same for the AddressSanitizer + UndefinedBehaviorSanitizer build only (CI starts it
#                            beside the tests)
#   ./run.sh package         build the .deb (out/boardbank_VERSION_ARCH.deb) and check it (file list, conffile,
#                            unit, --version, lintian) in a throwaway root; with --install-test also apt-installs
#                            it into a debootstrapped bookworm tree (maintainer scripts, user, purge)
#   ./run.sh cross-arm64     cross-build for the Pi's arm64 in a debootstrapped bookworm tree, run the tests
#                            under qemu-aarch64-static (registered in binfmt_misc where it can be, so tests that
#                            start child processes run too), build the arm64 .deb (slow: not in CI)
#   ./run.sh cross-arm64 --suite trixie
#                            the same against Debian 13 (trixie), what Raspberry Pi OS is based on now: its own
#                            tree; the arm64 .deb goes to out/trixie/
#   ./run.sh cross-arm64 [--suite trixie] package
#                            only the boardbank command and the arm64 .deb, no tests
#   ./run.sh install-test DEB [--suite trixie]
#                            apt-installs a .deb into a debootstrapped tree of its architecture and Debian release
#                            (an arm64 .deb into an arm64 tree, run under qemu) and checks it as --install-test does
#   ./run.sh check-trixie    build and test in a debootstrapped Debian 13 (trixie) tree (slow: not in CI)
#   ./run.sh cross-arm64 PART, ./run.sh check-trixie PART
#                            only the folder PART of the tree (say tests/vision): its programs and its tests
set -euo pipefail
cd "$(dirname "$0")"

packages=(
  build-essential cmake pkg-config ninja-build
  libgtest-dev libgmock-dev libbenchmark-dev
  libfmt-dev libtomlplusplus-dev libcli11-dev nlohmann-json3-dev
  libsqlite3-dev sqlite3
  libgpiod-dev gpiod
  libopencv-dev libopencv-contrib-dev libjpeg62-turbo-dev libpng-dev
  libsystemd-dev libssl-dev
  libsdl2-dev libsdl2-ttf-dev libsdl2-mixer-dev libsdl2-image-dev fonts-dejavu-core
  clang clang-format
  dpkg-dev lintian systemd
)
# clang's runtime (libFuzzer, for the fuzzers) is versioned like the distribution's default clang: 14 on Debian 12,
# 19 on Debian 13 (trixie has no libclang-rt-14-dev).
clang_version=$(apt-cache depends clang 2>/dev/null | sed -n 's/^ *Depends: clang-\([0-9][0-9]*\)$/\1/p' | head -n 1)
packages+=("libclang-rt-${clang_version:-14}-dev")

install_packages() {
  local missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "run.sh: installing ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
}

jobs=$(nproc)
build() { # build DIR [cmake options...]
  local dir=$1; shift
  cmake -S . -B "$dir" -G Ninja "$@" >/dev/null
  cmake --build "$dir" -j "$jobs"
}

# The ASan+UBSan build (build-sanitize): unoptimised, so a report points at the line; no benchmarks. A unity
# build (CMake joins each target's sources eight at a time): it is only ever built whole, and compiling and
# instrumenting the shared headers' code once per eight files instead of once per file takes half the CPU
# (measured side by side: 607 s against 1,185 s of CPU for the whole tree). So two
# .cpp files of one target must not give different things one name in a namespace they share (an anonymous
# namespace is shared, too): `./run.sh build --sanitize` says so at once, as CI does.
sanitize_build() {
  build build-sanitize -DBOARDBANK_SANITIZE=ON -DBOARDBANK_BENCH=OFF -DCMAKE_BUILD_TYPE=Debug -DCMAKE_UNITY_BUILD=ON
}

cmd=${1:-demo}; shift || true
case "$cmd" in
  build)
    install_packages
    if [ "${1:-}" = "--sanitize" ]; then sanitize_build; else build build; fi
    ;;
  demo)
    install_packages
    build build
    # One classic game at a virtual table, through the live table's own service: bots throw the simulated
    # dice unit, tap the simulated card readers and carry their tokens in front of a rendered camera. In a
    # window when a display is there, else headless (one line per turn, then the standings and the ledger).
    # Extra arguments go to `boardbank demo` (--seed N, --speed X, --players N, --turns N, --db FILE).
    if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
      ./build/daemon/boardbank demo "$@"
    else
      ./build/daemon/boardbank demo --headless --speed 20 --players 3 --turns 30 "$@"
    fi
    ;;
  test)
    install_packages
    if [ "${1:-}" = "--sanitize" ]; then
      sanitize_build
      # Allocation and free stacks of 10 frames in a report (30 by default): a tenth less time in every
      # allocation of the whole run, and still the caller and its callers up to the test.
      # One job more than the cores: the whole-game tests wait on real time (a reader's same-card window, the
      # camera's pace) and leave a core idle meanwhile (CI's sanitizer phase: 505 s with -j 2, 486 s with -j 3).
      # A quarantine of 32 MiB instead of 256: freed memory is reused sooner, so the camera tests' frames touch
      # fewer fresh pages (a vision test 27% faster, a rules test 8%); a use after free is still caught while
      # the last 32 MiB freed stay poisoned.
      # Left out here, and run by `./run.sh test` (the paths they take run under the sanitizers in shorter
      # tests): each lighting sweep of the camera's tests but one picture of it, the demo killed at six moments
      # (demo_resumed_after_sigterm and CrashTest.KilledDuringABackup resume under the sanitizers), the ledger
      # killed at every write, the 10,000-game simulations and the pinned signatures of the other editions
      # (the classic one stays). They were a fifth of this phase.
      sanitize_skip='^(Conditions|Generated)/(CappedAlone|CrowdedGo|GreyAndBlackOnGo|MetalGreyAlone|ConditionTest)\.[A-Za-z]+/(blur|bright|cold|dim|jpeg|mixed|noise|shadow|tilt|warm) '
      sanitize_skip+='|^Conditions/CappedWhiteAlone\.[A-Za-z]+/(blur|mixed|noise) |^demo_killed_at_[0-9]+_moments'
      sanitize_skip+='|^CrashTest\.(ShortGameKilledAtEveryWrite|LongGameKilledAtSampledWrites)$'
      sanitize_skip+='|^(Finance1932|FinanceParker)\.TenThousandSimulatedGamesKeepEveryInvariant$'
      sanitize_skip+='|^Finance1932\.SignatureOfAFixedSetOfGamesIsPinned$|^simulate_signature_is_pinned_(ships|world|sliders|finance_parker)$'
      ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:malloc_context_size=10:quarantine_size_mb=32 \
        UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        ctest --test-dir build-sanitize --output-on-failure -j "$((jobs + 1))" -LE long -E "$sanitize_skip"
    else
      build build
      ctest --test-dir build --output-on-failure -j "$jobs"
    fi
    ;;
  bench)
    install_packages
    build build -DCMAKE_BUILD_TYPE=Release
    for b in build/bench/*/bench_*; do [ -x "$b" ] && "$b"; done
    ;;
  package)
    install_packages
    cmake -S . -B build -G Ninja >/dev/null
    cmake --build build -j "$jobs" --target boardbank
    version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' build/CMakeCache.txt)
    arch=$(dpkg --print-architecture)
    tests/systemd/check_package.sh "$PWD/build" "$PWD/build/package-check" "$version" "$arch"
    mkdir -p out
    cp "build/package-check/pkg/boardbank_${version}_${arch}.deb" out/
    echo "run.sh: out/boardbank_${version}_${arch}.deb"
    if [ "${1:-}" = "--install-test" ]; then
      packages+=(debootstrap)
      install_packages
      nice -n 15 packaging/chroot-build.sh install-test "$PWD/out/boardbank_${version}_${arch}.deb"
    fi
    ;;
  install-test)
    packages+=(debootstrap qemu-user-static)
    install_packages
    nice -n 15 packaging/chroot-build.sh install-test "$@"
    ;;
  cross-arm64 | check-trixie)
    # Each runs in its own Debian tree outside the source tree (packaging/chroot-build.sh says where), at low
    # priority: a full build and test run that takes a long time on a small machine.
    packages+=(debootstrap)
    install_packages
    nice -n 15 packaging/chroot-build.sh "${cmd#check-}" "$@"
    ;;
  *)
    echo "usage: ./run.sh demo|test [--sanitize]|bench|build [--sanitize]|package [--install-test]|cross-arm64 [--suite trixie] [PART|package]|install-test DEB [--suite trixie]|check-trixie [PART]" >&2
    exit 2
    ;;
esac
