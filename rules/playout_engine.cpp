// PlayoutEngine (rules/playout_engine.h): what it covers, its loop from one point at rest to the next
// (rules/playout_turns.h plays each step), and the hand-over to Game and Bot both ways.
#include "rules/playout_engine.h"

#include <array>
#include <bit>
#include <cstdint>
#include <vector>

#include "rules/engine.h"
#include "rules/playout_turns.h"

namespace bb::rules {

namespace {

// The rule switches the compact engine plays, at the values it plays them with: any other value is played by
// Game itself.
bool rules_covered(const Rules& r) {
  return r.buy_at_price && !r.house_with_lot && r.build_needs_group && !r.build_needs_circuit &&
         r.even_building && !r.double_rent_needs_clear_series && r.max_properties <= 0 && r.mortgages &&
         !r.paupers && r.jail_insurance <= 0 && r.jail_insurance_card <= 0 && !r.free_rides &&
         !r.leave_jail_next_turn && !r.jail_exit_ends_turn && r.forced_move_back <= 0 &&
         !r.salary_must_be_claimed && !r.hotel_sale_needs_houses && !r.lots_sell_to_bank && !r.draft_sets &&
         r.doubles_roll_again && !r.jail_last_turn_free && !r.partnerships && !r.bankrupt_leases_withdrawn &&
         !r.house_owner_buys_in_series_only && !r.jail_house_owner_three_throws &&
         r.early_lease_sale_max <= 0 && r.auction_timer_max_s <= 0 && r.max_houses >= 1 &&
         r.houses_for_hotel >= 1;
}
}  // namespace

// Takes a Game over for PlayoutEngine::play: the edition's facts worked out once, the compact state, and the
// hand-over both ways. A friend of Game and Bot.
class PlayoutTable {
 public:
  PlayoutTable(Game& game, Bot& bot, int turn_cap, BotDice* dice, const std::atomic<bool>* stop,
               PlayoutEngine::Stats& stats)
      : stats_(stats),
        g_(game),
        bot_(bot),
        ed_(*game.edition_),
        r_(game.rules_),
        cap_(turn_cap),
        dice_(dice),
        stop_(stop),
        b_(board_of(game.edition_)),
        n_(static_cast<int>(ed_.spaces.size())),
        seats_(static_cast<int>(game.state_.players.size())),
        turns_(ed_, r_, b_, seats_, dice),
        t_(turns_.table()) {}

  static bool covers(const Game& g) {
    const Edition& ed = *g.edition_;
    const GameState& st = g.state_;
    if (g.keep_history_ || g.keep_journal_ || !rules_covered(g.rules_) || !ed.jail_space) return false;
    if (ed.spaces.size() > static_cast<std::size_t>(playout_limits::kBoardSpaces) ||
        ed.decks.size() > static_cast<std::size_t>(playout_limits::kDecksHeld) ||
        ed.groups.size() > static_cast<std::size_t>(playout_limits::kGroups) ||
        st.players.size() > static_cast<std::size_t>(kMaxPlayers))
      return false;
    for (const Deck& deck : ed.decks) {
      int copies = 0;
      for (const Card& card : deck.cards) copies += card.copies;
      if (copies > playout_limits::kDeckCards || deck.cards.size() > 255) return false;
    }
    if (!st.free_rides.empty() || !st.partnerships.empty() || !st.draft_picks.empty()) return false;
    for (PlayerId p : st.players.ids()) {
      const PlayerState& pl = st.players[p];
      if (st.house_credits[p] != 0 || st.hotel_credits[p] != 0 || pl.insured || pl.insured_card ||
          pl.unclaimed_salary != 0 || pl.jail_attempts > 100)
        return false;
      for (DeckId d : ed.decks.ids())
        if (pl.jail_cards[d] > 100) return false;
    }
    for (const SpaceState& ss : st.spaces)
      if (ss.withdrawn || ss.houses > 100) return false;
    return true;
  }

  PlayoutEngine::Result play() {
    if (g_.state_.ended) return PlayoutEngine::Result::ended;
    // Until the game is at a point between moves, Game and Bot play it.
    if (!at_rest()) {
      if (const auto handed = hand_over(); handed) return *handed;
    }
    while (true) {
      load();
      switch (turns_.run(cap_, stop_, stats_.from_rest)) {
        case PlayoutTurns::Stop::stopped:
          store();
          return PlayoutEngine::Result::stopped;
        case PlayoutTurns::Stop::capped:  // the loop's turn cap (PlayoutEngine::play), nothing pending
          store();
          stats_.capped = true;
          if (!g_.play(End{})) return PlayoutEngine::Result::refused;
          return PlayoutEngine::Result::ended;
        case PlayoutTurns::Stop::ended:
          store();
          return PlayoutEngine::Result::ended;
        case PlayoutTurns::Stop::stuck:
          // Undone to the point at rest before the step, which Game and Bot play from there, with the faces
          // the step had drawn.
          ++stats_.handed_over;
          store();
          if (const auto handed = hand_over(); handed) return *handed;
          break;
      }
    }
  }

