// PlayoutTurns (rules/playout_turns.h): the compact engine's rules, step by step.
#include "rules/playout_turns.h"

#include <bit>

#include "rules/bot.h"
#include "rules/engine.h"

namespace bb::rules {

PlayoutBoard::PlayoutBoard(std::shared_ptr<const Edition> shared) : edition(shared) {
  const Edition& ed = *shared;
  const int n = static_cast<int>(ed.spaces.size());
  facts.resize(static_cast<std::size_t>(n));
  for (int s = 0; s < n; ++s) {
    const Space& sp = ed.spaces[SpaceId{s}];
    LotFacts& f = facts[static_cast<std::size_t>(s)];
    f.kind = sp.kind;
    f.rent = sp.rent.kind;
    f.group = sp.group_index;
    f.price = sp.price;
    f.house_cost = sp.house_cost;
    f.mortgage = sp.mortgage;
    f.amounts = sp.rent.amounts;
    f.on_land = sp.on_land;
    f.ownable = is_ownable(sp);
    if (sp.kind == Space::Kind::property) {
      properties |= lot_bit(s);
      least_house_cost = std::min(least_house_cost, sp.house_cost);
    }
    if (f.ownable) least_mortgage = std::min(least_mortgage, sp.mortgage);
  }
  group_masks.assign(ed.groups.size(), 0);
  for (std::size_t gi = 0; gi < ed.groups.size(); ++gi) {
    const auto& members = ed.members_of(static_cast<int>(gi));
    for (SpaceId m : members) group_masks[gi] |= lot_bit(m.number());
    if ((group_masks[gi] & properties) != 0) property_groups.push_back(group_masks[gi]);
    if (members.size() >= 2 && is_ownable(ed.spaces[members[0]]))
      trade_groups.push_back({static_cast<int>(gi), static_cast<int>(members.size())});
  }
  jail_space = ed.jail_space->number();
  start_space = ed.start_space.number();
}

// The board of the edition last played on this thread: a playout's start costs no walk of the edition.
const PlayoutBoard& board_of(const std::shared_ptr<const Edition>& edition) {
  thread_local std::optional<PlayoutBoard> board;
  if (!board || board->edition.owner_before(edition) || edition.owner_before(board->edition))
    board.emplace(edition);
  return *board;
}

class PlayoutTurns::Impl {
 public:
  Impl(const Edition& edition, const Rules& rules, const PlayoutBoard& board, int seats, BotDice* dice)
      : ed_(edition),
        r_(rules),
        dice_(dice),
        b_(board),
        n_(static_cast<int>(edition.spaces.size())),
        seats_(seats) {
    // Bot::between_moves lifts a mortgage with more than twice it and three reserves in hand, where
    // Engine::refuse_unmortgage allows it (the mortgage and its interest in hand): the cash above which both
    // hold, by lot.
    for (int s = 0; s < n_; ++s)
      lift_above_[static_cast<std::size_t>(s)] =
          std::max(facts(s).mortgage * 2 + 3 * Bot::kReserve, facts(s).mortgage + interest(s) - 1);
    // The faces of the steps since a checkpoint: two a throw, a throw or two a step, 32 steps (grown from
    // empty, the vector was eight allocations in every playout).
    if (dice_) faces_.reserve(4 * kCheckpointEvery);
  }

  PlayoutTurns::Stop run(int turn_cap, const std::atomic<bool>* stop, long long& from_rest) {
    turn_cap_ = turn_cap;
    take_checkpoint();
    next_active_[0] = -1;  // the table is as the caller loaded it
    while (true) {
      if (stop && stop->load(std::memory_order_relaxed)) return Stop::stopped;
      if (!t_.jail_question && t_.turns >= turn_cap_) return Stop::capped;
      if (since_checkpoint_ == kCheckpointEvery) take_checkpoint();
      ++from_rest;
      ++since_checkpoint_;
      if (!step()) {
        // Undone: the steps since the checkpoint played again, with the same faces (each finished before, and
        // does again), up to the point at rest before this one.
        t_ = checkpoint_;
        faces_used_ = 0;
        next_active_[0] = -1;  // the undone step may have put a player out
        for (int redo = since_checkpoint_ - 1; redo > 0; --redo) step();
        return Stop::stuck;
      }
      if (t_.ended) return Stop::ended;
    }
  }

  // One step from a point at rest (play_from_rest), with the step's own flags cleared.
  bool step() {
    stuck_ = false;
    cut_ = false;
    over_ = false;
    debt_count_ = 0;
    play_from_rest();
    return !stuck_;
  }
  static constexpr int kCheckpointEvery = 32;
  void take_checkpoint() {
    checkpoint_ = t_;
    since_checkpoint_ = 0;
    drop_used_faces();
  }

  // ------------------------------------------------------------------ dice and the bot's draws
  std::uint64_t random() { return splitmix64(t_.bot_rng); }     // Bot::random
  int bot_die() { return static_cast<int>(random() % 6) + 1; }  // Bot::dice
  void drop_used_faces() {
    faces_.erase(faces_.begin(), faces_.begin() + static_cast<std::ptrdiff_t>(faces_used_));
    faces_used_ = 0;
  }
  int next_face() {
    if (faces_used_ < faces_.size()) return faces_[faces_used_++];
    const int face = dice_->die();
    faces_.push_back(face);
    ++faces_used_;
    return face;
  }
  // The faces of a throw the bot sends: its own dice, drawn all the same, then `dice`'s where given
  // (Bot::play).
  std::pair<int, int> throw_faces(int d1, int d2) {
    if (!dice_) return {d1, d2};
    const int f1 = next_face();
    const int f2 = next_face();
    return {f1, f2};
  }

