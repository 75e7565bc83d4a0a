#pragma once
// The engine's private machinery, for rules/ only (never included outside it): the steps a game still has to
// take, the decks' order (rules/deck_state.h), and Engine, which applies one input to one Game. Its members
// are defined by concern: engine_money.cpp (payments, debts, rent), engine_moving.cpp (the step machine:
// moves, landing, effects, turns, jail, the draft), engine_bankruptcy.cpp (bankruptcy and the end),
// engine_building.cpp (building, selling, mortgages and their refusals), engine_inputs.cpp (each input's
// checks and effect). Threads: an Engine lives for one call on the thread that called Game; it never outlives
// it.
#include <fmt/format.h>

#include <algorithm>
#include <cassert>
#include <cctype>
#include <expected>
#include <initializer_list>
#include <iterator>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "rules/deck_state.h"
#include "rules/finance_1932.h"
#include "rules/game.h"
#include "rules/input_limits.h"
#include "rules/splitmix.h"

namespace bb::rules {

inline int random_below(std::uint64_t& s, int n) {
  return static_cast<int>(splitmix64(s) % static_cast<std::uint64_t>(n));
}

template <typename T>
inline void shuffle(std::vector<T>& v, std::uint64_t& s) {
  for (int i = static_cast<int>(v.size()) - 1; i > 0; --i) std::swap(v[i], v[random_below(s, i + 1)]);
}

// `number % n` for a number from 0 up, without a division where the number is below 2n, as for every move
// of a token round the board and every turn round the table: a division is tens of cycles, and a turn made
// several.
inline int wrap(int number, int n) { return number < n ? number : number < 2 * n ? number - n : number % n; }

inline bool is_jail_card(const Card& card) {
  return std::any_of(card.effects.begin(), card.effects.end(),
                     [](const Effect& e) { return e.kind == Effect::Kind::get_out_of_jail; });
}

inline bool is_ownable(const Space& sp) {
  return sp.kind == Space::Kind::property || sp.kind == Space::Kind::railroad ||
         sp.kind == Space::Kind::utility;
}

using Fail = std::unexpected<std::string>;

// What the engine still has to do before it needs the next input: Game::steps_ holds them, the next step
// last, so taking the next one and putting one in front are both at the vector's end.
struct Step {
  enum class Kind : std::uint8_t { move_by, move_to, land, effect, pay, need_roll, end_roll, auction_lot };
  enum class Roll : std::uint8_t { rent_dice, sweepstakes, roll_move, fare_move, jail_attempt };
  // Widest first, so a step is 64 bytes, not 72: every throw copies a few onto the queue and off it.
  const Effect* effect = nullptr;
  const Card* card = nullptr;
  Money amount = 0;
  PlayerId player{0};
  Account to = Account::bank();  // pay: the receiving account
  std::optional<SpaceId> space;  // move_to: where to; pay: the space the payment concerns
  int steps = 0;
  int multiplier = 1;       // land: rent multiplier (nearest railroad card)
  int dice_multiplier = 0;  // land: utility rent as a fresh throw times this (nearest utility card)
  Kind kind = Kind::land;
  Roll roll = Roll::rent_dice;
  bool salary = true;
  bool from_dice = false;
  Memo memo = Memo::salary;
};
static_assert(sizeof(Step) <= 64, "a step is copied on every throw: keep it to a cache line");
// Applies inputs to one Game: a friend, so Game's header stays a plain picture of state. Owns nothing: it
// works on the game it is given, for the length of one call.
class Engine {
 public:
  Engine(Game& game, Outcome* outcome)
      : g(game), ed(*game.edition_), r(game.rules_), st(game.state_), out(outcome) {}

  Game& g;
  const Edition& ed;
  const Rules& r;
  GameState& st;
  Outcome* out;

  // ---------------------------------------------------------------- small helpers
  int board_size() const { return static_cast<int>(ed.spaces.size()); }
  const std::string& name(PlayerId p) const { return st.players[p].name; }
  // A seat at this table: a PlayerId that came from outside (an input, a screen) is checked with it first.
  bool seated(PlayerId p) const { return p.number() >= 0 && p.index() < st.players.size(); }
  // The next seat in turn order, round the table (bankrupt players included).
  PlayerId next_seat(PlayerId p) const {
    return PlayerId{wrap(p.number() + 1, static_cast<int>(st.players.size()))};
  }
  std::string money(Money m) const { return ed.format_money(m); }
  const std::string& space_name(SpaceId s) const { return ed.spaces[s.index()].name; }

