#pragma once
#include <cstdint>
#include <expected>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rules/edition.h"
#include "rules/input.h"
#include "rules/refusal.h"
#include "rules/state.h"

namespace bb::rules {

// The engine's private machinery (rules/engine.h): never used outside rules/.
struct Step;
class DeckState;

// What one accepted input caused.
struct Outcome {
  std::size_t first_posting = 0;  // postings [first_posting, state().postings.size()) are new
  std::vector<Event> events;
};

// What selling back one building would do, lot by lot, before anything is posted: the screens show it and
// the player confirms it. Usually one lot (a house, or a hotel for houses); a hotel sold when the bank lacks
// the houses to replace it takes every hotel of the group (and the houses the even-building rule then
// demands) at once.
struct LotSale {
  SpaceId space{0};
  int houses_before = 0;
  bool hotel_before = false;
  int houses_after = 0;  // never more than before on a lot that had no hotel: houses never move between lots
  Money refund = 0;      // half the price of what is sold on this lot
  bool lot_to_bank = false;  // the lot itself goes back to the bank with its last house (lots_sell_to_bank)
};
struct SalePlan {
  PlayerId player{0};
  SpaceId space{0};  // the lot the player chose
  std::vector<LotSale> lots;
  Money total = 0;
  int bank_houses_before = 0;
  int bank_houses_after = 0;
  // True when the sale changes a lot other than the one chosen: it needs Sell::whole_group.
  bool changes_other_lots() const;
};

// A game of one edition. Pure and deterministic: the same edition, setup and inputs give the same state, bit
// for bit. apply() either accepts an input (and returns what followed) or refuses it with a message and
// leaves the state exactly as it was.
// Threads: a Game is plain data with no locks. One thread at a time may call its members; const members may
// run on several threads at once while no thread changes it. Copies are independent games (the odds worker
// plays copies on its own threads).
class Game {
 public:
  static std::expected<Game, std::string> start(std::shared_ptr<const Edition> edition, const Setup& setup);

  std::expected<Outcome, std::string> apply(const Input& input);
  // apply() without the account of what followed: the same checks and the same state afterwards, but no
  // Outcome and no events are built (a few allocations per input). For the odds' playouts and benchmarks,
  // where nobody reads them.
  std::expected<void, std::string> play(const Input& input);

  const GameState& state() const { return state_; }
  const Edition& edition() const { return *edition_; }
  std::shared_ptr<const Edition> edition_ptr() const { return edition_; }
  const Rules& rules() const { return rules_; }
  // The lots a player owns (the spaces whose SpaceState::owner is that player), in board order: the engine
  // keeps it with every change of owner, so the bots and the rules ask it instead of scanning the board.
  // invariant_violations() checks it against the board.
  const SpaceSet& lots_of(PlayerId player) const { return owned_lots_[player]; }
  // The mortgaged lots of the board (whoever owns them), kept by the engine with every mortgage taken or
  // lifted: a bot with cash to lift one asks only these instead of walking its lots. invariant_violations()
  // checks it against the board.
  const SpaceSet& mortgaged_lots() const { return mortgaged_lots_; }
  const Setup& setup() const { return setup_; }
  // Inputs in effect (undone ones removed), in order. A game restored from a snapshot without its history
  // holds only the inputs applied since; input_count() is always the whole game's.
  const std::vector<Input>& inputs() const { return inputs_; }
  std::size_t input_count() const { return history_offset_ + inputs_.size(); }
  // False for a game restored from a snapshot without the inputs before it: it plays on, but an undo (which
  // rebuilds the game from its first input) needs the game restored or replayed with its history.
  bool has_history() const { return history_offset_ == 0; }