  // A throw the bot sends when the game asks for one (Bot::next's Roll: Bot::dice twice, the faces `dice`'s
  // where given), an input; the table's last dice.
  std::pair<int, int> bot_throw() {
    const int d1 = bot_die();
    const int d2 = bot_die();
    const auto faces = throw_faces(d1, d2);
    ++t_.inputs;
    t_.last_d1 = faces.first;
    t_.last_d2 = faces.second;
    return faces;
  }

  // ------------------------------------------------------------------ the board
  TableBits::Player& player(int p) { return t_.players[static_cast<std::size_t>(p)]; }
  TableBits::Lot& lot(int s) { return t_.lots[static_cast<std::size_t>(s)]; }
  const PlayoutBoard::LotFacts& facts(int s) const { return b_.facts[static_cast<std::size_t>(s)]; }
  bool active(int p) const { return !t_.players[static_cast<std::size_t>(p)].bankrupt; }
  int level(int s) { return lot(s).hotel ? r_.max_houses + 1 : lot(s).houses; }
  bool owns_group(int p, int group) const {
    const std::uint64_t mask = b_.group_masks[static_cast<std::size_t>(group)];
    return (t_.owned[static_cast<std::size_t>(p)] & mask) == mask;
  }
  // Counted a bit at a time: a group has a few lots, and the machine's base instruction set has no popcount
  // (std::popcount is a library call there).
  static int lots_in(std::uint64_t mask) {
    int n = 0;
    for (; mask != 0; mask &= mask - 1) ++n;
    return n;
  }
  int owned_in_group(int p, int group) const {
    return lots_in(t_.owned[static_cast<std::size_t>(p)] & b_.group_masks[static_cast<std::size_t>(group)]);
  }
  bool group_has_buildings(int group) const {
    return (b_.group_masks[static_cast<std::size_t>(group)] & t_.built) != 0;
  }

  // ------------------------------------------------------------------ money (engine_money.cpp)
  // Engine::post without a journal: the cash moves and the posting is counted.
  void post(int from, int to, Money amount) {
    if (amount <= 0 || from == to) return;
    if (from >= 0) player(from).cash -= amount;
    if (to >= 0) player(to).cash += amount;
    ++t_.postings;
  }
  // Engine::pay: a payer short of the amount owes it, a debt question, settled at the step's end.
  void pay(int from, int to, Money amount) {
    if (amount <= 0) return;
    if (from < 0 || player(from).cash >= amount) return post(from, to, amount);
    debts_[static_cast<std::size_t>(debt_count_++)] = {from, to, amount};
  }
  // Engine::settle_debts: every debt the debtor's cash now covers is paid, in order.
  void settle_debts() {
    int kept = 0;
    for (int i = 0; i < debt_count_; ++i) {
      const Debt d = debts_[static_cast<std::size_t>(i)];
      if (player(d.debtor).cash >= d.amount)
        post(d.debtor, d.creditor, d.amount);
      else
        debts_[static_cast<std::size_t>(kept++)] = d;
    }
    debt_count_ = kept;
  }
  // The end of a step: the engine settles the debts it can and, with one still pending, waits for inputs:
  // the bots raise money for the first (Bot::next's raise_money), one input each, the debts settled after
  // each; a debtor with nothing left goes bankrupt (go_bankrupt).
  void settle_at_step() {
    if (debt_count_ != 0) raise_for_debts();  // mostly none: no call
  }
  [[gnu::noinline]] void raise_for_debts() {
    settle_debts();
    while (debt_count_ > 0 && !stuck_ && !over_) {
      if (!raise_money(debts_[0].debtor)) return go_bankrupt(debts_[0].debtor);
      ++t_.inputs;
      settle_debts();
    }
  }

