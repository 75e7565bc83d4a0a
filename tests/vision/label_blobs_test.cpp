// The locator's blobs: detail::label_blobs stands in for cv::connectedComponentsWithStats and must give the
// same labels and stats to the bit (the faint search and the neutral tokens' brightness read the boxes and
// areas; every decision reads the labels).
#include <gtest/gtest.h>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "vision/token_locator.h"

namespace {

// Blobs of every shape the locator's mask holds: discs and bars that touch or not, speckle, blobs at the
// view's edges and corners, a blob touching all four edges, and masks with no foreground.
cv::Mat random_mask(cv::RNG& rng, int rows, int cols, int shapes, int speckle) {
  cv::Mat mask = cv::Mat::zeros(rows, cols, CV_8U);
  for (int k = 0; k < shapes; ++k) {
    const cv::Point at(rng.uniform(-10, cols + 10), rng.uniform(-10, rows + 10));
    if (rng.uniform(0, 2) == 0)
      cv::circle(mask, at, rng.uniform(1, 25), cv::Scalar(255), cv::FILLED);
    else
      cv::rectangle(mask, at, at + cv::Point(rng.uniform(1, 60), rng.uniform(1, 8)), cv::Scalar(255),
                    cv::FILLED);
  }
  for (int k = 0; k < speckle; ++k) mask.at<uint8_t>(rng.uniform(0, rows), rng.uniform(0, cols)) = 255;
  return mask;
}

void expect_as_opencv(const cv::Mat& mask, const char* what) {
  cv::Mat labels, stats, centroids;
  const int count = cv::connectedComponentsWithStats(mask, labels, stats, centroids, 8, CV_32S);
  cv::Mat my_labels, my_stats;
  ASSERT_EQ(bb::vision::detail::label_blobs(mask, my_labels, my_stats), count) << what;
  ASSERT_EQ(my_labels.type(), CV_32S) << what;
  ASSERT_EQ(my_stats.type(), CV_32S) << what;
  ASSERT_EQ(my_stats.size(), stats.size()) << what;
  EXPECT_EQ(cv::norm(my_labels, labels, cv::NORM_INF), 0) << what;
  EXPECT_EQ(cv::norm(my_stats, stats, cv::NORM_INF), 0) << what;
}

TEST(LabelBlobs, IsConnectedComponentsWithStatsToTheBit) {
  cv::RNG rng(21);
  const int threads = cv::getNumThreads();
  for (const int use_threads : {1, 4}) {  // OpenCV labels in parallel stripes where it has the workers
    cv::setNumThreads(use_threads);
    for (int round = 0; round < 40; ++round) {
      const int rows = round % 3 == 0 ? 400 : rng.uniform(1, 120),
                cols = round % 3 == 0 ? 400 : rng.uniform(1, 120);
      expect_as_opencv(random_mask(rng, rows, cols, rng.uniform(0, 40), rng.uniform(0, 300)), "random");
    }
    expect_as_opencv(cv::Mat::zeros(400, 400, CV_8U), "empty");
    cv::Mat frame = cv::Mat::zeros(400, 400, CV_8U);
    cv::rectangle(frame, cv::Rect(0, 0, 400, 400), cv::Scalar(255), 3);  // touches every edge
    expect_as_opencv(frame, "frame");
    cv::Mat mostly(50, 70, CV_8U, cv::Scalar(255));
    expect_as_opencv(mostly, "no background");
    mostly.at<uint8_t>(20, 30) = 0;
    expect_as_opencv(mostly, "one background pixel");
  }
  cv::setNumThreads(threads);
}

}  // namespace
