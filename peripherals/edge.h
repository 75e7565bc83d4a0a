#pragma once
#include <cstdint>
#include <functional>

namespace bb::peripherals {

// Nanoseconds on the kernel's CLOCK_MONOTONIC, the clock GPIO edge events are stamped with.
using Nanoseconds = std::int64_t;

constexpr Nanoseconds kMicrosecond = 1'000;
constexpr Nanoseconds kMillisecond = 1'000'000;
constexpr Nanoseconds kSecond = 1'000'000'000;

// Where a device reads the time: CLOCK_MONOTONIC live, the trace's own time in a replay, a script in tests.
using Clock = std::function<Nanoseconds()>;

// One level change on one line of a device; line is the device's own index (Wiegand: 0 = D0, 1 = D1).
struct Edge {
  Nanoseconds ts_ns = 0;
  int line = 0;
  bool rising = false;
  friend bool operator==(const Edge&, const Edge&) = default;
};

}  // namespace bb::peripherals