  // The bot's Bankrupt and Engine::bankrupt, for the player whose turn it is, with the rules the compact
  // engine plays (the bank buys the buildings back; a bankrupt's lots go to the creditor, or back to the
  // bank and to auction): his turn passes at once, then the creditor answers for each mortgaged lot received
  // (Bot::next: lift or keep), or the bank auctions the lots in board order. Anything else is Game's: a
  // debtor whose turn it is not, another debt left, the rule switches of the end by bankruptcies or houses
  // that go with the lots, and auctions that would wait for a jailed player's turn.
  void go_bankrupt(int p) {
    const int creditor = debts_[0].creditor;
    if (p != t_.current || r_.end_after_bankruptcies > 0 || r_.creditor_takes_houses) {
      stuck_ = true;
      return;
    }
    for (int i = 1; i < debt_count_; ++i)
      if (debts_[static_cast<std::size_t>(i)].debtor != p) {
        stuck_ = true;
        return;
      }
    ++t_.inputs;
    debt_count_ = 0;
    ++t_.bankruptcies;
    std::uint64_t to_auction = 0, mortgaged_received = 0;
    for (std::uint64_t m = t_.owned[static_cast<std::size_t>(p)]; m != 0; m &= m - 1) {
      const int s = std::countr_zero(m);
      TableBits::Lot& l = lot(s);
      if (l.houses > 0 || l.hotel) {
        const int houses = l.hotel ? r_.houses_for_hotel + 1 : l.houses;
        t_.bank_houses += l.houses;
        if (l.hotel) ++t_.bank_hotels;
        l.houses = 0;
        l.hotel = false;
        t_.hotels &= ~lot_bit(s);
        t_.built &= ~lot_bit(s);
        if (creditor >= 0) post(-1, p, houses * facts(s).house_cost / 2);
      }
      if (creditor < 0) {
        l = TableBits::Lot{};  // Engine::return_to_bank
        t_.mortgaged &= ~lot_bit(s);
        if (r_.bankrupt_lots_auctioned) to_auction |= lot_bit(s);
      } else {
        l.owner = static_cast<std::int8_t>(creditor);
        t_.owned[static_cast<std::size_t>(creditor)] |= lot_bit(s);
        if (l.mortgaged) mortgaged_received |= lot_bit(s);
      }
    }
    t_.owned[static_cast<std::size_t>(p)] = 0;
    auto& pl = player(p);
    post(p, creditor, pl.cash);
    if (creditor < 0) {
      for (std::size_t d = 0; d < ed_.decks.size(); ++d)
        for (; pl.jail_cards[d] > 0; --pl.jail_cards[d]) return_jail_card(static_cast<int>(d));
    } else {
      for (std::size_t d = 0; d < ed_.decks.size(); ++d) {
        player(creditor).jail_cards[d] =
            static_cast<std::int8_t>(player(creditor).jail_cards[d] + pl.jail_cards[d]);
        pl.jail_cards[d] = 0;
      }
    }
    pl.bankrupt = true;
    pl.in_jail = false;
    next_active_[0] = -1;
    cut_ = over_ = true;
    int left = -1, active_players = 0;
    for (int q = 0; q < seats_; ++q)
      if (active(q)) {
        ++active_players;
        left = q;
      }
    if (active_players <= 1) {
      t_.ended = true;
      t_.winner = left;
      t_.jail_question = false;
      return;
    }
    next_turn();
    if (to_auction != 0 && t_.jail_question) {
      stuck_ = true;  // the auctions wait for the jailed player's turn: Game's
      return;
    }
    for (std::uint64_t m = mortgaged_received; m != 0 && !stuck_; m &= m - 1) {
      answer_mortgaged_transfer(creditor, std::countr_zero(m));
      settle_others();
    }
    for (std::uint64_t m = to_auction; m != 0; m &= m - 1) auction(std::countr_zero(m));
  }
  // The debts of a player whose turn it is not, raised as any (settle_at_step); his bankruptcy is Game's.
  void settle_others() {
    settle_debts();
    while (debt_count_ > 0 && !stuck_) {
      if (!raise_money(debts_[0].debtor)) {
        stuck_ = true;
        return;
      }
      ++t_.inputs;
      settle_debts();
    }
  }
  // Bot's raise_money and the engine's Sell (whole group accepted) or Mortgage: a building from the end of
  // the board back that may be sold, else the first lot that may be mortgaged. False: nothing (bankrupt).
  bool raise_money(int p) {
    const std::uint64_t mine = t_.owned[static_cast<std::size_t>(p)];
    for (std::uint64_t m = mine & t_.built; m != 0;) {
      const int s = 63 - std::countl_zero(m);
      m &= ~lot_bit(s);
      if (may_sell(s)) {
        sell(p, s);
        return !stuck_;
      }
    }
    for (std::uint64_t m = mine & ~t_.mortgaged; m != 0; m &= m - 1) {
      const int s = std::countr_zero(m);
      if (facts(s).kind == Space::Kind::property && group_has_buildings(facts(s).group)) continue;
      lot(s).mortgaged = true;
      t_.mortgaged |= lot_bit(s);
      post(-1, p, facts(s).mortgage);
      return true;
    }
    return false;
  }
  // Engine::refuse_sell for the owner of a lot with a building: sold evenly.
  bool may_sell(int s) {
    if (lot(s).hotel) return true;
    for (std::uint64_t m = b_.group_masks[static_cast<std::size_t>(facts(s).group)]; m != 0; m &= m - 1)
      if (level(std::countr_zero(m)) > lot(s).houses) return false;
    return true;
  }
  // Engine::sale_plan and Engine::sell for one building: a house, or a hotel for the houses it replaces. A
  // hotel the bank lacks the houses for comes down with its group's (a group sale): Game's.
  void sell(int p, int s) {
    const Money half = facts(s).house_cost / 2;
    if (!lot(s).hotel) {
      if (--lot(s).houses == 0) t_.built &= ~lot_bit(s);
      ++t_.bank_houses;
      return post(-1, p, half);
    }
    const int replace = std::min(r_.houses_for_hotel, r_.max_houses);
    if (t_.bank_houses < replace) {
      stuck_ = true;
      return;
    }
    lot(s).hotel = false;
    t_.hotels &= ~lot_bit(s);
    ++t_.bank_hotels;
    t_.bank_houses -= replace;
    lot(s).houses = static_cast<std::int8_t>(replace);
    post(-1, p, half);
  }
  // Engine::rent_for.
  Money rent_for(int s, int dice_total) {
    const PlayoutBoard::LotFacts& f = facts(s);
    const TableBits::Lot& l = lot(s);
    const std::span<const Money> amounts = f.amounts;
    switch (f.rent) {
      case RentRule::Kind::table:
        if (l.hotel) return amounts.back();
        if (l.houses > 0) return amounts[static_cast<std::size_t>(l.houses)];
        return amounts[0] * (r_.double_rent_on_group && owns_group(l.owner, f.group) ? 2 : 1);
      case RentRule::Kind::doubling:
        if (l.houses <= 1) return amounts[0];
        return amounts[0] << (l.houses - 1);
      case RentRule::Kind::by_count: {
        const int n = owned_in_group(l.owner, f.group);
        return amounts[static_cast<std::size_t>(std::clamp(n, 1, static_cast<int>(amounts.size())) - 1)];
      }
      case RentRule::Kind::dice: {
        const int n = owned_in_group(l.owner, f.group);
        return amounts[static_cast<std::size_t>(std::clamp(n, 1, static_cast<int>(amounts.size())) - 1)] *
               dice_total;
      }
      case RentRule::Kind::none:
        return 0;
    }
    return 0;
  }
  // Game::tax_worth.
  Money tax_worth(int p) {
    Money w = player(p).cash;
    for (std::uint64_t m = t_.owned[static_cast<std::size_t>(p)]; m != 0; m &= m - 1) {
      const int s = std::countr_zero(m);
      w += facts(s).price;
      w += lot(s).hotel ? facts(s).house_cost * (r_.houses_for_hotel + 1)
                        : facts(s).house_cost * lot(s).houses;
    }
    return w;
  }

