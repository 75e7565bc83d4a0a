// The demo bots at the trade screen: the two traders chosen on its player buttons, cash on the keypad, jail
// cards, each property ticked page by page, then both cards tapped to agree (or the trade left unagreed when
// the screen could not be filled in).
#include <fmt/format.h>

#include <algorithm>

#include "daemon/demo_bots.h"
#include "daemon/demo_bots_pace.h"
#include "table/table.h"

namespace bb::daemon {

namespace {
using namespace demo_pace;
}  // namespace

// The trade screen as two players at the table fill it in: who gives (each side's player button turned until
// it names them), each side's cash on the keypad, Get Out of Jail cards, the properties ticked; then both
// players tap their cards to agree, and they go back home.
void DemoBots::plan_trade(const rules::Trade& trade, std::deque<Act>& acts) {
  acts.push_back({[this](ParticipantContext&) {
                    trade_filled_ = true;
                    trade_swapped_ = false;
                  },
                  milliseconds(0)});
  plan_press("nav.trade", acts, kRead);
  acts.push_back(
      {[this, from = trade.from, to = trade.to](ParticipantContext& c) { choose_traders(c, from, to); },
       kKey});
  const std::array<const rules::Offer*, 2> offers{&trade.give, &trade.get};
  for (int side = 0; side < 2; ++side) {
    const rules::Offer& offer = *offers[static_cast<std::size_t>(side)];
    if (offer.cash > 0) {
      plan_trade_press(side, "cash", acts);
      for (const char digit : std::to_string(offer.cash))
        plan_press(fmt::format("keypad.{}", digit), acts, kKey);
      plan_press("keypad.ok", acts, kKey);
    }
    for (int card = 0; card < offer.cards; ++card) plan_trade_press(side, "cards.more", acts);
    // The screen lists a player's properties in board order, page after page: ticked in that order.
    std::vector<rules::SpaceId> spaces = offer.spaces;
    std::sort(spaces.begin(), spaces.end());
    for (const rules::SpaceId space : spaces)
      acts.push_back({[this, side, space, owner = side == 0 ? trade.from : trade.to](ParticipantContext& c) {
                        tick_trade_space(c, side, space, owner);
                      },
                      kKey});
  }
  acts.push_back({[this](ParticipantContext& c) { screenshot(c, "trade"); }, milliseconds(0)});
  // Both players agree with their cards, only to the trade as the bot decided it: a trade screen the bots
  // could not fill in is left (said and counted as a miss), never agreed to as it stands.
  const std::size_t taps_from = acts.size();
  plan_tap(trade.from, acts, false);
  plan_tap(trade.to, acts, false);
  for (std::size_t i = taps_from; i < acts.size(); ++i)
    acts[i].wanted = [this](const table::TableView&) { return trade_filled_; };
  // A trade left unagreed is cleared (turning a side's player button empties its offer), so no half-made
  // offer waits on the screen for the next trade.
  acts.push_back({[this](ParticipantContext& c) {
                    if (trade_filled_) return;
                    for (const char* side : {"trade.0.player", "trade.1.player"}) {
                      ++tally_.touches;
                      ++tally_.presses;
                      (void)c.press(side);
                    }
                  },
                  kKey});
  plan_press("back", acts, kKey);
}

void DemoBots::plan_trade_press(int side, const std::string& what, std::deque<Act>& acts) {
  Act press{{}, kKey};
  press.target = what;
  press.trade_side = side;
  acts.push_back(std::move(press));
}

void DemoBots::tick_trade_space(ParticipantContext& c, int trade_side, rules::SpaceId space,
                                rules::PlayerId owner) {
  if (!trade_filled_) return;
  const int side = screen_side(trade_side);
  const std::string target = fmt::format("trade.{}.space.{}", side, space.number());
  const auto* game = c.table().view().game;
  if (!game || space.index() >= game->state().spaces.size() || game->state().spaces[space].owner != owner) {
    // The plan is older than the game (the same trade went through already): nothing to agree to.
    trade_filled_ = false;
    return;
  }
  // The list may stand on a later page (the screen keeps its page): back to the first, then forward.
  for (int page = 0; page < 12 && !c.shown_label(target); ++page) {
    ++tally_.touches;
    if (!c.press(fmt::format("trade.{}.page.prev", side))) break;
  }
  for (int page = 0; page < 12 && !c.shown_label(target); ++page) {
    ++tally_.touches;
    if (!c.press(fmt::format("trade.{}.page.next", side))) break;
  }
  auto ticked = [&] {
    const auto label = c.shown_label(target);
    return label && label->rfind("\u2713", 0) == 0;
  };
  if (!ticked() && c.shown_label(target)) {
    ++tally_.touches;
    ++tally_.presses;
    (void)c.press(target);
  }
  if (ticked()) return;
  trade_filled_ = false;
  ++tally_.missed_presses;
  const std::string line =
      fmt::format("the bots could not tick {} on the trade screen: the trade is left", target);
  if (settings_.print)
    settings_.print(line);
  else
    fmt::print(stderr, "{}\n", line);
}

void DemoBots::choose_traders(ParticipantContext& c, rules::PlayerId from, rules::PlayerId to) {
  const auto* game = c.table().view().game;
  if (!game) return;
  const auto& players = game->state().players;
  const int n = static_cast<int>(players.size());
  auto shows = [&](int side, rules::PlayerId player) {
    const auto label = c.shown_label(fmt::format("trade.{}.player", side));
    return label && label->rfind(players[player].name + " gives", 0) == 0;
  };
  // Each side's button turns to the next player who is not on the other side: the giver's side first (the
  // other side moved out of the way when it holds the giver), then the other side.
  // Two players: the buttons cannot swap them, and the trade is the same exchange filled in the other way.
  const auto either_way = [&] {
    if (shows(0, from) && shows(1, to)) return true;
    trade_swapped_ = shows(0, to) && shows(1, from);
    return trade_swapped_;
  };
  for (int turn = 0; turn < 3 * n; ++turn) {
    if (either_way()) return;
    const std::string target = !shows(0, from) && !shows(1, from) ? "trade.0.player" : "trade.1.player";
    ++tally_.touches;
    ++tally_.presses;
    if (!c.press(target)) break;
  }
  if (either_way()) return;
  trade_filled_ = false;
  ++tally_.missed_presses;
  const std::string line = fmt::format("the bots could not set the trade screen to {} and {}",
                                       players[from].name, players[to].name);
  if (settings_.print)
    settings_.print(line);
  else
    fmt::print(stderr, "{}\n", line);
}

}  // namespace bb::daemon