  // `make` returns the event and names the fields its kind sets:
  //   event([&] { return Event{.kind = Event::Kind::released, .player = p}; });
  // It runs only when someone reads the events: a playout (Game::play) builds none, and an Event built and
  // dropped on every move was measurable there.
  template <typename MakeEvent>
  void event(const MakeEvent& make) {
    if (out) out->events.push_back(make());
  }

  bool active(PlayerId p) const { return seated(p) && !st.players[p].bankrupt; }
  int active_count() const {
    int n = 0;
    for (const auto& pl : st.players) n += pl.bankrupt ? 0 : 1;
    return n;
  }

  void post(Account from, Account to, Money amount, Memo memo, std::optional<SpaceId> space,
            const std::string& card = {});
  // post() where the game keeps its journal: the Posting built and kept. Out of line, so that a playout's
  // payment (the cash moved and counted) sets up none of it.
  [[gnu::noinline]] void post_to_journal(Account from, Account to, Money amount, Memo memo,
                                         std::optional<SpaceId> space, const std::string& card);

  // Nothing left to sell or mortgage: no buildings and no unmortgaged property.
  bool nothing_to_raise(PlayerId p) const {
    for (SpaceId s : g.lots_of(p))
      if (const SpaceState& ss = st.spaces[s]; !ss.mortgaged || ss.houses > 0 || ss.hotel) return false;
    return true;
  }

  bool is_pauper(PlayerId p) const {
    if (!r.paupers) return false;
    if (st.players[p].cash >= r.pauper_cash_below) return false;
    for (SpaceId s : g.lots_of(p))
      if (!st.spaces[s].mortgaged) return false;
    return true;
  }

  // A payment; when the payer cannot cover it, a debt question holds it until they raise the money or give
  // up.
  void pay(Account from, Account to, Money amount, Memo memo, std::optional<SpaceId> space,
           const Card* card = nullptr);

  std::string memo_words(Memo memo, std::optional<SpaceId> space, const std::string& card) const;

  // Puts steps in front of the queue, the first of them next. A braced list builds no vector: most rolls
  // push two or three steps, and a vector for them was a malloc and a free per throw.
  void push_front(std::initializer_list<Step> steps) {
    for (auto it = std::rbegin(steps); it != std::rend(steps); ++it) g.steps_.push_back(*it);
  }
  void push_front(const std::vector<Step>& steps) {
    for (auto it = steps.rbegin(); it != steps.rend(); ++it) g.steps_.push_back(*it);
  }
  // Steps put in front of the queue one by one, the first added next, without a vector of their own (a local
  // vector was a malloc and a free per landing and per card): they go on the queue's end as they come, and
  // done() turns them round, since the queue keeps its next step last. Nothing else may take from or put on
  // the queue between the first push_back and done().
  class FrontSteps {
   public:
    explicit FrontSteps(std::vector<Step>& queue) : queue_(queue), first_(queue.size()) {}
    void push_back(const Step& step) { queue_.push_back(step); }
    void done() { std::reverse(queue_.begin() + static_cast<std::ptrdiff_t>(first_), queue_.end()); }

   private:
    std::vector<Step>& queue_;
    std::size_t first_;
  };
  FrontSteps front_steps() { return FrontSteps{g.steps_}; }
  static Step make(Step::Kind kind, PlayerId player) {
    Step s;
    s.kind = kind;
    s.player = player;
    return s;
  }
  static Step land_step(PlayerId player, int multiplier = 1, int dice_multiplier = 0) {
    Step s = make(Step::Kind::land, player);
    s.multiplier = multiplier;
    s.dice_multiplier = dice_multiplier;
    return s;
  }
  static Step move_by_step(PlayerId player, int steps, bool salary) {
    Step s = make(Step::Kind::move_by, player);
    s.steps = steps;
    s.salary = salary;
    return s;
  }
  static Step move_to_step(PlayerId player, SpaceId space, bool salary) {
    Step s = make(Step::Kind::move_to, player);
    s.space = space;
    s.salary = salary;
    return s;
  }

