#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "vision/table_script.h"
#include "vision/token_tracker.h"

namespace bb::vision {

// What a scripted game through the tracker scored against the renderer's exact truth.
struct TrackingScore {
  int moves = 0;
  int moves_correct = 0;  // a "moved" event naming the right token and the right space
  int moves_unsure = 0;   // no move reported but an "unsure" question asked for that token
  int moves_missed = 0;   // neither
  int moves_wrong = 0;    // a "moved" event for the right token to a wrong space
  int false_moves = 0;    // "moved" events for a token that was not moved
  // "moved" events for a token not moved in this move that put it where it truly is: an earlier move
  // reported one still period late (after a question, or after its look kept changing), not counted as
  // false. A false move puts a token where it is not.
  int late_answers = 0;
  // Moves of a token the family left to the dice: put down alone, the camera said it cannot see it
  // (learn_incomplete naming it), and the family chose the table's "go on without it" (the tracker is
  // then asked for the next token). Not right, not missed: the table moves that token by the dice.
  int moves_unwatched = 0;
  int tokens_unwatched = 0;  // such tokens
  int spaces_checked = 0;
  int spaces_correct = 0;  // per-space occupancy agreeing with the truth after each move settled
  int frames = 0;
  bool learned = false;     // the tokens were learned at the start, all of them, in the expected order
  int tokens_learned = 0;   // tokens the tracker learned at the start
  int tokens_expected = 0;  // tokens on the table
  int incomplete_said = 0;  // games where the tracker said learn_incomplete (fewer found, not silent)
  double calibration_error_px = -1;  // largest board-corner error at the first calibration
  // Markers seen at the first calibration (over several games, the fewest); -1: the board was never found.
  int calibration_markers = -1;
  std::vector<int> latency_frames;  // from the first still frame to the move's event

  void add(const TrackingScore& other);
  double move_accuracy() const { return moves ? double(moves_correct) / moves : 0; }
  // Over the moves of the tokens the camera watches (all but the ones left to the dice).
  double watched_accuracy() const {
    return moves > moves_unwatched ? double(moves_correct) / (moves - moves_unwatched) : 0;
  }
  double occupancy_accuracy() const { return spaces_checked ? double(spaces_correct) / spaces_checked : 0; }
  std::string summary() const;
};

// Plays `moves` on a rendered table through a fresh tracker, frame by frame, and scores it. With
// Learning::one_at_a_time the tokens start beside the board (unless the script settings place them) and
// are put down on their start places one at a time, each named T<k> through learn_next_token; a token the
// tracker does not learn is left still until the tracker says it cannot see it, and then left to the dice
// as the table's "go on without it" does (counted apart: moves_unwatched). `on_frame`
// (optional) sees each rendered frame and the events, for the command line and for debugging.
TrackingScore evaluate_game(const TableRenderer& renderer, const TableScene& base, int token_count,
                            const std::vector<TableMove>& moves, uint64_t seed,
                            TokenTracker::Settings settings, TableScript::Settings script_settings = {});

// The name the tracker should give each token: T1 for the one nearest the start space's outer corner.
std::vector<std::string> expected_names(const TableRenderer& renderer, int token_count);
// The same for tokens standing at `start` (board units, per token).
std::vector<std::string> expected_names(const TableRenderer& renderer, const std::vector<Point2>& start);

}  // namespace bb::vision
