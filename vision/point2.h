#pragma once

namespace bb::vision {

// A point in pixels (image or top view) or in board units (the board's side is 1.0).
struct Point2 {
  double x = 0.0;
  double y = 0.0;
};

}  // namespace bb::vision
