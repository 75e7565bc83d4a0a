// Edge coverage for code compiled by g++ (-fsanitize-coverage=trace-pc), which libFuzzer 14 no longer
// reads itself: each callback bumps a counter in libFuzzer's extra-counters section, read as features.
// Built without instrumentation; linked before the runtime so this definition is the one used.
#include <cstdint>

namespace {
constexpr std::uintptr_t kCounters = 1 << 16;
__attribute__((section("__libfuzzer_extra_counters"), used)) std::uint8_t counters[kCounters];
}  // namespace

extern "C" __attribute__((no_sanitize("address", "undefined"))) void __sanitizer_cov_trace_pc() {
  const auto pc = reinterpret_cast<std::uintptr_t>(__builtin_return_address(0));
  ++counters[(pc ^ (pc >> 16)) % kCounters];
}

// g++'s trace-cmp also reports float comparisons, which libFuzzer has no hook for; they carry no guidance
// here.
extern "C" void __sanitizer_cov_trace_cmpf(float, float) {}
extern "C" void __sanitizer_cov_trace_cmpd(double, double) {}