  // True when nothing is under way: no question, no auction, no throw owed mid-move. The next throw starts a
  // move of the current player (FINANCE 1932: jail insurance is bought only then, "before throwing").
  bool between_moves() const;
  // Worth as the edition values it at the end of a short or time-limit game (mortgaged lots at half).
  Money worth(PlayerId player) const;
  // The printed value of a lot and the buildings on it: the price, plus the building cost of each house (the
  // first house is in the price where the lot comes with it) and of a hotel with the houses it replaced.
  Money lot_value(SpaceId space) const;
  // Total worth for a percentage tax: cash, printed prices of all property, cost of buildings.
  Money tax_worth(PlayerId player) const;
  std::optional<PlayerId> player_named(const std::string& name) const;  // nullopt when unknown
  std::string account_name(Account account) const;                      // player name or "bank"
  std::string memo_text(const Posting& p) const;                        // "rent Baltic Avenue"
  std::string describe(const Event& e) const;                           // "Ann buys Baltic Avenue for $60"
  // A question's option as the game-script spec spells it: the answer's name, or for a draft the set's
  // group id. parse_option finds the option a spelling names among the question's (nullopt: none);
  // option_names spells them all (the state dump, the snapshot).
  std::string_view option_name(const QuestionOption& option) const;
  std::optional<QuestionOption> parse_option(const Question& question, std::string_view text) const;
  std::vector<std::string> option_names(const Question& question) const;

  // Legality as a value, for the bots and the playouts: nothing is worded (nullopt: allowed). The same checks
  // as the why_not_ functions below, which word the refusal for the screens; explain() words any of them.
  std::optional<Refusal> refusal_to_build(PlayerId player, SpaceId space, bool hotel = false) const;
  std::optional<Refusal> refusal_to_sell(PlayerId player, SpaceId space) const;
  std::optional<Refusal> refusal_to_mortgage(PlayerId player, SpaceId space) const;
  std::optional<Refusal> refusal_to_unmortgage(PlayerId player, SpaceId space) const;
  // The first lot of `among` in board order whose building costs at most `budget` and on which `player`
  // may build now (a house, or the hotel that follows the most houses): the first such lot that
  // refusal_to_build(player, s) allows, each group's facts (whole, mortgaged, its lowest level) worked out
  // once for its lots instead of once a lot. `among` holds spaces of this board only (the player's lots, a
  // group). For the bots: "where may a house go" in one call.
  std::optional<SpaceId> first_lot_to_build(PlayerId player, const SpaceSet& among, Money budget) const;
  std::string explain(const Refusal& refusal) const;

  // Legality, for the screens: why a build/sell/mortgage/unmortgage would be refused (nullopt: allowed).
  std::optional<std::string> why_not_build(PlayerId player, SpaceId space) const;
  std::optional<std::string> why_not_sell(PlayerId player, SpaceId space) const;
  // What a sell of that lot would do, lot by lot, or why it is refused. why_not_sell is nullopt for a sale
  // that changes other lots too, but that Sell must carry whole_group (plan.changes_other_lots()).
  std::expected<SalePlan, std::string> sale_plan(PlayerId player, SpaceId space) const;
  std::optional<std::string> why_not_mortgage(PlayerId player, SpaceId space) const;
  std::optional<std::string> why_not_unmortgage(PlayerId player, SpaceId space) const;
  // FINANCE (1932): why jail insurance (against the corner, or against a Chance card) or a partnership would
  // be refused now (nullopt: allowed), so the screens offer only what the rules accept.
  std::optional<std::string> why_not_insure(PlayerId player, bool against_card) const;
  std::optional<std::string> why_not_partner(const Partner& partner) const;
  // FINANCE (1932): which piece of its series the lease `space` is to be auctioned ("the 1st, 2nd or 3rd
  // piece in that series"), where the edition announces it (nullopt otherwise).
  std::optional<int> series_piece(SpaceId space) const;
  // FINANCE (1932): the lease the Auctioneer would sell early now (the `auction` input with item "lease"), or
  // why none may be.
  std::expected<SpaceId, std::string> lease_to_sell_early() const;

  // Every invariant of the game; empty when consistent. Tests call it after every input.
  std::vector<std::string> invariant_violations() const;
  bool is_consistent() const { return invariant_violations().empty(); }

  // A deterministic hash of the whole state, for signatures.
  std::uint64_t signature() const;

  // Everything the engine holds, except what its keeper stores anyway (the inputs and the journal of
  // postings), as a self-describing JSON text of a few kilobytes. restore() with the same edition, setup and
  // journal gives back a game equal to this one in every respect, including its card decks, its dice stream
  // and the steps it still has to take, so a long game resumes without replaying its log. Given the inputs in
  // effect too
  // (`history`), the restored game can also undo. It is a cache, never history: a snapshot that does not fit
  // (another engine format, another edition, another length, a state that breaks an invariant) is refused
  // with a message and the keeper replays the log instead.
  std::string snapshot() const;
  static std::expected<Game, std::string> restore(std::shared_ptr<const Edition> edition, const Setup& setup,
                                                  std::string_view snapshot, std::vector<Posting> journal,
                                                  std::optional<std::vector<Input>> history = std::nullopt);
  static constexpr int kSnapshotFormat = 1;

