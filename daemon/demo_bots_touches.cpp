// The demo bots' acts on the screen and at the readers: a press on a drawn button (looked for again while the
// dialog a tap opens comes up), a button in a paged list, a card tap (now and then the neighbour's card
// first), and the screen saved at a key moment of the evening.
#include <fmt/format.h>

#include "daemon/demo_bots.h"
#include "daemon/demo_bots_pace.h"
#include "peripherals/tap_deduplicator.h"
#include "table/table.h"

namespace bb::daemon {

namespace {
using namespace demo_pace;
}  // namespace

milliseconds DemoBots::card_ready_at(const std::string& card) const {
  const auto last = last_tap_.find(card);
  if (last == last_tap_.end()) return milliseconds(0);
  // A little past the window, so a reader's own clock a tick behind ours still sees a new tap.
  return last->second +
         std::chrono::duration_cast<milliseconds>(std::chrono::nanoseconds(peripherals::kSameCardWindow)) +
         milliseconds(100);
}

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

// A finger on the button `target` as the screen draws it now. A button the bots cannot find is said
// loudly and counted (the demo then fails): they never hand the table the intent instead.
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

}  // namespace bb::daemon
