#include "vision/tracking_evaluator.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <opencv2/core.hpp>

#include "vision/token_names.h"

namespace bb::vision {

void TrackingScore::add(const TrackingScore& o) {
  moves += o.moves;
  moves_correct += o.moves_correct;
  moves_unsure += o.moves_unsure;
  moves_missed += o.moves_missed;
  moves_wrong += o.moves_wrong;
  false_moves += o.false_moves;
  late_answers += o.late_answers;
  moves_unwatched += o.moves_unwatched;
  tokens_unwatched += o.tokens_unwatched;
  spaces_checked += o.spaces_checked;
  spaces_correct += o.spaces_correct;
  frames += o.frames;
  learned = learned || o.learned;
  tokens_learned += o.tokens_learned;
  tokens_expected += o.tokens_expected;
  incomplete_said += o.incomplete_said;
  calibration_error_px = std::max(calibration_error_px, o.calibration_error_px);
  if (o.calibration_markers >= 0 && (calibration_markers < 0 || o.calibration_markers < calibration_markers))
    calibration_markers = o.calibration_markers;
  latency_frames.insert(latency_frames.end(), o.latency_frames.begin(), o.latency_frames.end());
}

std::string TrackingScore::summary() const {
  double mean_latency = 0;
  if (!latency_frames.empty())
    mean_latency = std::accumulate(latency_frames.begin(), latency_frames.end(), 0.0) / latency_frames.size();
  return fmt::format(
      "learned {:3d}/{:<3d}{}  moves {:5d}  correct {:6.2f}%  unsure {:3d}  missed {:3d}  wrong {:3d}  "
      "false-moves {:3d}  late {:3d} "
      " "
      "occupancy {:7.3f}%  latency {:.1f} frames  {}{}",
      tokens_learned, tokens_expected, incomplete_said ? fmt::format(" (said {}x)", incomplete_said) : "",
      moves, 100 * move_accuracy(), moves_unsure, moves_missed, moves_wrong, false_moves, late_answers,
      100 * occupancy_accuracy(), mean_latency,
      calibration_markers < 0 ? std::string("board never found")
                              : fmt::format("board found with {} markers, {:.1f} px off", calibration_markers,
                                            calibration_error_px),
      moves_unwatched ? fmt::format("  left to the dice: {} tokens, {} moves (watched moves {:.2f}% right)",
                                    tokens_unwatched, moves_unwatched, 100 * watched_accuracy())
                      : "");
}

std::vector<std::string> expected_names(const TableRenderer& renderer, int token_count) {
  std::vector<Point2> start;
  for (int t = 0; t < token_count; ++t) start.push_back(renderer.slot_position(0, t));
  return expected_names(renderer, start);
}

std::vector<std::string> expected_names(const TableRenderer& renderer, const std::vector<Point2>& start) {
  const Point2 corner = renderer.space_map().point_in_space(0, 0, 0);
  const int token_count = static_cast<int>(start.size());
  std::vector<int> order(static_cast<size_t>(token_count));
  std::iota(order.begin(), order.end(), 0);
  auto distance = [&](int t) {
    const Point2 p = start[static_cast<size_t>(t)];
    return std::hypot(p.x - corner.x, p.y - corner.y);
  };
  std::sort(order.begin(), order.end(), [&](int a, int b) { return distance(a) < distance(b); });
  std::vector<std::string> names(static_cast<size_t>(token_count));
  for (size_t rank = 0; rank < order.size(); ++rank)
    names[static_cast<size_t>(order[rank])] = learned_token_name(static_cast<int>(rank));
  return names;
}

TrackingScore evaluate_game(const TableRenderer& renderer, const TableScene& base, int token_count,
                            const std::vector<TableMove>& moves, uint64_t seed,
                            TokenTracker::Settings settings, TableScript::Settings script_settings) {
  TrackingScore score;
  const bool one_at_a_time = settings.learning == TokenTracker::Settings::Learning::one_at_a_time;
  std::vector<Point2> places;  // where each token stands when the game starts
  for (int t = 0; t < token_count; ++t)
    places.push_back(script_settings.start_positions.empty()
                         ? renderer.slot_position(0, t)
                         : script_settings.start_positions[static_cast<size_t>(t)]);
  if (one_at_a_time && script_settings.start_positions.empty())
    for (int t = 0; t < token_count; ++t) script_settings.start_positions.push_back({1.25, 0.2 + 0.1 * t});
  TableScript script(renderer, base, token_count, seed, script_settings);
  TokenTracker tracker(renderer.space_map(), settings);
  std::vector<std::string> names = expected_names(renderer, places);
  if (one_at_a_time)
    for (int t = 0; t < token_count; ++t) names[static_cast<size_t>(t)] = learned_token_name(t);
  auto index_of = [&](const std::string& name) {
    for (size_t i = 0; i < names.size(); ++i)
      if (names[i] == name) return static_cast<int>(i);
    return -1;
  };
  cv::Mat image;
  int64_t frame_index = 0;
  int learned_count = 0;
  auto run = [&](const std::vector<TableScript::Frame>& frames, std::vector<TrackerEvent>& events,
                 int64_t& first_still) {
    bool previous_had_hand = true;
    first_still = -1;
    for (const auto& f : frames) {
      RenderTruth truth;
      renderer.render(f.scene, image, &truth);
      if (first_still < 0 && f.scene.hands.empty() && previous_had_hand && frame_index > 0 &&
          &f != &frames.front())
        first_still = frame_index;
      previous_had_hand = !f.scene.hands.empty();
      auto e = tracker.process(image, frame_index);
      for (const auto& ev : e) {
        if (ev.kind == TrackerEvent::Kind::calibrated && score.calibration_error_px < 0) {
          double worst = 0;
          for (int k = 0; k < 4; ++k) {
            const Point2 p = tracker.calibration()->image_corner(k),
                         q = truth.board_corners[static_cast<size_t>(k)];
            worst = std::max(worst, std::hypot(p.x - q.x, p.y - q.y));
          }
          score.calibration_error_px = worst;
          score.calibration_markers = ev.markers;
        }
        if (ev.kind == TrackerEvent::Kind::learned) ++learned_count;
      }
      events.insert(events.end(), e.begin(), e.end());
      ++frame_index;
      ++score.frames;
      assert(tracker.invariant_problem().empty());
    }
  };
  std::vector<TrackerEvent> opening_events;
  int64_t ignored = 0;
  run(script.opening(), opening_events, ignored);
  std::vector<bool> unwatched(static_cast<size_t>(token_count), false);
  auto known = [&](const std::string& name) {
    return std::any_of(tracker.tokens().begin(), tracker.tokens().end(),
                       [&](const TokenAppearance& a) { return a.name == name; });
  };
  if (one_at_a_time)
    for (int t = 0; t < token_count; ++t) {
      const std::string& name = names[static_cast<size_t>(t)];
      tracker.learn_next_token(name);
      run(script.place(t, places[static_cast<size_t>(t)], -1), opening_events, ignored);
      if (known(name)) continue;
      // Not learned: the family waits with the scene still until the camera says it cannot see the
      // token, then chooses "go on without it" (the table's skip_token: the dice move that token) and
      // is asked for the next. Without that word the game counts as before: every move missed.
      std::vector<TrackerEvent> waited;
      run(script.still(settings.still_frames + settings.agree_frames + settings.settle_limit_frames + 4, -1),
          waited, ignored);
      const bool said = std::any_of(waited.begin(), waited.end(), [&](const TrackerEvent& e) {
        return e.kind == TrackerEvent::Kind::learn_incomplete && e.token == name;
      });
      opening_events.insert(opening_events.end(), waited.begin(), waited.end());
      if (said && !known(name)) {
        unwatched[static_cast<size_t>(t)] = true;
        tracker.leave_token_to_dice(name);  // as the table tells the tracker when the family goes on
      }
    }
  const int left_to_dice = static_cast<int>(std::count(unwatched.begin(), unwatched.end(), true));
  score.tokens_expected = token_count;
  score.tokens_learned = static_cast<int>(tracker.tokens().size());
  score.tokens_unwatched = left_to_dice;
  score.incomplete_said = std::any_of(opening_events.begin(), opening_events.end(), [](const auto& e) {
    return e.kind == TrackerEvent::Kind::learn_incomplete;
  });
  score.learned =
      learned_count + left_to_dice == token_count &&
      tracker.tokens().size() + static_cast<size_t>(left_to_dice) == static_cast<size_t>(token_count);
  if (!score.learned) {
    score.moves = static_cast<int>(moves.size());
    score.moves_missed = score.moves;
    return score;
  }
  for (size_t m = 0; m < moves.size(); ++m) {
    std::vector<TrackerEvent> events;
    int64_t first_still = -1;
    run(script.play(moves[m], static_cast<int>(m)), events, first_still);
    ++score.moves;
    const bool left_alone = unwatched[static_cast<size_t>(moves[m].token)];
    bool correct = false, unsure = false, wrong = false;
    for (const auto& e : events) {
      const int t = index_of(e.token);
      if (e.kind == TrackerEvent::Kind::moved) {
        if (t == moves[m].token && e.to == moves[m].to) {
          correct = true;
          if (first_still >= 0) score.latency_frames.push_back(static_cast<int>(e.frame - first_still));
        } else if (t == moves[m].token) {
          wrong = true;
        } else if (t >= 0 && e.to == script.truth()[static_cast<size_t>(t)]) {
          ++score.late_answers;
        } else {
          ++score.false_moves;
        }
      }
      if (e.kind == TrackerEvent::Kind::unsure && t == moves[m].token) unsure = true;
    }
    // The family answers every question, as the table asks it, with where the token truly stands; the
    // table hands the answer back to the tracker.
    for (const auto& e : events) {
      const int t = index_of(e.token);
      if (e.kind == TrackerEvent::Kind::unsure && t >= 0 && !unwatched[static_cast<size_t>(t)])
        tracker.settle(e.token, script.truth()[static_cast<size_t>(t)]);
    }
    if (left_alone)
      ++score.moves_unwatched;  // the camera knows nothing of it: any event naming it was counted above
    else if (correct && !wrong)
      ++score.moves_correct;
    else if (wrong)
      ++score.moves_wrong;
    else if (unsure)
      ++score.moves_unsure;
    else
      ++score.moves_missed;
    // Occupancy of every space, as the tracker now believes it.
    const int spaces = renderer.space_map().space_count();
    for (int s = 0; s < spaces; ++s) {
      std::vector<bool> truth_here(static_cast<size_t>(token_count)),
          seen_here(static_cast<size_t>(token_count));
      for (int t = 0; t < token_count; ++t)  // a token left to the dice is not the camera's to place
        truth_here[static_cast<size_t>(t)] =
            !unwatched[static_cast<size_t>(t)] && script.truth()[static_cast<size_t>(t)] == s;
      for (size_t k = 0; k < tracker.tokens().size(); ++k) {
        const int t = index_of(tracker.tokens()[k].name);
        if (t >= 0) seen_here[static_cast<size_t>(t)] = tracker.positions()[k] == s;
      }
      ++score.spaces_checked;
      if (truth_here == seen_here) ++score.spaces_correct;
    }
  }
  return score;
}

}  // namespace bb::vision
