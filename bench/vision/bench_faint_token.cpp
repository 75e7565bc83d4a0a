// How visible a white token is on the pale paper, per generated condition (issue 12): its signal against
// the noise and the false signals, measured in the top view as the tracker makes it. Per condition the
// white token of the white1 row is put down on 12 side spaces, each seen over FRAMES still frames (averaged,
// as the tracker's deciding frames are; 3 if not given) against the empty board taken from one frame. D is
// each pixel's change of brightness over the empty board, the light's level around it (a 33-pixel window)
// divided out, as a share of the paper's brightness. Printed: D's mean over the token's top, over its rim
// and over its shadow; the spread of D over the paper (noise); and a centre-surround score (mean D on the
// token's middle less mean D on a ring around it: a white top and a dark rim both raise it) at the token,
// its mean and least, against the largest score anywhere else on the ring of spaces, where no token stands
// (the false signals: print, light, noise). With SHADOW, a shadow of that strength falls over part of the
// board after the empty board was taken. Usage: bench_faint_token [FRAMES [SHADOW]].
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numbers>
#include <opencv2/imgproc.hpp>
#include <random>

#include "vision/board_layout.h"
#include "vision/table_renderer.h"
#include "vision/table_script.h"
#include "vision/token_locator.h"

using namespace bb::vision;

namespace {

cv::Mat brightness(const cv::Mat& top) {
  cv::Mat f, grey;
  top.convertTo(f, CV_32FC3, 1.0 / 255);
  cv::transform(f, grey, cv::Matx13f(1.0f / 3, 1.0f / 3, 1.0f / 3));
  return grey;
}

// The centre-surround score at every pixel: the mean over a square of side `inner` minus the mean over the
// ring between it and a square of side `outer`.
cv::Mat centre_surround(const cv::Mat& d, int inner, int outer) {
  cv::Mat a, b;
  cv::boxFilter(d, a, CV_32F, cv::Size(inner, inner));
  cv::boxFilter(d, b, CV_32F, cv::Size(outer, outer));
  const double ai = inner * inner, ao = outer * outer;
  cv::Mat ring = (b * ao - a * ai) / (ao - ai);
  return a - ring;
}

}  // namespace