  // Copies are whole games (the odds' playouts start from one); defined where the engine's types are whole.
  Game(const Game&);
  Game(Game&&) noexcept;
  Game& operator=(const Game&);
  Game& operator=(Game&&) noexcept;
  ~Game();

  // Stops keeping the inputs for undo, for a game played on where nobody will undo (the odds' playouts,
  // benchmarks): apply() then copies no input into the history. input_count() still counts every input;
  // has_history() is false from then on, so an undo is refused with a message.
  void forget_history();
  // Stops keeping the journal of postings too (and the input history, which undo needs with it), for a
  // playout that only wants to know who wins: payments still move cash exactly as before, but no Posting is
  // built or stored, and the postings kept so far are dropped, so a copy of this game copies no journal.
  // posting_count() still counts every posting. Such a game's ledger cannot be checked
  // (invariant_violations skips the journal's balances), its signature differs from the same game with its
  // journal, and its snapshot cannot be restored: it is for the odds' playouts and benchmarks only. Nobody
  // reads its questions' words either: a debt and a mortgaged transfer carry no `reason` (the state dump and
  // the snapshot show an empty one).
  void forget_journal();
  // For a playout: each deck's cards dealt anew in an order drawn from `seed` alone, and the engine's own
  // random draws (an auction's timer) started from it. Nobody at the table knows a deck's order (the table's
  // virtual decks keep it hidden; a physical deck's is the table's own), so a playout must not play the
  // game's: every playout would draw the same cards and the odds would know them before anyone does. Which
  // cards each deck holds is kept; the result does not depend on the order the game had.
  void deal_hidden_cards_anew(std::uint64_t seed);
  bool keeps_journal() const { return keep_journal_; }
  // Every posting the game made, kept in the journal or not (the next posting's seq is this plus one).
  std::size_t posting_count() const { return forgotten_postings_ + state_.postings.size(); }

  // The engine plays the common throw between moves (a move, its salary and a landing that queues nothing
  // or only a payment) as direct code, and everything else through its general step machine; both leave
  // exactly the same state. Off, every input goes through the step machine: for the differential test that
  // plays the same games both ways and compares them after every input. On by default.
  void use_fast_paths(bool on) { fast_paths_ = on; }
  bool uses_fast_paths() const { return fast_paths_; }

 private:
  friend class Engine;
  friend class PlayoutTable;  // rules/playout_engine.cpp: takes the state over and hands it back
  Game();
  // The one path of apply() and play() for every input but undo; events go to `outcome` when given.
  std::expected<void, std::string> run_input(const Input& input, Outcome* outcome);
  std::shared_ptr<const Edition> edition_;
  Rules rules_;
  Setup setup_;
  GameState state_;
  std::vector<Input> inputs_;
  std::size_t history_offset_ = 0;      // inputs_[0] is the game's input number history_offset_
  bool keep_history_ = true;            // false after forget_history()
  bool keep_journal_ = true;            // false after forget_journal()
  bool fast_paths_ = true;              // use_fast_paths()
  std::size_t forgotten_postings_ = 0;  // postings made but not kept (forget_journal)
  std::vector<std::pair<std::size_t, std::size_t>>
      postings_by_input_;  // [begin, end) in the journal, by inputs_
  std::vector<DeckState> decks_;
  std::vector<Step> steps_;  // what the engine still has to do, the next step last (rules/engine.h)
  // By player: the lots state_.spaces says they own. Changed only with an owner (Engine::set_owner and
  // Engine::return_to_bank), and counted afresh where a whole state is put in place (recount_owned_lots).
  ById<PlayerId, SpaceSet> owned_lots_;
  // The lots state_.spaces says are mortgaged. Changed only with a mortgage (Engine::set_mortgaged and
  // Engine::return_to_bank), and counted afresh with owned_lots_.
  SpaceSet mortgaged_lots_;
  void recount_owned_lots();
  std::uint64_t rng_ = 0;
  int input_index_ = -1;
  bool extra_roll_blocked_ = false;  // doubles out of jail, or sent to jail: no further throw this turn
  bool turn_doubles_ = false;        // the turn's last movement throw was a double
};

}  // namespace bb::rules
