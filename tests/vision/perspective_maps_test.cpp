// The top view within parts is remapped through maps kept from the frame before (detail::perspective_maps):
// it must be cv::warpPerspective's view to the bit, since every decision reads it.
#include <gtest/gtest.h>

#include <array>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <vector>

#include "vision/space_map.h"
#include "vision/token_locator.h"

namespace {

using bb::vision::Calibration;
using bb::vision::Homography;
using bb::vision::Point2;

// The board (units 0..1) onto a quadrilateral of a 1280x720 frame: seen from above, tilted, rotated and
// partly out of the frame (where the warp replicates the frame's edge).
std::vector<Homography> boards_in_view(cv::RNG& rng) {
  std::vector<std::array<Point2, 4>> quads = {
      {{{340, 60}, {940, 60}, {940, 660}, {340, 660}}},
      {{{300, 90}, {980, 40}, {1050, 700}, {260, 650}}},
      {{{640, 10}, {1000, 360}, {640, 710}, {280, 360}}},
      {{{-80, -40}, {1100, 30}, {1300, 780}, {100, 690}}},
  };
  for (int k = 0; k < 8; ++k) {
    std::array<Point2, 4> q = quads[1];
    for (Point2& p : q) p = {p.x + rng.uniform(-60.0, 60.0), p.y + rng.uniform(-40.0, 40.0)};
    quads.push_back(q);
  }
  std::vector<Homography> fits;
  for (const auto& q : quads) {
    const auto fit = Homography::fit({{0, 0}, {1, 0}, {1, 1}, {0, 1}}, {q.begin(), q.end()});
    EXPECT_TRUE(fit.has_value());
    if (fit) fits.push_back(*fit);
  }
  return fits;
}

TEST(PerspectiveMaps, RemapThroughThemIsWarpPerspectiveToTheBit) {
  cv::RNG rng(31);
  cv::Mat frame(720, 1280, CV_8UC3);
  rng.fill(frame, cv::RNG::UNIFORM, 0, 256);
  const int side = 400;
  const Homography top_to_board({1.0 / side, 0, 0, 0, 1.0 / side, 0, 0, 0, 1});
  // Parts of the top view (x, y, width, height): the whole of it, the tracker's bands, and odd sizes around
  // the warp's blocks of columns.
  const std::vector<std::array<int, 4>> parts = {{0, 0, 400, 400},  {0, 0, 400, 76},    {0, 324, 400, 76},
                                                 {0, 76, 76, 248},  {324, 76, 76, 248}, {5, 7, 1, 1},
                                                 {13, 200, 65, 17}, {100, 3, 129, 33},  {250, 250, 150, 3}};
  for (const Homography& board : boards_in_view(rng)) {
    const cv::Matx33d top_to_image(top_to_board.then(board).matrix().data());
    for (const auto& [x, y, w, h] : parts) {
      const cv::Matx33d from_part = top_to_image * cv::Matx33d(1, 0, x, 0, 1, y, 0, 0, 1);
      cv::Mat warped, remapped, xy, weights;
      cv::warpPerspective(frame, warped, from_part, cv::Size(w, h), cv::INTER_LINEAR | cv::WARP_INVERSE_MAP,
                          cv::BORDER_REPLICATE);
      std::array<double, 9> m;
      std::copy(std::begin(from_part.val), std::end(from_part.val), m.begin());
      bb::vision::detail::perspective_maps(m, w, h, xy, weights);
      cv::remap(frame, remapped, xy, weights, cv::INTER_LINEAR, cv::BORDER_REPLICATE);
      EXPECT_EQ(cv::norm(warped, remapped, cv::NORM_INF), 0) << w << "x" << h << " at " << x << "," << y;
    }
  }
}

// Through the locator: its maps kept from one frame to the next, and made again when the fit or the parts
// change; within the parts the view is the whole view's, outside them it is left as it was.
TEST(PerspectiveMaps, TheLocatorsViewWithinPartsIsTheWholeViewsThere) {
  cv::RNG rng(32);
  const bb::vision::SpaceMap map(9);
  bb::vision::TokenLocator locator(map, {});
  const int side = locator.settings().top_side;
  const std::vector<std::array<int, 4>> bands = {
      {0, 0, side, 60}, {0, side - 60, side, 60}, {0, 60, 60, side - 120}, {side - 60, 60, 60, side - 120}};
  const std::vector<std::array<int, 4>> other = {{10, 20, 200, 100}};
  const auto fits = boards_in_view(rng);
  struct Step {
    size_t fit;
    const std::vector<std::array<int, 4>>* parts;
  };
  for (const Step& step :
       {Step{0, &bands}, Step{0, &bands}, Step{1, &bands}, Step{1, &other}, Step{1, &bands}}) {
    cv::Mat frame(720, 1280, CV_8UC3);
    rng.fill(frame, cv::RNG::UNIFORM, 0, 256);
    Calibration calibration;
    calibration.board_to_image = fits[step.fit];
    cv::Mat whole, within(side, side, CV_8UC3, cv::Scalar(1, 2, 3));
    locator.top_view(frame, calibration, whole);
    locator.top_view(frame, calibration, within, *step.parts);
    cv::Mat covered = cv::Mat::zeros(side, side, CV_8U);
    for (const auto& [x, y, w, h] : *step.parts) {
      const cv::Rect r(x, y, w, h);
      EXPECT_EQ(cv::norm(whole(r), within(r), cv::NORM_INF), 0) << "fit " << step.fit;
      covered(r).setTo(255);
    }
    cv::Mat untouched(side, side, CV_8UC3, cv::Scalar(1, 2, 3));
    EXPECT_EQ(cv::norm(within, untouched, cv::NORM_INF, covered == 0), 0) << "fit " << step.fit;
  }
}

}  // namespace
