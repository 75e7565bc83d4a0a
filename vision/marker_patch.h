#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "vision/marker_layout.h"

namespace cv {
class Mat;
}

namespace bb::vision {

// A corner marker and its white margin as the empty board shows them in the top view, rebuilt from the
// marker's known pattern and place: what a token standing on the marker hides when the tokens are learned.
// The light's white and black levels and the view's softness are measured from the parts that are seen.
// A plain value; built and read by TokenLocator on its own thread.
struct MarkerPatch {
  int x = 0, y = 0, width = 0, height = 0;  // the box in top-view pixels: the marker and its margin
  std::vector<uint8_t> bgr;                 // the rebuilt empty look, three bytes per pixel, row-major
  std::array<uint8_t, 3> white{};           // the margin's white under this light (BGR)

  bool contains(int px, int py) const { return px >= x && py >= y && px < x + width && py < y + height; }
  std::array<uint8_t, 3> at(int px, int py) const {
    const size_t k =
        3 * (static_cast<size_t>(py - y) * static_cast<size_t>(width) + static_cast<size_t>(px - x));
    return {bgr[k], bgr[k + 1], bgr[k + 2]};
  }
};

// `top` is a CV_8UC3 square top view of the board (0..1 board units across); `paper` (BGR) the board's
// unprinted colour in it, which tells the margin's white from a coloured token standing on it. Empty when
// the marker's box falls outside the top view.
std::optional<MarkerPatch> rebuild_marker_patch(const cv::Mat& top, int marker_id, const MarkerLayout& layout,
                                                std::array<uint8_t, 3> paper);

}  // namespace bb::vision