  // ------------------------------------------------------------------ moving (engine_moving.cpp)
  void move_by(int p, int steps, bool salary) {
    auto& pl = player(p);
    const int from = pl.position;
    if (steps >= 0 && steps < n_ && b_.start_space == 0) {
      // The start space first on the board (every shipped edition): passing it is going past the last space.
      int to = from + steps;
      const bool crosses = to >= n_ && from != 0;
      if (to >= n_) to -= n_;
      pl.position = static_cast<std::int8_t>(to);
      if (crosses && salary && (to != 0 || r_.salary_on_landing)) {
        pl.passed_start = true;  // Engine::collect_salary
        pay(-1, p, r_.salary);
      }
    } else if (steps >= 0) {
      const int dist_to_start = wrap(b_.start_space - from + n_, n_);
      const bool crosses = dist_to_start != 0 && steps >= dist_to_start;
      const bool lands_on_start = crosses && steps == dist_to_start;
      pl.position = static_cast<std::int8_t>(wrap(from + steps, n_));
      if (crosses && salary && (!lands_on_start || r_.salary_on_landing)) {
        pl.passed_start = true;  // Engine::collect_salary
        pay(-1, p, r_.salary);
      }
    } else {
      pl.position = static_cast<std::int8_t>(((from + steps) % n_ + n_) % n_);
    }
  }
  void move_to(int p, int space, bool salary) {
    const int steps = wrap(space - player(p).position + n_, n_);
    if (steps != 0) move_by(p, steps, salary);
  }
  // Engine::jail: the rest of the jailed player's turn is dropped, but for the end of the roll.
  void jail(int p) {
    auto& pl = player(p);
    pl.position = static_cast<std::int8_t>(b_.jail_space);
    pl.in_jail = true;
    pl.jail_attempts = 0;
    if (p == t_.current) {
      t_.extra_roll_blocked = true;
      cut_ = true;
    }
  }
  void release(int p) {
    player(p).in_jail = false;
    player(p).jail_attempts = 0;
  }
  // Engine::end_roll and Engine::next_turn.
  void end_roll(int p) {
    if (over_) return;  // the turn passed with the bankruptcy
    if (p == t_.current && t_.turn_doubles && !t_.extra_roll_blocked && active(p) && !player(p).in_jail)
      return;
    next_turn();
  }
  // By seat, the next seat round the table still in the game (Engine::next_turn), worked out again after
  // every bankruptcy (-1: to be worked out).
  void find_next_active() {
    for (int q = 0; q < seats_; ++q) {
      int next = q;
      for (int k = 0; k < seats_; ++k) {
        next = wrap(next + 1, seats_);
        if (active(next)) break;
      }
      next_active_[static_cast<std::size_t>(q)] = static_cast<std::int8_t>(active(next) ? next : q);
    }
  }
  void next_turn() {
    t_.doubles_in_row = 0;
    t_.turn_doubles = false;
    t_.extra_roll_blocked = false;
    ++t_.turns;
    if (next_active_[0] < 0) find_next_active();
    t_.current = next_active_[static_cast<std::size_t>(t_.current)];
    t_.jail_question = player(t_.current).in_jail;
  }

  // Engine::land, its steps played in order: the lot offered (the bot's answer at once) or its rent, then
  // the space's effects.
  void land(int p, int multiplier, int dice_multiplier) {
    const int pos = player(p).position;
    const PlayoutBoard::LotFacts& f = facts(pos);
    if (f.ownable) {
      const TableBits::Lot& l = lot(pos);
      if (l.owner < 0) {
        // The buy question, answered at once (Bot::buys): bought at the price, or auctioned.
        ++t_.inputs;
        if (player(p).cash - f.price >= Bot::kReserve) {
          post(p, -1, f.price);
          give_lot(p, pos);
        } else {
          auction(pos);
        }
      } else if (l.owner != p && !l.mortgaged && active(l.owner)) {
        if (f.rent == RentRule::Kind::dice && dice_multiplier > 0)
          throw_for_rent(p, l.owner, dice_multiplier);
        else
          pay(p, l.owner, rent_for(pos, t_.last_d1 + t_.last_d2) * multiplier);
        settle_at_step();
        if (stuck_ || cut_) return;
      }
    }
    for (const Effect& e : f.on_land) {
      apply_effect(p, e);
      if (stuck_ || cut_) return;
      settle_at_step();
      if (stuck_ || cut_) return;
    }
  }

