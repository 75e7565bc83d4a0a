// The camera as a cross-check: it never posts anything; where it disagrees with the dice, the table asks.
#include <fmt/format.h>

#include <algorithm>

#include "table/table_state.h"

namespace bb::table {
namespace {
std::string capitalised(std::string text) {
  if (!text.empty() && text[0] >= 'a' && text[0] <= 'z') text[0] = static_cast<char>(text[0] - 'a' + 'A');
  return text;
}
}  // namespace

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
  q.shown.options.push_back({"one_by_one", "Learn them one at a time", false, false});
  q.shown.options.push_back({"skip", "Play without the camera", false, false});
  one_at_a_time = false;
  prompting.reset();
  unwatched.clear();
  resumed_learning = resumed;
  ask(r, std::move(q));
}

void Table::State::prompt_next_token(Reaction& r, const std::string& said) {
  const auto* g = game();
  auto* q = find(display::TableQuestion::Kind::learn_tokens);
  if (!g || !q) return;
  std::optional<rules::PlayerId> next;
  for (rules::PlayerId p : g->state().players.ids())
    if (!next && !learned.contains(p) && !unwatched.contains(p) && !g->state().players[p].bankrupt) next = p;
  if (!next) {
    // Every token is learned or skipped: play goes on from the dice, the camera cross-checking those it
    // knows.
    learning = false;
    one_at_a_time = false;
    prompting.reset();
    close(q->shown.id);
    const std::string where =
        resumed_learning ? std::string("put each token back on its space")
                         : fmt::format("put every token on {}", space_name(g->edition().start_space));
    if (unwatched.empty()) {
      r.messages.push_back(fmt::format("The camera knows every token: {}, then throw the dice", where));
    } else {
      std::string names;
      for (const rules::PlayerId p : unwatched) names += (names.empty() ? "" : ", ") + token_name(p);
      r.messages.push_back(
          fmt::format("The camera watches the others; the dice alone move {}: {}, then throw "
                      "the dice",
                      names, where));
    }
    r.snapshot_changed = true;
    return;
  }
  const bool first = !prompting && learned.empty();
  prompting = next;
  const std::string token = token_name(*next);
  q->shown.title = fmt::format("{}: put {} on the board", name(*next), token);
  q->shown.text = fmt::format("{}{}: put {} on the board, alone, anywhere; the camera learns it",
                              first          ? "Take every token off the board. Then "
                              : said.empty() ? ""
                                             : said + " ",
                              name(*next), token);
  // "Look again" only once the camera said it cannot see the token (learn_incomplete).
  q->shown.options = {{"skip_token", fmt::format("Go on without {}: the dice move it", token), false, false},
                      {"skip", "Play without the camera", false, false}};
  r.question = q->shown;
  r.snapshot_changed = true;
  r.camera_learning = CameraLearning{CameraLearning::Mode::one_at_a_time, next};
}

void Table::State::learning_incomplete(Reaction& r, const TokenReport& e) {
  // The camera found fewer tokens than there are players, or none at all: say so, never play on as if there
  // were fewer (or wait without a word), and offer the same choices either way: look again, learn them one
  // at a time (tokens crowded on the start space, a metal grey one), or play without the camera.
  if (one_at_a_time) return;  // a report of the learning on the start space, given up already
  const auto* g = game();
  const std::string start = g ? space_name(g->edition().start_space) : std::string("the start");
  const bool none = e.found == 0;
  r.messages.push_back(none ? fmt::format("The camera sees no token on {}: {}", start, e.detail)
                            : fmt::format("The camera did not find every token: {}", e.detail));
  auto* q = find(display::TableQuestion::Kind::learn_tokens);
  if (!q || !learning) return;
  q->shown.text = none ? fmt::format(
                             "The camera sees the board but no token on {}. Put every token on {} "
                             "(anywhere on it), then look again; or learn them one at a time",
                             start, start)
                       : fmt::format(
                             "The camera did not find every token on {}: move them apart, or learn them "
                             "one at a time",
                             start);
  q->shown.options = {{"retry", fmt::format("Look at {} again", start), false, false},
                      {"one_by_one", "Learn them one at a time", false, false},
                      {"skip", "Play without the camera", false, false}};
  r.question = q->shown;
  r.snapshot_changed = true;
}

std::string Table::State::token_names(const std::set<rules::PlayerId>& players) const {
  std::string names;
  std::size_t i = 0;
  for (const rules::PlayerId p : players) {
    if (i > 0) names += i + 1 == players.size() ? " and " : ", ";
    names += token_name(p);
    ++i;
  }
  return names;
}

