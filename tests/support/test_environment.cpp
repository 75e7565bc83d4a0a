#include "tests/support/test_environment.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace bb::test_support {

namespace {
// Before main(), never overriding what the caller set.
const bool kOffscreenAndSilent = [] {
  setenv("SDL_VIDEODRIVER", "dummy", 0);
  setenv("SDL_AUDIODRIVER", "dummy", 0);
  return true;
}();
}  // namespace

int test_time_factor() {
  static const int factor = [] {
    const char* text = std::getenv("BOARDBANK_TEST_TIME_FACTOR");
    if (text == nullptr || *text == '\0') return BOARDBANK_BUILD_TEST_TIME_FACTOR;
    char* end = nullptr;
    const long value = std::strtol(text, &end, 10);
    if (*end != '\0' || value < 1 || value > 100) {
      ADD_FAILURE() << "BOARDBANK_TEST_TIME_FACTOR must be a whole number from 1 to 100, not '" << text
                    << "'";
      return 1;
    }
    return static_cast<int>(value);
  }();
  return factor;
}

}  // namespace bb::test_support
