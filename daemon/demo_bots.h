#pragma once
// The demo's players: seeded bots at the virtual table. They read what the table waits for (its view()) and
// the game, let rules::Bot decide the game input a player would choose, and carry it out physically: a throw
// of the simulated dice unit, a card held to a simulated reader, a token carried by a hand in front of the
// virtual camera, and a touch on the screen where the table asks for one. Now and then (seeded) a bot
// carries its token one space off or taps another player's card first, so the table's questions show.

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "daemon/participant.h"
#include "daemon/virtual_table.h"
#include "rules/bot.h"
#include "rules/input.h"

namespace bb::table {
struct TableView;
}

namespace bb::daemon {

// The names, tokens and cards of the demo's family.
struct DemoFamily {
  int players = 4;
  static constexpr int kMaxPlayers = 6;
  // Every seat of the family, in turn order.
  rules::IdRange<rules::PlayerId> seats() const {
    return rules::IdRange<rules::PlayerId>{static_cast<std::size_t>(players)};
  }
  // "?" for a seat past kMaxPlayers.
  std::string name(rules::PlayerId player) const;
  std::string token(rules::PlayerId player) const;
  // Even players hold their card to the Wiegand reader, odd ones to the RC522.
  Reader reader(rules::PlayerId player) const {
    return player.number() % 2 == 0 ? Reader::wiegand : Reader::rc522;
  }
  std::string card(rules::PlayerId player) const { return demo_card(player, reader(player)); }
  // The banker keeps their card on the RC522.
  static std::string banker_card();
  // The new game the family starts: the classic edition, every player with their card; `turns` > 0 plays
  // the edition's time-limit game, ended by agreement after that many turns.
  rules::Setup setup(std::uint64_t seed, int turns) const;
};

// Owns: the rules bots' random source, the slips, the acts it has planned and not yet done.
// Must never: apply an input to the game or the ledger itself, send a device reading anywhere but into the
// simulated device, act again before the table heard its last tap or throw (readings_heard), press a button
// the screen greys, or block (each wake does at most one act).
// Thread: the loop thread (Participant).
class DemoBots final : public Participant {
 public:
  struct Settings {
    DemoFamily family;
    std::uint64_t seed = 1;
    double speed = 1;  // 10: the family acts ten times as fast
    int turns = 0;     // > 0: agree to end (time-limit game) once this many turns are complete
    // The tokens start beside the board: the family chooses "Learn them one at a time" and puts each token on
    // the start space when the table asks for it.
    bool learn_one_at_a_time = false;
    Slips::Settings slips;  // the seed is taken from `seed`
    // A folder: the screen is saved there at the evening's key moments ("01-learn-tokens.png", ...).
    std::string screenshots;
    // One line per turn and the end (headless); unset: nothing printed.
    std::function<void(const std::string&)> print;
  };

  DemoBots(Settings settings, std::shared_ptr<VirtualDevices> devices, std::shared_ptr<VirtualCamera> camera);

  std::string name() const override { return "demo bots"; }
  Wake wake() const override;
  void on_wake(ParticipantContext& context) override;

  // How the game went, for the demo's summary and its tests.
  struct Tally {
    int throws = 0, taps = 0, wrong_taps = 0, token_moves = 0, miscounts = 0, touches = 0, questions = 0;
    // The camera's cross-check: moves it saw where the dice said (nothing asked), moves the table asked
    // about (and the family answered), and the questions it asked.
    int camera_agreed = 0, camera_questioned_moves = 0, camera_questions = 0;
    // Touches made by pressing a drawn button (through the screen's input path), of them the buttons not
    // found (a failure), and touches still handed to the table as intents (only what no screen offers: the
    // FINANCE edition's claims, insurance, partnerships and free rides).
    int presses = 0, missed_presses = 0, intents = 0;
    // What the table refused of what the bots did, and of those the neighbour's cards tapped on purpose (the
    // only refusals a family should see): the rest are the bots acting before the table asked (a fault).
    int refusals = 0, refusals_on_purpose = 0;
    // Card taps and throws the table never heard (within kHeardPatience), situations the bots planned for
    // again because the table did not answer, and trades the screen did not take that were handed over as
    // the intent: each is a fault the demo's games must not show.
    int unheard = 0, replans = 0, trades_handed_over = 0;
    bool game_over = false;
    std::string stopped_because;  // set when the bots stopped the run
  };
  const Tally& tally() const { return tally_; }
  // Called with the game as the table played it, when the bots see it over (before they stop the run).
  void on_game_over(std::function<void(const rules::Game&)> callback) { on_game_over_ = std::move(callback); }

