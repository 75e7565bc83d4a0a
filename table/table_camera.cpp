// The camera as a cross-check: it never posts anything; where it disagrees with the dice, the table asks.
#include <fmt/format.h>

#include <algorithm>

#include "table/table_state.h"

namespace bb::table {

void Table::State::start_learning(Reaction& r, bool resumed) {
  const auto* g = game();
  if (!g) return;
  learning = true;
  learned.clear();
  OpenQuestion q;
  q.shown.kind = display::TableQuestion::Kind::learn_tokens;
  q.shown.title = "The camera learns the tokens";
  q.shown.text =
      resumed
          ? fmt::format("Put every token on {}: the camera learns each one; then put each back on its space",
                        space_name(g->edition().start_space))
          : fmt::format("Put every token on {}: the camera learns each one",
                        space_name(g->edition().start_space));
  q.shown.options.push_back({"skip", "Play without the camera", false, false});
  ask(r, std::move(q));
}

Reaction Table::State::token(const TokenReport& e) {
  Reaction r;
  const auto* g = game();
  if (e.kind == TokenReport::Kind::lost) {
    DeviceHealth gone{{display::DeviceStatus::Kind::camera, "Camera", display::DeviceStatus::State::missing,
                       e.detail, "enter the dice or move by hand; the camera comes back by itself"}};
    camera = true;  // so device() says what changed
    return device(gone);
  }
  if (e.kind == TokenReport::Kind::learn_incomplete && e.player < 0) {
    // The camera found fewer tokens than there are players: say so, never play on as if there were fewer.
    r.messages.push_back(fmt::format("The camera did not find every token: {}", e.detail));
    return r;
  }
  if (!g || e.player < 0 || static_cast<std::size_t>(e.player) >= seen.size()) return r;
  if (!camera) {
    camera = true;  // a report means a camera works
    r.snapshot_changed = true;
  }
  const auto p = static_cast<std::size_t>(e.player);
  const int at = g->state().players[p].position;
  switch (e.kind) {
    case TokenReport::Kind::learned: {
      seen[p] = e.to;
      learned.insert(e.player);
      if (learning && learned.size() >= g->state().players.size()) {
        learning = false;
        if (auto* q = find(display::TableQuestion::Kind::learn_tokens)) close(q->shown.id);
        r.messages.push_back("The camera knows every token: throw the dice");
      }
      r.snapshot_changed = true;
      return r;
    }
    case TokenReport::Kind::learn_incomplete:
      r.messages.push_back(fmt::format("The camera could not learn {}: {}", token_name(e.player), e.detail));
      return r;
    case TokenReport::Kind::hidden:
      return r;  // a hand over the token: wait for it to show again
    case TokenReport::Kind::token_lost:
      seen[p] = -1;
      r.snapshot_changed = true;
      r.messages.push_back(fmt::format("The camera has lost {}: put it back on its space ({})",
                                       token_name(e.player), e.detail));
      return r;
    case TokenReport::Kind::lost:
    case TokenReport::Kind::moved:
    case TokenReport::Kind::unsure:
      break;
  }
  const int expect = expected[p];
  const bool unsure = e.kind == TokenReport::Kind::unsure;
  auto here = [&](int space) {
    return unsure ? std::find(e.candidates.begin(), e.candidates.end(), space) != e.candidates.end() ||
                        e.to == space
                  : e.to == space;
  };
  seen[p] = unsure ? -1 : e.to;
  r.snapshot_changed = true;
  auto close_token_questions = [&] {
    std::erase_if(questions, [&](const OpenQuestion& q) {
      return q.token_player == e.player && (q.shown.kind == display::TableQuestion::Kind::camera_mismatch ||
                                            q.shown.kind == display::TableQuestion::Kind::token_moved);
    });
  };
  if (expect >= 0) {
    if (here(expect)) {  // where the dice say: nothing to ask
      expected[p] = -1;
      close_token_questions();
      return r;
    }
    if (find(display::TableQuestion::Kind::camera_mismatch, e.player)) {
      // Still elsewhere: the question stands, with the new space.
      for (auto& q : questions)
        if (q.token_player == e.player && q.shown.kind == display::TableQuestion::Kind::camera_mismatch) {
          q.shown.space = e.to;
          q.shown.text = fmt::format("{} is on {}, the dice say {}", token_name(e.player), space_name(e.to),
                                     space_name(expect));
        }
      return r;
    }
    OpenQuestion q;
    q.token_player = e.player;
    q.shown.kind = display::TableQuestion::Kind::camera_mismatch;
    q.shown.title = fmt::format("Where is {}?", token_name(e.player));
    q.shown.text = unsure ? fmt::format("The camera is not sure where {} is; the dice say {}",
                                        token_name(e.player), space_name(expect))
                          : fmt::format("{} is on {}, the dice say {}", token_name(e.player),
                                        space_name(e.to), space_name(expect));
    if (!q.shown.text.empty() && q.shown.text[0] == 't') q.shown.text[0] = 'T';
    q.shown.space = e.to;
    q.shown.expected = expect;
    q.shown.options = {{"move_token", fmt::format("Move it to {}", space_name(expect)), false, false},
                       {"enter_dice", "The dice were wrong: enter them", true, true},
                       {"camera_wrong", "The camera is wrong", false, false}};
    ask(r, std::move(q));
    return r;
  }
  // Nobody threw for this token.
  if (here(at)) {
    close_token_questions();
    return r;
  }
  if (find(display::TableQuestion::Kind::token_moved, e.player)) return r;
  OpenQuestion q;
  q.token_player = e.player;
  q.shown.kind = display::TableQuestion::Kind::token_moved;
  q.shown.title = fmt::format("{} moved", token_name(e.player));
  q.shown.text = fmt::format("{} moved to {}, but nobody threw: it stands on {}", token_name(e.player),
                             unsure ? std::string("somewhere else") : space_name(e.to), space_name(at));
  if (!q.shown.text.empty() && q.shown.text[0] == 't') q.shown.text[0] = 'T';
  q.shown.space = e.to;
  q.shown.expected = at;
  q.shown.options = {{"move_token", fmt::format("Put it back on {}", space_name(at)), false, false},
                     {"camera_wrong", "The camera is wrong", false, false}};
  ask(r, std::move(q));
  return r;
}

}  // namespace bb::table
