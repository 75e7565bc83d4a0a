#include "vision/libcamera_controls.h"

#include <gtest/gtest.h>

#include "vision/capture_source.h"

// The Pi camera's exposure and white balance lock, decided without a camera: which properties the pipeline
// gets for what the installed libcamerasrc offers, and what the lock report says.
namespace bb::vision {
namespace {

LibcameraControls::Offered with_controls(bool modes) {
  LibcameraControls::Offered o;
  o.element = true;
  o.ae_enable = !modes;
  o.exposure_time_mode = o.analogue_gain_mode = modes;
  o.exposure_time = o.analogue_gain = o.awb_enable = o.colour_gains = true;
  return o;
}

LibcameraControls::Settled settled() {
  LibcameraControls::Settled s;
  s.exposure_us = 12000;
  s.analogue_gain = 2.5;
  s.red_gain = 1.8;
  s.blue_gain = 1.5;
  return s;
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

TEST(LibcameraLock, SettledValuesAreFixedWithTheControlsTheElementOffers) {
  const auto element = LibcameraControls::source_element(with_controls(false), settled());
  EXPECT_TRUE(element.starts_with("libcamerasrc "));
  EXPECT_TRUE(contains(element, "ae-enable=false exposure-time=12000 analogue-gain=2.500")) << element;
  EXPECT_TRUE(contains(element, "awb-enable=false colour-gains=\"<(float)1.8000, (float)1.5000>\""))
      << element;
  const auto report = LibcameraControls::lock_report(with_controls(false), settled());
  EXPECT_TRUE(contains(report, "white balance locked at red 1.80, blue 1.50")) << report;
  EXPECT_TRUE(contains(report, "exposure locked at 12000 us, gain 2.50")) << report;
  // In the capture pipeline, ahead of the conversion to BGR and the newest-frame sink.
  const auto pipeline = CaptureSource::libcamera_pipeline({}, element);
  EXPECT_TRUE(pipeline.starts_with(element + " ! video/x-raw,width=1280,height=720")) << pipeline;
  EXPECT_TRUE(contains(pipeline, "appsink drop=true max-buffers=1"));
}

TEST(LibcameraLock, NewerLibcameraUsesTheModeControlsInsteadOfAeEnable) {
  const auto element = LibcameraControls::source_element(with_controls(true), settled());
  EXPECT_TRUE(contains(element, "exposure-time-mode=1 analogue-gain-mode=1 exposure-time=12000")) << element;
  EXPECT_FALSE(contains(element, "ae-enable"));
}

TEST(LibcameraLock, AnOldLibcamerasrcLocksNothingAndSaysSo) {
  LibcameraControls::Offered old;
  old.element = true;  // bookworm's libcamera 0.0.3: the element, none of the controls
  EXPECT_FALSE(old.can_lock_exposure());
  EXPECT_FALSE(old.can_lock_white_balance());
  EXPECT_EQ(LibcameraControls::source_element(old, settled()), "libcamerasrc");
  EXPECT_TRUE(contains(LibcameraControls::lock_report(old, std::nullopt), "not lockable")) << "";
}

TEST(LibcameraLock, OnlyWhatIsOfferedIsLocked) {
  LibcameraControls::Offered awb_only;
  awb_only.element = awb_only.awb_enable = awb_only.colour_gains = true;
  const auto element = LibcameraControls::source_element(awb_only, settled());
  EXPECT_TRUE(contains(element, "awb-enable=false"));
  EXPECT_FALSE(contains(element, "exposure"));
  const auto report = LibcameraControls::lock_report(awb_only, settled());
  EXPECT_TRUE(contains(report, "white balance locked")) << report;
  EXPECT_TRUE(contains(report, "exposure not lockable by this libcamerasrc")) << report;
  // A camera that reported no colour gains during the warm-up is not given zero gains.
  auto no_gains = settled();
  no_gains.red_gain = no_gains.blue_gain = 0;
  EXPECT_EQ(LibcameraControls::source_element(awb_only, no_gains), "libcamerasrc");
}

TEST(LibcameraLock, AFailedWarmUpOrAMissingElementLeavesTheCameraAutomatic) {
  EXPECT_EQ(LibcameraControls::source_element(with_controls(false), std::nullopt), "libcamerasrc");
  EXPECT_TRUE(contains(LibcameraControls::lock_report(with_controls(false), std::nullopt, "no frames"),
                       "warm-up failed (no frames)"));
  LibcameraControls::Offered none;
  none.why = "GStreamer has no libcamerasrc element (install gstreamer1.0-libcamera)";
  EXPECT_TRUE(contains(LibcameraControls::lock_report(none, std::nullopt), "install gstreamer1.0-libcamera"));
}

TEST(LibcameraLock, TheProbeAnswersOnAnyMachine) {
  // Without a Pi camera stack (a build machine) the element is missing and the probe says why.
  const auto offered = LibcameraControls::probe();
  if (!offered.element) {
    EXPECT_FALSE(offered.why.empty());
  }
  EXPECT_FALSE(!offered.element && (offered.can_lock_exposure() || offered.can_lock_white_balance()));
}

}  // namespace
}  // namespace bb::vision