 private:
  // One physical or on-screen act.
  struct Act {
    Act(std::function<void(ParticipantContext&)> r, std::chrono::milliseconds a, std::string c = {})
        : run(std::move(r)), after(a), card(std::move(c)) {}
    std::function<void(ParticipantContext&)> run;
    std::chrono::milliseconds after{0};  // thinking time before it, at speed 1
    std::string card;               // a tap: the card's uid (the reader takes it again only after its window)
    bool reading = false;           // a tap or a throw: the next act waits until the table heard it
    bool on_purpose_wrong = false;  // the neighbour's card, tapped on purpose: the table refuses it
    // Set: the act is left out when this says no as its turn comes (a trade's taps once its screen could not
    // be filled in).
    std::function<bool(const table::TableView&)> wanted;
    // A press on one side of the trade screen: `target` names the side as the trade has it (0: who gives
    // first); the screen may show the two traders the other way round (trade_swapped_).
    std::optional<int> trade_side;
    // A press: the button `target`. Tried again on the next wakes while the screen does not show it yet (a
    // dialog that a card tap opens comes up once the reader's frame is decoded), for kPressPatience.
    std::string target;
    std::chrono::milliseconds first_try{-1};
  };
  // Runs a press act once; false while its button is not shown and patience remains.
  bool try_press(Act& act, ParticipantContext& context);
  // Real time at which `card` may touch a reader again and be a new tap: the readers' same-card window is
  // in real time whatever the demo's speed, and a retap inside it (even a retry) only extends it.
  std::chrono::milliseconds card_ready_at(const std::string& card) const;
  // A tap or a throw made and not yet heard by the table (ParticipantContext::readings_heard).
  struct PendingReading {
    std::uint64_t heard_before = 0;
    std::chrono::milliseconds sent_at{0};
    std::string card;                                // empty: the dice
    std::function<void(ParticipantContext&)> again;  // the same tap or throw, made again
    int tries = 1;
  };
  std::optional<PendingReading> reading_;
  // False while the last tap or throw is not heard yet (and patience remains).
  bool wait_for_reading(ParticipantContext& context, std::chrono::milliseconds now);
  // Counts what the table refused since the last wake (ParticipantContext::refusals).
  void note_refusals(ParticipantContext& context);
  std::uint64_t refusals_seen_ = 0;
  bool wrong_card_in_hand_ = false;  // the last act was a wrong card tapped on purpose
  void say(const std::string& line) const;
  // Whether `player` holds `space` in the game as the table has it.
  static bool owns(const table::TableView& view, rules::PlayerId player, rules::SpaceId space);
  std::string situation(const table::TableView& view) const;
  std::deque<Act> plan(const table::TableView& view, ParticipantContext& context);
  void plan_input(const rules::Input& input, const rules::Game& game, std::deque<Act>& acts);
  void plan_setup(ParticipantContext& context, std::deque<Act>& acts);
  void plan_trade(const rules::Trade& trade, std::deque<Act>& acts);
  // Learning one at a time (Settings::learn_one_at_a_time): true when it planned (or waits for the camera).
  bool plan_one_at_a_time(const table::TableView& view, std::deque<Act>& acts);
  std::set<rules::PlayerId> put_down_;  // players whose token was put down to be learned alone
  // Turns the trade screen's two player buttons until they read `from` gives / `to` gives.
  void choose_traders(ParticipantContext& context, rules::PlayerId from, rules::PlayerId to);
  // Ticks `space` on `side` of the trade screen, turning its pages; a miss leaves the trade unagreed.
  // `owner`: who must hold it; a plan older than the game (the space changed hands) leaves the trade quietly.
  void tick_trade_space(ParticipantContext& context, int trade_side, rules::SpaceId space,
                        rules::PlayerId owner);
  bool trade_filled_ = true;  // the trade screen shows the trade the bot decided (else the cards stay away)
  // The screen shows the trade's receiver on its left (two players: its buttons cannot swap them): each
  // side's offer is filled in on the other side, the same exchange.
  bool trade_swapped_ = false;
  int screen_side(int side) const { return trade_swapped_ ? 1 - side : side; }
  void plan_trade_press(int side, const std::string& what, std::deque<Act>& acts);
  void plan_paged_press(const std::string& target, const std::string& next_page, std::deque<Act>& acts);
  // A tap of `player`'s card (nobody: the banker's).
  void plan_tap(std::optional<rules::PlayerId> player, std::deque<Act>& acts, bool may_slip);
  void plan_press(const std::string& target, std::deque<Act>& acts, std::chrono::milliseconds after);
  // The player whose token the camera sees on `seen` while the game has it on `expected` (nobody: none).
  std::optional<rules::PlayerId> whose_token(const table::TableView& view, std::optional<rules::SpaceId> seen,
                                             std::optional<rules::SpaceId> expected) const;
  void report_turns(const table::TableView& view);
  void watch_camera(const table::TableView& view);
  bool time_is_up(const table::TableView& view) const;
  void screenshot(ParticipantContext& context, const std::string& moment);
  std::set<std::string> screenshots_taken_;
  std::chrono::milliseconds learning_since_{-1};  // uptime when the table began asking for the tokens
  std::chrono::milliseconds scaled(std::chrono::milliseconds at_speed_one) const;

  Settings settings_;
  std::shared_ptr<VirtualDevices> devices_;
  std::shared_ptr<VirtualCamera> camera_;
  std::uint64_t seed_for(const table::TableView& view, std::uint64_t salt) const;
  rules::Input decide(const rules::Game& game);
  std::uint64_t decision_seed_ = 0;
  Slips slips_;
  std::deque<Act> acts_;
  std::string acted_on_;  // the situation the current plan answers
  std::chrono::milliseconds next_act_{0};
  std::chrono::milliseconds last_act_at_{0};  // the last act done (or plan made): patience counts from it
  std::map<std::string, std::chrono::milliseconds> last_tap_;  // per card uid: when it last touched a reader
  int reported_turns_ = -1;
  std::optional<rules::PlayerId> thrower_;  // the player who threw last
  bool reported_end_ = false;
  // Per player: the space their token missed (nothing: none), until the table asks.
  rules::ById<rules::PlayerId, std::optional<rules::SpaceId>> slipped_;
  bool replanning_ = false;     // the table did not answer the last plan within the patience
  std::string stuck_reported_;  // the last situation the bots said they are trying again
  std::size_t reported_inputs_ = 0;
  Tally tally_;
  // The view's expected positions at the last wake.
  rules::ById<rules::PlayerId, std::optional<rules::SpaceId>> previous_expected_;
  std::vector<bool> asked_;  // per player: the camera asked about their token's move
  std::string last_question_;
  std::function<void(const rules::Game&)> on_game_over_;
};

}  // namespace bb::daemon