  bool blocked() const { return !st.pending.empty() || st.auction.has_value() || st.ended; }

  // ---------------------------------------------------------------- ownership queries
  int owned_in_group(PlayerId owner, int group) const {
    return g.lots_of(owner).count_common(ed.group_set(group));
  }
  bool owns_group(PlayerId owner, int group) const {
    return g.lots_of(owner).contains_all(ed.group_set(group));
  }
  bool group_has_buildings(int group) const {
    if (group < 0) return false;
    for (SpaceId s : ed.members_of(group))
      if (st.spaces[s].houses > 0 || st.spaces[s].hotel) return true;
    return false;
  }
  // Whether an unimproved lot of `group` pays double rent to `owner`.
  bool doubles_rent(PlayerId owner, int group) const {
    if (!r.double_rent_on_group || !owns_group(owner, group)) return false;
    if (!r.double_rent_needs_clear_series) return true;
    const auto& members = ed.members_of(group);
    return std::none_of(members.begin(), members.end(), [&](SpaceId s) {
      return st.spaces[s].mortgaged || st.spaces[s].houses > 0 || st.spaces[s].hotel;
    });
  }
  int level(SpaceId s) const { return st.spaces[s].hotel ? r.max_houses + 1 : st.spaces[s].houses; }
  int properties_owned(PlayerId p) const { return g.lots_of(p).size(); }

  Money rent_for(SpaceId s, int dice_total) const;
  // A lot `p` lands on charges rent (the rule of Engine::land): someone else owns it, that owner is still in
  // the game and the lot is not mortgaged. A free ride may still waive it.
  bool charges_rent(PlayerId p, const SpaceState& ss) const {
    return ss.owner && *ss.owner != p && !ss.mortgaged && active(*ss.owner);
  }
  // A landing on `pos` that does nothing but charge rent: Engine::land would queue only the payment (no free
  // ride to take, no partnership to share it, no effect of the space, no rival to move back). The fast
  // throw pays it at once.
  bool lands_on_rent_only(PlayerId p, SpaceId pos) const {
    return is_ownable(ed.spaces[pos]) && charges_rent(p, st.spaces[pos]) && st.free_rides.empty() &&
           st.partnerships.empty() && ed.spaces[pos].on_land.empty() && r.forced_move_back <= 0;
  }

  // ---------------------------------------------------------------- one input
  // What Game::run_input does around every input, for the fused path too (Bot::play plays the bot's common
  // decisions without building an Input): `handle` checks and applies the input, the step machine runs on,
  // and the input is counted (kept for undo while the game keeps its history). Refused, nothing is counted.
  template <typename In, typename Handle>
  std::expected<void, std::string> as_input(const In& input, const Handle& handle) {
    const std::size_t first_posting = st.postings.size();
    g.input_index_ = static_cast<int>(g.input_count());
    if (auto result = handle(); !result) return result;
    run();
    if (g.keep_history_) {
      g.inputs_.push_back(Input{input});
      g.postings_by_input_.emplace_back(first_posting, st.postings.size());
    } else {
      ++g.history_offset_;
    }
    return {};
  }

  // ---------------------------------------------------------------- the step machine
  void run() {
    while (true) {
      if (!st.pending.empty()) settle_debts();  // a call per step was a frame of saved registers for nothing
      if (blocked() || g.steps_.empty()) return;
      Step s = g.steps_.back();
      if (s.kind == Step::Kind::need_roll) return;  // waits for the throw
      g.steps_.pop_back();
      exec(s);
    }
  }

  void settle_debts();

  void exec(const Step& s);

  void collect_salary(PlayerId p) {
    st.players[p].passed_start = true;
    if (r.salary_must_be_claimed) {
      st.players[p].unclaimed_salary += r.salary;  // paid on a `claim` this turn, forfeit after it
      event([&] { return Event{.kind = Event::Kind::salary_earned, .player = p, .amount = r.salary}; });
      return;
    }
    pay(Account::bank(), p, r.salary, Memo::salary, ed.start_space);
  }