  // Engine::land's need_roll step for a utility a card sent the player to (the rent a fresh throw times the
  // card's multiplier) and Engine::throw_for: the game waits for a throw with nothing pending, so Bot::play
  // asks the bot between moves, as at rest: it may build or lift a mortgage first (an input each), then
  // throws. The rent goes to the owner of the moment the card was played (the step's). A trade offered there,
  // or the turn cap reached by a jailed player's turn (the loop would end the game there), is Game's.
  void throw_for_rent(int p, int owner, int multiplier) {
    if (p != t_.current || t_.turns >= turn_cap_) {
      stuck_ = true;
      return;
    }
    while (true) {
      const Decision decision = between_moves(p);
      if (decision.kind == Decision::Kind::roll) break;
      ++t_.inputs;
      switch (decision.kind) {
        case Decision::Kind::build:
          build(p, decision.space);
          continue;
        case Decision::Kind::unmortgage:
          unmortgage(p, decision.space);
          continue;
        case Decision::Kind::trade:
        case Decision::Kind::roll:
          stuck_ = true;
          return;
      }
    }
    const auto [f1, f2] = bot_throw();
    pay(p, owner, static_cast<Money>(f1 + f2) * multiplier);
  }

  void give_lot(int p, int s) {
    lot(s).owner = static_cast<std::int8_t>(p);
    t_.owned[static_cast<std::size_t>(p)] |= lot_bit(s);
  }
  // The auction of a lot (Engine::start_auction, handle(Bid), handle(Close)) with the bots' bids (Bot::next):
  // every player still in the game draws a limit, the one with the highest bids just above the second (or
  // the standing bid), each bid an input, until nobody outbids the standing bid and the auction closes (an
  // input).
  void auction(int s) {
    const Money value = facts(s).price;
    int high_bidder = -1;
    Money high_bid = 0;
    while (true) {
      Bot::AuctionLimits limits;
      for (int q = 0; q < seats_; ++q)
        if (active(q)) limits.consider(q, Bot::auction_limit(player(q).cash, value, random()));
      const int best = limits.best;
      const Money bid = limits.bid(high_bid, r_.bid_increment);
      ++t_.inputs;
      if (best >= 0 && best != high_bidder && bid <= limits.best_limit && bid <= player(best).cash) {
        high_bid = bid;
        high_bidder = best;
        continue;
      }
      if (high_bidder >= 0) {
        post(high_bidder, -1, high_bid);
        give_lot(high_bidder, s);
      }
      return;
    }
  }

  // Engine::apply_effect, for the effects the compact engine plays; any other is Game's.
  void apply_effect(int p, const Effect& e) {
    switch (e.kind) {
      case Effect::Kind::collect:
        return pay(-1, p, e.amount);
      case Effect::Kind::pay:
        return pay(p, -1, e.amount);
      case Effect::Kind::tax_choice: {
        if (r_.flat_income_tax) return pay(p, -1, e.amount);
        // The tax question, answered by the bot (Bot::next) with one input: the fixed sum unless the
        // percentage of worth is less.
        ++t_.inputs;
        const Money percent_due = tax_worth(p) * e.percent / 100;
        return pay(p, -1, e.amount <= percent_due ? e.amount : percent_due);
      }
      case Effect::Kind::tax_percent_cash:
        return pay(p, -1, player(p).cash * e.percent / 100);
      case Effect::Kind::draw:
        return draw(p, e.deck->index());
      case Effect::Kind::go_to_jail:
        return jail(p);
      case Effect::Kind::get_out_of_jail:
        return;  // the draw put the card in the player's hand
      case Effect::Kind::advance_to:
        move_to(p, e.space, e.salary);
        return land(p, 1, 0);
      case Effect::Kind::advance_to_nearest: {
        for (int k = 1; k <= n_; ++k) {
          const int s = (player(p).position + k) % n_;
          if (ed_.spaces[SpaceId{s}].group == e.group) {
            move_to(p, s, e.salary);
            return land(p, e.multiplier, e.dice_multiplier);
          }
        }
        return;
      }
      case Effect::Kind::move_by:
        move_by(p, e.steps, e.salary);
        return land(p, 1, 0);
      case Effect::Kind::move_to:
        player(p).position = static_cast<std::int8_t>(e.space);
        return land(p, 1, 0);
      case Effect::Kind::pay_each_player:
        for (int o = 0; o < seats_; ++o)
          if (o != p && active(o)) pay(p, o, e.amount);
        return;
      case Effect::Kind::collect_from_each:
        for (int o = 0; o < seats_; ++o)
          if (o != p && active(o)) pay(o, p, e.amount);
        return;
      case Effect::Kind::repairs: {
        Money total = 0;
        for (std::uint64_t m = t_.owned[static_cast<std::size_t>(p)] & t_.built; m != 0; m &= m - 1) {
          const int s = std::countr_zero(m);
          total += lot(s).hotel ? e.per_hotel : lot(s).houses * e.per_house;
        }
        return pay(p, -1, total);
      }
      default:
        stuck_ = true;  // a throw again, a fare, a move back of rivals, theatre seats: Game's
        return;
    }
  }

