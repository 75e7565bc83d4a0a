#include "rules/game.h"

#include <fmt/format.h>

#include <algorithm>
#include <cassert>
#include <cctype>
#include <numeric>

#include "rules/finance_1932.h"
#include "rules/input_limits.h"
#include "rules/splitmix.h"

namespace bb::rules {

namespace {

int random_below(std::uint64_t& s, int n) {
  return static_cast<int>(splitmix64(s) % static_cast<std::uint64_t>(n));
}

template <typename T>
void shuffle(std::vector<T>& v, std::uint64_t& s) {
  for (int i = static_cast<int>(v.size()) - 1; i > 0; --i) std::swap(v[i], v[random_below(s, i + 1)]);
}

bool is_jail_card(const Card& card) {
  return std::any_of(card.effects.begin(), card.effects.end(),
                     [](const Effect& e) { return e.kind == Effect::Kind::get_out_of_jail; });
}

bool is_ownable(const Space& sp) {
  return sp.kind == Space::Kind::property || sp.kind == Space::Kind::railroad ||
         sp.kind == Space::Kind::utility;
}

using Fail = std::unexpected<std::string>;

}  // namespace

// The engine works on one Game at a time; it is a friend so Game's header stays a plain picture of state.
class Engine {
 public:
  Engine(Game& game, Outcome* outcome)
      : g(game), ed(*game.edition_), r(game.rules_), st(game.state_), out(outcome) {}

  Game& g;
  const Edition& ed;
  const Rules& r;
  GameState& st;
  Outcome* out;
  using Step = Game::Step;

  // ---------------------------------------------------------------- small helpers
  int board_size() const { return static_cast<int>(ed.spaces.size()); }
  const std::string& name(int p) const { return st.players[p].name; }
  std::string money(Money m) const { return ed.format_money(m); }
  const std::string& space_name(int s) const { return ed.spaces[s].name; }

  void event(Event::Kind kind, int player, int from = -1, int to = -1, int space = -1, Money amount = 0,
             int detail = 0, const Card* card = nullptr) {
    if (out) out->events.push_back(Event{kind, player, from, to, space, amount, detail, card});
  }

  bool active(int p) const {
    return p >= 0 && p < static_cast<int>(st.players.size()) && !st.players[p].bankrupt;
  }
  int active_count() const {
    int n = 0;
    for (const auto& pl : st.players) n += pl.bankrupt ? 0 : 1;
    return n;
  }

  void post(int from, int to, Money amount, Memo memo, int space, const std::string& card = {}) {
    if (amount <= 0 || from == to) return;
    Posting p;
    p.seq = static_cast<std::int64_t>(st.postings.size()) + 1;
    p.from = from;
    p.to = to;
    p.amount = amount;
    p.memo = memo;
    p.space = space;
    p.input = g.input_index_;
    p.card = card;
    if (from >= 0) st.players[from].cash -= amount;
    if (to >= 0) st.players[to].cash += amount;
    assert(from < 0 || st.players[from].cash >= 0);
    st.postings.push_back(std::move(p));
  }

  // Nothing left to sell or mortgage: no buildings and no unmortgaged property.
  bool nothing_to_raise(int p) const {
    for (const auto& ss : st.spaces)
      if (ss.owner == p && (!ss.mortgaged || ss.houses > 0 || ss.hotel)) return false;
    return true;
  }

  bool is_pauper(int p) const {
    if (!r.paupers) return false;
    if (st.players[p].cash >= r.pauper_cash_below) return false;
    for (std::size_t s = 0; s < st.spaces.size(); ++s)
      if (st.spaces[s].owner == p && !st.spaces[s].mortgaged) return false;
    return true;
  }

  // A payment; when the payer cannot cover it, a debt question holds it until they raise the money or give
  // up.
  void pay(int from, int to, Money amount, Memo memo, int space, const Card* card = nullptr) {
    if (amount <= 0) return;
    std::string card_id = card ? card->id : std::string();
    if (from >= 0 && to == kBank && (memo == Memo::card || memo == Memo::tax) && is_pauper(from)) {
      // FINANCE (1932): a pauper's payments to the bank are reversed in his favour.
      post(kBank, from, amount, memo, space, card_id);
      return;
    }
    if (from == kBank || st.players[from].cash >= amount) {
      post(from, to, amount, memo, space, card_id);
      return;
    }
    Question q;
    q.player = from;
    q.kind = QuestionKind::debt;
    q.amount = amount;
    q.creditor = to;
    q.space = space;
    q.memo = memo;
    q.card = card_id;
    q.reason = memo_words(memo, space, card_id);
    // Debts come before every other question: nothing else happens at the table until they are settled.
    auto first_other = std::find_if(st.pending.begin(), st.pending.end(),
                                    [](const Question& other) { return other.kind != QuestionKind::debt; });
    st.pending.insert(first_other, std::move(q));
  }

  std::string memo_words(Memo memo, int space, const std::string& card) const {
    std::string where = space >= 0 && space < board_size() ? space_name(space) : std::string();
    auto with = [&](std::string_view what) {
      return where.empty() ? std::string(what) : fmt::format("{} {}", what, where);
    };
    switch (memo) {
      case Memo::start_cash:
        return "starting cash";
      case Memo::salary:
        return "salary";
      case Memo::buy:
        return with("bought");
      case Memo::auction:
        return with("auction");
      case Memo::rent:
        return with("rent");
      case Memo::tax:
        return where.empty() ? "tax" : where;
      case Memo::card:
        return fmt::format("card {}", card);
      case Memo::jail_fine:
        return "jail fine";
      case Memo::build:
        return with("building on");
      case Memo::sell_building:
        return with("building sold on");
      case Memo::mortgage:
        return with("mortgage");
      case Memo::unmortgage:
        return with("mortgage lifted on");
      case Memo::interest:
        return with("mortgage interest on");
      case Memo::trade:
        return "trade";
      case Memo::bankruptcy:
        return "bankruptcy";
      case Memo::adopt:
        return "adopt";
      case Memo::undo:
        return "undo";
      case Memo::fare:
        return with("fare");
      case Memo::sweepstakes:
        return "sweepstakes";
      case Memo::insurance:
        return "jail insurance";
      case Memo::space:
        return where;
      case Memo::deal:
        return with("dealt");
      case Memo::seat:
        return "theatre seats";
      case Memo::house_rule:
        return card.empty() ? std::string("house rule") : fmt::format("house rule: {}", card);
      case Memo::partnership:
        return with("partner's share");
    }
    return "?";
  }

  void push_front(std::vector<Step> steps) {
    for (auto it = steps.rbegin(); it != steps.rend(); ++it) g.steps_.push_front(*it);
  }
  static Step make(Step::Kind kind, int player) {
    Step s;
    s.kind = kind;
    s.player = player;
    return s;
  }
  static Step land_step(int player, int multiplier = 1, int dice_multiplier = 0) {
    Step s = make(Step::Kind::land, player);
    s.multiplier = multiplier;
    s.dice_multiplier = dice_multiplier;
    return s;
  }
  static Step move_by_step(int player, int steps, bool salary) {
    Step s = make(Step::Kind::move_by, player);
    s.steps = steps;
    s.salary = salary;
    return s;
  }
  static Step move_to_step(int player, int space, bool salary) {
    Step s = make(Step::Kind::move_to, player);
    s.space = space;
    s.salary = salary;
    return s;
  }

  bool blocked() const { return !st.pending.empty() || st.auction.has_value() || st.ended; }

  // ---------------------------------------------------------------- ownership queries
  int owned_in_group(int owner, int group) const {
    int n = 0;
    for (int s : ed.members_of(group)) n += st.spaces[s].owner == owner ? 1 : 0;
    return n;
  }
  bool owns_group(int owner, int group) const {
    const auto& members = ed.members_of(group);
    return std::all_of(members.begin(), members.end(), [&](int s) { return st.spaces[s].owner == owner; });
  }
  bool group_has_buildings(int group) const {
    if (group < 0) return false;
    for (int s : ed.members_of(group))
      if (st.spaces[s].houses > 0 || st.spaces[s].hotel) return true;
    return false;
  }
  // Whether an unimproved lot of `group` pays double rent to `owner`.
  bool doubles_rent(int owner, int group) const {
    if (!r.double_rent_on_group || !owns_group(owner, group)) return false;
    if (!r.double_rent_needs_clear_series) return true;
    const auto& members = ed.members_of(group);
    return std::none_of(members.begin(), members.end(), [&](int s) {
      return st.spaces[s].mortgaged || st.spaces[s].houses > 0 || st.spaces[s].hotel;
    });
  }
  int level(int s) const { return st.spaces[s].hotel ? r.max_houses + 1 : st.spaces[s].houses; }
  int properties_owned(int p) const {
    int n = 0;
    for (const auto& ss : st.spaces) n += ss.owner == p ? 1 : 0;
    return n;
  }

  Money rent_for(int s, int dice_total) const {
    const Space& sp = ed.spaces[s];
    const SpaceState& ss = st.spaces[s];
    switch (sp.rent.kind) {
      case RentRule::Kind::table:
        if (ss.hotel) return sp.rent.amounts.back();
        if (ss.houses > 0) return sp.rent.amounts[ss.houses];
        return sp.rent.amounts[0] * (doubles_rent(ss.owner, sp.group_index) ? 2 : 1);
      case RentRule::Kind::doubling: {
        if (ss.houses <= 1) return sp.rent.amounts[0];
        return sp.rent.amounts[0] << (ss.houses - 1);
      }
      case RentRule::Kind::by_count: {
        int n = owned_in_group(ss.owner, sp.group_index);
        return sp.rent.amounts[std::clamp(n, 1, static_cast<int>(sp.rent.amounts.size())) - 1];
      }
      case RentRule::Kind::dice: {
        int n = owned_in_group(ss.owner, sp.group_index);
        return sp.rent.amounts[std::clamp(n, 1, static_cast<int>(sp.rent.amounts.size())) - 1] * dice_total;
      }
      case RentRule::Kind::none:
        return 0;
    }
    return 0;
  }

  // ---------------------------------------------------------------- the step machine
  void run() {
    while (true) {
      settle_debts();
      if (blocked() || g.steps_.empty()) return;
      Step s = g.steps_.front();
      if (s.kind == Step::Kind::need_roll) return;  // waits for the throw
      g.steps_.pop_front();
      exec(s);
    }
  }

  void settle_debts() {
    for (std::size_t i = 0; i < st.pending.size();) {
      Question& q = st.pending[i];
      if (q.kind == QuestionKind::debt && st.players[q.player].cash >= q.amount) {
        Question paid = std::move(q);
        st.pending.erase(st.pending.begin() + static_cast<std::ptrdiff_t>(i));
        post(paid.player, paid.creditor, paid.amount, paid.memo, paid.space, paid.card);
        continue;
      }
      if (q.kind == QuestionKind::debt && q.creditor == kBank && r.paupers && nothing_to_raise(q.player)) {
        // FINANCE (1932): "A player cannot be put out of the game by a debt to the Bank." With everything
        // mortgaged, a pauper's card or tax payment is reversed in his favour; any other debt to the Bank he
        // cannot meet is written off.
        Question owed = std::move(q);
        st.pending.erase(st.pending.begin() + static_cast<std::ptrdiff_t>(i));
        if ((owed.memo == Memo::card || owed.memo == Memo::tax) && is_pauper(owed.player))
          post(kBank, owed.player, owed.amount, owed.memo, owed.space, owed.card);
        continue;
      }
      ++i;
    }
  }

  void exec(const Step& s) {
    switch (s.kind) {
      case Step::Kind::move_by:
        return move_by(s.player, s.steps, s.salary);
      case Step::Kind::move_to:
        return move_to(s.player, s.space, s.salary);
      case Step::Kind::land:
        return land(s.player, s.multiplier, s.dice_multiplier);
      case Step::Kind::effect:
        return apply_effect(s.player, *s.effect, s.card);
      case Step::Kind::pay:
        // A partner's share is owed only while both are still in the game.
        if (s.memo == Memo::partnership && (!active(s.player) || !active(s.to))) return;
        return pay(s.player, s.to, s.amount, s.memo, s.space, s.card);
      case Step::Kind::end_roll:
        return end_roll(s.player);
      case Step::Kind::auction_lot:
        if (st.spaces[s.space].owner == kNobody) start_auction(Auction::Item::property, s.space);
        return;
      case Step::Kind::need_roll:
        return;
    }
  }

