#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "display/intent.h"
#include "display/snapshot.h"
#include "display/table_question.h"
#include "ledger/ledger_types.h"
#include "rules/game.h"
#include "table/card_registry.h"
#include "table/events.h"
#include "table/game_store.h"

namespace bb::table {

// How a card drawn from Chance or Community Chest comes to the table.
enum class DrawMode {
  stickers,        // the physical cards carry NFC stickers: the card tapped is the card drawn
  pick_on_screen,  // the player draws a physical card and picks it on the screen from the deck's list
  virtual_decks,   // the table shuffles the decks (the rules' seeded decks) and shows the card
};

// The table's settings, from the service's configuration. Plain values; the PIN check is a function so the
// table never sees the salted hash.
struct TableSettings {
  DrawMode draw_mode = DrawMode::virtual_decks;
  // Money the rules move waits for the payer's card tap before the game goes on.
  bool payer_confirms_payments = true;
  // Salary and payments from the bank need no tap (only what a player pays is confirmed).
  bool automatic_bank_payments = true;
  // The banker's card, the deck stickers and extra player cards the service keeps between games.
  std::vector<RegisteredCard> cards;
  // Whether a PIN typed on the screen is the banker's. Unset: no PIN is accepted (the banker's card only).
  std::function<bool(const std::string& pin)> banker_pin_ok;
  // House-rule defaults by option name (rules::Setup::options), kept here for the service to offer on the
  // setup screen; the table itself starts a game with exactly the options StartGame carries.
  std::map<std::string, bool> house_rules;
};

// A card the table hands to the screen: the screen's own dialogs (confirmations, bids, trades, setup) use it.
struct CardForScreen {
  std::string uid;
  // Its owner in this game; nobody for the banker's card or a card nobody registered.
  std::optional<rules::PlayerId> player;
};

struct TimerRequest {
  enum class Action { arm, cancel };
  TimerId which = TimerId::deal;
  Action action = Action::arm;
  std::uint64_t after_ms = 0;  // arm: fire this long from now
  std::string id;              // arm: the id TimerFired must carry back
};

// How the camera is to learn the tokens (the daemon hands it to the tracker, vision's
// TokenTracker::Settings:: Learning): every token on the start space at once, or one token put down alone on
// the emptied board.
struct CameraLearning {
  enum class Mode {
    all_on_start,   // every token on the start space, learned together (the table's first ask)
    one_at_a_time,  // `player`'s token, put down alone anywhere on the board (the others stay where they are)
  };
  Mode mode = Mode::all_on_start;
  // one_at_a_time: whose token comes next (the tracker names it "T<number + 1>").
  std::optional<rules::PlayerId> player;
};

// Where the table settled a token the camera asked about: the family answered the camera's question on the
// screen with where it stands ("The camera is wrong": where the game has it), or the camera was unsure of a
// token just thrown for and the dice's space was one of its candidates. ("Move it" and "Put it back" settle
// nothing: the camera sees the token arrive, and the table checks that arrival.) The daemon hands it to the
// tracker (vision's TokenTracker::settle) on the camera thread, so the tracker stops asking about that token
// there and can tell its look-alikes apart by it again.
struct CameraSettled {
  rules::PlayerId player{0};
  rules::SpaceId space{0};
  bool operator==(const CameraSettled&) const = default;
};

// The learning of the tokens as it stands: what the service keeps beside the camera's set-up, so that a
// restart in the middle of it asks only for the tokens not learned yet (Table::restore_learning).
struct TokenLearning {
  bool asking = false;         // the learning question is open
  bool one_at_a_time = false;  // the family learns the tokens one at a time (the learned ones stay put)
  std::vector<rules::PlayerId> learned;    // players whose tokens the camera has learned, in player order
  std::vector<rules::PlayerId> unwatched;  // players whose tokens the family left to the dice (not watched)
  bool operator==(const TokenLearning&) const = default;
};

// What one event caused. Whatever it says is done was committed to the store before handle() returned.
struct Reaction {
  bool snapshot_changed = false;      // the game, the question or the view changed: build a new snapshot
  std::vector<CardForScreen> cards;   // hand these to the screen (display::Ui::card) in order
  std::vector<std::string> messages;  // for the status line, in order (refusals say what to do)
  std::vector<TimerRequest> timers;
  std::vector<display::Cue> cues;
  std::vector<ledger::Recorded> recorded;          // the inputs stored (or found stored) by this event
  std::optional<display::TableQuestion> question;  // a question opened by this event (also in view())
  std::optional<std::string> paused;  // storage failed: the game waits; the message says what to do
  // The registry changed (a card registered during a game is stored with the game, `card` input; the cards
  // in TableSettings::cards carry over to the next game of this run).
  bool cards_changed = false;
  // The table asks the camera to learn a token alone next (one at a time): the daemon tells the tracker.
  std::optional<CameraLearning> camera_learning;
  // The table settled where a token the camera asked about stands: the daemon tells the tracker.
  std::optional<CameraSettled> camera_settled;
};

// What the table waits for now: the snapshot's table parts come from it, and the demo's bots read it.
struct Awaiting {
  enum class Kind {
    setup,            // no game: the setup screen (or a resume)
    learn_tokens,     // the camera learns the tokens before play
    throw_dice,       // `player` throws
    move_token,       // `player` moves the token to `space` (the camera checks it, where there is one)
    rules_question,   // the rules ask `player` (buy, jail, tax, debt, draw, ...): the screen shows it
    tap_card,         // `player`'s card (or the banker's) confirms something: `detail` says what
    answer_question,  // the table's own question is open
    bids,             // an auction runs
    game_over,
    paused,  // storage failed
  };
  Kind kind = Kind::setup;
  std::optional<rules::PlayerId> player;  // nobody: anyone (setup, bids, the banker's tap, a shared win)
  std::optional<rules::SpaceId> space;
  std::string detail;
};

// A payment the rules made that the payer has not confirmed with their card yet.
struct UnconfirmedPayment {
  rules::Account from = rules::Account::bank();
  rules::Account to = rules::Account::bank();
  rules::Money amount = 0;
  std::string memo;  // "rent Baltic Avenue"
  std::int64_t posting =
      0;  // the journal's Posting::seq: its confirmation is stored under it (ConfirmPayment)
};

// A player's place at the end of a game (or now): worth as the edition values it, richest first.
struct Standing {
  rules::PlayerId player{0};
  std::string name;
  rules::Money cash = 0;
  rules::Money worth = 0;
  bool bankrupt = false;
  bool winner = false;
};

struct TableView {
  const rules::Game* game = nullptr;  // the store's current game (nullptr: none)
  std::optional<ledger::GameId> game_id;
  Awaiting awaiting;
  // Per player: where the token must go (nothing: nowhere in particular).
  rules::ById<rules::PlayerId, std::optional<rules::SpaceId>> expected_positions;
  // Per player: where the camera last saw it (nothing: unknown).
  rules::ById<rules::PlayerId, std::optional<rules::SpaceId>> seen_positions;
  std::optional<display::TableQuestion> question;
  std::vector<UnconfirmedPayment> unconfirmed;  // the first one waits for its payer's tap
  std::vector<RegisteredCard> cards;
  std::vector<display::DeviceStatus> devices;
  bool camera = false;  // a camera is working: tokens are cross-checked
  std::string status;   // "Resumed game 3 from input 57"
  std::optional<std::string> paused;
  std::vector<Standing> standings;  // richest first, bankrupt players last
  bool unfinished_game = false;  // no game is open but an unfinished one is stored (the screen offers Resume)
  std::vector<int> colours;      // palette index per player, as chosen on the setup screen (this session)
  TokenLearning learning;        // the camera's learning of the tokens (this game)
};

// The session at the table: turns events (dice, card taps, what the camera saw, touches, timers) into inputs
// committed through the store and questions for the screen.
// Owns: the card registry, the table's open question, the expected token destinations, the payments waiting
// for a tap. Must never: touch an fd, a clock, SQL or SDL; post anything on the camera's word alone; show an
// input as done before the store committed it. Thread: the loop thread only (not thread-safe).
class Table {
 public:
  // A reader repeating its frame: the same card from the same reader within this window of its last sighting
  // is one tap. Short, because the readers tell a card lying on them from a new tap themselves (the RC522
  // sees its field empty; a Wiegand reader's repeats are counted once by its decoder): a longer window here
  // swallowed a quick deliberate re-tap (a second payment to confirm) without a word.
  static constexpr std::int64_t kRepeatWindowMs = 400;