  // The draw question, answered at once (Engine::handle(Draw) with no card named): the top card, kept if it
  // gets a player out of jail, else put back at the bottom; its effects are steps of their own.
  void draw(int p, int deck_index) {
    DeckBits& deck = t_.decks[static_cast<std::size_t>(deck_index)];
    if (deck.size == 0) {
      stuck_ = true;  // refused by the engine: Game says so
      return;
    }
    ++t_.inputs;
    const int index = deck.pop_top();
    const Card& card = ed_.decks[DeckId{deck_index}].cards[static_cast<std::size_t>(index)];
    if (is_jail_card(card))
      ++player(p).jail_cards[static_cast<std::size_t>(deck_index)];
    else
      deck.push_bottom(index);
    for (const Effect& e : card.effects) {
      apply_effect(p, e);
      if (stuck_ || cut_) return;
      settle_at_step();
      if (stuck_ || cut_) return;
    }
  }

  // ------------------------------------------------------------------ the bots' decisions (rules/bot.cpp)
  // What the bot does between moves (Bot::between_moves), worked out without changing anything but its
  // random source.
  struct Decision {
    enum class Kind : std::uint8_t { roll, build, unmortgage, trade };
    Kind kind = Kind::roll;
    int space = -1;   // build, unmortgage: the lot; trade: the lot bought
    int seller = -1;  // trade
    Money offer = 0;  // trade: the cash given for it
  };
  Decision between_moves(int p) {
    const Money cash = player(p).cash;
    if (!(cash - b_.least_house_cost <= 2 * Bot::kReserve &&
          cash <= b_.least_mortgage * 2 + 3 * Bot::kReserve)) {
      if (cash > b_.least_mortgage * 2 + 3 * Bot::kReserve)
        for (std::uint64_t m = t_.owned[static_cast<std::size_t>(p)] & t_.mortgaged; m != 0; m &= m - 1) {
          const int s = std::countr_zero(m);
          if (cash > lift_above_[static_cast<std::size_t>(s)]) return {Decision::Kind::unmortgage, s};
        }
      if (cash - b_.least_house_cost > 2 * Bot::kReserve)
        if (const int s = first_lot_to_build(p, build_candidates(p), cash - 2 * Bot::kReserve - 1); s >= 0)
          return {Decision::Kind::build, s};
    }
    // The draw for a trade, then the throw's two dice (Bot::between_moves_without_lots): the bot's next three
    // draws, mixed side by side; the dice's two are taken (the state moved on) only for a throw.
    const std::uint64_t state = t_.bot_rng;
    const std::uint64_t trade_draw = splitmix64_mix(state + kSplitmixStep);
    throw_draws_[0] = splitmix64_mix(state + 2 * kSplitmixStep);
    throw_draws_[1] = splitmix64_mix(state + 3 * kSplitmixStep);
    t_.bot_rng = state + kSplitmixStep;
    if (trade_draw % 8 == 0)
      if (Decision trade = trade_to_complete_a_group(p); trade.kind == Decision::Kind::trade) return trade;
    return {};
  }
  Money interest(int s) const {
    const Money m = facts(s).mortgage * r_.mortgage_interest_percent;
    return (m + 99) / 100;
  }
  // Bot::build_candidates: the lots of the groups the player owns whole; none when the bank has no building.
  std::uint64_t build_candidates(int p) {
    if (t_.bank_houses == 0 && t_.bank_hotels == 0) return 0;
    const std::uint64_t mine = t_.owned[static_cast<std::size_t>(p)];
    Candidates& known = candidates_[static_cast<std::size_t>(p)];
    if (known.owned == mine) return known.lots;  // (no lots, no whole group: the cache starts right)
    std::uint64_t whole = 0;
    for (std::uint64_t group : b_.property_groups)
      if ((mine & group) == group) whole |= group;
    known = {mine, whole & b_.properties};
    return known.lots;
  }
  // Engine::first_lot_to_build with Engine::build_refusal for a house or the hotel next: the first lot in
  // board order the rules allow within the budget; -1: none.
  int first_lot_to_build(int p, std::uint64_t among, Money budget) {
    int facts_of = -1;  // the group the facts below are about (worked out once for its lots in a row)
    bool lot_mortgaged = false, ready_for_hotels = true;
    int lowest = 0;
    // `among` are the property lots of groups the player owns whole (build_candidates): a lot with a hotel
    // or a mortgage is refused whatever else.
    for (std::uint64_t m = among & ~(t_.hotels | t_.mortgaged); m != 0; m &= m - 1) {
      const int s = std::countr_zero(m);
      const PlayoutBoard::LotFacts& f = facts(s);
      const TableBits::Lot& l = lot(s);
      if (f.house_cost > budget) continue;
      if (f.group != facts_of) {
        facts_of = f.group;
        const std::uint64_t group = b_.group_masks[static_cast<std::size_t>(f.group)];
        lot_mortgaged = (group & t_.mortgaged) != 0;
        ready_for_hotels = true;
        lowest = r_.max_houses + 1;
        for (std::uint64_t g = lot_mortgaged ? 0 : group; g != 0; g &= g - 1) {
          const int member = std::countr_zero(g);
          ready_for_hotels &= lot(member).hotel || lot(member).houses >= r_.houses_for_hotel;
          lowest = std::min(lowest, level(member));
        }
      }
      if (lot_mortgaged) continue;
      const bool hotel = r_.hotels_enabled && l.houses == r_.max_houses;
      if (!hotel && l.houses >= r_.max_houses) continue;
      if (hotel && !ready_for_hotels) continue;
      if (!hotel && lowest < l.houses) continue;
      if (hotel && t_.bank_hotels == 0) continue;
      if (!hotel && t_.bank_houses == 0) continue;
      if (player(p).cash < f.house_cost) continue;
      return s;
    }
    return -1;
  }
  // Engine::build, the bot's house or hotel (Bot::play hands it over without asking again).
  void build(int p, int s) {
    TableBits::Lot& l = lot(s);
    const bool hotel = r_.hotels_enabled && l.houses == r_.max_houses;
    post(p, -1, facts(s).house_cost);
    t_.built |= lot_bit(s);
    if (hotel) {
      --t_.bank_hotels;
      t_.bank_houses += l.houses;
      l.houses = 0;
      l.hotel = true;
      t_.hotels |= lot_bit(s);
    } else {
      --t_.bank_houses;
      ++l.houses;
    }
  }
  // Bot::trade_to_complete_a_group: whether the bot offers a trade now (Game plays it).
  // Bot::nearly_whole: the trade groups (by their index in PlayoutBoard::trade_groups) of which the player
  // owns all lots but one, kept by seat for the lots the player owned then.
  std::uint64_t nearly_whole(int p, std::uint64_t mine) {
    NearlyWhole& known = nearly_whole_[static_cast<std::size_t>(p)];
    if (known.owned == mine) return known.groups;  // (no lots, no group but one: the cache starts right)
    known = {mine, 0};
    for (std::size_t i = 0; i < b_.trade_groups.size(); ++i) {
      const std::uint64_t others = b_.group_masks[static_cast<std::size_t>(b_.trade_groups[i].group)] & ~mine;
      if (others != 0 && (others & (others - 1)) == 0) known.groups |= std::uint64_t{1} << i;
    }
    return known.groups;
  }
  Decision trade_to_complete_a_group(int p) {
    const Money cash = player(p).cash;
    const std::uint64_t mine = t_.owned[static_cast<std::size_t>(p)];
    for (std::uint64_t near = nearly_whole(p, mine); near != 0; near &= near - 1) {
      const PlayoutBoard::TradeGroup& tg = b_.trade_groups[static_cast<std::size_t>(std::countr_zero(near))];
      // The one lot of the group that is not the player's (Bot: the last such that someone owns).
      const int missing = std::countr_zero(b_.group_masks[static_cast<std::size_t>(tg.group)] & ~mine);
      if (lot(missing).owner < 0) continue;
      const Money offer = facts(missing).price * 2;
      const bool buildings = group_has_buildings(tg.group) || group_has_buildings(facts(missing).group);
      if (!buildings && cash - offer > Bot::kReserve)
        return {Decision::Kind::trade, missing, lot(missing).owner, offer};
    }
    return {};
  }

