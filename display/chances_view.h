#pragma once
#include <optional>
#include <string>
#include <vector>

#include "rules/input.h"

namespace bb::display {

// Each player's chance of winning as the odds worker last reported it: plain numbers and the words to show,
// filled by the daemon (display never runs playouts). Shown on the charts screen and, for a proposed trade,
// on the trade screen.
struct ChancesView {
  struct Chance {
    double estimate = 0;  // 0..1
    double low = 0;       // the 95% interval
    double high = 0;
    std::string text;  // "31% ±3": only the digits the playouts support
  };
  std::vector<Chance> now;  // by player; empty until the first playouts are in
  int playouts = 0;         // behind `now`
  bool refining = false;    // more playouts are still coming for this position
  // How the chances moved: one point per settled turn (the estimate the worker had reached for it).
  struct Point {
    int turn = 0;
    std::vector<double> estimate;  // by player
  };
  std::vector<Point> over_game;

  // The trade adviser: every player's chance without and with the trade on the trade screen, from the same
  // playouts (same dice). Shown only while the screen's trade is this one.
  struct TradeAdvice {
    rules::Trade trade;
    std::vector<Chance> without_trade, with_trade;  // by player
    std::string summary;  // "Ann 31% -> 44%, Bob 35% -> 27%": the two traders, whole percents
    int playouts = 0;
    bool refining = false;
    std::string refused;  // the rules' reason when the trade cannot be made as it stands
  };
  std::optional<TradeAdvice> trade;
};

// The same trade: the same two players giving the same things (the order of the lots aside).
bool same_trade(const rules::Trade& a, const rules::Trade& b);

}  // namespace bb::display
