// Engine: each input's checks (before any change) and its effect.
#include "rules/engine.h"

namespace bb::rules {

std::string Engine::expecting() const {
  if (st.ended) return "the game has ended";
  if (st.auction) return fmt::format("the auction of {} is running (bid or close)", auction_name());
  if (!st.pending.empty()) {
    const Question& q = st.pending.front();
    switch (q.kind) {
      case QuestionKind::debt:
        return fmt::format("{} owes {} ({}): raise money or send bankrupt", name(q.player), money(q.amount),
                           q.reason);
      case QuestionKind::draw:
        return fmt::format("{} must draw a {} card", name(q.player), ed.decks[*q.deck].id);
      default:
        return fmt::format("{} must answer the {} question", name(q.player),
                           std::string(question_name(q.kind)));
    }
  }
  if (!g.steps_.empty()) return fmt::format("a throw of the dice for {}", name(g.steps_.back().player));
  return fmt::format("{}'s roll", name(st.current));
}

std::expected<void, std::string> Engine::handle(const Roll& in) {
  if (in.d1 < 1 || in.d1 > 6 || in.d2 < 1 || in.d2 > 6)
    return Fail(fmt::format("dice must show 1 to 6, not {} and {}", in.d1, in.d2));
  if (st.ended) return Fail("the game has ended");
  if (st.auction) return Fail(fmt::format("not a time to roll: {}", expecting()));
  bool doubles = in.d1 == in.d2;
  int total = in.d1 + in.d2;
  if (!st.pending.empty()) {
    const Question& q = st.pending.front();
    if (st.pending.size() == 1 && q.kind == QuestionKind::jail) return jail_roll(in);
    return Fail(fmt::format("not a time to roll: {}", expecting()));
  }
  st.last_d1 = in.d1;
  st.last_d2 = in.d2;
  if (!g.steps_.empty() && g.steps_.back().roll == Step::Roll::jail_attempt &&
      g.steps_.back().kind == Step::Kind::need_roll)
    return jail_roll(in);
  if (!g.steps_.empty()) {
    Step s = g.steps_.back();
    assert(s.kind == Step::Kind::need_roll);
    g.steps_.pop_back();
    return throw_for(s, total, doubles);
  }
  PlayerId p = st.current;
  g.turn_doubles_ = doubles;
  if (doubles) ++st.doubles_in_row;
  if (doubles && r.three_doubles_to_jail && st.doubles_in_row >= 3) {
    event([&] { return Event{.kind = Event::Kind::three_doubles, .player = p}; });
    jail(p);
    next_turn();
    return {};
  }
  if (!g.fast_paths_) {
    push_front({move_by_step(p, total, true), land_step(p), make(Step::Kind::end_roll, p)});
    return {};
  }
  fast_throw(p, total);
  return {};
}

// The common throw between moves without the step machine: the queue is empty and no question is pending, so
// the step machine would take the move, the landing and the end of the roll one after the other with nothing
// in between (the move's salary comes from the bank and never leaves a debt). Here the end of the roll waits
// under whatever the landing queues, exactly where the machine would have it, and when the landing queued
// nothing and asked nothing the roll ends at once. A landing that owes only rent pays it here, as the machine
// would have paid it next (the payer's debt, if any, is the same question); anything else the landing queues
// (a card, a tax, a partner's share, a free ride) the machine runs as before, in Engine::run after this
// input.
void Engine::fast_throw(PlayerId p, int total) {
  // The queue is empty (Engine::handle(Roll) comes here only then), and neither the move nor the landing
  // reads it: the end of the roll is put under what the landing queued only when it queued something or
  // asked a question (a step pushed and popped again on every throw was a cost of its own).
  assert(g.steps_.empty());
  move_by(p, total, true);
  const SpaceId pos = st.players[p].position;
  // Engine::land's rent with nothing else to do (the same rule: charges_rent).
  if (lands_on_rent_only(p, pos))
    pay(p, *st.spaces[pos].owner, rent_for(pos, st.last_d1 + st.last_d2), Memo::rent, pos);
  else
    land(p, 1, 0);
  if (g.steps_.empty() && !blocked()) {
    end_roll(p);
    return;
  }
  g.steps_.insert(g.steps_.begin(), make(Step::Kind::end_roll, p));
}

void Engine::answer_buy(std::vector<Question>::iterator question, bool buy) {
  const PlayerId p = question->player;
  const SpaceId lot = *question->space;  // a buy question always names its lot
  const Money price = question->amount;
  st.pending.erase(question);
  if (!buy) return start_auction(Auction::Item::property, lot);
  post(p, Account::bank(), price, Memo::buy, lot);
  give_lot(p, lot);
  event([&] { return Event{.kind = Event::Kind::bought, .player = p, .space = lot, .amount = price}; });
}

std::expected<void, std::string> Engine::jail_roll(const Roll& in) {
  PlayerId p = st.current;
  std::erase_if(st.pending, [&](const Question& q) { return q.kind == QuestionKind::jail; });
  std::erase_if(g.steps_, [](const Step& s) {
    return s.kind == Step::Kind::need_roll && s.roll == Step::Roll::jail_attempt;
  });
  st.last_d1 = in.d1;
  st.last_d2 = in.d2;
  int total = in.d1 + in.d2;
  auto& pl = st.players[p];
  g.turn_doubles_ = false;
  if (three_throws_out(p)) {
    // "Each throw cancels opportunity to use the previous one": after the first and second throw he keeps
    // it or throws again; the third is his.
    ++pl.jail_attempts;
    if (pl.jail_attempts < kJailThrows) {
      Question q;
      q.player = p;
      q.kind = QuestionKind::jail;
      q.amount = total;  // the throw he may use
      q.options = {{Answer::use_throw}, {Answer::throw_again}};
      st.pending.push_back(std::move(q));
      return {};
    }
    return leave_jail_by_throw(p, total);
  }
  if (in.d1 == in.d2) {
    release(p);
    g.extra_roll_blocked_ = true;  // doubles out of jail move the token but give no further throw
    if (r.jail_exit_ends_turn) {
      push_front({make(Step::Kind::end_roll, p)});  // out, without moving on this turn
      return {};
    }
    push_front({move_by_step(p, total, true), land_step(p), make(Step::Kind::end_roll, p)});
    return {};
  }
  ++pl.jail_attempts;
  int last_turn = r.leave_jail_next_turn ? 1 : r.jail_turns;
  if (pl.jail_attempts >= last_turn) {
    Step fine = make(Step::Kind::pay, p);
    fine.to = Account::bank();
    // FINANCE (1932): "On the third turn he must come out whatever the number rolled": no fine.
    fine.amount = r.jail_last_turn_free ? 0 : r.jail_fine;
    fine.memo = Memo::jail_fine;
    fine.space = ed.jail_space;
    release(p);
    g.extra_roll_blocked_ = true;
    if (r.jail_exit_ends_turn) {
      push_front({fine, make(Step::Kind::end_roll, p)});  // out for the fine, without moving on this turn
      return {};
    }
    push_front({fine, move_by_step(p, total, true), land_step(p), make(Step::Kind::end_roll, p)});
    return {};
  }
  event([&] { return Event{.kind = Event::Kind::stays_in_jail, .player = p}; });
  next_turn();
  return {};
}

std::expected<void, std::string> Engine::throw_for(const Step& s, int total, bool doubles) {
  switch (s.roll) {
    case Step::Roll::rent_dice: {
      Money rent = static_cast<Money>(total) * s.multiplier;
      pay(s.player, s.to, rent, Memo::rent, s.space);
      FrontSteps shares = front_steps();
      partner_shares(shares, s.player, *s.space, rent);
      shares.done();
      return {};
    }
    case Step::Roll::sweepstakes:
      for (PlayerId o : st.players.ids())
        if (o != s.player && active(o))
          pay(o, s.player, static_cast<Money>(total) * s.multiplier, Memo::sweepstakes, s.space);
      return {};
    // A throw that moves the token replaces the extra throw a double had earned; if it is itself a double,
    // it earns one (FINANCE, Parker: "no player may have more than one extra throw due").
    case Step::Roll::roll_move:
      if (s.player == st.current) g.turn_doubles_ = doubles;
      push_front({move_by_step(s.player, total % 2 == 0 ? total : -total, true), land_step(s.player)});
      return {};
    case Step::Roll::fare_move:
      if (s.player == st.current) g.turn_doubles_ = doubles;
      push_front({move_by_step(s.player, total, true), land_step(s.player)});
      return {};
    case Step::Roll::jail_attempt:
      return {};  // handled by jail_roll before we get here
  }
  return {};
}

std::expected<void, std::string> Engine::handle(const Choose& in) {
  if (auto e = check_player(in.player)) return Fail(*e);
  auto it = std::find_if(st.pending.begin(), st.pending.end(), [&](const Question& q) {
    return q.player == in.player && q.kind != QuestionKind::debt && q.kind != QuestionKind::draw;
  });
  if (it == st.pending.end()) return Fail(fmt::format("{} has no question to answer", name(in.player)));
  auto chosen = std::find(it->options.begin(), it->options.end(), in.option);
  if (chosen == it->options.end()) {
    std::string opts;
    for (const auto& o : it->options) {
      if (!opts.empty()) opts += ", ";
      opts += g.option_name(o);
    }
    return Fail(fmt::format("'{}' is not an answer to {}'s {} question (options: {})",
                            g.option_name(in.option), name(in.player), question_name(it->kind), opts));
  }
  const QuestionOption answer = *chosen;
  // The question's facts the answer needs, kept past its erase below (a copy of the whole Question copied
  // its options and strings: an allocation per answer).
  struct Facts {
    QuestionKind kind;
    std::optional<SpaceId> space;
    Money amount;
    int percent;
  } const q{it->kind, it->space, it->amount, it->percent};
  PlayerId p = in.player;
  switch (q.kind) {
    case QuestionKind::buy: {
      const SpaceId lot = *q.space;  // a buy question always names its lot
      if (answer.answer == Answer::buy) {
        if (st.players[p].cash < q.amount)
          return Fail(fmt::format("{} has {} and {} costs {}: raise money first, or choose auction", name(p),
                                  money(st.players[p].cash), space_name(lot), money(q.amount)));
        if (r.max_properties > 0 && properties_owned(p) >= r.max_properties)
          return Fail(
              fmt::format("{} already owns {} properties, the most allowed", name(p), r.max_properties));
      }
      answer_buy(it, answer.answer == Answer::buy);
      return {};
    }
    case QuestionKind::tax: {
      st.pending.erase(it);
      // Worth is counted only now, after the choice, as the rule book says.
      Money due = answer.answer == Answer::pay_fixed ? q.amount : g.tax_worth(p) * q.percent / 100;
      pay(p, Account::bank(), due, Memo::tax, q.space);
      return {};
    }
    case QuestionKind::jail: {
      st.pending.erase(it);
      if (answer.answer == Answer::roll) {
        // The throw for doubles follows as the next roll (a roll sent straight away means the same).
        Step attempt = make(Step::Kind::need_roll, p);
        attempt.roll = Step::Roll::jail_attempt;
        g.steps_.push_back(attempt);
        return {};
      }
      if (answer.answer == Answer::throw_again) {
        Step attempt = make(Step::Kind::need_roll, p);
        attempt.roll = Step::Roll::jail_attempt;
        g.steps_.push_back(attempt);
        return {};
      }
      if (answer.answer == Answer::use_throw) return leave_jail_by_throw(p, static_cast<int>(q.amount));
      if (answer.answer == Answer::pay_fine) {
        post(p, Account::bank(), r.jail_fine, Memo::jail_fine, ed.jail_space);
      } else {
        use_jail_card(p);
      }
      release(p);
      if (r.jail_exit_ends_turn) next_turn();  // out, but this turn was spent getting out
      return {};
    }
    case QuestionKind::mortgaged_transfer: {
      st.pending.erase(it);
      const SpaceId lot = *q.space;  // a mortgaged_transfer question always names its lot
      if (answer.answer == Answer::lift) {
        set_mortgaged(lot, false);
        pay(p, Account::bank(), ed.spaces[lot].mortgage, Memo::unmortgage, lot);
        pay(p, Account::bank(), interest(lot), Memo::interest, lot);
        event([&] { return Event{.kind = Event::Kind::unmortgaged, .player = p, .space = lot}; });
      } else {
        pay(p, Account::bank(), interest(lot), Memo::interest, lot);
      }
      return {};
    }
    case QuestionKind::draft: {
      // "These are free -- no payment to the Bank is required."
      st.pending.erase(it);
      st.draft_picks.erase(st.draft_picks.begin());
      int gi = answer.group;
      for (SpaceId s : ed.members_of(gi)) give_lot(p, s);
      event([&] { return Event{.kind = Event::Kind::drafted, .player = p, .group = gi}; });
      ask_draft();
      return {};
    }
    default:
      return Fail("that question is not answered by choose");
  }
}

std::expected<void, std::string> Engine::handle(const Bid& in) {
  if (auto e = check_player(in.player)) return Fail(*e);
  if (!st.auction) return Fail("there is no auction running");
  Auction& a = *st.auction;
  if (in.amount <= 0) return Fail("a bid must be more than 0");
  if (a.high_bidder && in.amount < a.high_bid + r.bid_increment)
    return Fail(fmt::format("a bid must beat {} by at least {}", money(a.high_bid), money(r.bid_increment)));
  if (in.amount > st.players[in.player].cash)
    return Fail(fmt::format("{} has only {}: raise money before bidding {}", name(in.player),
                            money(st.players[in.player].cash), money(in.amount)));
  if (a.item == Auction::Item::property)
    if (auto why = finance::why_not_acquire(ed, r, st, in.player, *a.space)) return Fail(*why);
  if (a.item == Auction::Item::property && r.max_properties > 0 &&
      properties_owned(in.player) >= r.max_properties)
    return Fail(fmt::format("{} already owns {} properties, the most allowed: sell one first",
                            name(in.player), r.max_properties));
  a.high_bid = in.amount;
  a.high_bidder = in.player;
  return {};
}

std::expected<void, std::string> Engine::handle(const Close&) {
  if (!st.auction) return Fail("there is no auction running");
  Auction a = *st.auction;
  if (!a.high_bidder) {
    st.auction.reset();
    event([&] { return Event{.kind = Event::Kind::auction_unsold, .space = a.space, .auctioned = a.item}; });
    return {};
  }
  PlayerId p = *a.high_bidder;
  if (st.players[p].cash < a.high_bid)
    return Fail(fmt::format("{} bid {} but now has {}: they must raise money before the auction closes",
                            name(p), money(a.high_bid), money(st.players[p].cash)));
  st.auction.reset();
  if (a.item == Auction::Item::property) {
    post(p, Account::bank(), a.high_bid, Memo::auction, a.space);
    give_lot(p, *a.space);
  } else if (a.item == Auction::Item::house) {
    post(p, Account::bank(), a.high_bid, Memo::auction, std::nullopt);
    --st.bank_houses;
    ++st.house_credits[p];
  } else {
    post(p, Account::bank(), a.high_bid, Memo::auction, std::nullopt);
    --st.bank_hotels;
    ++st.hotel_credits[p];
  }
  event([&] {
    return Event{.kind = Event::Kind::auction_won,
                 .player = p,
                 .space = a.space,
                 .amount = a.high_bid,
                 .auctioned = a.item};
  });
  return {};
}

std::expected<void, std::string> Engine::handle(const Draw& in) {
  auto it = std::find_if(st.pending.begin(), st.pending.end(),
                         [&](const Question& q) { return q.kind == QuestionKind::draw; });
  if (it == st.pending.end() || it != st.pending.begin())
    return Fail(fmt::format("no card is to be drawn now: {}", expecting()));
  if (in.deck.index() >= ed.decks.size())
    return Fail(
        fmt::format("no deck {} in this edition: its decks are {}", in.deck.index(), ed.deck_words()));
  if (it->deck != in.deck)
    return Fail(fmt::format("the card must come from the {} deck, not {}", ed.decks[*it->deck].id,
                            ed.decks[in.deck].id));
  const Deck& deck = ed.decks[in.deck];
  auto& order = g.decks_[in.deck.index()];
  std::size_t pos = 0;
  if (in.card) {
    auto known =
        std::find_if(deck.cards.begin(), deck.cards.end(), [&](const Card& c) { return c.id == *in.card; });
    if (known == deck.cards.end())
      return Fail(fmt::format("no card '{}' in the {} deck", *in.card, deck.name));
    int index = static_cast<int>(known - deck.cards.begin());
    while (pos < order.size() && order[pos] != index) ++pos;
    if (pos == order.size())
      return Fail(fmt::format("the card '{}' is not in the {} deck: a player holds it", *in.card, deck.name));
  } else if (order.empty()) {
    return Fail(fmt::format("the {} deck is empty", deck.name));
  }
  PlayerId p = it->player;
  st.pending.erase(it);
  int index = pos == 0 ? order.pop_top() : order.erase_at(pos);
  const Card& card = deck.cards[index];
  bool keep = is_jail_card(card);
  if (keep) {
    ++st.players[p].jail_cards[in.deck];
  } else {
    order.push_bottom(index);  // returned face down to the bottom
  }
  event([&] { return Event{.kind = Event::Kind::card_drawn, .player = p, .card = &card}; });
  FrontSteps next = front_steps();
  for (const Effect& e : card.effects) {
    Step s = make(Step::Kind::effect, p);
    s.effect = &e;
    s.card = &card;
    next.push_back(s);
  }
  next.done();
  return {};
}

std::expected<void, std::string> Engine::handle(const Sell& in) {
  if (auto e = check_player(in.player)) return Fail(*e);
  if (auto e = check_space(in.space)) return Fail(*e);
  if (st.ended) return Fail("the game has ended");
  auto plan = sale_plan(in.player, in.space);
  if (!plan) return Fail(plan.error());
  if (plan->changes_other_lots() && !in.whole_group) {
    std::vector<std::string> others;
    for (const LotSale& lot : plan->lots)
      if (lot.space != in.space) others.push_back(space_name(lot.space));
    std::string lots;
    for (std::size_t i = 0; i < others.size(); ++i)
      lots += (i == 0 ? "" : i + 1 == others.size() ? " and " : ", ") + others[i];
    return Fail(
        fmt::format("the bank has too few houses to replace the hotel on {}: selling it sells the group's "
                    "hotels at once "
                    "and changes {} too ({} in all); confirm the whole sale to go ahead",
                    space_name(in.space), lots, money(plan->total)));
  }
  sell(in.player, in.space, *plan);
  return {};
}

std::optional<std::string> Engine::check_offer(PlayerId p, const Offer& o, PlayerId receiver) const {
  if (o.cash < 0) return "a trade cannot give a negative amount";
  if (o.cash > st.players[p].cash)
    return fmt::format("{} offers {} but has {}", name(p), money(o.cash), money(st.players[p].cash));
  if (o.cards < 0 || o.cards > st.players[p].cards())
    return fmt::format("{} has {} Get Out of Jail cards, not {}", name(p), st.players[p].cards(), o.cards);
  for (std::size_t i = 0; i < o.spaces.size(); ++i) {
    SpaceId s = o.spaces[i];
    if (auto e = check_space(s)) return e;
    if (std::find(o.spaces.begin(), o.spaces.begin() + static_cast<std::ptrdiff_t>(i), s) !=
        o.spaces.begin() + static_cast<std::ptrdiff_t>(i))
      return fmt::format("{} is listed twice", space_name(s));
    if (st.spaces[s].owner != p) return fmt::format("{} does not own {}", name(p), space_name(s));
    if (finance::lease_in_partnership(ed, st, s))
      return fmt::format("{} is held for a partnership: after the deal the leases cannot change hands again",
                         space_name(s));
    if (auto why = finance::why_not_acquire(ed, r, st, receiver, s)) return why;
    if (!r.lots_trade_with_houses && group_has_buildings(ed.spaces[s].group_index))
      return fmt::format("{} cannot change hands while its group has buildings: sell them to the bank first",
                         space_name(s));
  }
  if (r.max_properties > 0 &&
      properties_owned(receiver) + static_cast<int>(o.spaces.size()) > r.max_properties)
    return fmt::format("{} would own more than {} properties", name(receiver), r.max_properties);
  for (const auto& grant : o.free_rides) {
    if (!r.free_rides) return "this edition has no free rides";
    if (grant.group < 0 || grant.group >= static_cast<int>(ed.groups.size()))
      return "free rides name an unknown group";
    if (grant.rides <= 0) return "free rides must be 1 or more";
  }
  return std::nullopt;
}

std::expected<void, std::string> Engine::handle(const Trade& in) {
  if (auto e = check_player(in.from)) return Fail(*e);
  if (auto e = check_player(in.to)) return Fail(*e);
  if (st.ended) return Fail("the game has ended");
  if (in.from == in.to) return Fail("a player cannot trade with themselves");
  if (r.trade_needs_debts_settled)
    for (PlayerId p : {in.from, in.to})
      if (in_debt(p))
        return Fail(
            fmt::format("{} owes a debt: a player trades only when his debts are settled (mortgage or "
                        "tear down houses to pay it)",
                        name(p)));
  if (auto e = check_offer(in.from, in.give, in.to)) return Fail(*e);
  if (auto e = check_offer(in.to, in.get, in.from)) return Fail(*e);
  bool give_things = !in.give.spaces.empty() || in.give.cards > 0 || !in.give.free_rides.empty();
  bool get_things = !in.get.spaces.empty() || in.get.cards > 0 || !in.get.free_rides.empty();
  if (!give_things && !get_things)
    return Fail("no loans between players: a trade must hand over a property or a Get Out of Jail card");
  post(in.from, in.to, in.give.cash, Memo::trade, std::nullopt);
  post(in.to, in.from, in.get.cash, Memo::trade, std::nullopt);
  auto hand_over = [&](PlayerId a, PlayerId b, const Offer& o) {
    for (SpaceId s : o.spaces) {
      set_owner(s, b);
      if (st.spaces[s].mortgaged) ask_mortgaged_transfer(b, s);
    }
    for (const auto& grant : o.free_rides) st.free_rides.push_back({b, a, grant.group, grant.rides});
    for (int c = 0; c < o.cards; ++c) {
      const DeckId deck = *st.players[a].jail_cards.first();  // check_offer: he holds them
      --st.players[a].jail_cards[deck];
      ++st.players[b].jail_cards[deck];
    }
  };
  hand_over(in.from, in.to, in.give);
  hand_over(in.to, in.from, in.get);
  event([&] { return Event{.kind = Event::Kind::traded, .player = in.from, .other_player = in.to}; });
  return {};
}

std::expected<void, std::string> Engine::handle(const Bankrupt& in) {
  if (auto e = check_player(in.player)) return Fail(*e);
  if (!in_debt(in.player))
    return Fail(
        fmt::format("{} owes nothing they cannot pay: bankruptcy is only for a debt", name(in.player)));
  if (r.paupers && pending_of(in.player, QuestionKind::debt)->creditor == Account::bank())
    return Fail(
        fmt::format("a player cannot be put out of the game by a debt to the Bank: {} mortgages "
                    "everything, and then a pauper's payments to the Bank are reversed",
                    name(in.player)));
  bankrupt(in.player);
  return {};
}

std::expected<void, std::string> Engine::handle(const Adopt& in) {
  GameState saved_state = st;
  std::vector<DeckState> saved_decks = g.decks_;
  auto result = adopt(in);
  if (result) {
    auto bad = g.invariant_violations();
    if (!bad.empty()) result = Fail(fmt::format("that position breaks the rules: {}", bad.front()));
  }
  if (!result) {
    st = std::move(saved_state);
    g.decks_ = std::move(saved_decks);
    g.recount_owned_lots();
  }
  return result;
}

std::expected<void, std::string> Engine::adopt(const Adopt& in) {
  if (auto e = check_player(in.player)) return Fail(*e);
  auto& pl = st.players[in.player];
  if (in.position) {
    if (auto e = check_space(*in.position)) return Fail(*e);
  }
  if (in.cash && (*in.cash < 0 || *in.cash > kMaxMoney))
    return Fail(fmt::format("cash must be 0 to {}", money(kMaxMoney)));
  if (in.in_jail && *in.in_jail && !ed.jail_space) return Fail("this board has no jail");
  int houses_needed = 0, hotels_needed = 0;
  for (const auto& a : in.spaces) {
    if (auto e = check_space(a.space)) return Fail(*e);
    if (!is_ownable(ed.spaces[a.space])) return Fail(fmt::format("{} cannot be owned", space_name(a.space)));
    if (auto owner = st.spaces[a.space].owner; owner && owner != in.player)
      return Fail(fmt::format("{} belongs to {}", space_name(a.space), name(*owner)));
    if (a.houses < 0 || a.houses > r.max_houses)
      return Fail(fmt::format("{}: houses must be 0 to {}", space_name(a.space), r.max_houses));
    if ((a.houses > 0 || a.hotel) && ed.spaces[a.space].kind != Space::Kind::property)
      return Fail(fmt::format("{} cannot have buildings", space_name(a.space)));
    if (a.hotel && a.houses > 0)
      return Fail(fmt::format("{}: a hotel stands alone, give houses 0", space_name(a.space)));
    if (a.mortgaged && (a.houses > 0 || a.hotel))
      return Fail(fmt::format("{}: a mortgaged property has no buildings", space_name(a.space)));
    houses_needed += a.houses - st.spaces[a.space].houses;
    hotels_needed += (a.hotel ? 1 : 0) - (st.spaces[a.space].hotel ? 1 : 0);
  }
  if (houses_needed > st.bank_houses) return Fail("the bank does not hold that many houses");
  if (hotels_needed > st.bank_hotels) return Fail("the bank does not hold that many hotels");
  if (in.cards) {
    int available = pl.cards();
    for (std::size_t d = 0; d < ed.decks.size(); ++d)
      for (std::size_t i = 0; i < g.decks_[d].size(); ++i)
        available += is_jail_card(ed.decks[d].cards[g.decks_[d][i]]) ? 1 : 0;
    if (*in.cards < 0 || *in.cards > available)
      return Fail(fmt::format("only {} Get Out of Jail cards exist for {}", available, name(in.player)));
  }
  for (const auto& a : in.spaces) {
    SpaceState& ss = st.spaces[a.space];
    st.bank_houses -= a.houses - ss.houses;
    st.bank_hotels -= (a.hotel ? 1 : 0) - (ss.hotel ? 1 : 0);
    set_owner(a.space, in.player);
    ss.houses = a.houses;
    ss.hotel = a.hotel;
    set_mortgaged(a.space, a.mortgaged);
  }
  if (in.cash) {
    Money diff = *in.cash - pl.cash;
    if (diff > 0) post(Account::bank(), in.player, diff, Memo::adopt, std::nullopt);
    if (diff < 0) post(in.player, Account::bank(), -diff, Memo::adopt, std::nullopt);
  }
  if (in.position) pl.position = *in.position;
  if (in.cards) {
    while (pl.cards() > *in.cards) return_one_card(in.player);
    while (pl.cards() < *in.cards) take_jail_card(in.player);
  }
  if (in.in_jail) {
    pl.in_jail = *in.in_jail;
    if (pl.in_jail) pl.position = *ed.jail_space;  // checked above
    pl.jail_attempts = 0;
    std::erase_if(st.pending,
                  [&](const Question& q) { return q.player == in.player && q.kind == QuestionKind::jail; });
    if (pl.in_jail && in.player == st.current && st.pending.empty() && g.steps_.empty()) ask_jail(in.player);
  }
  event([&] { return Event{.kind = Event::Kind::adopted, .player = in.player}; });
  return {};
}

void Engine::take_jail_card(PlayerId p) {
  for (DeckId d : ed.decks.ids()) {
    auto& order = g.decks_[d.index()];
    for (std::size_t i = 0; i < order.size(); ++i) {
      const Card& c = ed.decks[d].cards[order[i]];
      if (is_jail_card(c)) {
        order.erase_at(i);
        ++st.players[p].jail_cards[d];
        return;
      }
    }
  }
}

std::expected<SpaceId, std::string> Engine::lease_to_sell_early() const {
  if (r.early_lease_sale_max == 0) return Fail("in this edition a property is sold only when stopped on");
  if (!g.between_moves())
    return Fail(fmt::format("the Auctioneer sells a lease early only between throws ({})", expecting()));
  std::vector<SpaceId> unsold = unsold_leases();
  if (unsold.empty()) return Fail("every lease has been sold");
  if (static_cast<int>(unsold.size()) > r.early_lease_sale_max)
    return Fail(fmt::format("{} leases are unsold: the Auctioneer may sell only the last {} without waiting",
                            unsold.size(), r.early_lease_sale_max));
  if (st.early_sale_turn == st.turns)
    return Fail(
        "one lease has been sold early this turn: \"Do not sell all at one time\"; the next after "
        "this throw");
  return unsold.front();  // "Sell the lowest number first."
}

std::expected<void, std::string> Engine::handle(const HousePayment& in) {
  if (st.ended) return Fail("the game has ended");
  for (Account account : {in.from, in.to})
    if (auto player = account.player())
      if (auto e = check_player(*player)) return Fail(*e);
  if (in.from == in.to) return Fail("a house-rule payment goes between two different accounts");
  if (in.amount <= 0) return Fail("a house-rule payment needs an amount above zero");
  if (in.reason.empty()) return Fail("a house-rule payment needs its reason (\"Free Parking jackpot\")");
  if (auto payer = in.from.player(); payer && st.players[*payer].cash < in.amount)
    return Fail(fmt::format("{} holds only {}: a house-rule payment of {} cannot be owed", name(*payer),
                            money(st.players[*payer].cash), money(in.amount)));
  if (auto payee = in.to.player(); payee && st.players[*payee].cash > kMaxMoney - in.amount)
    return Fail(fmt::format("{} would hold more than {}, the most any account may hold", name(*payee),
                            money(kMaxMoney)));
  post(in.from, in.to, in.amount, Memo::house_rule, std::nullopt, in.reason);
  return {};
}

std::optional<std::string> Engine::why_not_insure(const Insure& in) const {
  if (auto e = check_player(in.player)) return e;
  Money cost = in.against_card ? r.jail_insurance_card : r.jail_insurance;
  if (cost == 0) return "this edition has no jail insurance";
  if (in.player != st.current || blocked() || !g.steps_.empty())
    return fmt::format("jail insurance is bought by the player about to throw, before the throw ({})",
                       expecting());
  for (const auto& ss : st.spaces)
    if (ss.owner == in.player && (ss.houses > 0 || ss.hotel))
      return fmt::format("{} owns houses, and a house owner cannot insure against jail", name(in.player));
  bool insured = in.against_card ? st.players[in.player].insured_card : st.players[in.player].insured;
  if (insured) return fmt::format("{} is already insured for this turn", name(in.player));
  if (st.players[in.player].cash < cost)
    return fmt::format("{} cannot pay {} for insurance", name(in.player), money(cost));
  return std::nullopt;
}

std::expected<void, std::string> Engine::handle(const Partner& in) {
  if (auto e = check_player(in.holder)) return Fail(*e);
  if (auto e = check_player(in.partner)) return Fail(*e);
  if (auto why = finance::why_not_partner(ed, r, st, in)) return Fail(*why);
  for (SpaceId s : ed.members_of(in.group))
    if (st.spaces[s].owner == in.partner) set_owner(s, in.holder);
  auto same = std::find_if(st.partnerships.begin(), st.partnerships.end(), [&](const auto& f) {
    return f.holder == in.holder && f.partner == in.partner && f.group == in.group;
  });
  if (same != st.partnerships.end())
    same->share_percent = in.share_percent;  // more leases handed over: the new agreement replaces the old
  else
    st.partnerships.push_back({in.holder, in.partner, in.group, in.share_percent});
  event([&] {
    return Event{.kind = Event::Kind::partnership,
                 .player = in.holder,
                 .other_player = in.partner,
                 .group = in.group,
                 .share_percent = in.share_percent};
  });
  return {};
}

std::expected<void, std::string> Engine::handle(const RegisterCard& in) {
  if (st.ended) return Fail("the game has ended");
  if (in.uid.empty() || in.uid.size() > 32 || !std::all_of(in.uid.begin(), in.uid.end(), [](char c) {
        return std::isxdigit(static_cast<unsigned char>(c));
      }))
    return Fail(fmt::format("card \"{}\" is not a card number (up to 32 hex digits)", in.uid));
  if (in.player)
    if (auto e = check_player(*in.player)) return Fail(*e);
  if (!in.deck.empty()) {
    if (in.player) return Fail("a card is a player's or a deck's, not both");
    const Deck* deck = ed.deck(in.deck);
    if (!deck) return Fail(fmt::format("there is no deck \"{}\" in this edition", in.deck));
    if (std::none_of(deck->cards.begin(), deck->cards.end(), [&](const Card& c) { return c.id == in.card; }))
      return Fail(fmt::format("the {} deck has no card \"{}\"", deck->name, in.card));
  } else if (!in.card.empty()) {
    return Fail("a card id needs its deck");
  }
  for (const auto& p : st.players)
    if (p.card == in.uid) return Fail(fmt::format("card {} is {}'s already", in.uid, p.name));
  for (const auto& c : st.table_cards)
    if (c.uid == in.uid) return Fail(fmt::format("card {} is registered already", in.uid));
  st.table_cards.push_back({in.uid, in.player, in.deck, in.card});
  return {};
}

}  // namespace bb::rules
