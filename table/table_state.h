#pragma once
// The table's insides, shared by its .cpp files (each owns one concern: cards, camera, questions, play).
// Not a public header: only table/*.cpp include it.
#include <deque>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "table/table.h"

namespace bb::table {

// A question of the table's own, with what answering it does.
struct OpenQuestion {
  display::TableQuestion shown;
  // house_payment: the payment to record once tapped.
  std::optional<rules::HousePayment> payment;
  // confirm_payment: the payment the rules made, waiting for its payer's tap (nothing more is recorded).
  std::optional<UnconfirmedPayment> paid;
  // register_card: the card.
  std::string uid;
  // camera_mismatch / token_moved: the token's player.
  std::optional<rules::PlayerId> token_player;
};

struct Table::State {
  GameStore& store;
  TableSettings settings;
  CardRegistry registry;
  TableView view;

  std::deque<OpenQuestion> questions;  // the front one is shown
  std::uint64_t next_question = 1;
  rules::ById<rules::PlayerId, std::optional<rules::SpaceId>> expected;  // where the dice send each token
  rules::ById<rules::PlayerId, std::optional<rules::SpaceId>> seen;      // where the camera saw it last
  std::set<rules::PlayerId> learned;
  bool learning = false;
  // Learning one token at a time (the family chose it, the tokens on the start space were not all found):
  // whose token is asked for now (nobody: none), and the players whose token the camera will not watch
  // (skipped: the dice alone move it).
  bool one_at_a_time = false;
  std::optional<rules::PlayerId> prompting;
  std::set<rules::PlayerId> unwatched;
  bool resumed_learning = false;  // learning again for a resumed game: the tokens go back on their spaces
  bool camera = false;
  bool reader = true;  // a card reader works (else the screen confirms)
  std::vector<display::DeviceStatus> devices;
  std::string status;
  std::optional<std::string> paused;
  std::vector<int> colours;
  // The auction the deal timer runs for: its arm count (ids "timer:deal:<n>"), 0 when none is armed.
  std::uint64_t deal_timer = 0;
  std::uint64_t deal_arms = 0;
  // A reader repeating a tap: the last card counted and when the reader saw it, and whether "already counted"
  // was said for it (once per tap: a card lying on a repeating reader is not announced every second).
  std::string last_uid;
  std::string last_reader;
  std::int64_t last_tap_ms = -1;
  bool said_already_counted = false;

  State(GameStore& s, TableSettings t);

  // table.cpp: play
  const rules::Game* game() const { return store.game(); }
  Reaction dice(const DiceThrown& e);
  Reaction screen(const ScreenIntent& e);
  Reaction timer(const TimerFired& e);
  Reaction device(const DeviceHealth& e);
  Reaction start_game(const display::StartGame& start);
  Reaction resume(std::optional<ledger::GameId> which);
  Reaction apply(const display::ApplyInput& a, const std::string& id);
  // Records one input and does what follows (expected positions, payments to confirm, timers, auto draws).
  // Returns false when it was not stored (the reaction says why).
  bool record(Reaction& r, const rules::Input& input, ledger::InputMeta meta, bool payments_need_tap);
  void after_recorded(Reaction& r, const ledger::Recorded& rec, const std::string& id,
                      bool payments_need_tap);
  void follow_up(Reaction& r, const std::string& id);  // timers, draws, after any change
  void seat_players();
  void ask_unconfirmed_again(Reaction& r);
  void refresh();

  // table_cards.cpp
  Reaction card(const CardTapped& e);
  Reaction player_card(const CardTapped& e, const std::string& uid, rules::PlayerId player);
  Reaction deck_card(const CardTapped& e, const CardRole& role);
  Reaction banker_card(const CardTapped& e, const std::string& uid);
  Reaction unknown_card(const std::string& uid);
  // The payment question this card's tap answers (its player's first payment to confirm, or the banker's
  // first house-rule payout), nullptr when none waits for it.
  OpenQuestion* payment_for(const CardRole& role);
  const OpenQuestion* payment_for(const CardRole& role) const;
  // Whether a payment question waits for this card's tap (its player's, or the banker's for a payout).
  bool waits_for_card(const std::string& uid) const;
  Reaction already_counted(const std::string& uid);

  // table_camera.cpp
  Reaction token(const TokenReport& e);
  void start_learning(Reaction& r, bool resumed = false);
  // One at a time: asks for the next token not learned nor skipped, or ends the learning.
  void prompt_next_token(Reaction& r, const std::string& said = {});
  void answer_learning(Reaction& r, const std::string& option, const std::string& question_id);
  void restore_learning(Reaction& r, const TokenLearning& kept);
  // The learning question's text and choices when the camera did not find every token on the start space
  // (`found` of `expected`; none at all when found is 0).
  void learning_incomplete(Reaction& r, const TokenReport& e);
  // "the car, the dog and the hat"
  std::string token_names(const std::set<rules::PlayerId>& players) const;

  // table_questions.cpp
  Reaction answer(const display::AnswerQuestion& a, const std::string& id);
  // The family answered a camera question about `player`'s token: it stands on `space`
  // (Reaction::camera_settled).
  void settled_by_family(Reaction& r, rules::PlayerId player, std::optional<rules::SpaceId> space);
  Reaction house_payment(const display::RequestHousePayment& p);
  void ask(Reaction& r, OpenQuestion q);
  void close(const std::string& question_id);
  // The first open question of that kind (and, when a player is given, of that player or that player's
  // token).
  OpenQuestion* find(display::TableQuestion::Kind kind, std::optional<rules::PlayerId> player = std::nullopt);
  void confirm_payment(Reaction& r, OpenQuestion& q, const std::string& id, const std::string& authorised_by);
  void payments_to_confirm(Reaction& r, const std::vector<rules::Posting>& postings);
  void pick_card_question(Reaction& r);

  // words
  std::string name(rules::Account account) const;  // a player's name, or "the bank"
  std::string name(rules::PlayerId player) const { return name(rules::Account{player}); }
  // A player's name, "?" for nobody.
  std::string name(std::optional<rules::PlayerId> player) const;
  std::string space_name(std::optional<rules::SpaceId> space) const;
  std::string money(rules::Money amount) const;
  std::string token_name(rules::PlayerId player) const;
};

// The buttons of a payment question: the card answers where a reader works, else the screen.
void set_payment_options(display::TableQuestion& q, bool reader);

// Whether a ledger error pauses the game (storage) or is a refusal to show.
bool is_storage_failure(const ledger::LedgerError& e);

}  // namespace bb::table
