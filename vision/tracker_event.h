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
  std::string detail;
};

const char* kind_name(TrackerEvent::Kind kind);

}  // namespace bb::vision
