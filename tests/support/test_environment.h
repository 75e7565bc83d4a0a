#pragma once
// The test programs' own environment (tests/support/CMakeLists.txt says why it is not left to ctest):
// - before main, SDL_VIDEODRIVER and SDL_AUDIODRIVER are set to "dummy" unless the caller set them: offscreen
//   and silent, with no display server or sound card, whatever runs the program (ctest, by hand, qemu);
// - test_time_factor(): how many times longer than natively a test may wait before it gives up.
// Any thread (the factor is read once, on first use).

namespace bb::test_support {

// BOARDBANK_TEST_TIME_FACTOR from the environment when set (a whole number from 1 to 100; anything else is a
// test failure that says so, and 1), else the build's, compiled in: 20 under an emulator such as qemu-user, 1
// natively, where nothing changes. A limit counted in waits is there to end a test that failed rather than
// hang, not to judge speed: only limits grow with the factor, never what a test checks.
int test_time_factor();

}  // namespace bb::test_support
