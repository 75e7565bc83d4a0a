#include "daemon/demo_bots.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <ranges>
#include <set>

#include "peripherals/tap_deduplicator.h"
#include "table/table.h"

namespace bb::daemon {

namespace {
using std::chrono::milliseconds;
using Kind = table::Awaiting::Kind;

constexpr std::array<const char*, DemoFamily::kMaxPlayers> kNames{"Ann", "Bob", "Cleo", "Dev", "Eve", "Finn"};
constexpr std::array<const char*, DemoFamily::kMaxPlayers> kTokens{"car",  "dog",  "hat",
                                                                   "ship", "boot", "iron"};

// Thinking times of a family at speed 1.
constexpr milliseconds kReach{700};        // picking up the dice, finding the card
constexpr milliseconds kBetweenTaps{900};  // noticing the refusal, finding the right card
constexpr milliseconds kRead{1200};        // reading a question on the screen
constexpr milliseconds kKey{300};          // the next key of a keypad or keyboard
// A button not shown yet (a dialog a card tap opens appears once the reader's frame is decoded and the table
// answered) is looked for again every kPressRetry, for kPressPatience of real time, before it is a miss.
constexpr milliseconds kPressRetry{20};
constexpr milliseconds kPressPatience{3000};
// A situation the table did not answer within this (at speed 1, and at least kRealPatience of real time)
// after the bots' last act is looked at afresh.
constexpr milliseconds kPatience{8000};
constexpr milliseconds kRealPatience{1500};
// A card tap or a throw the table has not heard within this (real time) is said and counted, and made again.
constexpr milliseconds kHeardPatience{10000};
constexpr int kReadingTries = 3;  // a reading not heard is made again, up to this many times in all
// How long (real time, at any speed) the family waits for the camera to learn the tokens.
constexpr milliseconds kLearningPatience{30000};

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

const char* display_kind_name(display::TableQuestion::Kind kind) {
  using QK = display::TableQuestion::Kind;
  switch (kind) {
    case QK::camera_mismatch:
      return "camera-question";
    case QK::token_moved:
      return "token-moved";
    default:
      return "table-question";
  }
}

bool a_game_is_played(Kind kind) { return kind != Kind::setup && kind != Kind::learn_tokens; }

std::string money(rules::Money amount) { return fmt::format("${}", amount); }

// Whom or where the table waits for, in the bots' situation key and their messages.
std::string who(std::optional<rules::PlayerId> player) {
  return player ? fmt::format("player {}", player->number()) : std::string("nobody");
}
std::string where(std::optional<rules::SpaceId> space) {
  return space ? fmt::format("space {}", space->number()) : std::string("nowhere");
}

// The option of a table question a bot answers with, by key, in order of preference.
std::string pick_option(const display::TableQuestion& q, std::initializer_list<const char*> preferred) {
  for (const char* key : preferred)
    for (const auto& o : q.options)
      if (o.key == key && !o.needs_pin && !o.needs_dice) return o.key;
  for (const auto& o : q.options)
    if (!o.needs_pin && !o.needs_dice) return o.key;
  return {};
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

milliseconds DemoBots::card_ready_at(const std::string& card) const {
  const auto last = last_tap_.find(card);
  if (last == last_tap_.end()) return milliseconds(0);
  // A little past the window, so a reader's own clock a tick behind ours still sees a new tap.
  return last->second +
         std::chrono::duration_cast<milliseconds>(std::chrono::nanoseconds(peripherals::kSameCardWindow)) +
         milliseconds(100);
}

// A finger on the button `target` as the screen draws it now. A button the bots cannot find is said
// loudly and counted (the demo then fails): they never hand the table the intent instead.
// The screen at a key moment of the evening, once per moment, for docs/playing.md.
void DemoBots::screenshot(ParticipantContext& context, const std::string& moment) {
  if (settings_.screenshots.empty() || screenshots_taken_.contains(moment)) return;
  screenshots_taken_.insert(moment);
  const std::string path =
      fmt::format("{}/{:02}-{}.png", settings_.screenshots, screenshots_taken_.size(), moment);
  if (auto saved = context.save_screen(path); !saved && settings_.print)
    settings_.print(fmt::format("screenshot {} not saved: {}", path, saved.error()));
}

void DemoBots::plan_press(const std::string& target, std::deque<Act>& acts, milliseconds after) {
  Act press{{}, after};
  press.target = target;
  acts.push_back(std::move(press));
}

// A button in a paged list: the pages are turned until it shows (a miss, said loudly, when it never does).
void DemoBots::plan_paged_press(const std::string& target, const std::string& next_page,
                                std::deque<Act>& acts) {
  acts.push_back({[this, target, next_page](ParticipantContext& c) {
                    ++tally_.touches;
                    ++tally_.presses;
                    for (int page = 0; page < 12; ++page) {
                      if (c.press(target)) return;
                      ++tally_.touches;
                      if (!c.press(next_page)) break;
                    }
                    ++tally_.missed_presses;
                    const std::string line = fmt::format("the bots could not press {} on any page", target);
                    if (settings_.print)
                      settings_.print(line);
                    else
                      fmt::print(stderr, "{}\n", line);
                  },
                  kKey});
}

bool DemoBots::try_press(Act& act, ParticipantContext& c) {
  const std::string& target = act.target;
  wrong_card_in_hand_ = false;
  if (act.first_try.count() < 0) act.first_try = c.uptime();
  // A greyed button answers "Not now": the family waits for the screen to offer it (a dialog a card tap
  // opens, a button enabled once the table stored what came before), as long as patience lasts.
  if (c.shown_enabled(target) == false) {
    if (c.uptime() - act.first_try < kPressPatience) return false;
    ++tally_.touches;
    ++tally_.presses;
    ++tally_.missed_presses;
    say(fmt::format("the bots could not press {}: the screen does not offer it now", target));
    return true;
  }
  auto pressed = c.press(target);
  if (!pressed && (target.rfind("home.", 0) == 0 || target.rfind("nav.", 0) == 0) && c.press("back")) {
    // Another screen is up (a card tapped with nothing to confirm shows its holder's properties): the player
    // goes back home, as anyone would, and presses there.
    ++tally_.touches;
    pressed = c.press(target);
  }
  if (pressed) {
    ++tally_.touches;
    ++tally_.presses;
    return true;
  }
  if (c.uptime() - act.first_try < kPressPatience) return false;  // the screen may not show it yet
  ++tally_.touches;
  ++tally_.presses;
  ++tally_.missed_presses;
  say(fmt::format("the bots could not press {}: {}", target, pressed.error()));
  return true;
}

void DemoBots::plan_tap(std::optional<rules::PlayerId> player, std::deque<Act>& acts, bool may_slip) {
  const bool banker = !player;
  const Reader reader = banker ? Reader::rc522 : settings_.family.reader(*player);
  const std::string uid = banker ? DemoFamily::banker_card() : settings_.family.card(*player);
  const bool slipped = may_slip && !banker && settings_.family.players > 1 && slips_.taps_wrong_card();
  if (slipped) {
    // The neighbour's card, held to the neighbour's reader: the table refuses it and says whose it is.
    const rules::PlayerId other{(player->number() + 1) % settings_.family.players};
    Act wrong{[this, other](ParticipantContext&) {
                ++tally_.wrong_taps;
                ++tally_.taps;
                (void)devices_->tap(settings_.family.reader(other), settings_.family.card(other));
              },
              kReach, settings_.family.card(other)};
    wrong.reading = wrong.on_purpose_wrong = true;
    acts.push_back(std::move(wrong));
  }
  Act tap{[this, reader, uid](ParticipantContext&) {
            ++tally_.taps;
            (void)devices_->tap(reader, uid);
          },
          slipped ? kBetweenTaps : kReach, uid};
  tap.reading = true;
  acts.push_back(std::move(tap));
}

// The family sits down at the setup screen: the classic edition, the time-limit switch where they agreed
// on a time, then each player taps their card (the table hands an unknown card to the screen, which asks
// for the player), types the name, picks a colour and a token; then Start. Every step is a press.
void DemoBots::plan_setup(ParticipantContext& context, std::deque<Act>& acts) {
  plan_press("home.setup", acts, kRead);
  int classic = -1;
  if (const auto* snap = context.screen_snapshot())
    for (std::size_t i = 0; i < snap->editions.size(); ++i)
      if (snap->editions[i] && snap->editions[i]->id == "classic") classic = static_cast<int>(i);
  // Not on the screen: the press fails loudly, as it would for a family looking for it.
  plan_press(classic >= 0 ? fmt::format("setup.edition.{}", classic) : std::string("setup.edition.classic"),
             acts, kRead);
  // The switch may be on a later page of the house rules.
  if (settings_.turns > 0) plan_paged_press("setup.option.time_limit", "setup.options.page.next", acts);
  for (rules::PlayerId p : settings_.family.seats()) {
    plan_tap(p, acts, false);
    for (const char letter : settings_.family.name(p))
      plan_press(
          fmt::format("name.key.{}", static_cast<char>(std::toupper(static_cast<unsigned char>(letter)))),
          acts, kKey);
    plan_press("name.next", acts, kKey);
    plan_press(fmt::format("player.colour.{}", p.number()), acts, kKey);
    plan_press("player.token." + settings_.family.token(p), acts, kKey);
    plan_press("player.done", acts, kKey);
  }
  acts.push_back({[this](ParticipantContext& c) { screenshot(c, "setup"); }, milliseconds(0)});
  plan_press("setup.start", acts, kRead);
}

// A game input the bot decided: a throw goes to the dice unit, everything else is a touch on the screen
// (the option pressed, the keypad's amount), confirmed by a card where the table asks for one afterwards.
void DemoBots::plan_input(const rules::Input& input, const table::TableView& view, std::deque<Act>& acts) {
  if (const auto* roll = std::get_if<rules::Roll>(&input)) {
    const int d1 = roll->d1, d2 = roll->d2;
    Act toss{[this, d1, d2](ParticipantContext&) {
               ++tally_.throws;
               (void)devices_->throw_dice(d1, d2);
             },
             kReach};
    toss.reading = true;
    acts.push_back(std::move(toss));
    return;
  }
  if (const auto* choose = std::get_if<rules::Choose>(&input)) {
    // The option's button on the home screen; one that pays opens a confirmation the player's card answers.
    plan_press("home.option." + choose->option, acts, kRead);
    const auto answer = rules::parse_answer(choose->option);
    if (answer && rules::moves_money(*answer)) {
      acts.push_back(
          {[this, option = choose->option](ParticipantContext& c) { screenshot(c, "confirm-" + option); },
           milliseconds(0)});
      plan_tap(choose->player, acts, false);
    }
    return;
  }
  if (const auto* bid = std::get_if<rules::Bid>(&input)) {
    // The auction screen: who bids, "Other", the amount on the keypad, OK.
    plan_press(fmt::format("auction.bidder.{}", bid->player.number()), acts, kRead);
    plan_press("auction.keypad", acts, kKey);
    for (const char digit : std::to_string(bid->amount))
      plan_press(fmt::format("keypad.{}", digit), acts, kKey);
    plan_press("keypad.ok", acts, kKey);
    return;
  }
  if (std::holds_alternative<rules::Close>(input)) {
    // The auctioneer closes it; a sale is confirmed by the buyer's card, no sale on the screen.
    plan_press("auction.close", acts, kRead);
    const std::optional<rules::PlayerId> buyer =
        view.game && view.game->state().auction ? view.game->state().auction->high_bidder : std::nullopt;
    if (buyer)
      plan_tap(*buyer, acts, false);
    else
      plan_press("confirm.ok", acts, kKey);
    return;
  }
  // Building, selling, mortgaging, lifting: the owner's deeds on the Property screen, the lot, the action,
  // and the owner's card to confirm it.
  struct LotAction {
    rules::PlayerId player{0};
    rules::SpaceId space{0};
    const char* button = nullptr;  // none: not a lot action
  };
  const LotAction lot = std::visit(
      [](const auto& in) -> LotAction {
        using T = std::decay_t<decltype(in)>;
        if constexpr (std::is_same_v<T, rules::Build>) return {in.player, in.space, "props.build"};
        if constexpr (std::is_same_v<T, rules::Sell>) return {in.player, in.space, "props.sell"};
        if constexpr (std::is_same_v<T, rules::Mortgage>) return {in.player, in.space, "props.mortgage"};
        if constexpr (std::is_same_v<T, rules::Unmortgage>) return {in.player, in.space, "props.lift"};
        return {};
      },
      input);
  if (lot.button) {
    plan_press("nav.properties", acts, kRead);
    const std::size_t first = acts.size();
    plan_press(fmt::format("props.player.{}", lot.player.number()), acts, kKey);
    plan_paged_press(fmt::format("props.space.{}", lot.space.number()), "props.page.next", acts);
    plan_press(lot.button, acts, kKey);
    plan_tap(lot.player, acts, false);
    // The lot must still be the owner's as each step comes (a plan older than the game would press for a
    // deed that changed hands): otherwise the family leaves it and goes back.
    for (std::size_t i = first; i < acts.size(); ++i)
      acts[i].wanted = [player = lot.player, space = lot.space](const table::TableView& v) {
        return owns(v, player, space);
      };
    plan_press("back", acts, kKey);
    return;
  }
  if (const auto* trade = std::get_if<rules::Trade>(&input);
      trade && trade->give.free_rides.empty() && trade->get.free_rides.empty()) {
    if (!replanning_) {
      plan_trade(*trade, acts);
      return;
    }
    // The same trade again in the same situation: the screen did not take it the first time (a trade the
    // bots could not fill in is left, never agreed as it stands). The rules bot would propose it forever and
    // the game would stand still, so the bots hand it over as the intent, said and counted as a fault (the
    // demo then exits 1; its tests assert it never happens).
    ++tally_.trades_handed_over;
    say("the bots could not agree this trade on the screen: it is handed over as an intent");
  }
  if (const auto* bankrupt = std::get_if<rules::Bankrupt>(&input)) {
    // The debt's "Go bankrupt" on the home screen, confirmed by the player's own card.
    plan_press("home.debt.bankrupt", acts, kRead);
    acts.push_back({[this](ParticipantContext& c) { screenshot(c, "bankrupt"); }, milliseconds(0)});
    plan_tap(bankrupt->player, acts, false);
    return;
  }
  // What no screen offers the bots yet (FINANCE's free rides in a trade, its claims, insurance and
  // partnerships): the intent the screen would make is handed over, and counted apart.
  acts.push_back({[this, input](ParticipantContext& context) {
                    ++tally_.touches;
                    ++tally_.intents;
                    display::ApplyInput apply;
                    apply.input = input;
                    context.touch(apply);
                  },
                  kRead});
}

// The trade screen as two players at the table fill it in: who gives (each side's player button turned until
// it names them), each side's cash on the keypad, Get Out of Jail cards, the properties ticked; then both
// players tap their cards to agree, and they go back home.
void DemoBots::plan_trade(const rules::Trade& trade, std::deque<Act>& acts) {
  acts.push_back({[this](ParticipantContext&) {
                    trade_filled_ = true;
                    trade_swapped_ = false;
                  },
                  milliseconds(0)});
  plan_press("nav.trade", acts, kRead);
  acts.push_back(
      {[this, from = trade.from, to = trade.to](ParticipantContext& c) { choose_traders(c, from, to); },
       kKey});
  const std::array<const rules::Offer*, 2> offers{&trade.give, &trade.get};
  for (int side = 0; side < 2; ++side) {
    const rules::Offer& offer = *offers[static_cast<std::size_t>(side)];
    if (offer.cash > 0) {
      plan_trade_press(side, "cash", acts);
      for (const char digit : std::to_string(offer.cash))
        plan_press(fmt::format("keypad.{}", digit), acts, kKey);
      plan_press("keypad.ok", acts, kKey);
    }
    for (int card = 0; card < offer.cards; ++card) plan_trade_press(side, "cards.more", acts);
    // The screen lists a player's properties in board order, page after page: ticked in that order.
    std::vector<rules::SpaceId> spaces = offer.spaces;
    std::sort(spaces.begin(), spaces.end());
    for (const rules::SpaceId space : spaces)
      acts.push_back({[this, side, space, owner = side == 0 ? trade.from : trade.to](ParticipantContext& c) {
                        tick_trade_space(c, side, space, owner);
                      },
                      kKey});
  }
  acts.push_back({[this](ParticipantContext& c) { screenshot(c, "trade"); }, milliseconds(0)});
  // Both players agree with their cards, only to the trade as the bot decided it: a trade screen the bots
  // could not fill in is left (said and counted as a miss), never agreed to as it stands.
  const std::size_t taps_from = acts.size();
  plan_tap(trade.from, acts, false);
  plan_tap(trade.to, acts, false);
  for (std::size_t i = taps_from; i < acts.size(); ++i)
    acts[i].wanted = [this](const table::TableView&) { return trade_filled_; };
  // A trade left unagreed is cleared (turning a side's player button empties its offer), so no half-made
  // offer waits on the screen for the next trade.
  acts.push_back({[this](ParticipantContext& c) {
                    if (trade_filled_) return;
                    for (const char* side : {"trade.0.player", "trade.1.player"}) {
                      ++tally_.touches;
                      ++tally_.presses;
                      (void)c.press(side);
                    }
                  },
                  kKey});
  plan_press("back", acts, kKey);
}

void DemoBots::plan_trade_press(int side, const std::string& what, std::deque<Act>& acts) {
  Act press{{}, kKey};
  press.target = what;
  press.trade_side = side;
  acts.push_back(std::move(press));
}

void DemoBots::tick_trade_space(ParticipantContext& c, int trade_side, rules::SpaceId space,
                                rules::PlayerId owner) {
  if (!trade_filled_) return;
  const int side = screen_side(trade_side);
  const std::string target = fmt::format("trade.{}.space.{}", side, space.number());
  const auto* game = c.table().view().game;
  if (!game || space.index() >= game->state().spaces.size() || game->state().spaces[space].owner != owner) {
    // The plan is older than the game (the same trade went through already): nothing to agree to.
    trade_filled_ = false;
    return;
  }
  // The list may stand on a later page (the screen keeps its page): back to the first, then forward.
  for (int page = 0; page < 12 && !c.shown_label(target); ++page) {
    ++tally_.touches;
    if (!c.press(fmt::format("trade.{}.page.prev", side))) break;
  }
  for (int page = 0; page < 12 && !c.shown_label(target); ++page) {
    ++tally_.touches;
    if (!c.press(fmt::format("trade.{}.page.next", side))) break;
  }
  auto ticked = [&] {
    const auto label = c.shown_label(target);
    return label && label->rfind("\u2713", 0) == 0;
  };
  if (!ticked() && c.shown_label(target)) {
    ++tally_.touches;
    ++tally_.presses;
    (void)c.press(target);
  }
  if (ticked()) return;
  trade_filled_ = false;
  ++tally_.missed_presses;
  const std::string line =
      fmt::format("the bots could not tick {} on the trade screen: the trade is left", target);
  if (settings_.print)
    settings_.print(line);
  else
    fmt::print(stderr, "{}\n", line);
}

void DemoBots::choose_traders(ParticipantContext& c, rules::PlayerId from, rules::PlayerId to) {
  const auto* game = c.table().view().game;
  if (!game) return;
  const auto& players = game->state().players;
  const int n = static_cast<int>(players.size());
  auto shows = [&](int side, rules::PlayerId player) {
    const auto label = c.shown_label(fmt::format("trade.{}.player", side));
    return label && label->rfind(players[player].name + " gives", 0) == 0;
  };
  // Each side's button turns to the next player who is not on the other side: the giver's side first (the
  // other side moved out of the way when it holds the giver), then the other side.
  // Two players: the buttons cannot swap them, and the trade is the same exchange filled in the other way.
  const auto either_way = [&] {
    if (shows(0, from) && shows(1, to)) return true;
    trade_swapped_ = shows(0, to) && shows(1, from);
    return trade_swapped_;
  };
  for (int turn = 0; turn < 3 * n; ++turn) {
    if (either_way()) return;
    const std::string target = !shows(0, from) && !shows(1, from) ? "trade.0.player" : "trade.1.player";
    ++tally_.touches;
    ++tally_.presses;
    if (!c.press(target)) break;
  }
  if (either_way()) return;
  trade_filled_ = false;
  ++tally_.missed_presses;
  const std::string line = fmt::format("the bots could not set the trade screen to {} and {}",
                                       players[from].name, players[to].name);
  if (settings_.print)
    settings_.print(line);
  else
    fmt::print(stderr, "{}\n", line);
}

// Learning one at a time: the family chooses it on the learning screen (their tokens stand beside the board),
// then puts each token on the start space when the table asks its player by name.
bool DemoBots::plan_one_at_a_time(const table::TableView& view, std::deque<Act>& acts) {
  const auto& q = *view.question;
  const auto offers = [&q](const std::string& key) {
    return std::any_of(q.options.begin(), q.options.end(), [&key](const auto& o) { return o.key == key; });
  };
  if (offers("one_by_one")) {
    plan_press("question.one_by_one", acts, kRead);
    acted_on_.clear();
    return true;
  }
  const auto& players = view.game->state().players;
  for (rules::PlayerId p : players.ids()) {
    if (q.title.rfind(players[p].name + ": put", 0) != 0) continue;
    if (offers("retry")) {
      // The camera could not see it: the family plays on, the dice moving that token (said on the screen).
      plan_press("question.skip_token", acts, kRead);
      acted_on_.clear();
      return true;
    }
    if (put_down_.contains(p)) return true;  // put down: the camera looks at it
    put_down_.insert(p);
    acts.push_back({[this, player = p, start = view.game->edition().start_space](ParticipantContext& c) {
                      ++tally_.token_moves;
                      camera_->move_token(player, start);
                      screenshot(c, "learn-one-at-a-time");
                    },
                    kReach});
    acted_on_.clear();
    return true;
  }
  return false;
}

std::deque<DemoBots::Act> DemoBots::plan(const table::TableView& view, ParticipantContext& context) {
  std::deque<Act> acts;
  decision_seed_ = seed_for(view, 1);
  Slips::Settings slip_settings = settings_.slips;
  slip_settings.seed = seed_for(view, 2 + static_cast<std::uint64_t>(view.awaiting.kind));
  slips_ = Slips(slip_settings);
  if (view.game && a_game_is_played(view.awaiting.kind)) {
    // Tokens first: after a throw the player carries their token where the game says (whether or not the
    // table has a camera to check it), and a resumed game's tokens are put back where they stood. A token
    // carried one space off stays there until the table asks about it.
    const auto truth = camera_->truth();
    const auto& players = view.game->state().players;
    const int spaces = static_cast<int>(view.game->state().spaces.size());
    slipped_.resize(players.size(), std::nullopt);
    for (rules::PlayerId p : players.ids()) {
      if (p.index() >= truth.size()) break;
      const rules::SpaceId target = players[p].position;
      if (players[p].bankrupt || truth[p] == target) {
        slipped_[p].reset();
        continue;
      }
      if (slipped_[p] == target) continue;  // waiting for the table's question
      const rules::PlayerId player = p;
      const rules::SpaceId carried = slips_.carried_to(target, spaces);
      if (carried != target) slipped_[p] = target;
      acts.push_back({[this, player, target, carried](ParticipantContext&) {
                        ++tally_.token_moves;
                        if (carried != target) ++tally_.miscounts;
                        camera_->move_token(player, carried);
                      },
                      kReach});
    }
    if (!acts.empty()) {
      acted_on_.clear();  // once the tokens stand, the same situation is answered as usual
      return acts;
    }
  }
  const auto& a = view.awaiting;
  if (a.kind != Kind::learn_tokens) learning_since_ = milliseconds(-1);
  switch (a.kind) {  // the evening's key moments, each saved once (--screenshots)
    case Kind::setup:
      screenshot(context, "no-game-yet");
      break;
    case Kind::learn_tokens:
      screenshot(context, "learn-tokens");
      break;
    case Kind::throw_dice:
      screenshot(context, "throw-the-dice");
      break;
    case Kind::rules_question:
      screenshot(context, "question-" + a.detail);
      break;
    case Kind::tap_card:
      screenshot(context, "tap-to-pay");
      break;
    case Kind::answer_question:
      if (view.question) screenshot(context, std::string(display_kind_name(view.question->kind)));
      break;
    case Kind::bids:
      screenshot(context, "auction");
      break;
    case Kind::game_over:
      screenshot(context, "game-over");
      break;
    case Kind::move_token:
    case Kind::paused:
      break;
  }
  if (time_is_up(view)) {
    // Time is up at a turn boundary (the next player has not thrown nor answered their jail question yet):
    // the family agrees to end, and the richest wins.
    plan_press("nav.ledger", acts, kRead);
    plan_press("ledger.end", acts, kRead);
    acts.push_back({[this](ParticipantContext& c) { screenshot(c, "end-the-game"); }, milliseconds(0)});
    plan_press("confirm.ok", acts, kRead);
    return acts;
  }
  switch (a.kind) {
    case Kind::setup:
      plan_setup(context, acts);
      break;
    case Kind::learn_tokens: {
      if (settings_.learn_one_at_a_time && view.game && view.question && plan_one_at_a_time(view, acts))
        break;
      // The family puts every token on the start space (a resumed game's tokens too: they go back to their
      // spaces once learned) and the camera learns them. If it does not, after waiting they play on without
      // the cross-check.
      if (view.game) {
        const rules::SpaceId start = view.game->edition().start_space;
        const auto truth = camera_->truth();
        for (rules::PlayerId p : truth.ids()) {
          if (p.index() >= view.game->state().players.size()) break;
          if (truth[p] == start) continue;
          acts.push_back({[this, player = p, start](ParticipantContext&) {
                            ++tally_.token_moves;
                            camera_->move_token(player, start);
                          },
                          kReach});
        }
        if (!acts.empty()) {
          acted_on_.clear();
          break;
        }
      }
      // The camera learns at its own pace (its frames are rendered and tracked for real, whatever --speed
      // says): the family waits for it in real time before giving up on it.
      if (learning_since_.count() < 0) learning_since_ = context.uptime();
      if (replanning_ && view.question && context.uptime() - learning_since_ >= kLearningPatience) {
        const std::string option = pick_option(*view.question, {"skip"});
        if (!option.empty()) plan_press("question." + option, acts, kRead);
      }
      break;
    }
    case Kind::throw_dice: {
      if (!view.game) break;
      plan_input(decide(*view.game), view, acts);
      break;
    }
    case Kind::move_token:
      // The token stands where the dice say but the table has not seen it there: after waiting a while, the
      // player straightens it on its space so the camera looks again.
      if (replanning_ && a.player && a.space)
        acts.push_back({[this, player = *a.player, space = *a.space](ParticipantContext&) {
                          ++tally_.token_moves;
                          camera_->move_token(player, space);
                        },
                        kRead});
      break;
    case Kind::rules_question:
    case Kind::bids:
      if (view.game) plan_input(decide(*view.game), view, acts);
      break;
    case Kind::tap_card:
      plan_tap(a.player, acts, true);
      break;
    case Kind::answer_question: {
      if (!view.question) break;
      const display::TableQuestion& q = *view.question;
      ++tally_.questions;
      using QK = display::TableQuestion::Kind;
      const std::optional<rules::PlayerId> token_player =
          q.player ? q.player : whose_token(view, q.space, q.expected);
      if ((q.kind == QK::camera_mismatch || q.kind == QK::token_moved) && q.expected && token_player) {
        // The player counted wrong: they press "Move it" and put the token where the dice say, and the
        // camera sees it there.
        const rules::PlayerId player = *token_player;
        const rules::SpaceId to = *q.expected;
        if (player.index() < slipped_.size()) slipped_[player].reset();
        if (const std::string option = pick_option(q, {"move_token"}); option == "move_token")
          plan_press("question." + option, acts, kRead);
        acts.push_back({[this, player, to](ParticipantContext&) {
                          ++tally_.token_moves;
                          camera_->move_token(player, to);
                        },
                        kRead});
        break;
      }
      if (q.kind == QK::confirm_payment || q.kind == QK::house_payment) {
        plan_tap(q.banker ? std::nullopt : q.player, acts, true);
        break;
      }
      const std::string option = pick_option(q, {"move_token", "camera_wrong", "confirm", "ok"});
      if (option.empty()) break;
      plan_press("question." + option, acts, kRead);
      break;
    }
    case Kind::game_over:
      if (view.game && on_game_over_) on_game_over_(*view.game);
      if (!settings_.screenshots.empty()) {
        // The family looks back over the evening: the deeds, the ledger, the charts, the devices.
        for (const char* screen : {"properties", "ledger", "charts", "devices"}) {
          plan_press(fmt::format("nav.{}", screen), acts, kRead);
          acts.push_back({[this, screen](ParticipantContext& c) { screenshot(c, screen); }, milliseconds(0)});
          plan_press("back", acts, milliseconds(0));
        }
      }
      acts.push_back({[this](ParticipantContext& c) {
                        tally_.game_over = true;
                        tally_.stopped_because = "the game is over";
                        c.stop(0);
                      },
                      milliseconds(0)});
      break;
    case Kind::paused:
      acts.push_back({[this, why = view.paused.value_or("storage failed")](ParticipantContext& c) {
                        tally_.stopped_because = "the table paused: " + why;
                        if (settings_.print) settings_.print("demo stopped: " + tally_.stopped_because);
                        c.stop(1);
                      },
                      milliseconds(0)});
      break;
  }
  (void)context;
  return acts;
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
