// What the demo bots plan for each situation the table is in: the setup screen, the tokens learned one at a
// time, a game input the rules bot decided (a throw, a press, the keypad's amount, the card that confirms
// it), the table's own questions, bids and the end of a time-limit game.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "daemon/demo_bots.h"
#include "daemon/demo_bots_pace.h"
#include "table/table.h"

namespace bb::daemon {

namespace {
using namespace demo_pace;
using Kind = table::Awaiting::Kind;

// How long (real time, at any speed) the family waits for the camera to learn the tokens.
constexpr milliseconds kLearningPatience{30000};

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
// `game`: the game the input was decided on (the table's, as its view shows it).
void DemoBots::plan_input(const rules::Input& input, const rules::Game& game, std::deque<Act>& acts) {
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
    const std::string option(game.option_name(choose->option));
    plan_press("home.option." + option, acts, kRead);
    if (rules::moves_money(choose->option.answer)) {
      acts.push_back(
          {[this, option](ParticipantContext& c) { screenshot(c, "confirm-" + option); }, milliseconds(0)});
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
        game.state().auction ? game.state().auction->high_bidder : std::nullopt;
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
      plan_input(decide(*view.game), *view.game, acts);
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
      if (view.game) plan_input(decide(*view.game), *view.game, acts);
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

}  // namespace bb::daemon
