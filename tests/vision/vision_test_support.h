#pragma once
// Shared set-up for the vision tests: a classic board rendered at a small size, fixed seeds.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <opencv2/core.hpp>
#include <random>

#include "vision/board_calibrator.h"
#include "vision/board_layout.h"
#include "vision/space_map.h"
#include "vision/table_renderer.h"
#include "vision/table_script.h"
#include "vision/token_tracker.h"
#include "vision/tracking_evaluator.h"

namespace bb::vision::testing {

constexpr int test_width = 960, test_height = 540;

inline const TableRenderer& renderer(int tokens = 4) {
  // One renderer per token count, built once: drawing the board texture is the slow part.
  static std::vector<std::unique_ptr<TableRenderer>> cache(9);
  auto& r = cache[static_cast<size_t>(tokens)];
  if (!r) {
    cv::setNumThreads(1);
    const BoardLayout layout = classic_layout();
    r = std::make_unique<TableRenderer>(layout, SpaceMap(layout.spaces_per_side), default_token_looks(tokens),
                                        test_width, test_height);
  }
  return *r;
}

// The largest distance between a calibration's board corners and the renderer's true ones, in pixels.
inline double corner_error(const Calibration& c, const RenderTruth& truth) {
  double worst = 0;
  for (int k = 0; k < 4; ++k) {
    const Point2 p = c.image_corner(k), q = truth.board_corners[static_cast<size_t>(k)];
    worst = std::max(worst, std::hypot(p.x - q.x, p.y - q.y));
  }
  return worst;
}

inline TableScene scene(Condition c, uint64_t seed) {
  std::mt19937_64 rng(seed);
  return scene_for(c, renderer(), rng);
}

// Feeds frames to a tracker and collects its events, checking its invariant after every frame.
struct Feeder {
  Feeder(const TableRenderer& renderer_used, TokenTracker& fed) : r(renderer_used), tracker(fed) {}
  const TableRenderer& r;
  TokenTracker& tracker;
  int64_t frame = 0;
  cv::Mat image;
  std::vector<TrackerEvent> run(const std::vector<TableScript::Frame>& frames) {
    std::vector<TrackerEvent> all;
    for (const auto& f : frames) {
      r.render(f.scene, image);
      auto e = tracker.process(image, frame++);
      EXPECT_EQ(tracker.invariant_problem(), "");
      all.insert(all.end(), e.begin(), e.end());
    }
    return all;
  }
};

inline int count(const std::vector<TrackerEvent>& events, TrackerEvent::Kind kind) {
  return static_cast<int>(
      std::count_if(events.begin(), events.end(), [&](const auto& e) { return e.kind == kind; }));
}

// The tracker's index of the token the script calls `script_token`.
inline int tracker_index(const TokenTracker& tracker, const TableRenderer& r, int script_token) {
  const auto names = expected_names(r, static_cast<int>(tracker.tokens().size()));
  for (size_t k = 0; k < tracker.tokens().size(); ++k)
    if (tracker.tokens()[k].name == names[static_cast<size_t>(script_token)]) return static_cast<int>(k);
  return -1;
}

}  // namespace bb::vision::testing