int main(int argc, char** argv) {
  const int frames = argc > 1 ? std::atoi(argv[1]) : 3;
  // A shadow of this strength falls over part of the board after the empty board was taken (a person
  // leaning over, a lamp switched off): a change of light, not of the board.
  const double shadow_after = argc > 2 ? std::atof(argv[2]) : 0.0;
  const BoardLayout layout = classic_layout();
  const SpaceMap map(layout.spaces_per_side);
  const auto hard = hard_token_looks();
  TableRenderer renderer(layout, map, {hard[0], hard[1], hard[4], hard[3]}, 1280, 720);
  TokenLocator locator(map, {});
  const int side = locator.settings().top_side;
  const double r = 0.22 * map.space_width() * side;  // the token's radius in top-view pixels (table_renderer)
  const int inner = std::max(3, static_cast<int>(std::lround(1.0 * r))),
            outer = std::max(inner + 2, static_cast<int>(std::lround(2.6 * r)));
  cv::Mat ring = cv::Mat::zeros(side, side, CV_8U);
  for (int y = 0; y < side; ++y)
    for (int x = 0; x < side; ++x)
      if (map.space_at({(x + 0.5) / side, (y + 0.5) / side}) >= 0) ring.at<uint8_t>(y, x) = 255;
  cv::erode(ring, ring, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(outer, outer)));
  std::printf(
      "white token, %d frames averaged; D = brightness change over the empty board, light divided out\n",
      frames);
  std::printf("%-7s %8s %8s %8s %8s %8s %9s %9s %9s\n", "cond", "top", "rim", "shadow", "noise", "noise_cs",
              "cs_token", "cs_min", "cs_false");
  for (Condition c : all_conditions()) {
    std::mt19937_64 rng(static_cast<uint64_t>(7000 + static_cast<int>(c)));
    TableScene base = scene_for(c, renderer, rng);
    RenderTruth truth;
    cv::Mat image, top;
    renderer.render(base, image, &truth);
    Calibration cal;
    cal.board_to_image = truth.board_to_image;
    cal.image_to_board = *truth.board_to_image.inverse();
    locator.top_view(image, cal, top);
    const cv::Mat empty = brightness(top);
    const double paper = cv::mean(empty, ring)[0];
    double sum_top = 0, sum_rim = 0, sum_shadow = 0, noise = 0, noise_cs = 0, cs_token = 0, cs_false = 0;
    double cs_min = 1e9;
    int n = 0;
    for (int space = 1; space < map.space_count(); space += 3, ++n) {
      TableScene scene = base;
      if (shadow_after > 0) {
        scene.light.shadow_strength = shadow_after;
        scene.light.shadow_offset = 0.3 * std::sin(n);
        scene.light.shadow_angle_deg = 30.0 * n;
      }
      const Point2 at = renderer.slot_position(space, n % 4);
      const double turn = 37.0 * n;
      scene.tokens.push_back({2, at, turn});
      cv::Mat mean = cv::Mat::zeros(side, side, CV_32F);
      for (int f = 0; f < frames; ++f) {
        scene.noise_seed = 1000 + 10 * static_cast<uint64_t>(n) + static_cast<uint64_t>(f);
        renderer.render(scene, image);
        locator.top_view(image, cal, top);
        mean += brightness(top) / frames;
      }
      // The light's level around each pixel (local sums' ratio), and the change as a share of the paper's
      // brightness, not the pixel's own: on dark print a few grey levels of noise are a large ratio.
      cv::Mat now_around, then_around;
      cv::blur(mean, now_around, cv::Size(33, 33));
      cv::blur(empty, then_around, cv::Size(33, 33));
      const cv::Mat light = now_around / then_around;
      const cv::Mat d = (mean - empty.mul(light)) / (paper * light);
      // The token's parts in the top view, drawn as the renderer draws them (a diamond, its rim, its shadow).
      auto diamond = [&](double radius, double dx, double dy) {
        std::vector<cv::Point> p;
        for (int i = 0; i < 4; ++i) {
          const double a = i * std::numbers::pi / 2 + turn * std::numbers::pi / 180, f = i % 2 ? 0.7 : 1.0;
          p.emplace_back(static_cast<int>(std::lround((at.x * side + dx + radius * f * std::cos(a)) * 16)),
                         static_cast<int>(std::lround((at.y * side + dy + radius * f * std::sin(a)) * 16)));
        }
        cv::Mat m = cv::Mat::zeros(side, side, CV_8U);
        cv::fillConvexPoly(m, p, cv::Scalar(255), cv::LINE_8, 4);
        return m;
      };
      const cv::Mat whole = diamond(r, 0, 0), top_part = diamond(0.86 * r, 0, 0),
                    shadow = diamond(r, 0.15 * r, 0.25 * r) & ~whole, rim = whole & ~top_part;
      sum_top += cv::mean(d, top_part)[0];
      sum_rim += cv::mean(d, rim)[0];
      sum_shadow += cv::mean(d, shadow)[0];
      cv::Mat far;
      cv::dilate(whole, far, cv::getStructuringElement(cv::MORPH_RECT, cv::Size(2 * outer, 2 * outer)));
      far = ring & ~far;
      cv::Scalar m, sd;
      cv::meanStdDev(d, m, sd, far);
      noise += sd[0];
      const cv::Mat cs = centre_surround(d, inner, outer);
      cv::meanStdDev(cs, m, sd, far);
      noise_cs += sd[0];
      double lo, hi;
      cv::minMaxLoc(cs, &lo, &hi, nullptr, nullptr, far);
      cs_false = std::max(cs_false, hi);
      const int cx = static_cast<int>(at.x * side), cy = static_cast<int>(at.y * side);
      double best = -1e9;
      for (int y = cy - 2; y <= cy + 2; ++y)
        for (int x = cx - 2; x <= cx + 2; ++x) best = std::max(best, static_cast<double>(cs.at<float>(y, x)));
      cs_token += best;
      cs_min = std::min(cs_min, best);
    }
    std::printf("%-7s %8.3f %8.3f %8.3f %8.4f %8.4f %9.4f %9.4f %9.4f\n", condition_name(c), sum_top / n,
                sum_rim / n, sum_shadow / n, noise / n, noise_cs / n, cs_token / n, cs_min, cs_false);
  }
  return 0;
}
