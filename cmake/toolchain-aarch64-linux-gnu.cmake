# Cross-compiling for the Raspberry Pi's arm64 on a Debian amd64 machine with multiarch (crossbuild-essential-arm64
# and the :arm64 -dev packages, as packaging/chroot-build.sh installs them). Tests run under qemu-user.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
# Debian's multiarch layout: arm64 libraries and their CMake/pkg-config files live under lib/aarch64-linux-gnu.
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig")
# ctest (and gtest_discover_tests) run each arm64 test binary through the emulator; the arm64 loader is at its
# multiarch place (/lib/ld-linux-aarch64.so.1), so no QEMU_LD_PREFIX is needed.
find_program(BOARDBANK_QEMU_AARCH64 qemu-aarch64-static qemu-aarch64)
if(BOARDBANK_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${BOARDBANK_QEMU_AARCH64})
endif()