 private:
  // ------------------------------------------------------------------ the hand-over
  // Between moves, or a jailed player's turn about to be asked: where the compact engine plays from.
  bool at_rest() const {
    const GameState& st = g_.state_;
    // covers() was asked on entry: nothing a bot does changes its answer (no bot sends the inputs that
    // could).
    if (st.ended || st.auction || !g_.steps_.empty()) return false;
    if (st.pending.empty()) return true;
    const Question& q = st.pending.front();
    return st.pending.size() == 1 && q.kind == QuestionKind::jail && q.player == st.current &&
           st.players[st.current].in_jail;
  }

  // Game and Bot play on from here, as PlayoutEngine::play's loop, to the next point at rest: nullopt there,
  // the result where the game ends, an input is refused or the caller stops it. The faces a turn undone had
  // taken from `dice` are handed out again first, in order: the same decisions ask for them again.
  std::optional<PlayoutEngine::Result> hand_over() {
    struct Replay final : BotDice {
      PlayoutTable& table;
      explicit Replay(PlayoutTable& t) : table(t) {}
      int die() override { return table.turns_.next_face(); }
    } replay(*this);
    BotDice* dice = dice_ ? &replay : nullptr;
    const GameState& st = g_.state_;
    do {
      if (stop_ && stop_->load(std::memory_order_relaxed)) return PlayoutEngine::Result::stopped;
      const bool cap = st.turns >= cap_ && st.pending.empty() && !st.auction;
      stats_.capped = stats_.capped || cap;
      if (cap ? !g_.play(End{}) : !bot_.play(g_, dice)) return PlayoutEngine::Result::refused;
    } while (!st.ended && !at_rest());
    if (st.ended) return PlayoutEngine::Result::ended;
    return std::nullopt;
  }

  // The compact state from the game (at rest).
  void load() {
    const GameState& st = g_.state_;
    t_.owned.fill(0);
    t_.mortgaged = 0;
    t_.hotels = 0;
    t_.built = 0;
    for (int p = 0; p < seats_; ++p) {
      const PlayerState& pl = st.players[PlayerId{p}];
      auto& tp = t_.players[static_cast<std::size_t>(p)];
      tp.cash = pl.cash;
      tp.position = static_cast<std::int8_t>(pl.position.number());
      tp.jail_attempts = static_cast<std::int8_t>(pl.jail_attempts);
      tp.in_jail = pl.in_jail;
      tp.bankrupt = pl.bankrupt;
      tp.passed_start = pl.passed_start;
      for (DeckId d : ed_.decks.ids()) tp.jail_cards[d.index()] = static_cast<std::int8_t>(pl.jail_cards[d]);
    }
    for (int s = 0; s < n_; ++s) {
      const SpaceState& ss = st.spaces[SpaceId{s}];
      auto& lot = t_.lots[static_cast<std::size_t>(s)];
      lot.owner = static_cast<std::int8_t>(ss.owner ? ss.owner->number() : -1);
      lot.houses = static_cast<std::int8_t>(ss.houses);
      lot.hotel = ss.hotel;
      lot.mortgaged = ss.mortgaged;
      if (ss.owner) t_.owned[ss.owner->index()] |= lot_bit(s);
      if (ss.mortgaged) t_.mortgaged |= lot_bit(s);
      if (ss.hotel) t_.hotels |= lot_bit(s);
      if (ss.hotel || ss.houses > 0) t_.built |= lot_bit(s);
    }
    for (std::size_t d = 0; d < ed_.decks.size(); ++d) {
      const DeckState& order = g_.decks_[d];
      DeckBits& deck = t_.decks[d];
      int copies = 0;
      for (const Card& card : ed_.decks[d].cards) copies += card.copies;
      deck.capacity = static_cast<std::uint8_t>(std::max<std::size_t>(copies, order.size()));
      deck.head = 0;
      deck.size = static_cast<std::uint8_t>(order.size());
      for (std::size_t i = 0; i < order.size(); ++i) deck.ring[i] = static_cast<std::uint8_t>(order[i]);
    }
    t_.bot_rng = bot_.rng_;
    t_.inputs = static_cast<std::int64_t>(g_.input_count());
    t_.postings = static_cast<std::int64_t>(g_.posting_count());
    t_.bank_houses = st.bank_houses;
    t_.bank_hotels = st.bank_hotels;
    t_.turns = st.turns;
    t_.bankruptcies = st.bankruptcies;
    t_.ended = st.ended;
    t_.winner = -1;
    t_.current = st.current.number();
    t_.doubles_in_row = st.doubles_in_row;
    t_.last_d1 = st.last_d1;
    t_.last_d2 = st.last_d2;
    t_.turn_doubles = g_.turn_doubles_;
    t_.extra_roll_blocked = g_.extra_roll_blocked_;
    t_.jail_question = !st.pending.empty();
  }