  void collect_salary(int p) {
    st.players[p].passed_start = true;
    if (r.salary_must_be_claimed) {
      st.players[p].unclaimed_salary += r.salary;  // paid on a `claim` this turn, forfeit after it
      event(Event::Kind::salary_earned, p, -1, -1, -1, r.salary);
      return;
    }
    pay(kBank, p, r.salary, Memo::salary, ed.start_space);
  }

  void move_by(int p, int steps, bool salary) {
    auto& pl = st.players[p];
    int n = board_size();
    int from = pl.position;
    if (steps >= 0) {
      int dist_to_start = (ed.start_space - from + n) % n;
      bool crosses = dist_to_start != 0 && steps >= dist_to_start;
      bool lands_on_start = crosses && steps == dist_to_start;
      pl.position = (from + steps) % n;
      if (crosses && salary && (!lands_on_start || r.salary_on_landing)) collect_salary(p);
    } else {
      pl.position = ((from + steps) % n + n) % n;
    }
    event(Event::Kind::moved, p, from, pl.position);
  }

  void move_to(int p, int space, bool salary) {
    int n = board_size();
    int steps = (space - st.players[p].position + n) % n;
    if (steps == 0) {
      // Already there (advance to GO while on GO cannot happen from a card space, but stay safe).
      event(Event::Kind::moved, p, space, space);
      return;
    }
    move_by(p, steps, salary);
  }

  void jail(int p) {
    auto& pl = st.players[p];
    int from = pl.position;
    pl.position = ed.jail_space;
    pl.in_jail = true;
    pl.jail_attempts = 0;
    if (p == st.current) {
      g.extra_roll_blocked_ = true;
      // The turn ends: drop whatever this turn still had to do, but keep the end of the roll.
      std::erase_if(g.steps_, [&](const Step& s) { return s.player == p && s.kind != Step::Kind::end_roll; });
    }
    event(Event::Kind::jailed, p, from, ed.jail_space);
  }

  void release(int p) {
    st.players[p].in_jail = false;
    st.players[p].jail_attempts = 0;
    event(Event::Kind::released, p);
  }

