// The service's camera thread on a configured video file: opened through the camera module
// (boardbank_capture.so, loaded with dlopen from this build tree), as a family's recorded game would be.
#include <gtest/gtest.h>

#include <chrono>
#include <limits>
#include <opencv2/core.hpp>

#include "daemon/service.h"
#include "daemon/virtual_table.h"
#include "service_test_support.h"
#include "vision/video_file_writer.h"

namespace bb::daemon {
namespace {

using namespace std::chrono_literals;
using service_test::TempFolder;
using service_test::test_config;
using service_test::wake_limit;

// Stops the service once the Devices list says the camera is gone: at the end of the file, or at once when
// it could not be opened (the status then says why); after 20 s at the latest. The "ok" the camera thread
// hands over at opening may be followed by the file's end before this wakes, so it is not waited for.
struct CameraWatcher final : Participant {
  std::string name() const override { return "camera watcher"; }
  Wake wake() const override { return Wake{-1, 5ms}; }
  void on_wake(ParticipantContext& c) override {
    for (const auto& device : c.table().view().devices)
      if (device.name == "Camera") seen = device;
    if (seen && seen->state == display::DeviceStatus::State::missing) return c.stop(0);
    if (++wakes > wake_limit(4000)) c.stop(1);
  }
  std::optional<display::DeviceStatus> seen;
  int wakes = 0;
};

TEST(ServiceCamera, AConfiguredVideoFileIsReadThroughTheCameraModule) {
  TempFolder dir;
  const auto video = dir.file("table.avi");
  {
    VirtualCamera::Settings settings;
    settings.players = 2;
    settings.hands = false;
    settings.speed = 1000;  // no pacing: the frames are written as fast as they are drawn
    settings.max_frames_per_second = std::numeric_limits<double>::infinity();
    settings.width = 640;
    settings.height = 360;
    VirtualCamera camera(settings);
    auto writer = vision::VideoFileWriter::open(video, 10, settings.width, settings.height);
    ASSERT_TRUE(writer) << writer.error();
    cv::Mat frame;
    for (int i = 0; i < 20; ++i) {
      ASSERT_EQ(camera.grab(frame).status, vision::FrameSource::Status::frame);
      writer->write(frame);
    }
  }
  ServiceSetup setup;
  setup.config = test_config(dir);
  setup.config.camera.source = video;
  setup.headless = true;
  setup.devices_from_config = false;
  std::vector<std::string> lines;
  setup.log = [&lines](const std::string& line) { lines.push_back(line); };
  auto watcher = std::make_unique<CameraWatcher>();
  CameraWatcher* seen = watcher.get();
  setup.participants.push_back(std::move(watcher));
  auto service = Service::create(std::move(setup));
  ASSERT_TRUE(service.has_value()) << service.error();
  EXPECT_EQ((*service)->run(), 0) << ::testing::PrintToString(lines);
  ASSERT_TRUE(seen->seen.has_value());
  // Opened through the module and read to its last frame (an opening that failed would say why here).
  EXPECT_EQ(seen->seen->detail, "the camera's source has no more frames");
}

}  // namespace
}  // namespace bb::daemon
