// Engine: the step machine: moves, landing, effects and cards, turns, jail, the draft.
#include "rules/engine.h"

namespace bb::rules {

void Engine::settle_debts() {
  for (std::size_t i = 0; i < st.pending.size();) {
    Question& q = st.pending[i];
    if (q.kind == QuestionKind::debt && st.players[q.player].cash >= q.amount) {
      Question paid = std::move(q);
      st.pending.erase(st.pending.begin() + static_cast<std::ptrdiff_t>(i));
      post(paid.player, paid.creditor, paid.amount, paid.memo, paid.space, paid.card);
      continue;
    }
    if (q.kind == QuestionKind::debt && q.creditor.is_bank() && r.paupers && nothing_to_raise(q.player)) {
      // FINANCE (1932): "A player cannot be put out of the game by a debt to the Bank." With everything
      // mortgaged, a pauper's card or tax payment is reversed in his favour; any other debt to the Bank he
      // cannot meet is written off.
      Question owed = std::move(q);
      st.pending.erase(st.pending.begin() + static_cast<std::ptrdiff_t>(i));
      if ((owed.memo == Memo::card || owed.memo == Memo::tax) && is_pauper(owed.player))
        post(Account::bank(), owed.player, owed.amount, owed.memo, owed.space, owed.card);
      continue;
    }
    ++i;
  }
}

void Engine::exec(const Step& s) {
  switch (s.kind) {
    case Step::Kind::move_by:
      return move_by(s.player, s.steps, s.salary);
    case Step::Kind::move_to:
      return move_to(s.player, *s.space, s.salary);
    case Step::Kind::land:
      return land(s.player, s.multiplier, s.dice_multiplier);
    case Step::Kind::effect:
      return apply_effect(s.player, *s.effect, s.card);
    case Step::Kind::pay:
      // A partner's share is owed only while both are still in the game.
      if (s.memo == Memo::partnership && (!active(s.player) || !s.to.player() || !active(*s.to.player())))
        return;
      return pay(s.player, s.to, s.amount, s.memo, s.space, s.card);
    case Step::Kind::end_roll:
      return end_roll(s.player);
    case Step::Kind::auction_lot:
      if (!st.spaces[*s.space].owner) start_auction(Auction::Item::property, s.space);
      return;
    case Step::Kind::need_roll:
      return;
  }
}

void Engine::move_by(PlayerId p, int steps, bool salary) {
  auto& pl = st.players[p];
  int n = board_size();
  int from = pl.position.number();
  if (steps >= 0) {
    int dist_to_start = wrap(ed.start_space.number() - from + n, n);
    bool crosses = dist_to_start != 0 && steps >= dist_to_start;
    bool lands_on_start = crosses && steps == dist_to_start;
    pl.position = SpaceId{wrap(from + steps, n)};
    if (crosses && salary && (!lands_on_start || r.salary_on_landing)) collect_salary(p);
  } else {
    pl.position = SpaceId{((from + steps) % n + n) % n};
  }
  event([&] {
    return Event{
        .kind = Event::Kind::moved, .player = p, .from_space = SpaceId{from}, .to_space = pl.position};
  });
}

void Engine::jail(PlayerId p) {
  auto& pl = st.players[p];
  SpaceId from = pl.position;
  pl.position = *ed.jail_space;  // the edition's checks refuse a board without a jail that sends there
  pl.in_jail = true;
  pl.jail_attempts = 0;
  if (p == st.current) {
    g.extra_roll_blocked_ = true;
    // The turn ends: drop whatever this turn still had to do, but keep the end of the roll.
    std::erase_if(g.steps_, [&](const Step& s) { return s.player == p && s.kind != Step::Kind::end_roll; });
  }
  event([&] {
    return Event{.kind = Event::Kind::jailed, .player = p, .from_space = from, .to_space = ed.jail_space};
  });
}

void Engine::land(PlayerId p, int multiplier, int dice_multiplier) {
  SpaceId pos = st.players[p].position;
  const Space& sp = ed.spaces[pos];
  FrontSteps next = front_steps();
  if (is_ownable(sp)) {
    const SpaceState& ss = st.spaces[pos];
    if (!ss.owner && ss.withdrawn) {
      // FINANCE (1932): the lease left the game with a player put out; nobody buys it or pays rent.
    } else if (!ss.owner) {
      if (r.buy_at_price) {
        Question& q = st.pending.emplace_back();  // built in place: a Question moved in was 2% of a playout
        q.player = p;
        q.kind = QuestionKind::buy;
        q.options = {{Answer::buy}, {Answer::auction}};
        q.space = pos;
        q.amount = sp.price;
      } else {
        start_auction(Auction::Item::property, pos);
      }
    } else if (const PlayerId owner = *ss.owner;
               charges_rent(p, ss) && take_free_ride(p, owner, sp.group_index)) {
      event([&] {
        return Event{.kind = Event::Kind::free_ride, .player = p, .space = pos, .other_player = owner};
      });
    } else if (charges_rent(p, ss)) {
      if (sp.rent.kind == RentRule::Kind::dice && dice_multiplier > 0) {
        Step roll = make(Step::Kind::need_roll, p);
        roll.roll = Step::Roll::rent_dice;
        roll.space = pos;
        roll.to = owner;
        roll.multiplier = dice_multiplier;
        next.push_back(roll);
      } else {
        Step payment = make(Step::Kind::pay, p);
        payment.to = owner;
        payment.amount = rent_for(pos, st.last_d1 + st.last_d2) * multiplier;
        payment.memo = Memo::rent;
        payment.space = pos;
        next.push_back(payment);
        partner_shares(next, p, pos, payment.amount);
      }
    } else if (owner != p && ss.mortgaged && active(owner) && !st.partnerships.empty()) {
      // "The holding owner must guarantee his partner's income even if he mortgages his partner's leases."
      partner_shares(next, p, pos, rent_for(pos, st.last_d1 + st.last_d2) * multiplier);
    }
  }
  for (const Effect& e : sp.on_land) {
    Step s = make(Step::Kind::effect, p);
    s.effect = &e;
    s.space = pos;
    next.push_back(s);
  }
  if (r.forced_move_back > 0) {
    for (PlayerId rival : st.players.ids()) {
      if (rival == p || !active(rival) || st.players[rival].position != pos || st.players[rival].in_jail)
        continue;
      next.push_back(move_by_step(rival, -r.forced_move_back, false));
      next.push_back(land_step(rival));
    }
  }
  next.done();
}

void Engine::apply_effect(PlayerId p, const Effect& e, const Card* card) {
  Memo memo = card ? Memo::card : Memo::space;
  SpaceId where = st.players[p].position;
  switch (e.kind) {
    case Effect::Kind::collect:
      return pay(Account::bank(), p, e.amount, memo, where, card);
    case Effect::Kind::pay:
      return pay(p, Account::bank(), e.amount, card ? Memo::card : Memo::tax, where, card);
    case Effect::Kind::tax_choice: {
      if (r.flat_income_tax) return pay(p, Account::bank(), e.amount, Memo::tax, where, card);
      Question q;
      q.player = p;
      q.kind = QuestionKind::tax;
      q.options = {{Answer::pay_fixed}, {Answer::pay_percent}};
      q.space = where;
      q.amount = e.amount;
      q.percent = e.percent;
      st.pending.push_back(std::move(q));
      return;
    }
    case Effect::Kind::tax_percent_cash:
      return pay(p, Account::bank(), st.players[p].cash * e.percent / 100, Memo::tax, where, card);
    case Effect::Kind::draw: {
      Question& q = st.pending.emplace_back();
      q.player = p;
      q.kind = QuestionKind::draw;
      q.deck = e.deck;
      return;
    }
    case Effect::Kind::go_to_jail:
      if (card ? st.players[p].insured_card : st.players[p].insured) {
        event([&] { return Event{.kind = Event::Kind::insured, .player = p}; });
        return;
      }
      return jail(p);
    case Effect::Kind::get_out_of_jail:
      return;  // the draw already put the card in the player's hand
    case Effect::Kind::advance_to:
      return push_front({move_to_step(p, SpaceId{e.space}, e.salary), land_step(p)});
    case Effect::Kind::advance_to_nearest: {
      int n = board_size();
      std::optional<SpaceId> target;
      for (int k = 1; k <= n; ++k) {
        SpaceId s{(st.players[p].position.number() + k) % n};
        if (ed.spaces[s].group == e.group) {
          target = s;
          break;
        }
      }
      if (!target) return;
      return push_front({move_to_step(p, *target, e.salary), land_step(p, e.multiplier, e.dice_multiplier)});
    }
    case Effect::Kind::move_by:
      return push_front({move_by_step(p, e.steps, e.salary), land_step(p)});
    case Effect::Kind::move_to: {
      SpaceId from = st.players[p].position;
      st.players[p].position = SpaceId{e.space};
      event([&] {
        return Event{.kind = Event::Kind::moved,
                     .player = p,
                     .from_space = from,
                     .to_space = SpaceId{e.space},
                     .jumped = true};
      });
      return push_front({land_step(p)});
    }
    case Effect::Kind::pay_each_player:
      for (PlayerId o : st.players.ids())
        if (o != p && active(o)) pay(p, o, e.amount, memo, where, card);
      return;
    case Effect::Kind::collect_from_each:
      for (PlayerId o : st.players.ids())
        if (o != p && active(o)) pay(o, p, e.amount, memo, where, card);
      return;
    case Effect::Kind::repairs: {
      Money total = 0;
      for (SpaceId s : g.lots_of(p))
        total += st.spaces[s].hotel ? e.per_hotel : st.spaces[s].houses * e.per_house;
      return pay(p, Account::bank(), total, memo, where, card);
    }
    case Effect::Kind::roll_move:
    case Effect::Kind::sweepstakes: {
      Step roll = make(Step::Kind::need_roll, p);
      roll.roll = e.kind == Effect::Kind::roll_move ? Step::Roll::roll_move : Step::Roll::sweepstakes;
      roll.multiplier = e.dice_multiplier;
      roll.space = where;
      return push_front({roll});
    }
    case Effect::Kind::fare: {
      Step payment = make(Step::Kind::pay, p);
      payment.to = Account::bank();
      payment.amount = e.amount;
      payment.memo = Memo::fare;
      payment.space = where;
      Step roll = make(Step::Kind::need_roll, p);
      roll.roll = Step::Roll::fare_move;
      return push_front({payment, roll});
    }
    case Effect::Kind::forced_move_back: {
      FrontSteps next = front_steps();
      for (PlayerId rival : st.players.ids()) {
        if (rival == p || !active(rival) || st.players[rival].position != where) continue;
        next.push_back(move_by_step(rival, -e.steps, false));
        next.push_back(land_step(rival));
      }
      return next.done();
    }
    case Effect::Kind::buy_seats:
      return pay(p, Account::bank(), e.amount * (active_count() - 1), Memo::seat, where, card);
  }
}

void Engine::next_turn() {
  if (st.ended) return;
  st.doubles_in_row = 0;
  g.turn_doubles_ = false;
  g.extra_roll_blocked_ = false;
  auto& ending = st.players[st.current];
  ending.insured = ending.insured_card = false;
  // A salary waits for a claim only where the edition makes players claim it (FINANCE 1932 forgetters;
  // invariant_violations checks that none waits elsewhere): no walk of the players on every other turn.
  for (std::size_t i = 0; r.salary_must_be_claimed && i < st.players.size(); ++i) {
    if (const PlayerId q{static_cast<int>(i)}; st.players[q].unclaimed_salary > 0) {
      event([&] {
        return Event{
            .kind = Event::Kind::salary_forfeit, .player = q, .amount = st.players[q].unclaimed_salary};
      });
      st.players[q].unclaimed_salary = 0;  // a forgotten salary is forfeit once the turn is over
    }
  }
  ++st.turns;
  // The next seat round the table still in the game. The seats counted once: every seat is one of the table
  // (Engine::active's check of the seat), and the vector's size is a division by a player's size.
  const int seats = static_cast<int>(st.players.size());
  PlayerId next = st.current;
  for (int k = 0; k < seats; ++k) {
    next = PlayerId{wrap(next.number() + 1, seats)};
    if (!st.players[next].bankrupt) {
      st.current = next;
      break;
    }
  }
  event([&] { return Event{.kind = Event::Kind::turn, .player = st.current}; });
  if (st.players[st.current].in_jail) ask_jail(st.current);
}

void Engine::ask_draft() {
  while (!st.draft_picks.empty()) {
    Question q;
    q.player = st.draft_picks.front();
    q.kind = QuestionKind::draft;
    for (std::size_t gi = 0; gi < ed.groups.size(); ++gi) {
      const auto& members = ed.members_of(static_cast<int>(gi));
      bool free = !members.empty() && std::all_of(members.begin(), members.end(), [&](SpaceId s) {
        return is_ownable(ed.spaces[s]) && !st.spaces[s].owner;
      });
      if (free) q.options.push_back({Answer::take_set, static_cast<int>(gi)});
    }
    if (q.options.empty()) {
      st.draft_picks.clear();  // no set left to choose: the draft ends early
      return;
    }
    if (!active(q.player)) {
      st.draft_picks.erase(st.draft_picks.begin());
      continue;
    }
    st.pending.push_back(std::move(q));
    return;
  }
}

void Engine::ask_jail(PlayerId p) {
  const auto& pl = st.players[p];
  Question q;
  q.player = p;
  q.kind = QuestionKind::jail;
  q.amount = r.jail_fine;
  if (three_throws_out(p)) {
    // "must come out on his first turn. He gets choice of three throws of the dice": no fine (none named).
    q.options.push_back({Answer::roll});
    st.pending.push_back(std::move(q));
    return;
  }
  int last_turn = r.leave_jail_next_turn ? 1 : r.jail_turns;
  // The fine may be paid before rolling on all but the last turn; on the last, a failed throw costs it
  // anyway. Where the player must leave on the next turn (ships Short Game: "by ... a card ...; or 2)
  // rolling doubles; or 3) paying $50"), paying first is one of the three ways out of that one turn.
  bool may_pay_first = r.leave_jail_next_turn || pl.jail_attempts < last_turn - 1;
  if (may_pay_first && pl.cash >= r.jail_fine) q.options.push_back({Answer::pay_fine});
  if (pl.cards() > 0) q.options.push_back({Answer::use_card});
  q.options.push_back({Answer::roll});
  st.pending.push_back(std::move(q));
}

}  // namespace bb::rules