  Table(GameStore& store, TableSettings settings);
  ~Table();
  Table(const Table&) = delete;
  Table& operator=(const Table&) = delete;

  // At start: resumes the newest unfinished game, if any; the status says from which input.
  Reaction start_up();
  // Opens a stored game, finished or not, to look at (a finished one refuses inputs: it stays as history).
  // ResumeGame from the screen goes back to the newest unfinished game.
  Reaction open_game(ledger::GameId game);
  Reaction handle(const Event& event);
  // The camera cannot cross-check the game that is open (a resumed game whose learned tokens were not
  // stored, or were stale): the table asks for every token on the start space, to be learned, then put back
  // on its space. Nothing without a game or a working camera, or while learning is asked already.
  Reaction learn_tokens_again();
  // The camera kept what it had learned for the game that is open before a restart (the service read it
  // where the camera keeps its set-up): the table says on the screen what was restored and, when tokens are
  // still missing, asks one at a time for those only (the kept ones stay where they stand). `asking` is not
  // read. Players not seated are ignored. Nothing without a game or for a finished one.
  Reaction restore_learning(const TokenLearning& kept);
  // The service's configuration was reloaded (SIGHUP): draw mode, payments, house-rule defaults, the PIN
  // check and the banker's card take effect from the next event. Cards registered at the table (a player's
  // second card, deck stickers) stay; a banker's card the new settings no longer name is forgotten.
  Reaction reload_settings(TableSettings fresh);

  const TableView& view() const;
  // Fills the table's parts of a display snapshot (game, question, expected positions, seen positions,
  // devices, status, unfinished_game). The caller keeps the rest (history, camera picture, editions) and the
  // version.
  void fill(display::Snapshot& snapshot) const;
  const CardRegistry& cards() const;
  const TableSettings& settings() const;
  std::vector<ledger::GameSummary> games();

  // The table's own invariants (empty: consistent): the question's player exists, the registry maps each
  // player card to a seated player, expected positions are on the board.
  std::vector<std::string> invariant_violations() const;

 private:
  struct State;
  std::unique_ptr<State> s_;
};

}  // namespace bb::table
