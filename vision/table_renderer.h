#pragma once

#include <array>
#include <memory>
#include <vector>

#include "vision/board_layout.h"
#include "vision/homography.h"
#include "vision/marker_layout.h"
#include "vision/space_map.h"
#include "vision/table_scene.h"

namespace cv {
class Mat;
}

namespace bb::vision {

// The exact truth behind a rendered frame.
struct RenderTruth {
  Homography board_to_image;
  std::array<Point2, 4> board_corners;  // image pixels, in MarkerLayout corner order (GO first)
  std::vector<int> token_spaces;        // per placement in the scene, the space under its centre (-1 none)
};

// Draws a board of any edition with tokens, seen through a camera, for the tests, the benchmarks and the
// demo's virtual camera. The board texture is drawn once; each frame is a projection of it plus tokens,
// hands, light and sensor effects.
class TableRenderer {
 public:
  TableRenderer(const BoardLayout& layout, const SpaceMap& map, std::vector<TokenLook> looks, int width,
                int height, MarkerLayout markers = {});
  ~TableRenderer();
  TableRenderer(const TableRenderer&) = delete;
  TableRenderer& operator=(const TableRenderer&) = delete;

  // Not re-entrant: one renderer per thread.
  void render(const TableScene& scene, cv::Mat& out, RenderTruth* truth = nullptr) const;
  Homography board_to_image(const TableScene& scene) const;
  // The board point a token sits at when placed in `slot` of a space (several tokens share a space).
  Point2 slot_position(int space, int slot, double jitter_along = 0, double jitter_depth = 0) const;
  // A token placed on the boundary between `space` and the next, half on each.
  Point2 straddle_position(int space) const;

  int width() const;
  int height() const;
  const SpaceMap& space_map() const;
  const std::vector<TokenLook>& looks() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace bb::vision