  void move_by(PlayerId p, int steps, bool salary);

  void move_to(PlayerId p, SpaceId space, bool salary) {
    int n = board_size();
    int steps = wrap(space.number() - st.players[p].position.number() + n, n);
    if (steps == 0) {
      // Already there (advance to GO while on GO cannot happen from a card space, but stay safe).
      event([&] {
        return Event{.kind = Event::Kind::moved, .player = p, .from_space = space, .to_space = space};
      });
      return;
    }
    move_by(p, steps, salary);
  }

  void jail(PlayerId p);

  void release(PlayerId p) {
    st.players[p].in_jail = false;
    st.players[p].jail_attempts = 0;
    event([&] { return Event{.kind = Event::Kind::released, .player = p}; });
  }

  void land(PlayerId p, int multiplier, int dice_multiplier);

  // FINANCE (1932): the holder of a partnership's leases pays each partner his share of an income.
  void partner_shares(FrontSteps& next, PlayerId lander, SpaceId space, Money income) {
    if (st.partnerships.empty()) return;  // every edition but FINANCE (1932), and most of its games
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

  bool take_free_ride(PlayerId holder, PlayerId owner, int group) {
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

  void apply_effect(PlayerId p, const Effect& e, const Card* card);

  void end_roll(PlayerId p) {
    if (st.ended) return;
    if (r.doubles_roll_again && p == st.current && g.turn_doubles_ && !g.extra_roll_blocked_ && active(p) &&
        !st.players[p].in_jail)
      return;
    next_turn();
  }

  void next_turn();

  // The next choice of the title-deed draft: every set whose deeds are all still the bank's, by group id.
  void ask_draft();

  // FINANCE (1932): a jailed player with 3 or more houses on one property, who "cannot languish in Jail".
  bool three_throws_out(PlayerId p) const {
    if (!r.jail_house_owner_three_throws) return false;
    return std::any_of(st.spaces.begin(), st.spaces.end(),
                       [&](const SpaceState& ss) { return ss.owner == p && (ss.houses >= 3 || ss.hotel); });
  }
  static constexpr int kJailThrows = 3;

  void ask_jail(PlayerId p);

  // ---------------------------------------------------------------- auctions
  void start_auction(Auction::Item item, std::optional<SpaceId> space) {
    Auction a;
    a.item = item;
    a.space = space;
    if (r.auction_timer_max_s > 0)
      a.timer_s =
          r.auction_timer_min_s + random_below(g.rng_, r.auction_timer_max_s - r.auction_timer_min_s + 1);
    st.auction = a;
    const int piece = item == Auction::Item::property
                          ? static_cast<int>(finance::series_piece(ed, r, st, *space).value_or(0))
                          : 0;
    event([&] {
      return Event{
          .kind = Event::Kind::auction_started, .space = space, .series_piece = piece, .auctioned = item};
    });
  }

  // The only ways a lot changes owner (with return_to_bank): each keeps Game::owned_lots_ in step with the
  // board.
  void set_owner(SpaceId lot, PlayerOrNobody owner) {
    SpaceState& ss = st.spaces[lot];
    if (ss.owner) g.owned_lots_[*ss.owner].erase(lot);
    ss.owner = owner;
    if (owner) g.owned_lots_[*owner].insert(lot);
  }
  // The lot goes back to the bank bare: no owner, no buildings, no mortgage.
  void return_to_bank(SpaceId lot) {
    set_owner(lot, std::nullopt);
    st.spaces[lot] = SpaceState{};
    g.mortgaged_lots_.erase(lot);
  }
  // The only way a lot's mortgage is taken or lifted: keeps Game::mortgaged_lots_ in step with the board.
  void set_mortgaged(SpaceId lot, bool mortgaged) {
    st.spaces[lot].mortgaged = mortgaged;
    if (mortgaged)
      g.mortgaged_lots_.insert(lot);
    else
      g.mortgaged_lots_.erase(lot);
  }

  void give_lot(PlayerId p, SpaceId lot) {
    auto s = lot.index();
    set_owner(lot, p);
    if (r.house_with_lot && ed.spaces[s].kind == Space::Kind::property && st.bank_houses > 0 &&
        st.spaces[s].houses == 0) {
      st.spaces[s].houses = 1;
      --st.bank_houses;
    }
  }

  // ---------------------------------------------------------------- bankruptcy and the end
  void bankrupt(PlayerId p);

  // Where ownership is capped (FINANCE, Parker: eight markers), "a creditor may accept from a debtor only as
  // many lots ... as there are property ownership markers of the creditor's color still unused". The text
  // does not say which lots he takes; the engine gives him the most valuable (printed value with houses,
  // then board order), the choice a creditor would make, and returns the rest.
  std::vector<SpaceId> lots_beyond_markers(PlayerId debtor, Account creditor) const {
    if (creditor.is_bank() || r.max_properties <= 0) return {};
    std::vector<SpaceId> lots(g.lots_of(debtor).begin(), g.lots_of(debtor).end());
    int unused = std::max(0, r.max_properties - properties_owned(*creditor.player()));
    if (static_cast<int>(lots.size()) <= unused) return {};
    std::stable_sort(lots.begin(), lots.end(),
                     [&](SpaceId a, SpaceId b) { return g.lot_value(a) > g.lot_value(b); });
    return {lots.begin() + unused, lots.end()};
  }

  // A Get Out of Jail card leaving a player's hand goes back to the bottom of its deck.
  void return_jail_card(DeckId deck) {
    const auto& cards = ed.decks[deck].cards;
    auto& order = g.decks_[deck.index()];
    for (std::size_t c = 0; c < cards.size(); ++c) {
      if (!is_jail_card(cards[c])) continue;
      int in_deck = 0;
      for (std::size_t i = 0; i < order.size(); ++i) in_deck += order[i] == static_cast<int>(c) ? 1 : 0;
      if (in_deck < cards[c].copies) {
        order.push_bottom(static_cast<int>(c));
        return;
      }
    }
  }

  void return_cards_to_decks(PlayerId p) {
    auto& pl = st.players[p];
    for (DeckId d : ed.decks.ids())
      for (int& held = pl.jail_cards[d]; held > 0; --held) return_jail_card(d);
  }

  // A bankrupt's mortgaged lot passed on: its new owner lifts the mortgage now or keeps it and pays interest.
  void ask_mortgaged_transfer(PlayerId p, SpaceId s);

  Money interest(SpaceId s) const {
    Money m = ed.spaces[s.index()].mortgage * r.mortgage_interest_percent;
    return (m + 99) / 100;  // rounded up: the bank never loses a fraction
  }

  void finish();

  // ---------------------------------------------------------------- building rules
  // The refusals are values (Refusal) so the bots' yes-or-no questions never word a sentence; explain()
  // words one for the screens.
  using RK = Refusal::Kind;
  static Refusal refuse(RK kind, std::optional<PlayerId> player = std::nullopt,
                        std::optional<SpaceId> space = {}, std::optional<SpaceId> other = {}) {
    return Refusal{kind, player, space, other};
  }

  // What building on a lot of `group` needs from the group, for player p, from one walk of its lots: both
  // refuse_build and first_lot_to_build read a group's facts only through it (by build_refusal). Here, not in
  // engine_building.cpp, so that first_lot_to_build's walk inlines it (a call per group cost 0.6% of a
  // playout's instructions).
  struct GroupBuildFacts {
    bool whole = true;  // p owns every lot of it (true where the edition builds without the whole group)
    bool lot_mortgaged = false;     // a lot of it is mortgaged, where the edition needs the whole group
    bool ready_for_hotels = false;  // every lot of it has a hotel or the houses a hotel needs
    int lowest_level = 0;           // the lowest level (level()) of its lots
  };
  GroupBuildFacts group_build_facts(PlayerId p, int group) const {
    bool lot_mortgaged = false, ready_for_hotels = true;
    int lowest_level = r.max_houses + 1;
    for (SpaceId m : ed.members_of(group)) {
      const SpaceState& ms = st.spaces[m];
      lot_mortgaged |= ms.mortgaged;
      ready_for_hotels &= ms.hotel || ms.houses >= r.houses_for_hotel;
      lowest_level = std::min(lowest_level, level(m));
    }
    return GroupBuildFacts{.whole = !r.build_needs_group || owns_group(p, group),
                           .lot_mortgaged = r.build_needs_group && lot_mortgaged,
                           .ready_for_hotels = ready_for_hotels,
                           .lowest_level = lowest_level};
  }
  // The one rule of building: why p may not build on property s (nothing if it may). The group's facts are
  // asked of `group_facts()` (a function returning a const GroupBuildFacts&) only once the lot's own checks
  // have passed, so a caller asking about several lots of a group can work them out once. Defined and used in
  // engine_building.cpp only.
  template <class GroupFacts>
  std::optional<RK> build_refusal(PlayerId p, SpaceId s, bool want_hotel, GroupFacts&& group_facts) const;
  // build_refusal's answer with the lots it names (the mortgaged lot, the lot short of houses).
  std::optional<Refusal> refuse_build(PlayerId p, SpaceId s, bool want_hotel) const;
  // The first lot of `among` (spaces of this board) whose building costs at most `budget` and that
  // refuse_build(p, s, false) allows, for a seated p (Game::first_lot_to_build).
  std::optional<SpaceId> first_lot_to_build(PlayerId p, const SpaceSet& among, Money budget) const;
  std::optional<std::string> why_not_build(PlayerId p, SpaceId s, bool want_hotel) const {
    if (auto no = refuse_build(p, s, want_hotel)) return explain(*no);
    return std::nullopt;
  }

  // The sentence for a refusal, in the edition's words ("Queen Mary needs 4 first class decks before a
  // suite"), from the state as it is now.
  std::string explain(const Refusal& no) const;

  void build(PlayerId p, SpaceId s, bool want_hotel);

  // Whether selling one building on lot s is allowed, without working out the sale (sale_plan does).
  std::optional<Refusal> refuse_sell(PlayerId p, SpaceId s) const;
  std::optional<std::string> why_not_sell(PlayerId p, SpaceId s) const {
    if (auto no = refuse_sell(p, s)) return explain(*no);
    return std::nullopt;
  }
  // FINANCE (Parker): the lot itself goes back to the bank with its last house.
  bool lot_goes_with_sale(SpaceId lot) const {
    auto s = lot.index();
    const SpaceState& ss = st.spaces[s];
    return r.lots_sell_to_bank && ed.spaces[s].kind == Space::Kind::property && !ss.hotel && !ss.mortgaged &&
           ss.houses <= (r.house_with_lot ? 1 : 0);
  }

  // What selling one building on lot s does, lot by lot. A house is sold for half its price. A hotel is sold
  // for half its price too and the bank puts the houses it replaced back on the lot ("one hotel equals five
  // houses"). When the bank lacks those houses, "all hotels on one color-group may be sold at once": every
  // hotel of the group comes down to what the houses already in the bank allow, and any lot more than one
  // house above that comes down too, so the group stays even. Houses only ever leave a lot: the houses a sale
  // returns are never put back on another lot (docs/editions.md).
  std::expected<SalePlan, std::string> sale_plan(PlayerId p, SpaceId s) const;

  // Carries out `plan`, the sale_plan(p, s) just worked out and allowed (Engine::handle(Sell) hands over its
  // own: working it out again was a third of a sale's cost).
  void sell(PlayerId p, SpaceId s, const SalePlan& plan);

  std::optional<Refusal> refuse_mortgage(PlayerId p, SpaceId s) const {
    if (!active(p)) return refuse(RK::not_in_game, p);
    if (!r.mortgages) return refuse(RK::no_mortgages, p, s);
    const SpaceState& ss = st.spaces[s.index()];
    if (!is_ownable(ed.spaces[s.index()])) return refuse(RK::cannot_mortgage, p, s);
    if (ss.owner != p) return refuse(RK::not_owner, p, s);
    if (ss.mortgaged) return refuse(RK::already_mortgaged, p, s);
    if (ed.spaces[s.index()].kind == Space::Kind::property &&
        group_has_buildings(ed.spaces[s.index()].group_index))
      return refuse(RK::group_has_buildings, p, s);
    return std::nullopt;
  }
  std::optional<std::string> why_not_mortgage(PlayerId p, SpaceId s) const {
    if (auto no = refuse_mortgage(p, s)) return explain(*no);
    return std::nullopt;
  }

  std::optional<Refusal> refuse_unmortgage(PlayerId p, SpaceId s) const {
    if (!active(p)) return refuse(RK::not_in_game, p);
    const SpaceState& ss = st.spaces[s.index()];
    if (ss.owner != p) return refuse(RK::not_owner, p, s);
    if (!ss.mortgaged) return refuse(RK::not_mortgaged, p, s);
    if (st.players[p].cash < ed.spaces[s.index()].mortgage + interest(s))
      return refuse(RK::cash_short_to_lift, p, s);
    return std::nullopt;
  }
  std::optional<std::string> why_not_unmortgage(PlayerId p, SpaceId s) const {
    if (auto no = refuse_unmortgage(p, s)) return explain(*no);
    return std::nullopt;
  }

  // A player and a space named by an input or a screen: in range, and the player still in the game.
  std::optional<Refusal> refuse_player_space(PlayerId p, SpaceId s) const {
    if (s.number() < 0 || s.number() >= board_size()) return refuse(RK::no_such_space, p, s);
    if (!seated(p)) return refuse(RK::no_such_player, p, s);
    if (st.players[p].bankrupt) return refuse(RK::bankrupt, p, s);
    return std::nullopt;
  }

  // ---------------------------------------------------------------- inputs
  std::string expecting() const;
  std::string auction_name() const {
    if (!st.auction) return "";
    if (st.auction->item == Auction::Item::property) return space_name(*st.auction->space);
    return st.auction->item == Auction::Item::house ? "a house" : "a hotel";
  }

  std::optional<std::string> check_player(PlayerId p) const {
    if (!seated(p)) return "no such player";
    if (st.players[p].bankrupt) return fmt::format("{} is bankrupt and out of the game", name(p));
    return std::nullopt;
  }
  std::optional<std::string> check_space(SpaceId s) const {
    if (s.number() < 0 || s.number() >= board_size())
      return fmt::format("space {} does not exist: the board has spaces 0 to {}", s.number(),
                         board_size() - 1);
    return std::nullopt;
  }
  const Question* pending_of(PlayerId p, QuestionKind k) const {
    for (const auto& q : st.pending)
      if (q.player == p && q.kind == k) return &q;
    return nullptr;
  }
  bool in_debt(PlayerId p) const { return pending_of(p, QuestionKind::debt) != nullptr; }

  std::expected<void, std::string> handle(const Roll& in);

  void fast_throw(PlayerId p, int total);

  std::expected<void, std::string> jail_roll(const Roll& in);

  // Out of jail, moving by the throw kept; the throw gives no further one.
  std::expected<void, std::string> leave_jail_by_throw(PlayerId p, int total) {
    release(p);
    g.extra_roll_blocked_ = true;
    push_front({move_by_step(p, total, true), land_step(p), make(Step::Kind::end_roll, p)});
    return {};
  }

  std::expected<void, std::string> throw_for(const Step& s, int total, bool doubles);

  std::expected<void, std::string> handle(const Choose& in);

  // A buy question answered, once the answer is known to be allowed (Engine::handle(Choose), and Bot::play
  // for the bot's answer): the question leaves the pending list, then the lot is bought at its price or goes
  // to auction.
  void answer_buy(std::vector<Question>::iterator question, bool buy);

  // The player's first card (HeldJailCards::first) goes back to its deck; the caller knows he holds one.
  void use_jail_card(PlayerId p) {
    auto& held = st.players[p].jail_cards;
    const std::optional<DeckId> deck = held.first();
    assert(deck);
    --held[*deck];
    return_jail_card(*deck);
  }

  std::expected<void, std::string> handle(const Bid& in);

  std::expected<void, std::string> handle(const Close&);

  std::expected<void, std::string> handle(const Draw& in);

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

  std::expected<void, std::string> handle(const Sell& in);

  std::expected<void, std::string> handle(const Mortgage& in) {
    if (auto e = check_player(in.player)) return Fail(*e);
    if (auto e = check_space(in.space)) return Fail(*e);
    if (st.ended) return Fail("the game has ended");
    if (auto why = why_not_mortgage(in.player, in.space)) return Fail(*why);
    set_mortgaged(in.space, true);
    post(Account::bank(), in.player, ed.spaces[in.space.index()].mortgage, Memo::mortgage, in.space);
    event([&] {
      return Event{.kind = Event::Kind::mortgaged,
                   .player = in.player,
                   .space = in.space,
                   .amount = ed.spaces[in.space.index()].mortgage};
    });
    return {};
  }

  std::expected<void, std::string> handle(const Unmortgage& in) {
    if (auto e = check_player(in.player)) return Fail(*e);
    if (auto e = check_space(in.space)) return Fail(*e);
    if (st.ended) return Fail("the game has ended");
    if (in_debt(in.player)) return Fail(fmt::format("{} must pay what they owe first", name(in.player)));
    if (auto why = why_not_unmortgage(in.player, in.space)) return Fail(*why);
    set_mortgaged(in.space, false);
    post(in.player, Account::bank(), ed.spaces[in.space.index()].mortgage, Memo::unmortgage, in.space);
    post(in.player, Account::bank(), interest(in.space), Memo::interest, in.space);
    event([&] { return Event{.kind = Event::Kind::unmortgaged, .player = in.player, .space = in.space}; });
    return {};
  }

  std::optional<std::string> check_offer(PlayerId p, const Offer& o, PlayerId receiver) const;

  std::expected<void, std::string> handle(const Trade& in);

  std::expected<void, std::string> handle(const Bankrupt& in);

  // A position adopted from the table must itself obey the rules; it is applied to a copy and checked first.
  std::expected<void, std::string> handle(const Adopt& in);

  std::expected<void, std::string> adopt(const Adopt& in);

  void return_one_card(PlayerId p) { use_jail_card(p); }
  void take_jail_card(PlayerId p);

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
    start_auction(in.hotel ? Auction::Item::hotel : Auction::Item::house, std::nullopt);
    return {};
  }

  // The leases still unsold, lowest number first: the lease numbers follow the board from Start ("No. 1" is
  // the first lease on the board).
  std::vector<SpaceId> unsold_leases() const {
    std::vector<SpaceId> unsold;
    for (int s = 0; s < static_cast<int>(ed.spaces.size()); ++s)
      if (ed.spaces[s].price > 0 && !st.spaces[s].owner && !st.spaces[s].withdrawn)
        unsold.push_back(SpaceId{s});
    return unsold;
  }

  // The lease an early sale would auction, or why there is none now.
  std::expected<SpaceId, std::string> lease_to_sell_early() const;

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
    post(Account::bank(), in.player, due, Memo::salary, ed.start_space);
    return {};
  }

