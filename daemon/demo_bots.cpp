// The demo bots' waking and what they report: the family's names and cards, the seeds of their decisions, one
// act per wake once the table heard the last tap or throw, what the table refused, the turns and the camera's
// cross-check as the game goes. What they plan for each situation is in demo_bots_plans.cpp, their presses
// and card taps in demo_bots_touches.cpp, the trade screen in demo_bots_trade.cpp.
#include "daemon/demo_bots.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "daemon/demo_bots_pace.h"
#include "table/table.h"

namespace bb::daemon {

namespace {
using namespace demo_pace;
using Kind = table::Awaiting::Kind;

constexpr std::array<const char*, DemoFamily::kMaxPlayers> kNames{"Ann", "Bob", "Cleo", "Dev", "Eve", "Finn"};
constexpr std::array<const char*, DemoFamily::kMaxPlayers> kTokens{"car",  "dog",  "hat",
                                                                   "ship", "boot", "iron"};

// A situation the table did not answer within this (at speed 1, and at least kRealPatience of real time)
// after the bots' last act is looked at afresh.
constexpr milliseconds kPatience{8000};
constexpr milliseconds kRealPatience{1500};
// A card tap or a throw the table has not heard within this (real time) is said and counted, and made again.
constexpr milliseconds kHeardPatience{10000};
constexpr int kReadingTries = 3;  // a reading not heard is made again, up to this many times in all

const char* kind_name(Kind kind) {
  switch (kind) {
    case Kind::setup:
      return "setup";
    case Kind::learn_tokens:
      return "learn_tokens";
    case Kind::throw_dice:
      return "throw_dice";
    case Kind::move_token:
      return "move_token";
    case Kind::rules_question:
      return "rules_question";
    case Kind::tap_card:
      return "tap_card";
    case Kind::answer_question:
      return "answer_question";
    case Kind::bids:
      return "bids";
    case Kind::game_over:
      return "game_over";
    case Kind::paused:
      return "paused";
  }
  return "?";
}

std::string money(rules::Money amount) { return fmt::format("${}", amount); }

// Whom or where the table waits for, in the bots' situation key and their messages.
std::string who(std::optional<rules::PlayerId> player) {
  return player ? fmt::format("player {}", player->number()) : std::string("nobody");
}
std::string where(std::optional<rules::SpaceId> space) {
  return space ? fmt::format("space {}", space->number()) : std::string("nowhere");
}
}  // namespace

std::string DemoFamily::name(rules::PlayerId player) const {
  return player.number() >= 0 && player.number() < kMaxPlayers ? kNames[player.index()] : "?";
}
std::string DemoFamily::token(rules::PlayerId player) const {
  return player.number() >= 0 && player.number() < kMaxPlayers ? kTokens[player.index()] : "?";
}
std::string DemoFamily::banker_card() { return "04BA0C4D"; }

rules::Setup DemoFamily::setup(std::uint64_t seed, int turns) const {
  rules::Setup s;
  s.edition = "classic";
  s.seed = seed;
  if (turns > 0) s.options["time_limit"] = true;
  for (rules::PlayerId p : seats()) s.players.push_back({name(p), token(p), card(p), {}});
  return s;
}

DemoBots::DemoBots(Settings settings, std::shared_ptr<VirtualDevices> devices,
                   std::shared_ptr<VirtualCamera> camera)
    : settings_(std::move(settings)),
      devices_(std::move(devices)),
      camera_(std::move(camera)),
      slips_(settings_.slips) {}

// Every decision is drawn from the seed and the number of inputs the game holds, not from a random source
// that runs on from the start: a resumed game (the same inputs stored) gets the same decisions from then on,
// and so plays to the same end as the game that was not interrupted.
std::uint64_t DemoBots::seed_for(const table::TableView& view, std::uint64_t salt) const {
  std::uint64_t x = settings_.seed * 0x9E3779B97F4A7C15ULL ^
                    (view.game ? view.game->input_count() : 0) * 0xBF58476D1CE4E5B9ULL;
  x ^= salt * 0x94D049BB133111EBULL;
  x ^= x >> 31;
  return x;
}

rules::Input DemoBots::decide(const rules::Game& game) {
  rules::Bot bot(decision_seed_);
  return bot.next(game);
}

milliseconds DemoBots::scaled(milliseconds at_speed_one) const {
  return milliseconds(
      static_cast<std::int64_t>(static_cast<double>(at_speed_one.count()) / std::max(settings_.speed, 0.01)));
}

Participant::Wake DemoBots::wake() const {
  Wake w;
  w.period = std::max(milliseconds(5), scaled(milliseconds(100)));
  return w;
}

// What the table waits for, in words that change whenever anything the bots answer changes: a plan is made
// once per situation, so the bots act once per situation however often they are woken (and a seeded demo
// takes the same decisions at any speed).
std::string DemoBots::situation(const table::TableView& view) const {
  const auto& a = view.awaiting;
  return fmt::format("{}|{}|{}|{}|{}|{}|{}", kind_name(a.kind), who(a.player), where(a.space), a.detail,
                     view.question ? view.question->id : "", view.game ? view.game->input_count() : 0,
                     view.unconfirmed.size());
}

void DemoBots::on_wake(ParticipantContext& context) {
  const auto now = context.uptime();
  const table::TableView& view = context.table().view();
  report_turns(view);
  watch_camera(view);
  note_refusals(context);
  if (!wait_for_reading(context, now)) return;       // a card on a reader, or the dice, not heard yet
  if (camera_->moving() || now < next_act_) return;  // a hand is over the board, or a bot is still reaching
  if (!acts_.empty()) {
    if (acts_.front().wanted && !acts_.front().wanted(view)) {
      acts_.pop_front();  // no longer wanted: left out
      return;
    }
    if (!acts_.front().card.empty()) {
      if (const auto ready = card_ready_at(acts_.front().card); now < ready) {
        next_act_ = ready;  // the card is taken off the reader and held to it again once it forgot it
        return;
      }
    }
    if (!acts_.front().target.empty()) {
      if (Act& press = acts_.front(); press.trade_side) {
        press.target = fmt::format("trade.{}.{}", screen_side(*press.trade_side), press.target);
        press.trade_side.reset();
      }
      if (acts_.front().first_try.count() >= 0 && situation(view) != acted_on_) {
        // The button did not show and the table has moved on since the plan: the family looks again rather
        // than press what is no longer asked.
        acts_.clear();
        acted_on_.clear();
        return;
      }
      if (!try_press(acts_.front(), context)) {
        next_act_ = now + kPressRetry;  // look again once the screen has caught up
        return;
      }
      acts_.pop_front();
      last_act_at_ = now;
      if (!acts_.empty()) next_act_ = now + scaled(acts_.front().after);
      return;
    }
    Act act = std::move(acts_.front());
    acts_.pop_front();
    wrong_card_in_hand_ = act.on_purpose_wrong;
    if (act.reading) {
      // A card held to a reader or the dice thrown: the table hears it once the device's frame is decoded.
      // Until then the family waits for it (the next act, a tap on the same reader, leaving the screen the
      // tap answers, a plan made on what the table shows, would all come before the table heard it).
      reading_.emplace(PendingReading{context.readings_heard(), now, act.card, act.run});
    }
    act.run(context);
    last_act_at_ = now;
    if (!acts_.empty()) next_act_ = now + scaled(acts_.front().after);
    return;
  }
  const std::string now_situation = situation(view);
  // The table is on it: the bots' last act is still being answered (patience counts from that act, in real
  // time at least kRealPatience, since the table's answer takes the ledger's sync and the camera's frames).
  if (now_situation == acted_on_ && now - last_act_at_ < std::max(scaled(kPatience), kRealPatience)) return;
  replanning_ = now_situation == acted_on_;
  // (The camera learning the tokens takes its own real time: waiting for it is not being stuck.)
  if (replanning_ && view.awaiting.kind != Kind::learn_tokens && view.awaiting.kind != Kind::move_token) {
    ++tally_.replans;
    if (settings_.print && now_situation != stuck_reported_) {
      stuck_reported_ = now_situation;  // said once per situation
      settings_.print(fmt::format("the bots try again: the table still waits for {} ({}): {}",
                                  kind_name(view.awaiting.kind), who(view.awaiting.player),
                                  view.awaiting.detail));
    }
  }
  acted_on_ = now_situation;
  last_act_at_ = now;
  acts_ = plan(view, context);
  if (!acts_.empty()) next_act_ = now + scaled(acts_.front().after);
}

bool DemoBots::owns(const table::TableView& view, rules::PlayerId player, rules::SpaceId space) {
  const rules::Game* game = view.game;
  if (!game || space.index() >= game->state().spaces.size()) return false;
  return game->state().spaces[space].owner == player;
}

bool DemoBots::wait_for_reading(ParticipantContext& context, milliseconds now) {
  if (!reading_) return true;
  if (context.readings_heard() > reading_->heard_before) {
    // The reader's window for a card runs from when it read the card, now, not from when it was held there.
    if (!reading_->card.empty()) last_tap_[reading_->card] = now;
    reading_.reset();
    last_act_at_ = now;
    return true;
  }
  if (now - reading_->sent_at < kHeardPatience) return false;
  ++tally_.unheard;
  const std::string what = reading_->card.empty() ? std::string("the dice") : "card " + reading_->card;
  if (reading_->tries < kReadingTries) {
    // Nothing happened (the reader's frame was lost: a decoder that rejected it says so): the family taps or
    // throws again, as anyone at the table would, rather than going on as if it had been heard.
    say(fmt::format("the table did not hear {} within {} ms: the bots try it again", what,
                    kHeardPatience.count()));
    ++reading_->tries;
    reading_->heard_before = context.readings_heard();
    reading_->sent_at = now;
    reading_->again(context);
    return false;
  }
  say(fmt::format("the table did not hear {} within {} ms, {} times: the bots go on", what,
                  kHeardPatience.count(), reading_->tries));
  if (!reading_->card.empty()) last_tap_[reading_->card] = now;
  reading_.reset();
  return true;
}

void DemoBots::note_refusals(ParticipantContext& context) {
  const auto refusals = context.refusals();
  if (refusals.count <= refusals_seen_) return;
  const auto fresh = refusals.count - refusals_seen_;
  refusals_seen_ = refusals.count;
  for (std::uint64_t i = 0; i < fresh; ++i) {
    ++tally_.refusals;
    if (wrong_card_in_hand_) {
      // The neighbour's card the bot tapped on purpose, refused as the family should see it.
      ++tally_.refusals_on_purpose;
      wrong_card_in_hand_ = false;
      continue;
    }
    say("the table refused what the bots did: " + refusals.last);
  }
}

void DemoBots::say(const std::string& line) const {
  if (settings_.print)
    settings_.print(line);
  else
    fmt::print(stderr, "{}\n", line);
}

// The player whose token stands on `seen` while the game has it on `expected` (the token a question is
// about).
std::optional<rules::PlayerId> DemoBots::whose_token(const table::TableView& view,
                                                     std::optional<rules::SpaceId> seen,
                                                     std::optional<rules::SpaceId> expected) const {
  if (!view.game) return std::nullopt;
  const auto truth = camera_->truth();
  const auto& players = view.game->state().players;
  for (rules::PlayerId p : players.ids())
    if (p.index() < truth.size() && truth[p] == seen && players[p].position == expected) return p;
  for (rules::PlayerId p : players.ids())
    if (p.index() < truth.size() && truth[p] != players[p].position && players[p].position == expected)
      return p;
  return std::nullopt;
}

// What the camera made of each move, read from the table's view: a token expected somewhere and then no
// longer expected, seen there, with no question about it, is a move the camera agreed with; one the table
// asked about is a question (answered, since the table no longer waits for it).
void DemoBots::watch_camera(const table::TableView& view) {
  using QK = display::TableQuestion::Kind;
  const auto& expected = view.expected_positions;
  asked_.resize(expected.size(), false);
  if (view.question && view.question->id != last_question_ &&
      (view.question->kind == QK::camera_mismatch || view.question->kind == QK::token_moved)) {
    const auto& q = *view.question;
    const auto player = q.player ? q.player : whose_token(view, q.space, q.expected);
    ++tally_.camera_questions;
    if (player && player->index() < asked_.size()) asked_[player->index()] = true;
  }
  last_question_ = view.question ? view.question->id : std::string();
  for (rules::PlayerId p : expected.ids()) {
    if (p.index() >= previous_expected_.size()) break;
    const std::optional<rules::SpaceId> before = previous_expected_[p];
    if (!before || expected[p] == before) continue;
    if (asked_[p.index()])
      ++tally_.camera_questioned_moves;
    else if (p.index() < view.seen_positions.size() && view.seen_positions[p] == before)
      ++tally_.camera_agreed;
    asked_[p.index()] = false;
  }
  previous_expected_ = expected;
}

// A time-limit game ends once its turns are played, at a turn boundary: the next player is asked to throw,
// or (in jail) asked how to leave, and nothing else waits (no auction, no payment, no question).
bool DemoBots::time_is_up(const table::TableView& view) const {
  if (settings_.turns <= 0 || !view.game) return false;
  const auto& st = view.game->state();
  if (st.ended || st.turns < settings_.turns || st.auction) return false;
  if (view.awaiting.kind == Kind::throw_dice)
    return st.pending.empty() || st.pending.front().kind == rules::QuestionKind::roll;
  return view.awaiting.kind == Kind::rules_question && st.pending.size() == 1 &&
         st.pending.front().kind == rules::QuestionKind::jail && st.pending.front().player == st.current;
}

void DemoBots::report_turns(const table::TableView& view) {
  if (!settings_.print || !view.game) return;
  const auto& g = *view.game;
  const auto& st = g.state();
  if (reported_turns_ < 0) {
    reported_turns_ = st.turns;  // a resumed game: report from here on
    reported_inputs_ = g.input_count();
    // Whose turn runs now: the player asked to throw, or, resumed mid-turn (a question, a payment, a token
    // to move), the current player, who threw. Left unknown, the first line named whoever the finished turn
    // handed the dice to.
    thrower_ =
        view.awaiting.kind == Kind::throw_dice && view.awaiting.player ? *view.awaiting.player : st.current;
    return;
  }
  // The player who threw last: the table asks the next player to throw only once the turn is complete.
  const std::optional<rules::PlayerId> asked =
      view.awaiting.kind == Kind::throw_dice ? view.awaiting.player : std::nullopt;
  if (st.turns == reported_turns_ && (!st.ended || reported_end_)) {
    if (asked) thrower_ = asked;
    return;
  }
  reported_end_ = st.ended;
  if (st.turns == reported_turns_) return;  // the game ended between turns: no turn to report
  // One line per completed turn: who threw, the throw, where the token stands, everyone's cash.
  const rules::PlayerId player = thrower_ && thrower_->index() < st.players.size() ? *thrower_ : st.current;
  std::string cash;
  for (const auto& p : st.players) cash += fmt::format("  {} {}", p.name, p.bankrupt ? "out" : money(p.cash));
  const auto& pl = st.players[player];
  settings_.print(fmt::format("turn {:>3}  {:<5} threw {}+{}  on {:<22}{}", st.turns, pl.name, st.last_d1,
                              st.last_d2, g.edition().spaces[pl.position].name, cash));
  reported_turns_ = st.turns;
  reported_inputs_ = g.input_count();
  if (asked) thrower_ = asked;
}

}  // namespace bb::daemon
