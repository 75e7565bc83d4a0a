#include "rules/bot.h"

#include <algorithm>
#include <array>

#include "rules/finance_1932.h"
#include "rules/input_limits.h"
#include "rules/splitmix.h"

namespace bb::rules {

namespace {
constexpr Money kReserve = Bot::kReserve;

// Where ownership is capped (FINANCE, Parker: eight markers), a player with none left cannot buy or bid.
bool markers_left(const Game& g, PlayerId p) {
  return g.rules().max_properties <= 0 || g.lots_of(p).size() < g.rules().max_properties;
}

bool ownable(const Space& sp) {
  return sp.kind == Space::Kind::property || sp.kind == Space::Kind::railroad ||
         sp.kind == Space::Kind::utility;
}

// Something a player in debt can turn into cash: a building first, then a mortgage.
std::optional<Input> raise_money(const Game& g, PlayerId p) {
  const auto& st = g.state();
  // Only a lot with a building can be sold, unless the lot itself goes back to the bank with its last house
  // (FINANCE, Parker): the cheap test first, so the game's checks see only lots they might allow.
  const bool bare_lots_sell = g.rules().lots_sell_to_bank;
  const SpaceSet& mine = g.lots_of(p);
  // The sales are tried from the end of the board back: the player's lots, turned round.
  std::array<int, kMaxBoardSpaces> numbers;  // space numbers in board order; only [0, owned) is read
  std::size_t owned = 0;
  for (SpaceId s : mine) numbers[owned++] = s.number();
  for (std::size_t k = owned; k-- > 0;)
    if (SpaceId s{numbers[k]};
        (bare_lots_sell || st.spaces[s].houses > 0 || st.spaces[s].hotel) && !g.refusal_to_sell(p, s))
      return Sell{p, s, true};  // bots accept group sales
  for (SpaceId s : mine)        // a mortgaged lot cannot be mortgaged again: the cheap test first
    if (!st.spaces[s].mortgaged && !g.refusal_to_mortgage(p, s)) return Mortgage{p, s};
  return std::nullopt;
}
}  // namespace

std::uint64_t Bot::random() { return splitmix64(rng_); }

const Bot::Thresholds& Bot::thresholds(const Edition& ed) {
  if (thresholds_for_ == &ed) return thresholds_;
  thresholds_for_ = &ed;
  thresholds_ = Thresholds{};
  whole_groups_.clear();
  nearly_whole_.clear();
  for (SpaceId s : ed.spaces.ids()) {
    const Space& sp = ed.spaces[s];
    if (sp.kind == Space::Kind::property) {
      thresholds_.house_cost = std::min(thresholds_.house_cost, sp.house_cost);
      thresholds_.properties.insert(s);
    }
    if (ownable(sp)) thresholds_.mortgage = std::min(thresholds_.mortgage, sp.mortgage);
  }
  thresholds_.group_count = ed.groups.size();
  for (std::size_t gi = 0; gi < ed.groups.size(); ++gi) {
    const int group = static_cast<int>(gi);
    const SpaceSet& members = ed.group_set(group);
    if (members.count_common(thresholds_.properties) > 0) thresholds_.property_groups.push_back(&members);
    const auto& spaces = ed.members_of(group);
    if (spaces.size() >= 2 && ownable(ed.spaces[spaces[0]]))
      thresholds_.trade_groups.push_back({group, static_cast<int>(spaces.size())});
  }
  return thresholds_;
}

const SpaceSet& Bot::build_candidates(const Game& g, PlayerId p, const Thresholds& least) {
  const GameState& st = g.state();
  const SpaceSet& lots = g.lots_of(p);
  if (st.bank_houses == 0 && st.bank_hotels == 0 && st.house_credits[p] == 0 && st.hotel_credits[p] == 0) {
    candidates_ = SpaceSet{};
    return candidates_;
  }
  if (!g.rules().build_needs_group) {
    candidates_ = lots.intersection(least.properties);
    return candidates_;
  }
  if (whole_groups_.size() <= p.index())
    whole_groups_.resize(p.index() + 1, WholeGroups{.lots = {}, .whole = {}});
  WholeGroups& known = whole_groups_[p.index()];
  if (known.lots == lots) return known.whole;  // (no lots, no whole group: the cache starts right)
  SpaceSet whole;
  for (const SpaceSet* group : least.property_groups)
    if (lots.contains_all(*group)) whole.insert_all(*group);
  known = WholeGroups{.lots = lots, .whole = whole.intersection(least.properties)};
  return known.whole;
}

const std::vector<int>& Bot::nearly_whole(const Game& g, PlayerId p, const Thresholds& least) {
  if (nearly_whole_.size() <= p.index()) nearly_whole_.resize(p.index() + 1);
  NearlyWhole& known = nearly_whole_[p.index()];
  const SpaceSet& lots = g.lots_of(p);
  if (known.lots == lots) return known.groups;  // (no lots, no group but one: the cache starts right)
  known.lots = lots;
  known.groups.clear();
  // All but one of the group's lots are the player's, over the groups worked out once for the edition: the
  // player's lots change often enough that this is asked afresh most times. The player's lots are counted
  // by group in one walk of them (a group's set is exactly the spaces of its group_index): counting each
  // group's lots among them a word at a time was a third of the bot's trade decision.
  group_counts_.assign(least.group_count, 0);
  for (SpaceId s : lots)
    if (const int group = g.edition().spaces[s].group_index; group >= 0) ++group_counts_[group];
  for (const Thresholds::TradeGroup& group : least.trade_groups)
    if (group_counts_[group.group] == group.members - 1) known.groups.push_back(group.group);
  return known.groups;
}

bool Bot::buys(const Game& g, const Question& q) {
  return g.state().players[q.player].cash - q.amount >= kReserve && markers_left(g, q.player);
}

int Bot::dice() { return static_cast<int>(random() % 6) + 1; }

Input Bot::next(const Game& g) {
  const GameState& st = g.state();
  const Edition& ed = g.edition();
  const Rules& rules = g.rules();
  if (st.auction) {
    const Auction& a = *st.auction;
    Money value =
        a.item == Auction::Item::property ? ed.spaces[*a.space].price : ed.spaces[0].house_cost + 100;
    AuctionLimits limits;
    for (PlayerId p : st.players.ids()) {
      if (st.players[p].bankrupt) continue;
      if (a.item == Auction::Item::property &&
          (!markers_left(g, p) || finance::why_not_acquire(ed, rules, st, p, *a.space)))
        continue;
      Money limit = auction_limit(st.players[p].cash, value, random());
      if (a.item != Auction::Item::property && !st.players[p].bankrupt) limit = std::min<Money>(limit, 0);
      limits.consider(p.number(), limit);
    }
    const Money bid = limits.bid(a.high_bid, rules.bid_increment);
    if (const PlayerId best{limits.best};
        limits.best >= 0 && best != a.high_bidder && bid <= limits.best_limit && bid <= st.players[best].cash)
      return Bid{best, bid};
    return Close{};
  }
  // FINANCE (1932) forgetters: a bot never forgets its salary. Only where salaries are claimed: elsewhere
  // none is ever waiting (Game::invariant_violations checks it, so a restored game cannot hold one), and this
  // walk of the players ran for every decision.
  if (rules.salary_must_be_claimed)
    for (PlayerId p : st.players.ids())
      if (st.players[p].unclaimed_salary > 0 && !st.players[p].bankrupt) return Claim{p};
  if (!st.pending.empty()) {
    const Question& q = st.pending.front();
    PlayerId p = q.player;
    const auto& pl = st.players[p];
    switch (q.kind) {
      case QuestionKind::debt:
        if (auto raise = raise_money(g, p)) return *raise;
        return Bankrupt{p};
      case QuestionKind::draw:
        return Draw{*q.deck, std::nullopt};
      case QuestionKind::buy:
        return Choose{p, {buys(g, q) ? Answer::buy : Answer::auction}};
      case QuestionKind::tax:
        return Choose{
            p, {q.amount <= g.tax_worth(p) * q.percent / 100 ? Answer::pay_fixed : Answer::pay_percent}};
      case QuestionKind::jail: {
        auto has = [&](Answer a) {
          return std::any_of(q.options.begin(), q.options.end(),
                             [a](const QuestionOption& o) { return o.answer == a; });
        };
        // FINANCE (1932)'s three throws of a house owner: keeps a throw of 7 or more.
        if (has(Answer::use_throw))
          return Choose{p, {q.amount >= 7 ? Answer::use_throw : Answer::throw_again}};
        if (has(Answer::use_card)) return Choose{p, {Answer::use_card}};
        if (has(Answer::pay_fine) && pl.cash > 500) return Choose{p, {Answer::pay_fine}};
        return Roll{dice(), dice()};
      }
      case QuestionKind::mortgaged_transfer: {
        Money lift = ed.spaces[*q.space].mortgage + q.amount;
        return Choose{p, {lifts_transferred_mortgage(pl.cash, lift) ? Answer::lift : Answer::keep}};
      }
      case QuestionKind::roll:
        return Roll{dice(), dice()};
      case QuestionKind::draft: {
        // The set with the highest printed prices.
        QuestionOption best{Answer::take_set};  // no set left: refused, as any answer would be
        Money best_value = -1;
        for (const QuestionOption& o : q.options) {
          Money value = 0;
          for (SpaceId s : ed.members_of(o.group)) value += ed.spaces[s].price;
          if (value > best_value) {
            best_value = value;
            best = o;
          }
        }
        return Choose{p, best};
      }
    }
  }
  // Between moves: the player whose turn it is improves their position, then throws.
  return input_of(between_moves(g));
}

Input Bot::input_of(const Move& move) {
  switch (move.kind) {
    case Move::Kind::roll:
      return Roll{move.d1, move.d2};
    case Move::Kind::build:
      return Build{move.player, move.space, false};
    case Move::Kind::unmortgage:
      return Unmortgage{move.player, move.space};
    case Move::Kind::other:
      break;
  }
  Input other = std::move(*other_);
  other_.reset();
  return other;
}

Bot::Move Bot::between_moves(const Game& g) {
  const GameState& st = g.state();
  const Edition& ed = g.edition();
  PlayerId p = st.current;
  const auto& pl = st.players[p];
  // Most between-moves decisions end in a throw: when the cash covers neither the cheapest house nor the
  // cheapest mortgage to lift, no lot can pass the checks below and none is looked at.
  const Thresholds& least = thresholds(ed);
  if (pl.cash - least.house_cost <= 2 * kReserve && pl.cash <= least.mortgage * 2 + 3 * kReserve)
    return between_moves_without_lots(g, p);
  // The player's lots in board order, kept by the game (no scan of the board). Cheap checks first: they
  // skip most lots before the game checks the rules.
  // Each pass is skipped where the edition's least cost already rules out every lot.
  // Only the player's mortgaged lots (a set the game keeps) are walked for a mortgage to lift: mostly none.
  if (pl.cash > least.mortgage * 2 + 3 * kReserve)
    if (auto lift = g.lots_of(p).intersection(g.mortgaged_lots()).find_first([&](SpaceId s) {
          return pl.cash > ed.spaces[s].mortgage * 2 + 3 * kReserve && !g.refusal_to_unmortgage(p, s);
        }))
      return Move{.kind = Move::Kind::unmortgage, .player = p, .space = *lift};
  // Only the lots that pass the cheap tests (a lot that can have buildings, in a group owned whole) are
  // looked at: most players own no whole group, and then none is. The first in board order with a building
  // the bot can afford (its cost below the cash less twice the reserve) that the rules allow, in one call
  // (Game::first_lot_to_build works out each group's facts once, where a refusal_to_build a lot walked the
  // group for each lot asked about).
  if (pl.cash - least.house_cost > 2 * kReserve)
    if (const SpaceSet& candidates = build_candidates(g, p, least); !candidates.empty())
      if (auto build = g.first_lot_to_build(p, candidates, pl.cash - 2 * kReserve - 1))
        return Move{.kind = Move::Kind::build, .player = p, .space = *build};
  return between_moves_without_lots(g, p);
}

// The between-moves decisions after building and lifting mortgages: now and then a trade that completes a
// group, FINANCE (1932)'s moves, and otherwise the throw.
Bot::Move Bot::between_moves_without_lots(const Game& g, PlayerId p) {
  // Complete a group by buying the one missing lot from its owner, now and then.
  if (random() % 8 == 0 && trade_to_complete_a_group(g, p))
    return Move{.kind = Move::Kind::other, .player = p};
  // finance_1932 draws no random number and finds nothing where the edition has neither partnerships nor
  // jail insurance: it is not even called (its optional Input was a cost of its own on every throw).
  const Rules& rules = g.rules();
  if (rules.partnerships || rules.jail_insurance > 0 || rules.jail_insurance_card > 0)
    if (auto finance_move = finance_1932(g, p)) {
      other_ = std::move(*finance_move);
      return Move{.kind = Move::Kind::other, .player = p};
    }
  const int d1 = dice();
  const int d2 = dice();
  return Move{.kind = Move::Kind::roll, .player = p, .d1 = d1, .d2 = d2};
}

bool Bot::trade_to_complete_a_group(const Game& g, PlayerId p) {
  const GameState& st = g.state();
  const Edition& ed = g.edition();
  const auto& pl = st.players[p];
  // The groups of which the player owns all but one lot (kept by seat until their lots change); that one
  // must be someone's.
  for (int gi : nearly_whole(g, p, thresholds(ed))) {
    const auto& members = ed.members_of(gi);
    std::optional<SpaceId> missing;
    for (SpaceId m : members)
      if (st.spaces[m].owner != p && st.spaces[m].owner) missing = m;
    if (!missing) continue;
    const SpaceId other_lot = *missing;
    PlayerId seller = *st.spaces[other_lot].owner;
    Money offer = ed.spaces[other_lot].price * 2;
    bool buildings = false;
    for (SpaceId m : members) buildings = buildings || st.spaces[m].houses > 0 || st.spaces[m].hotel;
    for (SpaceId m : ed.members_of(ed.spaces[other_lot].group_index))
      buildings = buildings || st.spaces[m].houses > 0 || st.spaces[m].hotel;
    if (finance::lease_in_partnership(ed, st, other_lot)) continue;
    if (!buildings && pl.cash - offer > kReserve) {
      Trade t;
      t.from = p;
      t.to = seller;
      t.give.cash = offer;
      t.get.spaces = {other_lot};
      other_ = std::move(t);
      return true;
    }
  }
  return false;
}

// FINANCE (1932): now and then a railroad or power company partnership; jail insurance before a throw that
// could reach the Go to Jail corner or a card space.
std::optional<Input> Bot::finance_1932(const Game& g, PlayerId p) {
  const GameState& st = g.state();
  const Edition& ed = g.edition();
  const Rules& rules = g.rules();
  const auto& pl = st.players[p];
  if (rules.partnerships && random() % 8 == 0) {
    for (std::size_t gi = 0; gi < ed.groups.size(); ++gi) {
      const auto& members = ed.members_of(static_cast<int>(gi));
      if (members.empty() || ed.spaces[members[0]].kind == Space::Kind::property) continue;
      int mine = 0;
      for (SpaceId m : members) mine += st.spaces[m].owner == p ? 1 : 0;
      if (mine == 0) continue;
      for (PlayerId q : st.players.ids()) {
        int theirs = 0;
        for (SpaceId m : members) theirs += st.spaces[m].owner == q ? 1 : 0;
        if (q == p || theirs == 0) continue;
        Partner deal{p, q, static_cast<int>(gi), std::max(1, 100 * theirs / (mine + theirs))};
        if (!finance::why_not_partner(ed, rules, st, deal)) return deal;
      }
    }
  }
  if (rules.jail_insurance <= 0 && rules.jail_insurance_card <= 0) return std::nullopt;  // nothing to buy
  const SpaceSet& lots = g.lots_of(p);
  bool house_owner =
      std::any_of(lots.begin(), lots.end(), [&](SpaceId s) { return st.spaces[s].houses > 0; });
  if (house_owner || pl.in_jail || !g.between_moves()) return std::nullopt;
  int n = static_cast<int>(ed.spaces.size());
  auto within_a_throw = [&](auto&& wanted) {
    for (int d = 2; d <= 12; ++d)
      for (const Effect& e : ed.spaces[SpaceId{(pl.position.number() + d) % n}].on_land)
        if (wanted(e)) return true;
    return false;
  };
  if (rules.jail_insurance > 0 && !pl.insured && pl.cash > kReserve + rules.jail_insurance &&
      within_a_throw([](const Effect& e) { return e.kind == Effect::Kind::go_to_jail; }))
    return Insure{p, false};
  if (rules.jail_insurance_card > 0 && !pl.insured_card && pl.cash > kReserve + rules.jail_insurance_card &&
      within_a_throw(
          [&](const Effect& e) { return e.kind == Effect::Kind::draw && ed.deck_sends_to_jail(*e.deck); }))
    return Insure{p, true};
  return std::nullopt;
}

}  // namespace bb::rules