void Table::State::restore_learning(Reaction& r, const TokenLearning& kept) {
  const auto* g = game();
  if (!g) return;
  const std::size_t players = g->state().players.size();
  learned.clear();
  unwatched.clear();
  for (const rules::PlayerId p : kept.learned)
    if (p.index() < players) learned.insert(p);
  for (const rules::PlayerId p : kept.unwatched)
    if (p.index() < players && !learned.contains(p)) unwatched.insert(p);
  bool missing = false;
  for (rules::PlayerId p : g->state().players.ids())
    if (!learned.contains(p) && !unwatched.contains(p) && !g->state().players[p].bankrupt) missing = true;
  const std::string kept_names = token_names(learned);
  if (!missing) {
    // Every token is known again (or left to the dice): nothing to ask; the screen says what came back.
    learning = false;
    one_at_a_time = false;
    prompting.reset();
    if (auto* q = find(display::TableQuestion::Kind::learn_tokens)) close(q->shown.id);
    std::string said = kept_names.empty() ? std::string("the camera learned no token before the restart")
                                          : fmt::format("the camera knows {} again", kept_names);
    if (!unwatched.empty()) said += fmt::format("; the dice alone move {}", token_names(unwatched));
    status = status.empty() ? capitalised(said) : fmt::format("{}; {}", status, said);
    r.messages.push_back(capitalised(said) + " (kept from before the restart)");
    return;
  }
  // Some tokens are still to learn: one at a time, the kept ones standing where they were put (the camera
  // knows them there), so the board is not emptied again.
  resumed_learning = g->input_count() > 0;
  if (!find(display::TableQuestion::Kind::learn_tokens)) {
    OpenQuestion q;
    q.shown.kind = display::TableQuestion::Kind::learn_tokens;
    q.shown.title = "The camera learns the tokens";
    ask(r, std::move(q));
  }
  learning = true;
  one_at_a_time = true;
  prompting.reset();
  const std::string said =
      kept_names.empty()
          ? std::string("Learning the tokens again after the restart.")
          : fmt::format("The camera kept {} from before the restart: leave {} where {} stand{}.", kept_names,
                        learned.size() == 1 ? "it" : "them", learned.size() == 1 ? "it" : "they",
                        learned.size() == 1 ? "s" : "");
  status = fmt::format("{}{}the camera kept {}; it asks for the others", status, status.empty() ? "" : "; ",
                       kept_names.empty() ? std::string("no token") : kept_names);
  r.messages.push_back(said);
  prompt_next_token(r, said);
}