  // Engine::handle(Unmortgage): the mortgage and its interest paid (the bot asked for a lot it can lift).
  void unmortgage(int p, int s) {
    lot(s).mortgaged = false;
    t_.mortgaged &= ~lot_bit(s);
    post(p, -1, facts(s).mortgage);
    post(p, -1, interest(s));
  }

  // Engine::handle(Trade) for the bot's offer (Bot::trade_to_complete_a_group: cash for the lot that
  // completes its group, no building on it), and the question a mortgaged lot asks its new owner, answered by
  // the bot (Bot::next): lifted when the cash left exceeds twice the reserve, else kept for the interest.
  void trade(int p, const Decision& d) {
    ++t_.inputs;
    post(p, d.seller, d.offer);
    lot(d.space).owner = static_cast<std::int8_t>(p);
    t_.owned[static_cast<std::size_t>(d.seller)] &= ~lot_bit(d.space);
    t_.owned[static_cast<std::size_t>(p)] |= lot_bit(d.space);
    if (!lot(d.space).mortgaged) return;
    answer_mortgaged_transfer(p, d.space);
    settle_at_step();
  }
  // Engine::ask_mortgaged_transfer's question to the new owner of a mortgaged lot, the bot's answer
  // (Bot::lifts_transferred_mortgage) and Engine::handle(Choose)'s payments: an input; the debts they leave
  // are for the caller to settle.
  void answer_mortgaged_transfer(int owner, int s) {
    ++t_.inputs;
    if (Bot::lifts_transferred_mortgage(player(owner).cash, facts(s).mortgage + interest(s))) {
      lot(s).mortgaged = false;
      t_.mortgaged &= ~lot_bit(s);
      pay(owner, -1, facts(s).mortgage);
    }
    pay(owner, -1, interest(s));
  }

  // ------------------------------------------------------------------ a turn
  // From a point at rest to the next: one decision between moves (a house, or a throw and all it causes), or
  // a jailed player's turn. stuck_ when any of it is Game's.
  void play_from_rest() {
    if (t_.jail_question) return jail_turn();
    const int p = t_.current;
    const Decision decision = between_moves(p);
    switch (decision.kind) {
      case Decision::Kind::build:
        ++t_.inputs;
        return build(p, decision.space);
      case Decision::Kind::unmortgage:
        ++t_.inputs;
        return unmortgage(p, decision.space);
      case Decision::Kind::trade:
        return trade(p, decision);
      case Decision::Kind::roll:
        break;
    }
    // Bot::dice twice: the draws between_moves worked out.
    const int d1 = static_cast<int>(throw_draws_[0] % 6) + 1;
    const int d2 = static_cast<int>(throw_draws_[1] % 6) + 1;
    t_.bot_rng += 2 * kSplitmixStep;
    const auto [f1, f2] = throw_faces(d1, d2);
    throw_dice(p, f1, f2);
  }

