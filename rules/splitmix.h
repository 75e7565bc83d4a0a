// splitmix64, the one pseudo-random step of the project's games: small, fast and fully determined by its
// state, so a game (its shuffles, the bots' choices, a playout's dice) replays bit for bit from its seed.
// Pure; any thread, each caller with its own state.
#pragma once

#include <cstdint>

namespace bb::rules {

// Advances `state` and returns the next 64 random bits.
constexpr std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace bb::rules