void Table::State::answer_learning(Reaction& r, const std::string& option, const std::string& question_id) {
  if (option == "retry" && !one_at_a_time) {
    // Every token on the start space, looked at again from the start (the camera forgets what it counted).
    const auto* g = game();
    const std::string start = g ? space_name(g->edition().start_space) : std::string("the start");
    learned.clear();
    r.camera_learning = CameraLearning{CameraLearning::Mode::all_on_start, std::nullopt};
    r.messages.push_back(fmt::format("The camera looks at {} again", start));
    if (auto* q = find(display::TableQuestion::Kind::learn_tokens)) {
      q->shown.text = fmt::format("Put every token on {}: the camera looks again and learns each one", start);
      r.question = q->shown;
    }
    r.snapshot_changed = true;
    return;
  }
  if (option == "one_by_one" || (option == "retry" && one_at_a_time)) {
    if (!one_at_a_time) {
      one_at_a_time = true;
      learned.clear();  // the board is emptied: every token is learned again, alone
      std::fill(seen.begin(), seen.end(), std::nullopt);
    }
    if (option == "retry" && prompting)
      r.messages.push_back(fmt::format("The camera looks for {} again: lift it, then put it down alone",
                                       token_name(*prompting)));
    prompt_next_token(r);
    return;
  }
  if (option == "skip_token" && one_at_a_time && prompting) {
    unwatched.insert(*prompting);
    r.messages.push_back(
        fmt::format("The camera will not watch {}: the dice alone move it", token_name(*prompting)));
    prompt_next_token(r);
    return;
  }
  // "skip": the whole camera.
  learning = false;
  one_at_a_time = false;
  prompting.reset();
  camera = false;
  std::fill(seen.begin(), seen.end(), std::nullopt);
  r.messages.push_back("Playing without the camera: the dice alone decide");
  close(question_id);
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
  if (e.kind == TokenReport::Kind::learn_incomplete && !e.player) {
    learning_incomplete(r, e);
    return r;
  }
  if (!g || !e.player || e.player->index() >= seen.size()) return r;
  if (!camera) {
    camera = true;  // a report means a camera works
    r.snapshot_changed = true;
  }
  const rules::PlayerId p = *e.player;
  const rules::SpaceId at = g->state().players[p].position;
  switch (e.kind) {
    case TokenReport::Kind::learned: {
      seen[p] = e.to;
      if (one_at_a_time) {
        // Only the token asked for: the tracker names the token it waits for after its player.
        if (p != prompting) return r;
        learned.insert(p);
        r.messages.push_back(capitalised(fmt::format("{} learned", token_name(p))));
        prompt_next_token(r, capitalised(fmt::format("{} learned.", token_name(p))));
        return r;
      }
      learned.insert(p);
      if (learning && learned.size() >= g->state().players.size()) {
        learning = false;
        if (auto* q = find(display::TableQuestion::Kind::learn_tokens)) close(q->shown.id);
        r.messages.push_back("The camera knows every token: throw the dice");
      }
      r.snapshot_changed = true;
      return r;
    }
    case TokenReport::Kind::learn_incomplete:
      r.messages.push_back(fmt::format("The camera could not learn {}: {}", token_name(p), e.detail));
      if (one_at_a_time && p == prompting) {
        if (auto* q = find(display::TableQuestion::Kind::learn_tokens)) {
          q->shown.text = fmt::format(
              "The camera could not see {} ({}). Lift it and put it down alone on a "
              "plain space, or go on without it: the dice move it",
              token_name(p), e.detail);
          if (q->shown.options.empty() || q->shown.options.front().key != "retry")
            q->shown.options.insert(q->shown.options.begin(),
                                    {"retry", fmt::format("Look for {} again", token_name(p)), false, false});
          r.question = q->shown;
          r.snapshot_changed = true;
        }
      }
      return r;
    case TokenReport::Kind::hidden:
      return r;  // a hand over the token: wait for it to show again
    case TokenReport::Kind::token_lost:
      seen[p].reset();
      r.snapshot_changed = true;
      r.messages.push_back(
          fmt::format("The camera has lost {}: put it back on its space ({})", token_name(p), e.detail));
      return r;
    case TokenReport::Kind::lost:
    case TokenReport::Kind::moved:
    case TokenReport::Kind::unsure:
      break;
  }
  if (one_at_a_time) return r;  // tokens put down anywhere while they are learned: asked about afterwards
  const std::optional<rules::SpaceId> expect = expected[p];
  const bool unsure = e.kind == TokenReport::Kind::unsure;
  auto here = [&](rules::SpaceId space) {
    return unsure ? std::find(e.candidates.begin(), e.candidates.end(), space) != e.candidates.end() ||
                        e.to == space
                  : e.to == space;
  };
  seen[p] = unsure ? std::nullopt : e.to;
  r.snapshot_changed = true;
  auto close_token_questions = [&] {
    std::erase_if(questions, [&](const OpenQuestion& q) {
      return q.token_player == p && (q.shown.kind == display::TableQuestion::Kind::camera_mismatch ||
                                     q.shown.kind == display::TableQuestion::Kind::token_moved);
    });
  };
  if (expect) {
    if (here(*expect)) {  // where the dice say: nothing to ask
      expected[p].reset();
      close_token_questions();
      // The camera was not sure and the dice settle it: the tracker takes their space as the family's word
      // (it stops asking about the token there and tells its look-alikes apart by it again).
      if (unsure) r.camera_settled = CameraSettled{p, *expect};
      return r;
    }
    if (find(display::TableQuestion::Kind::camera_mismatch, p)) {
      // Still elsewhere: the question stands, with the new space.
      for (auto& q : questions)
        if (q.token_player == p && q.shown.kind == display::TableQuestion::Kind::camera_mismatch) {
          q.shown.space = e.to;
          q.shown.text = fmt::format("{} is on {}, the dice say {}", token_name(p), space_name(e.to),
                                     space_name(expect));
        }
      return r;
    }
    OpenQuestion q;
    q.token_player = p;
    q.shown.kind = display::TableQuestion::Kind::camera_mismatch;
    q.shown.title = fmt::format("Where is {}?", token_name(p));
    q.shown.text = unsure ? fmt::format("The camera is not sure where {} is; the dice say {}", token_name(p),
                                        space_name(expect))
                          : fmt::format("{} is on {}, the dice say {}", token_name(p), space_name(e.to),
                                        space_name(expect));
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
  if (find(display::TableQuestion::Kind::token_moved, p)) return r;
  OpenQuestion q;
  q.token_player = p;
  q.shown.kind = display::TableQuestion::Kind::token_moved;
  q.shown.title = fmt::format("{} moved", token_name(p));
  q.shown.text = fmt::format("{} moved to {}, but nobody threw: it stands on {}", token_name(p),
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
