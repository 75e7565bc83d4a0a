// The still-frame average in integers: as the float average it replaced (within a grey level), and a pixel
// that changed for real is taken as it is now.
#include "vision/still_average.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

using bb::vision::StillAverage;

namespace {

// The float average the tracker used before (seven passes over the view, kept here as the reference).
struct FloatAverage {
  cv::Mat mean;
  int frames = 0;
  int limit;
  explicit FloatAverage(int n) : limit(n) {}
  void add(cv::Mat& top) {
    if (frames == 0) {
      top.convertTo(mean, CV_32FC3);
      frames = 1;
      return;
    }
    cv::Mat now, off, changed;
    top.convertTo(now, CV_32FC3);
    cv::absdiff(now, mean, off);
    cv::transform(off, off, cv::Matx13f(1, 1, 1));
    cv::compare(off, 60.0, changed, cv::CMP_GT);
    frames = std::min(frames + 1, limit);
    cv::accumulateWeighted(now, mean, 1.0 / frames);
    now.copyTo(mean, changed);
    mean.convertTo(top, CV_8UC3);
  }
};

const std::array<double, 9> kFit{1, 0, 0, 0, 1, 0, 0, 0, 1};

}  // namespace

TEST(StillAverage, AgreesWithTheFloatAverageWithinAGreyLevel) {
  cv::Mat scene(64, 80, CV_8UC3);
  cv::randu(scene, 0, 256);
  cv::GaussianBlur(scene, scene, cv::Size(5, 5), 0);
  cv::RNG rng(7);
  StillAverage fixed(8);
  FloatAverage reference(8);
  for (int f = 0; f < 14; ++f) {
    cv::Mat noise(scene.size(), CV_16SC3), view;
    rng.fill(noise, cv::RNG::NORMAL, 0, 6);
    scene.convertTo(view, CV_16SC3);
    view += noise;
    if (f == 9) view(cv::Rect(10, 10, 8, 8)) += cv::Scalar(90, 90, 90);  // a hand's shadow gone, say
    view.convertTo(view, CV_8UC3);
    cv::Mat a = view.clone(), b = view.clone();
    fixed.add(a, kFit);
    reference.add(b);
    cv::Mat diff;
    cv::absdiff(a, b, diff);
    double worst = 0;
    cv::minMaxLoc(diff.reshape(1), nullptr, &worst);
    EXPECT_LE(worst, 1.0) << "frame " << f;
    if (f == 9) {
      EXPECT_EQ(cv::norm(a(cv::Rect(10, 10, 8, 8)), view(cv::Rect(10, 10, 8, 8)), cv::NORM_INF), 0);
    }
  }
}

TEST(StillAverage, NoiseShrinksAndANewFitOrAMoveStartsAfresh) {
  const cv::Mat scene(40, 40, CV_8UC3, cv::Scalar(120, 60, 200));
  cv::RNG rng(3);
  StillAverage average(8);
  auto noisy = [&] {
    cv::Mat noise(scene.size(), CV_16SC3), view;
    rng.fill(noise, cv::RNG::NORMAL, 0, 8);
    scene.convertTo(view, CV_16SC3);
    view += noise;
    view.convertTo(view, CV_8UC3);
    return view;
  };
  cv::Mat view;
  for (int f = 0; f < 8; ++f) {
    view = noisy();
    average.add(view, kFit);
  }
  const double averaged = cv::norm(view, scene, cv::NORM_L2) / std::sqrt(double(scene.total() * 3));
  EXPECT_LT(averaged, 4.0);  // 8 over the root of 8 is 2.8

  // A new fit: the views would not line up, the average starts with this one.
  auto moved = kFit;
  moved[2] = 3;
  cv::Mat fresh = noisy(), kept = fresh.clone();
  average.add(fresh, moved);
  EXPECT_EQ(cv::norm(fresh, kept, cv::NORM_INF), 0);
  // The scene moved: the same.
  view = noisy();
  average.add(view, moved);
  average.restart();
  fresh = noisy();
  kept = fresh.clone();
  average.add(fresh, moved);
  EXPECT_EQ(cv::norm(fresh, kept, cv::NORM_INF), 0);
}

TEST(StillAverage, OnlyItsRegionIsAveragedTheSameAsTheWholeView) {
  // The tracker averages only the ring of spaces and a margin (TokenTracker::ring_region): there the mean is
  // the whole view's to the bit; elsewhere each view is left as it came.
  cv::Mat scene(48, 60, CV_8UC3);
  cv::randu(scene, 0, 256);
  cv::Mat region = cv::Mat::zeros(scene.size(), CV_8U);
  region(cv::Rect(0, 0, 60, 10)).setTo(255);  // a band along the top, and a ring's side
  region(cv::Rect(0, 10, 9, 38)).setTo(255);
  cv::RNG rng(11);
  StillAverage whole(8), part(8);
  part.set_region(region);
  for (int f = 0; f < 10; ++f) {
    cv::Mat noise(scene.size(), CV_16SC3), view;
    rng.fill(noise, cv::RNG::NORMAL, 0, 7);
    scene.convertTo(view, CV_16SC3);
    view += noise;
    view.convertTo(view, CV_8UC3);
    cv::Mat a = view.clone(), b = view.clone();
    whole.add(a, kFit);
    part.add(b, kFit);
    cv::Mat inside_a, inside_b, outside_b, outside_view;
    a.copyTo(inside_a, region);
    b.copyTo(inside_b, region);
    EXPECT_EQ(cv::norm(inside_a, inside_b, cv::NORM_INF), 0) << "frame " << f;
    b.copyTo(outside_b, ~region);
    view.copyTo(outside_view, ~region);
    EXPECT_EQ(cv::norm(outside_b, outside_view, cv::NORM_INF), 0) << "frame " << f;
  }
}
