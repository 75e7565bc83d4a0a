#pragma once
#include <atomic>
#include <cstdint>
#include <optional>
#include <vector>

#include "rules/game.h"
#include "rules/input.h"

namespace bb::odds {

// How the rest of a game is played out. The same settings and seed always give the same playouts.
struct PlayoutSettings {
  int playouts = 2000;
  std::uint64_t seed = 1;
  // A playout still going after this many more turns ends as a time-limit game (rules::End): the edition
  // decides its winners by worth, as `simulate --max-turns` does. Counted in Chances::capped.
  int turn_cap = 400;
};

// A whole win in units that every tie of up to eight players divides exactly (840 = lcm(1..8)), so that
// sums of shares are exact and do not depend on the order in which threads add them.
inline constexpr long long kShareUnits = 840;

// What one playout gave: each player's share of the win in kShareUnits (all of it for a sole winner, 1/k
// each for k who tie, 0 otherwise), so that the shares of one playout sum to exactly kShareUnits.
struct PlayoutResult {
  rules::ById<rules::PlayerId, long long> share;
  bool capped = false;   // ended by the turn cap rather than by bankruptcies
  bool refused = false;  // a bot's input was refused (a bug in the bots or the engine); share is empty
  int turns = 0;         // turns played from the position
};

// The dice of one playout: its own stream, from the playout's seed alone, so that two branches of a
// position (with and without a trade) throw the same dice in the same order (common random numbers).
class DiceStream {
 public:
  explicit DiceStream(std::uint64_t seed) : state_(seed ^ 0x243f6a8885a308d3ULL) {}
  int next();

 private:
  std::uint64_t state_;
};

// The seed of playout `index` of a run seeded with `seed`; independent of threads and of the order in which
// playouts are run.
std::uint64_t playout_seed(std::uint64_t seed, int index);

// Plays `game` (a copy: the caller's game is never touched) to its end with rules::Bot, the bots `simulate`
// uses, every throw taken from DiceStream(seed) instead of the bot's own dice. `stop` is polled between
// inputs; a playout stopped early returns nullopt. Pure: any thread may call it on its own copy.
std::optional<PlayoutResult> play_out(rules::Game game, std::uint64_t seed, int turn_cap,
                                      const std::atomic<bool>* stop = nullptr);

}  // namespace bb::odds
