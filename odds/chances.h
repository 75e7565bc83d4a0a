#pragma once
#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <vector>

#include "odds/playout.h"
#include "rules/game.h"
#include "rules/input.h"

namespace bb::odds {

// One player's chance of winning, as the playouts so far support it.
struct Chance {
  long long win_units = 0;  // the player's shares over the playouts, in kShareUnits per whole win
  int playouts = 0;         // how many playouts it is estimated from
  double wins() const { return static_cast<double>(win_units) / kShareUnits; }
  double estimate() const { return playouts > 0 ? wins() / playouts : 0.0; }
  // The 95% Wilson score interval of the estimate: honest near 0 and 1 and for few playouts, where the
  // plain +-1.96 sigma interval would leave [0, 1] or shrink to nothing.
  double low() const;
  double high() const;
  // Half the interval's width: the margin of error shown beside the chance.
  double margin() const { return (high() - low()) / 2; }
};

// Every player's chance from one position.
struct Chances {
  rules::ById<rules::PlayerId, Chance> players;  // by player
  int playouts = 0;                              // playouts counted
  int capped = 0;                                // of which ended by the turn cap (a time-limit end by worth)
  int refused = 0;      // playouts abandoned because a bot's input was refused (should be 0)
  long long turns = 0;  // turns played over all counted playouts

  void add(const PlayoutResult& r);
  void merge(const Chances& other);
  bool empty() const { return playouts == 0; }
};

// The trade adviser's answer: every player's chance without and with the proposed trade, both estimated
// from the same playouts (same seeds, same dice) so that the difference is the trade's, not the dice's.
struct TradeChances {
  Chances without_trade;
  Chances with_trade;
};

// "31%" or "31% ±3": the chance with only the digits the margin supports. Whole percents unless the margin
// is under half a percent (then one decimal); "<1%" and ">99%" near the ends.
std::string format_chance(const Chance& c);
// "Ann 31% -> 44%": one side of the trade adviser's line.
std::string format_change(const std::string& name, const Chance& before, const Chance& after);

// Single-threaded estimates on the caller's thread (the worker runs the same playouts on its threads).
// Deterministic: the same game and settings give the same numbers.
Chances estimate_chances(const rules::Game& game, const PlayoutSettings& settings);
// Refused (with the engine's reason) when the trade is not legal in the position.
std::expected<TradeChances, std::string> estimate_trade(const rules::Game& game, const rules::Trade& trade,
                                                        const PlayoutSettings& settings);

}  // namespace bb::odds
