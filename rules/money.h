#pragma once
#include <cstdint>

namespace bb::rules {
// An integer count of the edition's smallest unit (dollars, or 10K in the Here and Now edition). Never a
// float.
using Money = std::int64_t;

// Account numbers in postings: players are 0..n-1; the bank is kBank.
inline constexpr int kBank = -1;
inline constexpr int kNobody = -2;
}  // namespace bb::rules
