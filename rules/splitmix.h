// splitmix64, the one pseudo-random step of the project's games: small, fast and fully determined by its
// state, so a game (its shuffles, the bots' choices, a playout's dice) replays bit for bit from its seed.
// Pure; any thread, each caller with its own state.
#pragma once

#include <cstdint>

namespace bb::rules {

// How far each draw moves the state.
inline constexpr std::uint64_t kSplitmixStep = 0x9e3779b97f4a7c15ULL;

// The 64 random bits of the state `z` (already moved on by kSplitmixStep): draws k steps apart can be mixed
// side by side (the compact playout engine works out a bot's three draws of a throw at once).
constexpr std::uint64_t splitmix64_mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// Advances `state` and returns the next 64 random bits.
constexpr std::uint64_t splitmix64(std::uint64_t& state) { return splitmix64_mix(state += kSplitmixStep); }

}  // namespace bb::rules