  void land(int p, int multiplier, int dice_multiplier) {
    int pos = st.players[p].position;
    const Space& sp = ed.spaces[pos];
    std::vector<Step> next;
    if (is_ownable(sp)) {
      const SpaceState& ss = st.spaces[pos];
      if (ss.owner == kNobody && ss.withdrawn) {
        // FINANCE (1932): the lease left the game with a player put out; nobody buys it or pays rent.
      } else if (ss.owner == kNobody) {
        if (r.buy_at_price) {
          Question q;
          q.player = p;
          q.kind = QuestionKind::buy;
          q.options = {"buy", "auction"};
          q.space = pos;
          q.amount = sp.price;
          st.pending.push_back(std::move(q));
        } else {
          start_auction(Auction::Item::property, pos);
        }
      } else if (ss.owner != p && !ss.mortgaged && active(ss.owner) &&
                 take_free_ride(p, ss.owner, sp.group_index)) {
        event(Event::Kind::free_ride, p, -1, ss.owner, pos);
      } else if (ss.owner != p && !ss.mortgaged && active(ss.owner)) {
        if (sp.rent.kind == RentRule::Kind::dice && dice_multiplier > 0) {
          Step roll = make(Step::Kind::need_roll, p);
          roll.roll = Step::Roll::rent_dice;
          roll.space = pos;
          roll.to = ss.owner;
          roll.multiplier = dice_multiplier;
          next.push_back(roll);
        } else {
          Step payment = make(Step::Kind::pay, p);
          payment.to = ss.owner;
          payment.amount = rent_for(pos, st.last_d1 + st.last_d2) * multiplier;
          payment.memo = Memo::rent;
          payment.space = pos;
          next.push_back(payment);
          partner_shares(next, p, pos, payment.amount);
        }
      } else if (ss.owner != p && ss.mortgaged && active(ss.owner) && !st.partnerships.empty()) {
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
      for (int rival = 0; rival < static_cast<int>(st.players.size()); ++rival) {
        if (rival == p || !active(rival) || st.players[rival].position != pos || st.players[rival].in_jail)
          continue;
        next.push_back(move_by_step(rival, -r.forced_move_back, false));
        next.push_back(land_step(rival));
      }
    }
    push_front(std::move(next));
  }

  // FINANCE (1932): the holder of a partnership's leases pays each partner his share of an income.
  void partner_shares(std::vector<Step>& next, int lander, int space, Money income) {
    for (const auto* partnership : finance::partnerships_of_lease(ed, st, space)) {
      if (lander == partnership->holder) continue;
      Step share = make(Step::Kind::pay, partnership->holder);
      share.to = partnership->partner;
      share.amount = income * partnership->share_percent / 100;  // rounded down to a whole unit
      share.memo = Memo::partnership;
      share.space = space;
      next.push_back(share);
    }
  }

  bool take_free_ride(int holder, int owner, int group) {
    if (!r.free_rides) return false;
    for (auto& ride : st.free_rides) {
      if (ride.holder == holder && ride.owner == owner && ride.group == group && ride.rides > 0) {
        --ride.rides;
        std::erase_if(st.free_rides, [](const GameState::FreeRide& f) { return f.rides == 0; });
        return true;
      }
    }
    return false;
  }

  void apply_effect(int p, const Effect& e, const Card* card) {
    Memo memo = card ? Memo::card : Memo::space;
    int where = st.players[p].position;
    switch (e.kind) {
      case Effect::Kind::collect:
        return pay(kBank, p, e.amount, memo, where, card);
      case Effect::Kind::pay:
        return pay(p, kBank, e.amount, card ? Memo::card : Memo::tax, where, card);
      case Effect::Kind::tax_choice: {
        if (r.flat_income_tax) return pay(p, kBank, e.amount, Memo::tax, where, card);
        Question q;
        q.player = p;
        q.kind = QuestionKind::tax;
        q.options = {"pay_fixed", "pay_percent"};
        q.space = where;
        q.amount = e.amount;
        q.percent = e.percent;
        st.pending.push_back(std::move(q));
        return;
      }
      case Effect::Kind::tax_percent_cash:
        return pay(p, kBank, st.players[p].cash * e.percent / 100, Memo::tax, where, card);
      case Effect::Kind::draw: {
        Question q;
        q.player = p;
        q.kind = QuestionKind::draw;
        q.deck = e.deck;
        st.pending.push_back(std::move(q));
        return;
      }
      case Effect::Kind::go_to_jail:
        if (card ? st.players[p].insured_card : st.players[p].insured) {
          event(Event::Kind::insured, p);
          return;
        }
        return jail(p);
      case Effect::Kind::get_out_of_jail:
        return;  // the draw already put the card in the player's hand
      case Effect::Kind::advance_to:
        return push_front({move_to_step(p, e.space, e.salary), land_step(p)});
      case Effect::Kind::advance_to_nearest: {
        int n = board_size();
        int target = -1;
        for (int k = 1; k <= n; ++k) {
          int s = (st.players[p].position + k) % n;
          if (ed.spaces[s].group == e.group) {
            target = s;
            break;
          }
        }
        if (target < 0) return;
        return push_front({move_to_step(p, target, e.salary), land_step(p, e.multiplier, e.dice_multiplier)});
      }
      case Effect::Kind::move_by:
        return push_front({move_by_step(p, e.steps, e.salary), land_step(p)});
      case Effect::Kind::move_to: {
        int from = st.players[p].position;
        st.players[p].position = e.space;
        event(Event::Kind::moved, p, from, e.space, -1, 0, 1);
        return push_front({land_step(p)});
      }
      case Effect::Kind::pay_each_player:
        for (int o = 0; o < static_cast<int>(st.players.size()); ++o)
          if (o != p && active(o)) pay(p, o, e.amount, memo, where, card);
        return;
      case Effect::Kind::collect_from_each:
        for (int o = 0; o < static_cast<int>(st.players.size()); ++o)
          if (o != p && active(o)) pay(o, p, e.amount, memo, where, card);
        return;
      case Effect::Kind::repairs: {
        Money total = 0;
        for (const auto& ss : st.spaces)
          if (ss.owner == p) total += ss.hotel ? e.per_hotel : ss.houses * e.per_house;
        return pay(p, kBank, total, memo, where, card);
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
        payment.to = kBank;
        payment.amount = e.amount;
        payment.memo = Memo::fare;
        payment.space = where;
        Step roll = make(Step::Kind::need_roll, p);
        roll.roll = Step::Roll::fare_move;
        return push_front({payment, roll});
      }
      case Effect::Kind::forced_move_back: {
        std::vector<Step> next;
        for (int rival = 0; rival < static_cast<int>(st.players.size()); ++rival) {
          if (rival == p || !active(rival) || st.players[rival].position != where) continue;
          next.push_back(move_by_step(rival, -e.steps, false));
          next.push_back(land_step(rival));
        }
        return push_front(std::move(next));
      }
      case Effect::Kind::buy_seats:
        return pay(p, kBank, e.amount * (active_count() - 1), Memo::seat, where, card);
    }
  }

  void end_roll(int p) {
    if (st.ended) return;
    if (r.doubles_roll_again && p == st.current && g.turn_doubles_ && !g.extra_roll_blocked_ && active(p) &&
        !st.players[p].in_jail)
      return;
    next_turn();
  }

  void next_turn() {
    if (st.ended) return;
    st.doubles_in_row = 0;
    g.turn_doubles_ = false;
    g.extra_roll_blocked_ = false;
    auto& ending = st.players[st.current];
    ending.insured = ending.insured_card = false;
    for (int q = 0; q < static_cast<int>(st.players.size()); ++q) {
      if (st.players[q].unclaimed_salary > 0) {
        event(Event::Kind::salary_forfeit, q, -1, -1, -1, st.players[q].unclaimed_salary);
        st.players[q].unclaimed_salary = 0;  // a forgotten salary is forfeit once the turn is over
      }
    }
    ++st.turns;
    int n = static_cast<int>(st.players.size());
    for (int k = 1; k <= n; ++k) {
      int c = (st.current + k) % n;
      if (active(c)) {
        st.current = c;
        break;
      }
    }
    event(Event::Kind::turn, st.current);
    if (st.players[st.current].in_jail) ask_jail(st.current);
  }

  // The next choice of the title-deed draft: every set whose deeds are all still the bank's, by group id.
  void ask_draft() {
    while (!st.draft_picks.empty()) {
      Question q;
      q.player = st.draft_picks.front();
      q.kind = QuestionKind::draft;
      for (std::size_t gi = 0; gi < ed.groups.size(); ++gi) {
        const auto& members = ed.members_of(static_cast<int>(gi));
        bool free = !members.empty() && std::all_of(members.begin(), members.end(), [&](int s) {
          return is_ownable(ed.spaces[s]) && st.spaces[s].owner == kNobody;
        });
        if (free) q.options.push_back(ed.groups[gi].id);
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

  // FINANCE (1932): a jailed player with 3 or more houses on one property, who "cannot languish in Jail".
  bool three_throws_out(int p) const {
    if (!r.jail_house_owner_three_throws) return false;
    return std::any_of(st.spaces.begin(), st.spaces.end(),
                       [&](const SpaceState& ss) { return ss.owner == p && (ss.houses >= 3 || ss.hotel); });
  }
  static constexpr int kJailThrows = 3;

  void ask_jail(int p) {
    const auto& pl = st.players[p];
    Question q;
    q.player = p;
    q.kind = QuestionKind::jail;
    q.amount = r.jail_fine;
    if (three_throws_out(p)) {
      // "must come out on his first turn. He gets choice of three throws of the dice": no fine (none named).
      q.options.push_back("roll");
      st.pending.push_back(std::move(q));
      return;
    }
    int last_turn = r.leave_jail_next_turn ? 1 : r.jail_turns;
    // The fine may be paid before rolling on all but the last turn; on the last, a failed throw costs it
    // anyway. Where the player must leave on the next turn (ships Short Game: "by ... a card ...; or 2)
    // rolling doubles; or 3) paying $50"), paying first is one of the three ways out of that one turn.
    bool may_pay_first = r.leave_jail_next_turn || pl.jail_attempts < last_turn - 1;
    if (may_pay_first && pl.cash >= r.jail_fine) q.options.push_back("pay_fine");
    if (pl.cards() > 0) q.options.push_back("use_card");
    q.options.push_back("roll");
    st.pending.push_back(std::move(q));
  }

  // ---------------------------------------------------------------- auctions
  void start_auction(Auction::Item item, int space) {
    Auction a;
    a.item = item;
    a.space = space;
    if (r.auction_timer_max_s > 0)
      a.timer_s =
          r.auction_timer_min_s + random_below(g.rng_, r.auction_timer_max_s - r.auction_timer_min_s + 1);
    st.auction = a;
    Money piece = item == Auction::Item::property ? finance::series_piece(ed, r, st, space).value_or(0) : 0;
    event(Event::Kind::auction_started, kNobody, -1, -1, space, piece, static_cast<int>(item));
  }

  void give_lot(int p, int s) {
    st.spaces[s].owner = p;
    if (r.house_with_lot && ed.spaces[s].kind == Space::Kind::property && st.bank_houses > 0 &&
        st.spaces[s].houses == 0) {
      st.spaces[s].houses = 1;
      --st.bank_houses;
    }
  }

  // ---------------------------------------------------------------- bankruptcy and the end
  void bankrupt(int p) {
    auto it = std::find_if(st.pending.begin(), st.pending.end(),
                           [&](const Question& q) { return q.player == p && q.kind == QuestionKind::debt; });
    int creditor = it != st.pending.end() ? it->creditor : kBank;
    std::erase_if(st.pending, [&](const Question& q) { return q.player == p; });
    auto& pl = st.players[p];
    ++st.bankruptcies;
    bool final_bankruptcy = r.end_after_bankruptcies > 0 && st.bankruptcies >= r.end_after_bankruptcies;
    bool keep_buildings = final_bankruptcy && r.bankrupt_keeps_buildings;
    bool houses_stay = keep_buildings || (creditor != kBank && r.creditor_takes_houses);
    int n = static_cast<int>(st.spaces.size());
    std::vector<int> to_auction;
    std::vector<int> mortgaged_received;
    std::vector<int> beyond_markers = lots_beyond_markers(p, creditor);
    for (int s = 0; s < n; ++s) {
      SpaceState& ss = st.spaces[s];
      if (ss.owner != p) continue;
      if (std::find(beyond_markers.begin(), beyond_markers.end(), s) != beyond_markers.end()) {
        // FINANCE (Parker): "Lots in excess of this number must be turned back to the bank at half-price":
        // the bank takes the lot with its houses and pays the creditor half their printed value.
        post(kBank, creditor, g.lot_value(s) / 2, Memo::bankruptcy, s);
        st.bank_houses += ss.houses;
        if (ss.hotel) ++st.bank_hotels;
        ss = SpaceState{};
        continue;
      }
      if (!houses_stay && !r.bankrupt_leases_withdrawn && (ss.houses > 0 || ss.hotel)) {
        Money cost = ed.spaces[s].house_cost;
        int houses = ss.hotel ? r.houses_for_hotel + 1 : ss.houses;
        st.bank_houses += ss.houses;
        if (ss.hotel) ++st.bank_hotels;
        ss.houses = 0;
        ss.hotel = false;
        if (creditor != kBank) post(kBank, p, houses * cost / 2, Memo::sell_building, s);
      }
      if (r.bankrupt_leases_withdrawn) {
        // FINANCE (1932): "When a player is put out, all his property is withdrawn from the game. The leases
        // go back to the Bank and cannot be sold again." His houses go back to the bank's supply.
        st.bank_houses += ss.houses;
        if (ss.hotel) ++st.bank_hotels;
        auto fate = finance::fate_of_lease(ed, r, st, p, s);
        ss = SpaceState{};
        if (fate == finance::Fate::auctioned) {
          to_auction.push_back(s);
        } else {
          ss.withdrawn = true;
          event(Event::Kind::withdrawn, p, -1, -1, s);
        }
      } else if (creditor == kBank) {
        st.bank_houses += ss.houses;
        if (ss.hotel) ++st.bank_hotels;
        ss = SpaceState{};
        if (r.bankrupt_lots_auctioned) to_auction.push_back(s);
      } else {
        ss.owner = creditor;
        if (ss.mortgaged) mortgaged_received.push_back(s);
      }
    }
    post(p, creditor, pl.cash, Memo::bankruptcy, -1);
    if (creditor == kBank) {
      return_cards_to_decks(p);
    } else {
      st.players[creditor].chance_cards += pl.chance_cards;
      st.players[creditor].chest_cards += pl.chest_cards;
      pl.chance_cards = pl.chest_cards = 0;
    }
    pl.bankrupt = true;
    pl.in_jail = false;
    pl.unclaimed_salary = 0;
    std::erase_if(st.free_rides, [&](const GameState::FreeRide& f) { return f.holder == p || f.owner == p; });
    // "If the partner is put out, the holding owner becomes full owner"; a holder's leases left with him.
    std::erase_if(st.partnerships,
                  [&](const GameState::Partnership& f) { return f.holder == p || f.partner == p; });
    event(Event::Kind::bankrupt, p, -1, creditor);
    if (final_bankruptcy || active_count() <= 1) {
      finish();
      return;
    }
    if (!keep_buildings)
      for (int s : mortgaged_received) ask_mortgaged_transfer(creditor, s);
    std::vector<Step> auctions;
    for (int s : to_auction) {
      Step a = make(Step::Kind::auction_lot, p);
      a.space = s;
      auctions.push_back(a);
    }
    if (p == st.current) {
      // The bankrupt player's turn ends at once; the bank's auctions run before the next player throws.
      std::erase_if(g.steps_, [&](const Step& s) { return s.player == p; });
      next_turn();
    }
    push_front(std::move(auctions));
  }

  // Where ownership is capped (FINANCE, Parker: eight markers), "a creditor may accept from a debtor only as
  // many lots ... as there are property ownership markers of the creditor's color still unused". The text
  // does not say which lots he takes; the engine gives him the most valuable (printed value with houses,
  // then board order), the choice a creditor would make, and returns the rest.
  std::vector<int> lots_beyond_markers(int debtor, int creditor) const {
    if (creditor == kBank || r.max_properties <= 0) return {};
    std::vector<int> lots;
    for (int s = 0; s < static_cast<int>(st.spaces.size()); ++s)
      if (st.spaces[s].owner == debtor) lots.push_back(s);
    int unused = std::max(0, r.max_properties - properties_owned(creditor));
    if (static_cast<int>(lots.size()) <= unused) return {};
    std::stable_sort(lots.begin(), lots.end(), [&](int a, int b) { return g.lot_value(a) > g.lot_value(b); });
    return {lots.begin() + unused, lots.end()};
  }

  // A Get Out of Jail card leaving a player's hand goes back to the bottom of its deck.
  void return_jail_card(std::size_t deck) {
    const auto& cards = ed.decks[deck].cards;
    auto& order = g.decks_[deck].order;
    for (std::size_t c = 0; c < cards.size(); ++c) {
      if (is_jail_card(cards[c]) &&
          std::count(order.begin(), order.end(), static_cast<int>(c)) < cards[c].copies) {
        order.push_back(static_cast<int>(c));
        return;
      }
    }
  }

  void return_cards_to_decks(int p) {
    auto& pl = st.players[p];
    for (std::size_t d = 0; d < ed.decks.size(); ++d) {
      int* held = ed.decks[d].id == "chance"  ? &pl.chance_cards
                  : ed.decks[d].id == "chest" ? &pl.chest_cards
                                              : nullptr;
      if (!held) continue;
      for (; *held > 0; --*held) return_jail_card(d);
    }
  }

  void ask_mortgaged_transfer(int p, int s) {
    Question q;
    q.player = p;
    q.kind = QuestionKind::mortgaged_transfer;
    q.options = {"lift", "keep"};
    q.space = s;
    q.amount = interest(s);
    q.reason = fmt::format("{} is mortgaged: lift it now for {}, or keep it and pay {} interest",
                           space_name(s), money(ed.spaces[s].mortgage + interest(s)), money(interest(s)));
    st.pending.push_back(std::move(q));
  }

  Money interest(int s) const {
    Money m = ed.spaces[s].mortgage * r.mortgage_interest_percent;
    return (m + 99) / 100;  // rounded up: the bank never loses a fraction
  }

  void finish() {
    st.ended = true;
    st.pending.clear();
    st.auction.reset();
    g.steps_.clear();
    // "The richest player wins": when the richest are equal in worth, they share the win.
    Money best_worth = -1;
    st.winners.clear();
    for (int p = 0; p < static_cast<int>(st.players.size()); ++p) {
      if (!active(p)) continue;
      Money w = g.worth(p);
      if (w > best_worth) {
        best_worth = w;
        st.winners.clear();
      }
      if (w == best_worth) st.winners.push_back(p);
    }
    st.winner = st.winners.size() == 1 ? st.winners.front() : kNobody;
    if (st.winners.empty()) event(Event::Kind::game_over, kNobody);
    for (int p : st.winners)
      event(Event::Kind::game_over, p, -1, -1, -1, best_worth, static_cast<int>(st.winners.size()));
  }

  // ---------------------------------------------------------------- building rules
  std::optional<std::string> why_not_build(int p, int s, bool want_hotel) const {
    if (!active(p)) return fmt::format("{} is not in the game", name(p));
    const Space& sp = ed.spaces[s];
    const SpaceState& ss = st.spaces[s];
    if (sp.kind != Space::Kind::property) return fmt::format("{} cannot have buildings", sp.name);
    if (ss.owner != p) return fmt::format("{} does not own {}", name(p), sp.name);
    if (ss.mortgaged) return fmt::format("{} is mortgaged: lift the mortgage first", sp.name);
    if (r.build_needs_circuit && !st.players[p].passed_start)
      return fmt::format("{} must go once round the board before building", name(p));
    const auto& members = ed.members_of(sp.group_index);
    if (r.build_needs_group) {
      if (!owns_group(p, sp.group_index))
        return fmt::format("{} needs the whole {} group to build", name(p), ed.group(sp.group)->name);
      for (int m : members)
        if (st.spaces[m].mortgaged)
          return fmt::format("{} is mortgaged: no building in its group", space_name(m));
    }
    // Refusals are said in the edition's words ("Queen Mary needs 4 first class decks before a suite").
    const Words& w = ed.words;
    if (ss.hotel) return fmt::format("{} already has a {}", sp.name, w.hotel);
    bool hotel =
        r.hotels_enabled && (ss.houses == r.max_houses || (want_hotel && ss.houses >= r.houses_for_hotel));
    if (want_hotel && !hotel)
      return fmt::format("{} needs {} {} before a {}", sp.name, r.hotels_enabled ? r.houses_for_hotel : 0,
                         w.houses, w.hotel);
    if (!hotel && ss.houses >= r.max_houses)
      return fmt::format("{} has the most {} allowed", sp.name, w.houses);
    if (r.even_building && r.build_needs_group) {
      if (hotel) {
        for (int m : members)
          if (!st.spaces[m].hotel && st.spaces[m].houses < r.houses_for_hotel)
            return fmt::format("build evenly: {} needs {} {} before a {} on {}", space_name(m),
                               r.houses_for_hotel, w.houses, w.hotel, sp.name);
      } else {
        for (int m : members)
          if (level(m) < ss.houses)
            return fmt::format("build evenly: {} has fewer {}", space_name(m), w.houses);
      }
    }
    int credits = hotel ? st.hotel_credits[p] : st.house_credits[p];
    if (credits == 0) {
      if (hotel && st.bank_hotels == 0)
        return fmt::format("the bank has no {} left: wait until one is sold back", w.hotels);
      if (!hotel && st.bank_houses == 0)
        return fmt::format("the bank has no {} left: wait until some are sold back", w.houses);
      if (st.players[p].cash < sp.house_cost)
        return fmt::format("{} has {} and a building on {} costs {}", name(p), money(st.players[p].cash),
                           sp.name, money(sp.house_cost));
    }
    return std::nullopt;
  }

  void build(int p, int s, bool want_hotel) {
    SpaceState& ss = st.spaces[s];
    bool hotel =
        r.hotels_enabled && (ss.houses == r.max_houses || (want_hotel && ss.houses >= r.houses_for_hotel));
    int& credits = hotel ? st.hotel_credits[p] : st.house_credits[p];
    if (credits > 0) {
      --credits;  // bought at a shortage auction: already paid and taken from the bank
    } else {
      post(p, kBank, ed.spaces[s].house_cost, Memo::build, s);
      if (hotel)
        --st.bank_hotels;
      else
        --st.bank_houses;
    }
    if (hotel) {
      st.bank_houses += ss.houses;
      ss.houses = 0;
      ss.hotel = true;
    } else {
      ++ss.houses;
    }
    event(Event::Kind::built, p, -1, -1, s, 0, hotel ? 1 : 0);
  }

  std::optional<std::string> why_not_sell(int p, int s) const {
    auto plan = sale_plan(p, s);
    if (!plan) return plan.error();
    return std::nullopt;
  }

  // What selling one building on lot s does, lot by lot. A house is sold for half its price. A hotel is sold
  // for half its price too and the bank puts the houses it replaced back on the lot ("one hotel equals five
  // houses"). When the bank lacks those houses, "all hotels on one color-group may be sold at once": every
  // hotel of the group comes down to what the houses already in the bank allow, and any lot more than one
  // house above that comes down too, so the group stays even. Houses only ever leave a lot: the houses a sale
  // returns are never put back on another lot (docs/editions.md).
  std::expected<SalePlan, std::string> sale_plan(int p, int s) const {
    if (!active(p)) return Fail(fmt::format("{} is not in the game", name(p)));
    const SpaceState& ss = st.spaces[s];
    if (ss.owner != p) return Fail(fmt::format("{} does not own {}", name(p), space_name(s)));
    bool lot_goes = r.lots_sell_to_bank && ed.spaces[s].kind == Space::Kind::property && !ss.hotel &&
                    !ss.mortgaged && ss.houses <= (r.house_with_lot ? 1 : 0);
    if (ss.houses == 0 && !ss.hotel && !lot_goes)
      return Fail(fmt::format("{} has no buildings to sell", space_name(s)));
    const auto& members = ed.members_of(ed.spaces[s].group_index);
    if (r.even_building && !ss.hotel)
      for (int m : members)
        if (level(m) > ss.houses)
          return Fail(fmt::format("sell evenly: {} has more buildings", space_name(m)));
    if (lot_goes) {
      // FINANCE (Parker): the bank buys the house and lot back together for half the printed value.
      SalePlan plan;
      plan.player = p;
      plan.space = s;
      plan.bank_houses_before = st.bank_houses;
      plan.bank_houses_after = st.bank_houses + ss.houses;
      plan.total = g.lot_value(s) / 2;
      plan.lots.push_back(LotSale{s, ss.houses, false, 0, plan.total, true});
      return plan;
    }
    Money half = ed.spaces[s].house_cost / 2;
    SalePlan plan;
    plan.player = p;
    plan.space = s;
    plan.bank_houses_before = plan.bank_houses_after = st.bank_houses;
    auto add = [&](int lot, int houses_after, Money refund) {
      const SpaceState& ls = st.spaces[lot];
      plan.lots.push_back(LotSale{lot, ls.houses, ls.hotel, houses_after, refund});
      plan.total += refund;
      plan.bank_houses_after += ls.houses - houses_after;
    };
    if (!ss.hotel) {
      add(s, ss.houses - 1, half);
      return plan;
    }
    int replace = std::min(r.houses_for_hotel, r.max_houses);
    if (st.bank_houses >= replace) {
      add(s, replace, half);
      return plan;
    }
    if (r.hotel_sale_needs_houses)
      return Fail(fmt::format(
          "the bank has {} and the hotel on {} comes down to {} houses: wait until the bank has them (this "
          "edition sells a hotel only for its houses)",
          st.bank_houses == 0   ? std::string("no houses")
          : st.bank_houses == 1 ? std::string("1 house")
                                : fmt::format("{} houses", st.bank_houses),
          space_name(s), replace));
    if (!r.even_building) {
      int keep = st.bank_houses;
      add(s, keep, (r.houses_for_hotel + 1 - keep) * half);
      return plan;
    }
    // The bank's houses go to the former hotel lots as evenly as they can, one more on the chosen lot
    // first; lots without a hotel keep at most one house more than the lowest of those.
    int hotels = 0;
    for (int m : members) hotels += st.spaces[m].owner == p && st.spaces[m].hotel ? 1 : 0;
    int base = st.bank_houses / hotels, extra = st.bank_houses % hotels;
    std::vector<int> order = {s};
    for (int m : members)
      if (m != s) order.push_back(m);
    for (int m : order) {
      const SpaceState& ms = st.spaces[m];
      if (ms.owner != p) continue;
      Money lot_half = ed.spaces[m].house_cost / 2;
      if (ms.hotel) {
        int houses = base + (extra > 0 ? 1 : 0);
        extra -= extra > 0 ? 1 : 0;
        add(m, houses, (r.houses_for_hotel + 1 - houses) * lot_half);
      } else if (ms.houses > base + 1) {
        add(m, base + 1, (ms.houses - (base + 1)) * lot_half);
      }
    }
    return plan;
  }

  void sell(int p, int s) {
    SalePlan plan = *sale_plan(p, s);
    bool group_sale =
        plan.lots.size() > 1 ||
        (st.spaces[s].hotel && plan.lots[0].houses_after != std::min(r.houses_for_hotel, r.max_houses));
    for (const LotSale& lot : plan.lots) {
      SpaceState& ls = st.spaces[lot.space];
      if (lot.lot_to_bank) {
        st.bank_houses += ls.houses;
        ls = SpaceState{};
        post(kBank, p, lot.refund, Memo::sell_building, lot.space);
        event(Event::Kind::sold, p, -1, -1, lot.space, 0, 3);
        continue;
      }
      if (ls.hotel) {
        ls.hotel = false;
        ++st.bank_hotels;
        st.bank_houses -= lot.houses_after;
      } else {
        st.bank_houses += ls.houses - lot.houses_after;
      }
      ls.houses = lot.houses_after;
      post(kBank, p, lot.refund, Memo::sell_building, lot.space);
      if (group_sale)
        event(Event::Kind::sold, p, lot.hotel_before ? 1 : 0, -1, lot.space, lot.houses_after, 2);
      else
        event(Event::Kind::sold, p, -1, -1, lot.space, lot.houses_after, lot.hotel_before ? 1 : 0);
    }
  }

  std::optional<std::string> why_not_mortgage(int p, int s) const {
    if (!active(p)) return fmt::format("{} is not in the game", name(p));
    if (!r.mortgages) return "this edition has no mortgages: sell to the bank or another player instead";
    const SpaceState& ss = st.spaces[s];
    if (!is_ownable(ed.spaces[s])) return fmt::format("{} cannot be mortgaged", space_name(s));
    if (ss.owner != p) return fmt::format("{} does not own {}", name(p), space_name(s));
    if (ss.mortgaged) return fmt::format("{} is already mortgaged", space_name(s));
    if (ed.spaces[s].kind == Space::Kind::property && group_has_buildings(ed.spaces[s].group_index))
      return fmt::format("sell the buildings on the {} group first", ed.group(ed.spaces[s].group)->name);
    return std::nullopt;
  }

  std::optional<std::string> why_not_unmortgage(int p, int s) const {
    if (!active(p)) return fmt::format("{} is not in the game", name(p));
    const SpaceState& ss = st.spaces[s];
    if (ss.owner != p) return fmt::format("{} does not own {}", name(p), space_name(s));
    if (!ss.mortgaged) return fmt::format("{} is not mortgaged", space_name(s));
    Money cost = ed.spaces[s].mortgage + interest(s);
    if (st.players[p].cash < cost)
      return fmt::format("lifting the mortgage on {} costs {} and {} has {}", space_name(s), money(cost),
                         name(p), money(st.players[p].cash));
    return std::nullopt;
  }

  // ---------------------------------------------------------------- inputs
  std::string expecting() const {
    if (st.ended) return "the game has ended";
    if (st.auction) return fmt::format("the auction of {} is running (bid or close)", auction_name());
    if (!st.pending.empty()) {
      const Question& q = st.pending.front();
      switch (q.kind) {
        case QuestionKind::debt:
          return fmt::format("{} owes {} ({}): raise money or send bankrupt", name(q.player), money(q.amount),
                             q.reason);
        case QuestionKind::draw:
          return fmt::format("{} must draw a {} card", name(q.player), q.deck);
        default:
          return fmt::format("{} must answer the {} question", name(q.player),
                             std::string(question_name(q.kind)));
      }
    }
    if (!g.steps_.empty()) return fmt::format("a throw of the dice for {}", name(g.steps_.front().player));
    return fmt::format("{}'s roll", name(st.current));
  }
  std::string auction_name() const {
    if (!st.auction) return "";
    if (st.auction->item == Auction::Item::property) return space_name(st.auction->space);
    return st.auction->item == Auction::Item::house ? "a house" : "a hotel";
  }

  std::optional<std::string> check_player(int p) const {
    if (p < 0 || p >= static_cast<int>(st.players.size())) return "no such player";
    if (st.players[p].bankrupt) return fmt::format("{} is bankrupt and out of the game", name(p));
    return std::nullopt;
  }
  std::optional<std::string> check_space(int s) const {
    if (s < 0 || s >= board_size())
      return fmt::format("space {} does not exist: the board has spaces 0 to {}", s, board_size() - 1);
    return std::nullopt;
  }
  const Question* pending_of(int p, QuestionKind k) const {
    for (const auto& q : st.pending)
      if (q.player == p && q.kind == k) return &q;
    return nullptr;
  }
  bool in_debt(int p) const { return pending_of(p, QuestionKind::debt) != nullptr; }

  std::expected<void, std::string> handle(const Roll& in) {
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
    if (!g.steps_.empty() && g.steps_.front().roll == Step::Roll::jail_attempt &&
        g.steps_.front().kind == Step::Kind::need_roll)
      return jail_roll(in);
    if (!g.steps_.empty()) {
      Step s = g.steps_.front();
      assert(s.kind == Step::Kind::need_roll);
      g.steps_.pop_front();
      return throw_for(s, total, doubles);
    }
    int p = st.current;
    g.turn_doubles_ = doubles;
    if (doubles) ++st.doubles_in_row;
    if (doubles && r.three_doubles_to_jail && st.doubles_in_row >= 3) {
      event(Event::Kind::three_doubles, p);
      jail(p);
      next_turn();
      return {};
    }
    push_front({move_by_step(p, total, true), land_step(p), make(Step::Kind::end_roll, p)});
    return {};
  }

  std::expected<void, std::string> jail_roll(const Roll& in) {
    int p = st.current;
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
        q.options = {"use_throw", "throw_again"};
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
      fine.to = kBank;
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
    event(Event::Kind::stays_in_jail, p);
    next_turn();
    return {};
  }

  // Out of jail, moving by the throw kept; the throw gives no further one.
  std::expected<void, std::string> leave_jail_by_throw(int p, int total) {
    release(p);
    g.extra_roll_blocked_ = true;
    push_front({move_by_step(p, total, true), land_step(p), make(Step::Kind::end_roll, p)});
    return {};
  }

  std::expected<void, std::string> throw_for(const Step& s, int total, bool doubles) {
    switch (s.roll) {
      case Step::Roll::rent_dice: {
        Money rent = static_cast<Money>(total) * s.multiplier;
        pay(s.player, s.to, rent, Memo::rent, s.space);
        std::vector<Step> shares;
        partner_shares(shares, s.player, s.space, rent);
        push_front(std::move(shares));
        return {};
      }
      case Step::Roll::sweepstakes:
        for (int o = 0; o < static_cast<int>(st.players.size()); ++o)
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

  std::expected<void, std::string> handle(const Choose& in) {
    if (auto e = check_player(in.player)) return Fail(*e);
    auto it = std::find_if(st.pending.begin(), st.pending.end(), [&](const Question& q) {
      return q.player == in.player && q.kind != QuestionKind::debt && q.kind != QuestionKind::draw;
    });
    if (it == st.pending.end()) return Fail(fmt::format("{} has no question to answer", name(in.player)));
    if (std::find(it->options.begin(), it->options.end(), in.option) == it->options.end()) {
      std::string opts;
      for (const auto& o : it->options) opts += (opts.empty() ? "" : ", ") + o;
      return Fail(fmt::format("'{}' is not an answer to {}'s {} question (options: {})", in.option,
                              name(in.player), question_name(it->kind), opts));
    }
    Question q = *it;
    int p = in.player;
    switch (q.kind) {
      case QuestionKind::buy: {
        if (in.option == "buy") {
          if (st.players[p].cash < q.amount)
            return Fail(fmt::format("{} has {} and {} costs {}: raise money first, or choose auction",
                                    name(p), money(st.players[p].cash), space_name(q.space),
                                    money(q.amount)));
          if (r.max_properties > 0 && properties_owned(p) >= r.max_properties)
            return Fail(
                fmt::format("{} already owns {} properties, the most allowed", name(p), r.max_properties));
          st.pending.erase(it);
          post(p, kBank, q.amount, Memo::buy, q.space);
          give_lot(p, q.space);
          event(Event::Kind::bought, p, -1, -1, q.space, q.amount);
        } else {
          st.pending.erase(it);
          start_auction(Auction::Item::property, q.space);
        }
        return {};
      }
      case QuestionKind::tax: {
        st.pending.erase(it);
        // Worth is counted only now, after the choice, as the rule book says.
        Money due = in.option == "pay_fixed" ? q.amount : g.tax_worth(p) * q.percent / 100;
        pay(p, kBank, due, Memo::tax, q.space);
        return {};
      }
      case QuestionKind::jail: {
        st.pending.erase(it);
        if (in.option == "roll") {
          // The throw for doubles follows as the next roll (a roll sent straight away means the same).
          Step attempt = make(Step::Kind::need_roll, p);
          attempt.roll = Step::Roll::jail_attempt;
          g.steps_.push_front(attempt);
          return {};
        }
        if (in.option == "throw_again") {
          Step attempt = make(Step::Kind::need_roll, p);
          attempt.roll = Step::Roll::jail_attempt;
          g.steps_.push_front(attempt);
          return {};
        }
        if (in.option == "use_throw") return leave_jail_by_throw(p, static_cast<int>(q.amount));
        if (in.option == "pay_fine") {
          post(p, kBank, r.jail_fine, Memo::jail_fine, ed.jail_space);
        } else {
          use_jail_card(p);
        }
        release(p);
        if (r.jail_exit_ends_turn) next_turn();  // out, but this turn was spent getting out
        return {};
      }
      case QuestionKind::mortgaged_transfer: {
        st.pending.erase(it);
        if (in.option == "lift") {
          st.spaces[q.space].mortgaged = false;
          pay(p, kBank, ed.spaces[q.space].mortgage, Memo::unmortgage, q.space);
          pay(p, kBank, interest(q.space), Memo::interest, q.space);
          event(Event::Kind::unmortgaged, p, -1, -1, q.space);
        } else {
          pay(p, kBank, interest(q.space), Memo::interest, q.space);
        }
        return {};
      }
      case QuestionKind::draft: {
        // "These are free -- no payment to the Bank is required."
        st.pending.erase(it);
        st.draft_picks.erase(st.draft_picks.begin());
        const Group* set = ed.group(in.option);
        int gi = static_cast<int>(set - ed.groups.data());
        for (int s : ed.members_of(gi)) give_lot(p, s);
        event(Event::Kind::drafted, p, -1, -1, -1, 0, gi);
        ask_draft();
        return {};
      }
      default:
        return Fail("that question is not answered by choose");
    }
  }

  void use_jail_card(int p) {
    auto& pl = st.players[p];
    std::string deck_id = pl.chance_cards > 0 ? "chance" : "chest";
    (pl.chance_cards > 0 ? pl.chance_cards : pl.chest_cards)--;
    for (std::size_t d = 0; d < ed.decks.size(); ++d)
      if (ed.decks[d].id == deck_id) return return_jail_card(d);
  }

  std::expected<void, std::string> handle(const Bid& in) {
    if (auto e = check_player(in.player)) return Fail(*e);
    if (!st.auction) return Fail("there is no auction running");
    Auction& a = *st.auction;
    if (in.amount <= 0) return Fail("a bid must be more than 0");
    if (a.high_bidder != kNobody && in.amount < a.high_bid + r.bid_increment)
      return Fail(
          fmt::format("a bid must beat {} by at least {}", money(a.high_bid), money(r.bid_increment)));
    if (in.amount > st.players[in.player].cash)
      return Fail(fmt::format("{} has only {}: raise money before bidding {}", name(in.player),
                              money(st.players[in.player].cash), money(in.amount)));
    if (a.item == Auction::Item::property)
      if (auto why = finance::why_not_acquire(ed, r, st, in.player, a.space)) return Fail(*why);
    if (a.item == Auction::Item::property && r.max_properties > 0 &&
        properties_owned(in.player) >= r.max_properties)
      return Fail(fmt::format("{} already owns {} properties, the most allowed: sell one first",
                              name(in.player), r.max_properties));
    a.high_bid = in.amount;
    a.high_bidder = in.player;
    return {};
  }

  std::expected<void, std::string> handle(const Close&) {
    if (!st.auction) return Fail("there is no auction running");
    Auction a = *st.auction;
    if (a.high_bidder != kNobody && st.players[a.high_bidder].cash < a.high_bid)
      return Fail(fmt::format("{} bid {} but now has {}: they must raise money before the auction closes",
                              name(a.high_bidder), money(a.high_bid), money(st.players[a.high_bidder].cash)));
    st.auction.reset();
    if (a.high_bidder == kNobody) {
      event(Event::Kind::auction_unsold, kNobody, -1, -1, a.space, 0, static_cast<int>(a.item));
      return {};
    }
    int p = a.high_bidder;
    if (a.item == Auction::Item::property) {
      post(p, kBank, a.high_bid, Memo::auction, a.space);
      give_lot(p, a.space);
    } else if (a.item == Auction::Item::house) {
      post(p, kBank, a.high_bid, Memo::auction, -1);
      --st.bank_houses;
      ++st.house_credits[p];
    } else {
      post(p, kBank, a.high_bid, Memo::auction, -1);
      --st.bank_hotels;
      ++st.hotel_credits[p];
    }
    event(Event::Kind::auction_won, p, -1, -1, a.space, a.high_bid, static_cast<int>(a.item));
    return {};
  }

  std::expected<void, std::string> handle(const Draw& in) {
    auto it = std::find_if(st.pending.begin(), st.pending.end(),
                           [&](const Question& q) { return q.kind == QuestionKind::draw; });
    if (it == st.pending.end() || it != st.pending.begin())
      return Fail(fmt::format("no card is to be drawn now: {}", expecting()));
    if (it->deck != in.deck)
      return Fail(fmt::format("the card must come from the {} deck, not {}", it->deck, in.deck));
    std::size_t d = 0;
    while (d < ed.decks.size() && ed.decks[d].id != in.deck) ++d;
    if (d == ed.decks.size()) return Fail(fmt::format("no deck '{}' in this edition", in.deck));
    const Deck& deck = ed.decks[d];
    auto& order = g.decks_[d].order;
    std::size_t pos = 0;
    if (in.card) {
      auto known =
          std::find_if(deck.cards.begin(), deck.cards.end(), [&](const Card& c) { return c.id == *in.card; });
      if (known == deck.cards.end())
        return Fail(fmt::format("no card '{}' in the {} deck", *in.card, deck.name));
      int index = static_cast<int>(known - deck.cards.begin());
      auto where = std::find(order.begin(), order.end(), index);
      if (where == order.end())
        return Fail(
            fmt::format("the card '{}' is not in the {} deck: a player holds it", *in.card, deck.name));
      pos = static_cast<std::size_t>(where - order.begin());
    } else if (order.empty()) {
      return Fail(fmt::format("the {} deck is empty", deck.name));
    }
    int p = it->player;
    st.pending.erase(it);
    int index = order[pos];
    order.erase(order.begin() + static_cast<std::ptrdiff_t>(pos));
    const Card& card = deck.cards[index];
    bool keep = is_jail_card(card);
    if (keep) {
      (deck.id == "chance" ? st.players[p].chance_cards : st.players[p].chest_cards)++;
    } else {
      order.push_back(index);  // returned face down to the bottom
    }
    event(Event::Kind::card_drawn, p, -1, -1, -1, 0, 0, &card);
    std::vector<Step> next;
    for (const Effect& e : card.effects) {
      Step s = make(Step::Kind::effect, p);
      s.effect = &e;
      s.card = &card;
      next.push_back(s);
    }
    push_front(std::move(next));
    return {};
  }

  std::expected<void, std::string> handle(const Build& in) {
    bool want_hotel = in.hotel;
    if (auto e = check_player(in.player)) return Fail(*e);
    if (auto e = check_space(in.space)) return Fail(*e);
    if (st.ended) return Fail("the game has ended");
    if (in_debt(in.player))
      return Fail(fmt::format("{} must pay what they owe before building", name(in.player)));
    if (auto why = why_not_build(in.player, in.space, want_hotel)) return Fail(*why);
    build(in.player, in.space, want_hotel);
    return {};
  }

  std::expected<void, std::string> handle(const Sell& in) {
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
    sell(in.player, in.space);
    return {};
  }

  std::expected<void, std::string> handle(const Mortgage& in) {
    if (auto e = check_player(in.player)) return Fail(*e);
    if (auto e = check_space(in.space)) return Fail(*e);
    if (st.ended) return Fail("the game has ended");
    if (auto why = why_not_mortgage(in.player, in.space)) return Fail(*why);
    st.spaces[in.space].mortgaged = true;
    post(kBank, in.player, ed.spaces[in.space].mortgage, Memo::mortgage, in.space);
    event(Event::Kind::mortgaged, in.player, -1, -1, in.space, ed.spaces[in.space].mortgage);
    return {};
  }

  std::expected<void, std::string> handle(const Unmortgage& in) {
    if (auto e = check_player(in.player)) return Fail(*e);
    if (auto e = check_space(in.space)) return Fail(*e);
    if (st.ended) return Fail("the game has ended");
    if (in_debt(in.player)) return Fail(fmt::format("{} must pay what they owe first", name(in.player)));
    if (auto why = why_not_unmortgage(in.player, in.space)) return Fail(*why);
    st.spaces[in.space].mortgaged = false;
    post(in.player, kBank, ed.spaces[in.space].mortgage, Memo::unmortgage, in.space);
    post(in.player, kBank, interest(in.space), Memo::interest, in.space);
    event(Event::Kind::unmortgaged, in.player, -1, -1, in.space);
    return {};
  }

  std::optional<std::string> check_offer(int p, const Offer& o, int receiver) const {
    if (o.cash < 0) return "a trade cannot give a negative amount";
    if (o.cash > st.players[p].cash)
      return fmt::format("{} offers {} but has {}", name(p), money(o.cash), money(st.players[p].cash));
    if (o.cards < 0 || o.cards > st.players[p].cards())
      return fmt::format("{} has {} Get Out of Jail cards, not {}", name(p), st.players[p].cards(), o.cards);
    for (std::size_t i = 0; i < o.spaces.size(); ++i) {
      int s = o.spaces[i];
      if (auto e = check_space(s)) return e;
      if (std::find(o.spaces.begin(), o.spaces.begin() + static_cast<std::ptrdiff_t>(i), s) !=
          o.spaces.begin() + static_cast<std::ptrdiff_t>(i))
        return fmt::format("{} is listed twice", space_name(s));
      if (st.spaces[s].owner != p) return fmt::format("{} does not own {}", name(p), space_name(s));
      if (finance::lease_in_partnership(ed, st, s))
        return fmt::format(
            "{} is held for a partnership: after the deal the leases cannot change hands again",
            space_name(s));
      if (auto why = finance::why_not_acquire(ed, r, st, receiver, s)) return why;
      if (!r.lots_trade_with_houses && group_has_buildings(ed.spaces[s].group_index))
        return fmt::format(
            "{} cannot change hands while its group has buildings: sell them to the bank first",
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

  std::expected<void, std::string> handle(const Trade& in) {
    if (auto e = check_player(in.from)) return Fail(*e);
    if (auto e = check_player(in.to)) return Fail(*e);
    if (st.ended) return Fail("the game has ended");
    if (in.from == in.to) return Fail("a player cannot trade with themselves");
    if (r.trade_needs_debts_settled)
      for (int p : {in.from, in.to})
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
    post(in.from, in.to, in.give.cash, Memo::trade, -1);
    post(in.to, in.from, in.get.cash, Memo::trade, -1);
    auto hand_over = [&](int a, int b, const Offer& o) {
      for (int s : o.spaces) {
        st.spaces[s].owner = b;
        if (st.spaces[s].mortgaged) ask_mortgaged_transfer(b, s);
      }
      for (const auto& grant : o.free_rides) st.free_rides.push_back({b, a, grant.group, grant.rides});
      for (int c = 0; c < o.cards; ++c) {
        auto& from_pl = st.players[a];
        auto& to_pl = st.players[b];
        if (from_pl.chance_cards > 0) {
          --from_pl.chance_cards;
          ++to_pl.chance_cards;
        } else {
          --from_pl.chest_cards;
          ++to_pl.chest_cards;
        }
      }
    };
    hand_over(in.from, in.to, in.give);
    hand_over(in.to, in.from, in.get);
    event(Event::Kind::traded, in.from, -1, in.to);
    return {};
  }

  std::expected<void, std::string> handle(const Bankrupt& in) {
    if (auto e = check_player(in.player)) return Fail(*e);
    if (!in_debt(in.player))
      return Fail(
          fmt::format("{} owes nothing they cannot pay: bankruptcy is only for a debt", name(in.player)));
    if (r.paupers && pending_of(in.player, QuestionKind::debt)->creditor == kBank)
      return Fail(
          fmt::format("a player cannot be put out of the game by a debt to the Bank: {} mortgages "
                      "everything, and then a pauper's payments to the Bank are reversed",
                      name(in.player)));
    bankrupt(in.player);
    return {};
  }

  // A position adopted from the table must itself obey the rules; it is applied to a copy and checked first.
  std::expected<void, std::string> handle(const Adopt& in) {
    GameState saved_state = st;
    std::vector<Game::DeckState> saved_decks = g.decks_;
    auto result = adopt(in);
    if (result) {
      auto bad = g.invariant_violations();
      if (!bad.empty()) result = Fail(fmt::format("that position breaks the rules: {}", bad.front()));
    }
    if (!result) {
      st = std::move(saved_state);
      g.decks_ = std::move(saved_decks);
    }
    return result;
  }

  std::expected<void, std::string> adopt(const Adopt& in) {
    if (auto e = check_player(in.player)) return Fail(*e);
    auto& pl = st.players[in.player];
    if (in.position) {
      if (auto e = check_space(*in.position)) return Fail(*e);
    }
    if (in.cash && (*in.cash < 0 || *in.cash > kMaxMoney))
      return Fail(fmt::format("cash must be 0 to {}", money(kMaxMoney)));
    if (in.in_jail && *in.in_jail && ed.jail_space < 0) return Fail("this board has no jail");
    int houses_needed = 0, hotels_needed = 0;
    for (const auto& a : in.spaces) {
      if (auto e = check_space(a.space)) return Fail(*e);
      if (!is_ownable(ed.spaces[a.space]))
        return Fail(fmt::format("{} cannot be owned", space_name(a.space)));
      if (st.spaces[a.space].owner != kNobody && st.spaces[a.space].owner != in.player)
        return Fail(fmt::format("{} belongs to {}", space_name(a.space), name(st.spaces[a.space].owner)));
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
        for (int c : g.decks_[d].order) available += is_jail_card(ed.decks[d].cards[c]) ? 1 : 0;
      if (*in.cards < 0 || *in.cards > available)
        return Fail(fmt::format("only {} Get Out of Jail cards exist for {}", available, name(in.player)));
    }
    for (const auto& a : in.spaces) {
      SpaceState& ss = st.spaces[a.space];
      st.bank_houses -= a.houses - ss.houses;
      st.bank_hotels -= (a.hotel ? 1 : 0) - (ss.hotel ? 1 : 0);
      ss.owner = in.player;
      ss.houses = a.houses;
      ss.hotel = a.hotel;
      ss.mortgaged = a.mortgaged;
    }
    if (in.cash) {
      Money diff = *in.cash - pl.cash;
      if (diff > 0) post(kBank, in.player, diff, Memo::adopt, -1);
      if (diff < 0) post(in.player, kBank, -diff, Memo::adopt, -1);
    }
    if (in.position) pl.position = *in.position;
    if (in.cards) {
      while (pl.cards() > *in.cards) return_one_card(in.player);
      while (pl.cards() < *in.cards) take_jail_card(in.player);
    }
    if (in.in_jail) {
      pl.in_jail = *in.in_jail;
      if (pl.in_jail) pl.position = ed.jail_space;
      pl.jail_attempts = 0;
      std::erase_if(st.pending,
                    [&](const Question& q) { return q.player == in.player && q.kind == QuestionKind::jail; });
      if (pl.in_jail && in.player == st.current && st.pending.empty() && g.steps_.empty())
        ask_jail(in.player);
    }
    event(Event::Kind::adopted, in.player);
    return {};
  }

  void return_one_card(int p) { use_jail_card(p); }
  void take_jail_card(int p) {
    for (std::size_t d = 0; d < ed.decks.size(); ++d) {
      auto& order = g.decks_[d].order;
      for (std::size_t i = 0; i < order.size(); ++i) {
        const Card& c = ed.decks[d].cards[order[i]];
        if (is_jail_card(c)) {
          order.erase(order.begin() + static_cast<std::ptrdiff_t>(i));
          (ed.decks[d].id == "chance" ? st.players[p].chance_cards : st.players[p].chest_cards)++;
          return;
        }
      }
    }
  }

  std::expected<void, std::string> handle(const End&) {
    if (st.ended) return Fail("the game has already ended");
    finish();
    return {};
  }

  std::expected<void, std::string> handle(const AuctionBuilding& in) {
    if (st.ended) return Fail("the game has ended");
    if (st.auction) return Fail("an auction is already running");
    if (in.hotel ? st.bank_hotels == 0 : st.bank_houses == 0)
      return Fail(fmt::format("the bank has no {} to auction", in.hotel ? ed.words.hotels : ed.words.houses));
    start_auction(in.hotel ? Auction::Item::hotel : Auction::Item::house, -1);
    return {};
  }

  // The leases still unsold, lowest number first: the lease numbers follow the board from Start ("No. 1" is
  // the first lease on the board).
  std::vector<int> unsold_leases() const {
    std::vector<int> unsold;
    for (int s = 0; s < static_cast<int>(ed.spaces.size()); ++s)
      if (ed.spaces[s].price > 0 && st.spaces[s].owner == kNobody && !st.spaces[s].withdrawn)
        unsold.push_back(s);
    return unsold;
  }

  // The lease an early sale would auction, or why there is none now.
  std::expected<int, std::string> lease_to_sell_early() const {
    if (r.early_lease_sale_max == 0) return Fail("in this edition a property is sold only when stopped on");
    if (!g.between_moves())
      return Fail(fmt::format("the Auctioneer sells a lease early only between throws ({})", expecting()));
    std::vector<int> unsold = unsold_leases();
    if (unsold.empty()) return Fail("every lease has been sold");
    if (static_cast<int>(unsold.size()) > r.early_lease_sale_max)
      return Fail(
          fmt::format("{} leases are unsold: the Auctioneer may sell only the last {} without waiting",
                      unsold.size(), r.early_lease_sale_max));
    if (st.early_sale_turn == st.turns)
      return Fail(
          "one lease has been sold early this turn: \"Do not sell all at one time\"; the next after "
          "this throw");
    return unsold.front();  // "Sell the lowest number first."
  }

  std::expected<void, std::string> handle(const AuctionLease&) {
    auto lease = lease_to_sell_early();
    if (!lease) return Fail(lease.error());
    st.early_sale_turn = st.turns;
    start_auction(Auction::Item::property, *lease);
    return {};
  }

  std::expected<void, std::string> handle(const Claim& in) {
    if (auto e = check_player(in.player)) return Fail(*e);
    Money due = st.players[in.player].unclaimed_salary;
    if (due == 0) return Fail(fmt::format("{} has no salary to claim this turn", name(in.player)));
    st.players[in.player].unclaimed_salary = 0;
    post(kBank, in.player, due, Memo::salary, ed.start_space);
    return {};
  }

  std::expected<void, std::string> handle(const HousePayment& in) {
    if (st.ended) return Fail("the game has ended");
    for (int account : {in.from, in.to})
      if (account != kBank)
        if (auto e = check_player(account)) return Fail(*e);
    if (in.from == in.to) return Fail("a house-rule payment goes between two different accounts");
    if (in.amount <= 0) return Fail("a house-rule payment needs an amount above zero");
    if (in.reason.empty()) return Fail("a house-rule payment needs its reason (\"Free Parking jackpot\")");
    if (in.from != kBank && st.players[in.from].cash < in.amount)
      return Fail(fmt::format("{} holds only {}: a house-rule payment of {} cannot be owed", name(in.from),
                              money(st.players[in.from].cash), money(in.amount)));
    if (in.to != kBank && st.players[in.to].cash > kMaxMoney - in.amount)
      return Fail(fmt::format("{} would hold more than {}, the most any account may hold", name(in.to),
                              money(kMaxMoney)));
    post(in.from, in.to, in.amount, Memo::house_rule, -1, in.reason);
    return {};
  }

  std::optional<std::string> why_not_insure(const Insure& in) const {
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

  std::expected<void, std::string> handle(const Insure& in) {
    if (auto why = why_not_insure(in)) return Fail(*why);
    Money cost = in.against_card ? r.jail_insurance_card : r.jail_insurance;
    bool& insured = in.against_card ? st.players[in.player].insured_card : st.players[in.player].insured;
    insured = true;
    post(in.player, kBank, cost, Memo::insurance, -1);
    return {};
  }

  std::expected<void, std::string> handle(const Partner& in) {
    if (auto e = check_player(in.holder)) return Fail(*e);
    if (auto e = check_player(in.partner)) return Fail(*e);
    if (auto why = finance::why_not_partner(ed, r, st, in)) return Fail(*why);
    for (int s : ed.members_of(in.group))
      if (st.spaces[s].owner == in.partner) st.spaces[s].owner = in.holder;
    auto same = std::find_if(st.partnerships.begin(), st.partnerships.end(), [&](const auto& f) {
      return f.holder == in.holder && f.partner == in.partner && f.group == in.group;
    });
    if (same != st.partnerships.end())
      same->share_percent = in.share_percent;  // more leases handed over: the new agreement replaces the old
    else
      st.partnerships.push_back({in.holder, in.partner, in.group, in.share_percent});
    event(Event::Kind::partnership, in.holder, in.group, in.partner, -1, 0, in.share_percent);
    return {};
  }

  // The table's bookkeeping: no money moves and no question is answered; the state keeps it for a resume.
  std::expected<void, std::string> handle(const RegisterCard& in) {
    if (st.ended) return Fail("the game has ended");
    if (in.uid.empty() || in.uid.size() > 32 || !std::all_of(in.uid.begin(), in.uid.end(), [](char c) {
          return std::isxdigit(static_cast<unsigned char>(c));
        }))
      return Fail(fmt::format("card \"{}\" is not a card number (up to 32 hex digits)", in.uid));
    if (in.player != kNobody)
      if (auto e = check_player(in.player)) return Fail(*e);
    if (!in.deck.empty()) {
      if (in.player != kNobody) return Fail("a card is a player's or a deck's, not both");
      const Deck* deck = ed.deck(in.deck);
      if (!deck) return Fail(fmt::format("there is no deck \"{}\" in this edition", in.deck));
      if (std::none_of(deck->cards.begin(), deck->cards.end(),
                       [&](const Card& c) { return c.id == in.card; }))
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

  std::expected<void, std::string> handle(const ConfirmPayment& in) {
    if (in.posting < 1 || in.posting > static_cast<std::int64_t>(st.postings.size()))
      return Fail(fmt::format("there is no posting {} to confirm", in.posting));
    if (std::find(st.confirmed_postings.begin(), st.confirmed_postings.end(), in.posting) !=
        st.confirmed_postings.end())
      return Fail(fmt::format("posting {} is confirmed already", in.posting));
    st.confirmed_postings.push_back(in.posting);
    return {};
  }

  std::expected<void, std::string> handle(const Undo&) { return Fail("undo is handled by Game::apply"); }
};

// ------------------------------------------------------------------ Game

std::string_view question_name(QuestionKind kind) {
  switch (kind) {
    case QuestionKind::buy:
      return "buy";
    case QuestionKind::tax:
      return "tax";
    case QuestionKind::jail:
      return "jail";
    case QuestionKind::mortgaged_transfer:
      return "mortgaged_transfer";
    case QuestionKind::debt:
      return "debt";
    case QuestionKind::draw:
      return "draw";
    case QuestionKind::roll:
      return "roll";
    case QuestionKind::draft:
      return "draft";
  }
  return "?";
}

std::expected<Game, std::string> Game::start(std::shared_ptr<const Edition> edition, const Setup& setup) {
  if (!edition) return std::unexpected("no edition");
  if (edition->group_spaces.size() != edition->groups.size())
    return std::unexpected(
        "the edition's groups are not indexed: call Edition::index_groups() after building it");
  if (setup.players.size() < 2) return std::unexpected("a game needs at least two players");
  if (setup.players.size() > 8) return std::unexpected("a game has at most eight players");
  auto rules = edition->rules_with(setup.options);
  if (!rules) return std::unexpected(rules.error());
  Game g;
  g.edition_ = std::move(edition);
  g.rules_ = *rules;
  g.setup_ = setup;
  g.rng_ = setup.seed ^ 0x626f617264ULL;  // "board": different seeds never share a stream with the bots'
  const Edition& ed = *g.edition_;
  GameState& st = g.state_;
  for (const auto& ps : setup.players) {
    if (ps.name.empty()) return std::unexpected("every player needs a name");
    if (ps.name == "bank") return std::unexpected("'bank' is the bank's name: choose another player name");
    for (const auto& other : st.players)
      if (other.name == ps.name) return std::unexpected(fmt::format("two players are named '{}'", ps.name));
    for (const auto& other : st.players)
      if (!ps.card.empty() && card_uid_key(other.card) == card_uid_key(ps.card))
        return std::unexpected(
            fmt::format("{} and {} are both given card {}: each player needs a card of their own", other.name,
                        ps.name, ps.card));
    PlayerState p;
    p.name = ps.name;
    p.token = ps.token;
    p.card = ps.card;
    p.position = ed.start_space;
    st.players.push_back(std::move(p));
  }
  st.spaces.resize(ed.spaces.size());
  st.bank_houses = g.rules_.houses;
  st.bank_hotels = g.rules_.hotels;
  st.house_credits.assign(st.players.size(), 0);
  st.hotel_credits.assign(st.players.size(), 0);
  for (const auto& deck : ed.decks) {
    DeckState ds;
    for (std::size_t c = 0; c < deck.cards.size(); ++c)
      for (int k = 0; k < deck.cards[c].copies; ++k) ds.order.push_back(static_cast<int>(c));
    shuffle(ds.order, g.rng_);
    g.decks_.push_back(std::move(ds));
  }
  Engine e(g, nullptr);
  for (int p = 0; p < static_cast<int>(st.players.size()); ++p)
    e.post(kBank, p, g.rules_.start_cash, Memo::start_cash, -1);
  if (g.rules_.deal_deeds > 0) {
    std::vector<int> deeds;
    for (const auto& sp : ed.spaces)
      if (is_ownable(sp)) deeds.push_back(sp.index);
    for (const auto& ps : setup.players)
      for (int s : ps.deeds) {
        if (s < 0 || s >= static_cast<int>(ed.spaces.size()) || !is_ownable(ed.spaces[s]))
          return std::unexpected(fmt::format("{} was dealt space {}, which is not a title deed", ps.name, s));
        if (st.spaces[s].owner != kNobody)
          return std::unexpected(fmt::format("{} was dealt twice", ed.spaces[s].name));
        st.spaces[s].owner = -3;  // reserved while dealing
      }
    std::erase_if(deeds, [&](int s) { return st.spaces[s].owner != kNobody; });
    shuffle(deeds, g.rng_);
    for (int p = 0; p < static_cast<int>(st.players.size()); ++p) {
      std::vector<int> mine = setup.players[p].deeds;
      while (static_cast<int>(mine.size()) < g.rules_.deal_deeds && !deeds.empty()) {
        mine.push_back(deeds.back());
        deeds.pop_back();
      }
      for (int s : mine) {
        st.spaces[s].owner = p;
        if (g.rules_.deals_paid) e.post(p, kBank, ed.spaces[s].price, Memo::deal, s);
      }
    }
  }
  if (g.rules_.draft_sets) {
    // Ships Short Game rule 1: "the highest score chooses the first set ... If there are four players or
    // less, they then choose a second set but in reverse order". The players are listed in the order of that
    // throw (the setup's turn order), so the draft runs in setup order, then back.
    int n = static_cast<int>(st.players.size());
    for (int p = 0; p < n; ++p) st.draft_picks.push_back(p);
    if (n <= g.rules_.draft_second_round_max_players)
      for (int p = n - 1; p >= 0; --p) st.draft_picks.push_back(p);
    e.ask_draft();
  }
  return g;
}

std::expected<Outcome, std::string> Game::apply(const Input& input) {
  Outcome outcome;
  outcome.first_posting = state_.postings.size();
  if (std::holds_alternative<Undo>(input)) {
    if (input_count() == 0) return std::unexpected("there is nothing to undo");
    if (!has_history()) {
      return std::unexpected(
          "this game was restored from a snapshot without its earlier inputs: replay it from its log to "
          "undo");
    }
    auto rebuilt = Game::start(edition_, setup_);
    assert(rebuilt);
    for (std::size_t i = 0; i + 1 < inputs_.size(); ++i) {
      auto ok = rebuilt->apply(inputs_[i]);
      assert(ok && "an input accepted once must replay");
      (void)ok;
    }
    auto [begin, end] = postings_by_input_.back();
    std::vector<Posting> journal = std::move(state_.postings);
    std::vector<std::pair<std::size_t, std::size_t>> ranges = std::move(postings_by_input_);
    ranges.pop_back();
    int undone_input = static_cast<int>(inputs_.size()) - 1;
    *this = std::move(*rebuilt);
    for (std::size_t i = begin; i < end; ++i) {
      Posting rev = journal[i];
      std::swap(rev.from, rev.to);
      rev.seq = static_cast<std::int64_t>(journal.size()) + 1;
      rev.memo = Memo::undo;
      rev.input = undone_input;
      journal.push_back(std::move(rev));
    }
    state_.postings = std::move(journal);
    postings_by_input_ = std::move(ranges);
    outcome.events.push_back(Event{Event::Kind::undone, kNobody, -1, -1, -1, 0, 0, nullptr});
    return outcome;
  }
  input_index_ = static_cast<int>(input_count());
  Engine e(*this, &outcome);
  // Validation happens before any change inside each handler, so a refused input leaves the state as it was.
  auto result = std::visit([&](const auto& in) { return e.handle(in); }, input);
  if (!result) return std::unexpected(result.error());
  e.run();
  inputs_.push_back(input);
  postings_by_input_.emplace_back(outcome.first_posting, state_.postings.size());
  return outcome;
}

Money Game::worth(int player) const {
  Money w = state_.players[player].cash;
  for (std::size_t s = 0; s < state_.spaces.size(); ++s) {
    const SpaceState& ss = state_.spaces[s];
    if (ss.owner != player) continue;
    const Space& sp = edition_->spaces[s];
    w += lot_value(static_cast<int>(s)) - (ss.mortgaged ? sp.price - sp.price / 2 : 0);
  }
  return w;
}

Money Game::lot_value(int space) const {
  const SpaceState& ss = state_.spaces[space];
  const Space& sp = edition_->spaces[space];
  int houses = ss.hotel ? rules_.houses_for_hotel + 1 : ss.houses;
  if (rules_.house_with_lot && houses > 0 && sp.kind == Space::Kind::property) --houses;
  return sp.price + sp.house_cost * houses;
}

Money Game::tax_worth(int player) const {
  Money w = state_.players[player].cash;
  for (std::size_t s = 0; s < state_.spaces.size(); ++s) {
    const SpaceState& ss = state_.spaces[s];
    if (ss.owner != player) continue;
    const Space& sp = edition_->spaces[s];
    w += sp.price;
    w += ss.hotel ? sp.house_cost * (rules_.houses_for_hotel + 1) : sp.house_cost * ss.houses;
  }
  return w;
}

int Game::player_index(const std::string& player_name) const {
  for (std::size_t i = 0; i < state_.players.size(); ++i)
    if (state_.players[i].name == player_name) return static_cast<int>(i);
  return -1;
}

std::string Game::account_name(int account) const {
  if (account == kBank) return "bank";
  if (account >= 0 && account < static_cast<int>(state_.players.size())) return state_.players[account].name;
  return "?";
}

std::string Game::memo_text(const Posting& p) const {
  Engine e(const_cast<Game&>(*this), nullptr);
  return e.memo_words(p.memo, p.space, p.card);
}

std::string Game::describe(const Event& e) const {
  const Edition& ed = *edition_;
  auto who = [&](int p) { return account_name(p); };
  auto where = [&](int s) {
    return s >= 0 && s < static_cast<int>(ed.spaces.size()) ? ed.spaces[s].name : std::string("?");
  };
  auto item = [&](int detail, int s) {
    return detail == 0 ? where(s) : detail == 1 ? std::string("a house") : std::string("a hotel");
  };
  switch (e.kind) {
    case Event::Kind::moved:
      if (e.from == e.to) return fmt::format("{} stays on {}", who(e.player), where(e.to));
      if (e.detail == 1) return fmt::format("{} goes straight to {}", who(e.player), where(e.to));
      return fmt::format("{} moves from {} to {}", who(e.player), where(e.from), where(e.to));
    case Event::Kind::jailed:
      return fmt::format("{} goes to {}", who(e.player), where(ed.jail_space));
    case Event::Kind::released:
      return fmt::format("{} is out of {}", who(e.player), where(ed.jail_space));
    case Event::Kind::card_drawn:
      return fmt::format("{} draws: {}", who(e.player),
                         e.card ? (e.card->text.empty() ? e.card->id : e.card->text) : "?");
    case Event::Kind::bought:
      return fmt::format("{} buys {} for {}", who(e.player), where(e.space), ed.format_money(e.amount));
    case Event::Kind::auction_started:
      if (e.detail == 0 && e.amount > 0 && e.space >= 0)  // FINANCE (1932): the piece announced
        return fmt::format("Auction: {}, {}", item(e.detail, e.space),
                           finance::piece_words(edition(), e.space, static_cast<int>(e.amount)));
      return fmt::format("Auction: {}", item(e.detail, e.space));
    case Event::Kind::auction_won:
      return fmt::format("{} wins the auction of {} for {}", who(e.player), item(e.detail, e.space),
                         ed.format_money(e.amount));
    case Event::Kind::auction_unsold:
      return fmt::format("No bids for {}: nobody buys", item(e.detail, e.space));
    case Event::Kind::built:
      return fmt::format("{} builds a {} on {}", who(e.player),
                         e.detail == 1 ? ed.words.hotel : ed.words.house, where(e.space));
    case Event::Kind::sold: {
      auto houses = [&](Money n) { return ed.words.count_houses(static_cast<int>(n)); };
      if (e.detail == 1)
        return fmt::format("{} sells the {} on {} for {}", who(e.player), ed.words.hotel, where(e.space),
                           houses(e.amount));
      if (e.detail == 2)
        return fmt::format("{} sells the {} on {}: {} left", who(e.player),
                           e.from == 1 ? ed.words.hotel : ed.words.houses, where(e.space), houses(e.amount));
      if (e.detail == 3) return fmt::format("{} sells {} back to the bank", who(e.player), where(e.space));
      return fmt::format("{} sells a {} on {}", who(e.player), ed.words.house, where(e.space));
    }
    case Event::Kind::mortgaged:
      return fmt::format("{} mortgages {} for {}", who(e.player), where(e.space), ed.format_money(e.amount));
    case Event::Kind::unmortgaged:
      return fmt::format("{} lifts the mortgage on {}", who(e.player), where(e.space));
    case Event::Kind::traded:
      return fmt::format("{} and {} trade", who(e.player), who(e.to));
    case Event::Kind::bankrupt:
      return fmt::format("{} is bankrupt; everything goes to {}", who(e.player),
                         e.to == kBank ? "the bank" : who(e.to));
    case Event::Kind::game_over: {
      if (e.player == kNobody) return std::string("The game is over");
      if (e.detail <= 1) return fmt::format("The game is over: {} wins", who(e.player));
      std::string others;
      for (int w : state_.winners)
        if (w != e.player) others += (others.empty() ? "" : " and ") + who(w);
      if (others.empty()) return fmt::format("The game is over: {} shares the win in a tie", who(e.player));
      return fmt::format("The game is over: a tie, {} shares the win with {}", who(e.player), others);
    }
    case Event::Kind::turn:
      return fmt::format("{}'s turn", who(e.player));
    case Event::Kind::undone:
      return "The last input is taken back";
    case Event::Kind::three_doubles:
      return fmt::format("{} throws a third double in a row", who(e.player));
    case Event::Kind::stays_in_jail:
      return fmt::format("{} stays in {}", who(e.player), where(ed.jail_space));
    case Event::Kind::insured:
      return fmt::format("{} is insured and stays out of jail", who(e.player));
    case Event::Kind::adopted:
      return fmt::format("{}'s position on the table is adopted", who(e.player));
    case Event::Kind::free_ride:
      return fmt::format("{} uses a free ride on {}", who(e.player), where(e.space));
    case Event::Kind::salary_earned:
      return fmt::format("{} may claim a salary of {} this turn", who(e.player), ed.format_money(e.amount));
    case Event::Kind::partnership:
      return fmt::format("{} and {} share the {}: {} holds the leases and pays {} {}% of every income",
                         who(e.player), who(e.to), edition_->groups[static_cast<std::size_t>(e.from)].name,
                         who(e.player), who(e.to), e.detail);
    case Event::Kind::withdrawn:
      return fmt::format("{} leaves the game with {}", edition_->spaces[e.space].name, who(e.player));
    case Event::Kind::salary_forfeit:
      return fmt::format("{} forgot to claim {} and it is forfeit", who(e.player), ed.format_money(e.amount));
    case Event::Kind::drafted:
      return fmt::format("{} chooses the {} deeds", who(e.player),
                         ed.groups[static_cast<std::size_t>(e.detail)].name);
  }
  return "?";
}

std::optional<std::string> Game::why_not_build(int player, int space) const {
  Engine e(const_cast<Game&>(*this), nullptr);
  if (auto err = e.check_space(space)) return err;
  if (auto err = e.check_player(player)) return err;
  return e.why_not_build(player, space, false);
}
std::optional<std::string> Game::why_not_sell(int player, int space) const {
  Engine e(const_cast<Game&>(*this), nullptr);
  if (auto err = e.check_space(space)) return err;
  if (auto err = e.check_player(player)) return err;
  return e.why_not_sell(player, space);
}
std::expected<SalePlan, std::string> Game::sale_plan(int player, int space) const {
  Engine e(const_cast<Game&>(*this), nullptr);
  if (auto err = e.check_space(space)) return std::unexpected(*err);
  if (auto err = e.check_player(player)) return std::unexpected(*err);
  return e.sale_plan(player, space);
}

bool SalePlan::changes_other_lots() const {
  return std::any_of(lots.begin(), lots.end(), [&](const LotSale& lot) { return lot.space != space; });
}

std::optional<std::string> Game::why_not_mortgage(int player, int space) const {
  Engine e(const_cast<Game&>(*this), nullptr);
  if (auto err = e.check_space(space)) return err;
  if (auto err = e.check_player(player)) return err;
  return e.why_not_mortgage(player, space);
}
std::expected<int, std::string> Game::lease_to_sell_early() const {
  Engine e(const_cast<Game&>(*this), nullptr);
  return e.lease_to_sell_early();
}
std::optional<int> Game::series_piece(int space) const {
  if (space < 0 || space >= static_cast<int>(state_.spaces.size())) return std::nullopt;
  return finance::series_piece(*edition_, rules_, state_, space);
}
std::optional<std::string> Game::why_not_insure(int player, bool against_card) const {
  Engine e(const_cast<Game&>(*this), nullptr);
  return e.why_not_insure(Insure{player, against_card});
}
std::optional<std::string> Game::why_not_partner(const Partner& partner) const {
  Engine e(const_cast<Game&>(*this), nullptr);
  if (auto err = e.check_player(partner.holder)) return err;
  if (auto err = e.check_player(partner.partner)) return err;
  return finance::why_not_partner(*edition_, rules_, state_, partner);
}
std::optional<std::string> Game::why_not_unmortgage(int player, int space) const {
  Engine e(const_cast<Game&>(*this), nullptr);
  if (auto err = e.check_space(space)) return err;
  if (auto err = e.check_player(player)) return err;
  return e.why_not_unmortgage(player, space);
}

std::vector<std::string> Game::invariant_violations() const {
  std::vector<std::string> bad;
  const GameState& st = state_;
  const Edition& ed = *edition_;
  int n = static_cast<int>(st.players.size());
  // A running draft asks its next chooser, and nothing else happens before it is over.
  if (!st.draft_picks.empty()) {
    bool asked = !st.pending.empty() && st.pending.front().kind == QuestionKind::draft &&
                 st.pending.front().player == st.draft_picks.front();
    if (!asked) bad.push_back("the draft is running but its next chooser is not asked");
    if (st.turns > 0) bad.push_back("a turn was played before the draft was over");
  }
  // The journal explains every balance, and all balances (the bank's included) sum to zero.
  std::vector<Money> balance(static_cast<std::size_t>(n) + 1, 0);  // last slot: the bank
  auto slot = [&](int account) {
    return account == kBank ? static_cast<std::size_t>(n) : static_cast<std::size_t>(account);
  };
  for (std::size_t i = 0; i < st.postings.size(); ++i) {
    const Posting& p = st.postings[i];
    if (p.seq != static_cast<std::int64_t>(i) + 1)
      bad.push_back(fmt::format("posting {} has seq {}", i + 1, p.seq));
    if (p.amount <= 0) bad.push_back(fmt::format("posting {} moves {}", p.seq, p.amount));
    if ((p.from != kBank && (p.from < 0 || p.from >= n)) || (p.to != kBank && (p.to < 0 || p.to >= n))) {
      bad.push_back(fmt::format("posting {} names an unknown account", p.seq));
      continue;
    }
    balance[slot(p.from)] -= p.amount;
    balance[slot(p.to)] += p.amount;
  }
  Money sum = 0;
  for (Money b : balance) sum += b;
  if (sum != 0) bad.push_back(fmt::format("balances sum to {}, not zero", sum));
  for (int p = 0; p < n; ++p) {
    if (balance[static_cast<std::size_t>(p)] != st.players[p].cash)
      bad.push_back(fmt::format("{} holds {} but the ledger says {}", st.players[p].name, st.players[p].cash,
                                balance[static_cast<std::size_t>(p)]));
    if (st.players[p].cash < 0) bad.push_back(fmt::format("{} has negative cash", st.players[p].name));
    if (st.players[p].bankrupt && (st.players[p].cash != 0 || st.players[p].cards() != 0))
      bad.push_back(fmt::format("bankrupt {} still holds cash or cards", st.players[p].name));
  }
  // Buildings: on the board plus in the bank (plus won at auction, not yet placed) equal the supply.
  int houses = st.bank_houses, hotels = st.bank_hotels;
  for (int c : st.house_credits) houses += c;
  for (int c : st.hotel_credits) hotels += c;
  for (std::size_t s = 0; s < st.spaces.size(); ++s) {
    const SpaceState& ss = st.spaces[s];
    const Space& sp = ed.spaces[s];
    houses += ss.houses;
    hotels += ss.hotel ? 1 : 0;
    if (ss.owner != kNobody) {
      if (ss.owner < 0 || ss.owner >= n)
        bad.push_back(fmt::format("{} has an unknown owner", sp.name));
      else if (st.players[ss.owner].bankrupt)
        bad.push_back(fmt::format("{} is owned by a bankrupt player", sp.name));
      if (!is_ownable(sp)) bad.push_back(fmt::format("{} cannot be owned", sp.name));
    } else if (ss.houses || ss.hotel || ss.mortgaged) {
      bad.push_back(fmt::format("{} belongs to the bank but has buildings or a mortgage", sp.name));
    }
    if (ss.hotel && ss.houses) bad.push_back(fmt::format("{} has a hotel and houses", sp.name));
    if (ss.houses > rules_.max_houses) bad.push_back(fmt::format("{} has {} houses", sp.name, ss.houses));
    if (ss.mortgaged && (ss.houses || ss.hotel))
      bad.push_back(fmt::format("{} is mortgaged with buildings", sp.name));
  }
  if (houses != rules_.houses)
    bad.push_back(fmt::format("houses: {} counted, supply {}", houses, rules_.houses));
  if (hotels != rules_.hotels)
    bad.push_back(fmt::format("hotels: {} counted, supply {}", hotels, rules_.hotels));
  if (st.bank_houses < 0 || st.bank_hotels < 0)
    bad.push_back("the bank holds a negative number of buildings");
  // Even building, and buildings only where the whole group is owned and unmortgaged.
  if (rules_.even_building && rules_.build_needs_group) {
    for (const auto& grp : ed.groups) {
      const auto& members = ed.members_of(static_cast<int>(&grp - ed.groups.data()));
      if (members.empty()) continue;
      int lo = 1000, hi = -1, owner = st.spaces[members[0]].owner;
      bool whole = true, any_mortgaged = false;
      for (int m : members) {
        int lvl = st.spaces[m].hotel ? rules_.max_houses + 1 : st.spaces[m].houses;
        if (st.spaces[m].hotel) lvl = std::max(lvl, rules_.houses_for_hotel + 1);
        lo = std::min(lo, st.spaces[m].hotel ? rules_.houses_for_hotel : lvl);
        hi = std::max(hi, st.spaces[m].hotel ? rules_.houses_for_hotel + 1 : lvl);
        whole = whole && st.spaces[m].owner == owner;
        any_mortgaged = any_mortgaged || st.spaces[m].mortgaged;
      }
      if (hi > 0 && (!whole || owner == kNobody))
        bad.push_back(fmt::format("buildings on the {} group without owning all of it", grp.name));
      if (hi > 0 && any_mortgaged)
        bad.push_back(fmt::format("buildings on the {} group while a lot is mortgaged", grp.name));
      if (hi - lo > 1 && !(hi == rules_.houses_for_hotel + 1 && lo >= rules_.houses_for_hotel))
        bad.push_back(fmt::format("the {} group is not built evenly", grp.name));
    }
  }
  // Every card is either in its deck or in exactly one player's hand.
  for (std::size_t d = 0; d < ed.decks.size(); ++d) {
    int total = 0, held = 0;
    for (const auto& c : ed.decks[d].cards) total += c.copies;
    for (const auto& pl : st.players)
      held += ed.decks[d].id == "chance" ? pl.chance_cards : ed.decks[d].id == "chest" ? pl.chest_cards : 0;
    if (static_cast<int>(decks_[d].order.size()) + held != total)
      bad.push_back(fmt::format("the {} deck has {} cards and players hold {}, of {}", ed.decks[d].name,
                                decks_[d].order.size(), held, total));
  }
  for (const auto& f : st.free_rides)
    if (f.rides <= 0 || f.holder < 0 || f.holder >= n || f.owner < 0 || f.owner >= n ||
        st.players[f.holder].bankrupt || st.players[f.owner].bankrupt)
      bad.push_back("a free ride is held by or owed from a player out of the game");
  for (auto& v : finance::violations(ed, st)) bad.push_back(std::move(v));
  for (const auto& q : st.pending)
    if (q.player < 0 || q.player >= n || st.players[q.player].bankrupt)
      bad.push_back("a question is pending for a player out of the game");
  for (int w : st.winners)
    if (w < 0 || w >= n) bad.push_back("a winner is not a player of this game");
  if (st.winner != (st.winners.size() == 1 ? st.winners.front() : kNobody))
    bad.push_back("the winner and the list of winners disagree");
  if (!st.ended && (st.current < 0 || st.current >= n || st.players[st.current].bankrupt))
    bad.push_back("the current player is not in the game");
  return bad;
}

std::uint64_t Game::signature() const {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  auto mix = [&](std::int64_t v) {
    for (int i = 0; i < 8; ++i) {
      h ^= static_cast<std::uint64_t>(v >> (i * 8)) & 0xff;
      h *= 0x100000001b3ULL;
    }
  };
  const GameState& st = state_;
  for (const auto& p : st.players) {
    mix(p.cash);
    mix(p.position);
    mix(p.in_jail);
    mix(p.cards());
    mix(p.bankrupt);
  }
  for (const auto& s : st.spaces) {
    mix(s.owner);
    mix(s.houses);
    mix(s.hotel);
    mix(s.mortgaged);
    if (s.withdrawn) mix(0x57);  // FINANCE (1932) only, so the other editions' signatures stay as pinned
  }
  for (const auto& f : st.partnerships) {
    mix(f.holder);
    mix(f.partner);
    mix(f.group);
    mix(f.share_percent);
  }
  mix(st.bank_houses);
  mix(st.bank_hotels);
  mix(st.current);
  mix(st.turns);
  mix(st.ended);
  mix(st.winner);
  if (st.winners.size() > 1)
    for (int w : st.winners) mix(w);    // a shared win; a single winner is already in `winner`
  for (int p : st.draft_picks) mix(p);  // only during a draft: other games' signatures are unchanged
  if (st.early_sale_turn >= 0) mix(st.early_sale_turn);  // only once a lease was sold early (FINANCE 1932)
  mix(static_cast<std::int64_t>(st.postings.size()));
  for (const auto& p : st.postings) {
    mix(p.from);
    mix(p.to);
    mix(p.amount);
    mix(static_cast<int>(p.memo));
  }
  return h;
}

}  // namespace bb::rules
