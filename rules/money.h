#pragma once
#include <cstdint>

namespace bb::rules {
// Plain values and constants: any thread.
// An integer count of the edition's smallest unit (dollars, or 10K in the Here and Now edition). Never a
// float.
using Money = std::int64_t;

// The bound on every amount that comes from outside (a game script, an edition file, an adopted position):
// |amount| <= kMaxMoney. 10^12 is a hundred million times the money of a real game, and nine million times
// below the overflow of Money, so sums and products of such amounts in a game stay exact. A value beyond it
// is refused where it is read (rules/input_limits.h), never clamped.
inline constexpr Money kMaxMoney = 1'000'000'000'000;
}  // namespace bb::rules
