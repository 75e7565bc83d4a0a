#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <opencv2/core.hpp>
#include <thread>

#include "vision/image_files.h"
#include "vision/image_sequence_source.h"
#include "vision/latest_frame_grabber.h"
#include "vision/reconnecting_source.h"
#include "vision/source_opener.h"

using namespace bb::vision;

namespace {

// A camera faster than its reader: each frame carries its sequence number in the first pixel.
class CountingCamera : public FrameSource {
 public:
  explicit CountingCamera(int frames) : frames_(frames) {}
  Grab grab(cv::Mat& frame) override {
    if (n_ >= frames_) return {Status::lost, false, "unplugged"};
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    frame = cv::Mat(4, 4, CV_32S, cv::Scalar(n_++));
    return {Status::frame, false, {}};
  }
  std::string describe() const override { return "counting"; }

 private:
  int frames_;
  int n_ = 0;
};

TEST(LatestFrameGrabber, ASlowReaderGetsTheNewestFrameNotAQueue) {
  LatestFrameGrabber grabber(std::make_unique<CountingCamera>(400));
  cv::Mat frame;
  int last = -1, jumps = 0, reads = 0;
  while (true) {
    const auto g = grabber.grab(frame);
    if (g.status != FrameSource::Status::frame) {
      EXPECT_EQ(g.status, FrameSource::Status::lost);
      break;
    }
    const int n = frame.at<int>(0, 0);
    EXPECT_GT(n, last);  // never an old frame, never the same frame twice
    if (n > last + 1) ++jumps;
    last = n;
    ++reads;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_GT(jumps, 0);
  EXPECT_LT(reads, 400);
  EXPECT_GT(grabber.frames_dropped(), 0u);
}

class FlakyOpener {
 public:
  int failures_left;
  int opened = 0;
  std::expected<std::unique_ptr<FrameSource>, std::string> operator()() {
    if (failures_left > 0) {
      --failures_left;
      return std::unexpected("no such device");
    }
    ++opened;
    return std::make_unique<CountingCamera>(3);
  }
};

TEST(ReconnectingSource, LossIsReportedOnceAndRetriesBackOff) {
  FlakyOpener opener{4};
  auto now = std::chrono::steady_clock::time_point{};
  std::vector<std::chrono::milliseconds> sleeps;
  ReconnectingSource source([&] { return opener(); },
                            {std::chrono::milliseconds(100), std::chrono::milliseconds(400)},
                            [&] { return now; },
                            [&](std::chrono::milliseconds d) {
                              sleeps.push_back(d);
                              now += d;
                            });
  cv::Mat frame;
  std::vector<FrameSource::Status> seen;
  bool reopened_flag = false;
  for (int i = 0; i < 40 && opener.opened < 2; ++i) {
    const auto g = source.grab(frame);
    seen.push_back(g.status);
    if (g.reopened) reopened_flag = true;
  }
  EXPECT_EQ(std::count(seen.begin(), seen.end(), FrameSource::Status::lost), 2);  // at start, after unplug
  EXPECT_GE(std::count(seen.begin(), seen.end(), FrameSource::Status::frame), 3);
  EXPECT_TRUE(reopened_flag);
  EXPECT_EQ(opener.opened, 2);
  // The pauses grow, capped at the longest back-off.
  std::chrono::milliseconds total{0};
  for (auto d : sleeps) {
    EXPECT_LE(d, std::chrono::milliseconds(400));
    total += d;
  }
  EXPECT_GE(total, std::chrono::milliseconds(100 + 200 + 400));
}

TEST(ImageSequenceSource, ReadsAFolderInNameOrderThenEnds) {
  const auto dir = std::filesystem::temp_directory_path() / "bb_vision_sequence_test";
  std::filesystem::create_directories(dir);
  for (int i : {2, 0, 1})
    ASSERT_TRUE(write_image((dir / ("frame_" + std::to_string(i) + ".png")).string(),
                            cv::Mat(64, 64, CV_8UC3, cv::Scalar(i * 50))));
  auto source = open_source(dir.string(), {});
  ASSERT_TRUE(source.has_value()) << source.error();
  cv::Mat frame;
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ((*source)->grab(frame).status, FrameSource::Status::frame);
    EXPECT_EQ(frame.at<cv::Vec3b>(0, 0)[0], i * 50);
  }
  EXPECT_EQ((*source)->grab(frame).status, FrameSource::Status::end);
  std::filesystem::remove_all(dir);
}

TEST(SourceOpener, UnknownSourceSaysWhatItAccepts) {
  auto source = open_source("no-such-thing.mkv", {});
  ASSERT_FALSE(source.has_value());
  EXPECT_NE(source.error().find("libcamera"), std::string::npos);
  EXPECT_TRUE(is_live_source("0"));
  EXPECT_TRUE(is_live_source("/dev/video2"));
  EXPECT_TRUE(is_live_source("libcamera"));
  EXPECT_FALSE(is_live_source("game.mp4"));
  EXPECT_NE(CaptureSource::libcamera_pipeline({}).find("libcamerasrc"), std::string::npos);
  EXPECT_NE(CaptureSource::libcamera_pipeline({}).find("drop=true max-buffers=1"), std::string::npos);
}

}  // namespace