  std::expected<void, std::string> handle(const HousePayment& in);

  std::optional<std::string> why_not_insure(const Insure& in) const;

  std::expected<void, std::string> handle(const Insure& in) {
    if (auto why = why_not_insure(in)) return Fail(*why);
    Money cost = in.against_card ? r.jail_insurance_card : r.jail_insurance;
    bool& insured = in.against_card ? st.players[in.player].insured_card : st.players[in.player].insured;
    insured = true;
    post(in.player, Account::bank(), cost, Memo::insurance, std::nullopt);
    return {};
  }

  std::expected<void, std::string> handle(const Partner& in);

  // The table's bookkeeping: no money moves and no question is answered; the state keeps it for a resume.
  std::expected<void, std::string> handle(const RegisterCard& in);

  std::expected<void, std::string> handle(const ConfirmPayment& in) {
    if (in.posting < 1 || in.posting > static_cast<std::int64_t>(g.posting_count()))
      return Fail(fmt::format("there is no posting {} to confirm", in.posting));
    if (std::find(st.confirmed_postings.begin(), st.confirmed_postings.end(), in.posting) !=
        st.confirmed_postings.end())
      return Fail(fmt::format("posting {} is confirmed already", in.posting));
    st.confirmed_postings.push_back(in.posting);
    return {};
  }

  std::expected<void, std::string> handle(const Undo&) { return Fail("undo is handled by Game::apply"); }
};

}  // namespace bb::rules