  // Engine::handle(Roll) between moves, with Engine::fast_throw's move and landing and the end of the roll.
  void throw_dice(int p, int d1, int d2) {
    ++t_.inputs;
    t_.last_d1 = d1;
    t_.last_d2 = d2;
    const bool doubles = d1 == d2;
    t_.turn_doubles = doubles;
    if (doubles) ++t_.doubles_in_row;
    if (doubles && r_.three_doubles_to_jail && t_.doubles_in_row >= 3) {
      jail(p);  // and the turn passes (Engine::next_turn; jail() blocked the extra throw)
      return end_roll(p);
    }
    move_by(p, d1 + d2, true);
    land(p, 1, 0);
    if (stuck_) return;
    end_roll(p);
  }

  // Engine::ask_jail's question and the bot's answer (Bot::next): the card, the fine before the throw when
  // it has more than $500, or a throw for doubles (Engine::jail_roll).
  void jail_turn() {
    const int p = t_.current;
    auto& pl = player(p);
    const bool fine_offered = pl.jail_attempts < r_.jail_turns - 1 && pl.cash >= r_.jail_fine;
    int held_deck = -1;
    for (std::size_t d = 0; d < ed_.decks.size() && held_deck < 0; ++d)
      if (pl.jail_cards[d] > 0) held_deck = static_cast<int>(d);
    if (held_deck >= 0) {
      ++t_.inputs;
      t_.jail_question = false;
      --pl.jail_cards[static_cast<std::size_t>(held_deck)];
      return_jail_card(held_deck);
      return release(p);
    }
    if (fine_offered && pl.cash > 500) {
      ++t_.inputs;
      t_.jail_question = false;
      post(p, -1, r_.jail_fine);
      return release(p);
    }
    const auto [f1, f2] = bot_throw();
    t_.jail_question = false;
    t_.turn_doubles = false;
    if (f1 == f2) {
      release(p);
      t_.extra_roll_blocked = true;  // doubles out of jail move the token but give no further throw
    } else if (++pl.jail_attempts >= r_.jail_turns) {
      release(p);
      t_.extra_roll_blocked = true;
      pay(p, -1, r_.jail_fine);
      settle_at_step();
      if (stuck_ || over_) return;
    } else {
      return end_roll(p);  // stays in jail: Engine::next_turn
    }
    move_by(p, f1 + f2, true);
    land(p, 1, 0);
    if (stuck_) return;
    end_roll(p);
  }
  // Engine::return_jail_card: the card goes back to the bottom of its deck.
  void return_jail_card(int deck_index) {
    const auto& cards = ed_.decks[DeckId{deck_index}].cards;
    DeckBits& deck = t_.decks[static_cast<std::size_t>(deck_index)];
    for (std::size_t c = 0; c < cards.size(); ++c) {
      if (!is_jail_card(cards[c])) continue;
      int in_deck = 0;
      for (int i = 0; i < deck.size; ++i) in_deck += deck.at(i) == static_cast<int>(c) ? 1 : 0;
      if (in_deck < cards[c].copies) {
        deck.push_bottom(static_cast<int>(c));
        return;
      }
    }
  }

  using Stop = PlayoutTurns::Stop;
  const Edition& ed_;
  const Rules& r_;
  BotDice* dice_;
  const PlayoutBoard& b_;
  const int n_;
  const int seats_;

 public:
  TableBits t_;

 private:
  // The debt questions pending, in order: only ever within a turn (none at rest), so not in TableBits.
  struct Debt {
    int debtor = 0;
    int creditor = -1;  // -1: the bank
    Money amount = 0;
  };
  std::array<Debt, kMaxPlayers * 2> debts_{};
  int debt_count_ = 0;
  // Bot::build_candidates' answer by seat, for the lots the player owned then.
  struct Candidates {
    std::uint64_t owned = 0;
    std::uint64_t lots = 0;
  };
  std::array<Candidates, kMaxPlayers> candidates_{};
  struct NearlyWhole {
    std::uint64_t owned = 0;
    std::uint64_t groups = 0;
  };
  std::array<NearlyWhole, kMaxPlayers> nearly_whole_{};
  std::array<std::int8_t, kMaxPlayers> next_active_{-1};
  std::array<Money, playout_limits::kBoardSpaces> lift_above_{};
  int turn_cap_ = 0;                            // run()'s turn cap: its loop and throw_for_rent read this one
  std::array<std::uint64_t, 2> throw_draws_{};  // the bot's draws for the dice of a throw (between_moves)
  // The state at a point at rest some steps back (kCheckpointEvery at most), and how many steps were played
  // from it: a step the compact engine cannot finish is undone by playing those again up to it.
  TableBits checkpoint_;
  int since_checkpoint_ = 0;
  // The faces taken from `dice_` since the checkpoint: handed out again when a step is undone.
  std::vector<int> faces_;
  std::size_t faces_used_ = 0;
  bool stuck_ = false;  // the turn is Game's: undone and handed over
  bool cut_ = false;    // the current player was jailed or went bankrupt: the rest of his turn is dropped
  bool over_ = false;   // the current player went bankrupt: his turn has passed, with its end
};

PlayoutTurns::PlayoutTurns(const Edition& edition, const Rules& rules, const PlayoutBoard& board, int seats,
                           BotDice* dice)
    : impl_(std::make_unique<Impl>(edition, rules, board, seats, dice)) {}
PlayoutTurns::~PlayoutTurns() = default;
TableBits& PlayoutTurns::table() { return impl_->t_; }
PlayoutTurns::Stop PlayoutTurns::run(int turn_cap, const std::atomic<bool>* stop, long long& from_rest) {
  return impl_->run(turn_cap, stop, from_rest);
}
int PlayoutTurns::next_face() { return impl_->next_face(); }

}  // namespace bb::rules