  // The compact state back into the game, at rest: what the engine would hold there.
  void store() {
    GameState& st = g_.state_;
    for (int p = 0; p < seats_; ++p) {
      PlayerState& pl = st.players[PlayerId{p}];
      const auto& tp = t_.players[static_cast<std::size_t>(p)];
      pl.cash = tp.cash;
      pl.position = SpaceId{tp.position};
      pl.jail_attempts = tp.jail_attempts;
      pl.in_jail = tp.in_jail;
      pl.bankrupt = tp.bankrupt;
      pl.passed_start = tp.passed_start;
      for (DeckId d : ed_.decks.ids()) pl.jail_cards[d] = tp.jail_cards[d.index()];
    }
    for (int s = 0; s < n_; ++s) {
      SpaceState& ss = st.spaces[SpaceId{s}];
      const auto& lot = t_.lots[static_cast<std::size_t>(s)];
      ss.owner = lot.owner < 0 ? PlayerOrNobody{} : PlayerOrNobody{PlayerId{lot.owner}};
      ss.houses = lot.houses;
      ss.hotel = lot.hotel;
      ss.mortgaged = lot.mortgaged;
    }
    // Game::owned_lots_ and mortgaged_lots_ from the masks (Game::recount_owned_lots walks the board twice).
    auto set_of = [](std::uint64_t mask) {
      SpaceSet set;
      for (; mask != 0; mask &= mask - 1) set.insert(SpaceId{std::countr_zero(mask)});
      return set;
    };
    for (int p = 0; p < seats_; ++p)
      g_.owned_lots_[PlayerId{p}] = set_of(t_.owned[static_cast<std::size_t>(p)]);
    g_.mortgaged_lots_ = set_of(t_.mortgaged);
    for (std::size_t d = 0; d < ed_.decks.size(); ++d) {
      const DeckBits& deck = t_.decks[d];
      std::vector<int> order(deck.size);
      for (int i = 0; i < deck.size; ++i) order[static_cast<std::size_t>(i)] = deck.at(i);
      g_.decks_[d] = DeckState(std::move(order));
    }
    bot_.rng_ = t_.bot_rng;
    // The index of the last input played, as Engine::as_input leaves it, where the compact engine played it.
    if (t_.inputs != static_cast<std::int64_t>(g_.input_count()))
      g_.input_index_ = static_cast<int>(t_.inputs - 1);
    g_.history_offset_ = static_cast<std::size_t>(t_.inputs);
    g_.forgotten_postings_ = static_cast<std::size_t>(t_.postings);
    st.bank_houses = t_.bank_houses;
    st.bank_hotels = t_.bank_hotels;
    st.turns = t_.turns;
    st.bankruptcies = t_.bankruptcies;
    if (t_.ended) {
      // Engine::finish with one player left: the richest of one.
      st.ended = true;
      st.winners = {PlayerId{t_.winner}};
      st.winner = PlayerId{t_.winner};
    }
    st.current = PlayerId{t_.current};
    st.doubles_in_row = t_.doubles_in_row;
    st.last_d1 = t_.last_d1;
    st.last_d2 = t_.last_d2;
    g_.turn_doubles_ = t_.turn_doubles;
    g_.extra_roll_blocked_ = t_.extra_roll_blocked;
    st.pending.clear();
    if (t_.jail_question && !t_.ended) Engine(g_, nullptr).ask_jail(st.current);
  }

  PlayoutEngine::Stats& stats_;
  Game& g_;
  Bot& bot_;
  const Edition& ed_;
  const Rules& r_;
  const int cap_;
  BotDice* dice_;
  const std::atomic<bool>* stop_;
  const PlayoutBoard& b_;
  const int n_;
  const int seats_;
  PlayoutTurns turns_;
  TableBits& t_;  // turns_'s
};

bool PlayoutEngine::covers(const Game& game) { return PlayoutTable::covers(game); }

PlayoutEngine::Result PlayoutEngine::play(Game& game, Bot& bot, int turn_cap, BotDice* dice,
                                          const std::atomic<bool>* stop, Stats* stats) {
  Stats ignored;
  Stats& counted = stats ? *stats : ignored;
  if (!covers(game)) {
    while (!game.state().ended) {
      if (stop && stop->load(std::memory_order_relaxed)) return Result::stopped;
      const GameState& st = game.state();
      const bool cap = st.turns >= turn_cap && st.pending.empty() && !st.auction;
      counted.capped = counted.capped || cap;
      if (cap ? !game.play(End{}) : !bot.play(game, dice)) return Result::refused;
    }
    return Result::ended;
  }
  PlayoutTable table(game, bot, turn_cap, dice, stop, counted);
  return table.play();
}

}  // namespace bb::rules
