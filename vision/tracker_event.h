#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace bb::vision {

// What the tracker tells the table. Each is printed by `boardbank track` as one JSON line.
struct TrackerEvent {
  enum class Kind {
    calibrated,    // the board was found (detail: markers or contour)
    recalibrated,  // the board or camera moved; positions kept
    not_found,     // the board is not in view (detail says what to do)
    learned,       // a token was learned at setup, standing on `to`
    moved,         // token moved from `from` to `to` with `confidence`
    unsure,        // token may have moved: the table should ask; `candidates` are the spaces it touches
    hidden,        // token not visible (a hand, knocked off the board); its last space is `from`
    // Fewer (or more) tokens found at the start than the table expects (none at all: `found` 0, said once
    // while it lasts): `found` and `expected`, `detail`
    // names those found and says what to do. The tracker keeps looking until they agree or the table
    // accepts what was found (TokenTracker::accept_found_tokens). Also said, with `token` the awaited
    // name and `to` -1, when a token put down to be learned alone cannot be seen.
    learn_incomplete,
    // A token not seen while the others made `Settings::lost_after_moves` moves; `from` is its last space.
    // Said once; seen again, it is tracked as before.
    lost,
    // Learning one token at a time: the empty board is known and the tracker waits for the next token,
    // which it will call `token`, to be put down alone anywhere on the board.
    ready_for_token,
  };
  Kind kind = Kind::moved;
  std::string token;
  int from = -1;
  int to = -1;
  double confidence = 0;
  std::vector<int> candidates;
  int64_t frame = 0;
  int markers = 0;      // calibrated, recalibrated
  double shift_px = 0;  // recalibrated: how far the board's corners moved in the image
  int found = 0;        // learn_incomplete: tokens found
  int expected = 0;     // learn_incomplete: tokens the table expects
  std::string detail;
};

const char* kind_name(TrackerEvent::Kind kind);

}  // namespace bb::vision
