#pragma once

#include <expected>
#include <memory>
#include <string>

#include "vision/frame_source.h"

namespace bb::vision {

// A cv::VideoCapture, made by the camera module (boardbank_capture.so, capture_module.h) loaded on the first
// opening: a missing module is the opening's error, naming the files looked for. A USB webcam through V4L2, a
// Pi camera module through a libcamerasrc GStreamer pipeline (plain V4L2 capture does not work with those on
// bookworm), or a video file. A live camera's automatic white balance and exposure are locked after a warm-up
// where the driver allows it, so that the board's colours stay put while hands come and go (docs/vision.md
// says what is locked on which source).
class CaptureSource : public FrameSource {
 public:
  enum class Kind { v4l2, gstreamer, file };
  struct Options {
    int width = 1280;
    int height = 720;
    int fps = 30;
    int warm_up_frames = 45;  // frames with automatic exposure before it is locked
  };

  static std::expected<std::unique_ptr<CaptureSource>, std::string> open_v4l2(const std::string& device,
                                                                              Options options);
  static std::expected<std::unique_ptr<CaptureSource>, std::string> open_libcamera(Options options);
  static std::expected<std::unique_ptr<CaptureSource>, std::string> open_pipeline(
      const std::string& pipeline);
  static std::expected<std::unique_ptr<CaptureSource>, std::string> open_file(const std::string& path);
  // The GStreamer pipeline used for the Pi camera modules; `source_element` is libcamerasrc with any fixed
  // controls (LibcameraControls::source_element).
  static std::string libcamera_pipeline(Options options, const std::string& source_element = "libcamerasrc");

  ~CaptureSource() override;
  Grab grab(cv::Mat& frame) override;
  std::string describe() const override;
  // What the warm-up lock achieved ("locked", or why not), once it has happened: after the warm-up frames
  // on V4L2, at opening on libcamera (whose warm-up runs before the capture starts). Also printed once.
  const std::string& lock_report() const { return lock_report_; }

 private:
  struct Impl;
  CaptureSource(std::unique_ptr<Impl> impl, Kind kind, std::string name, Options options);
  void report_lock(std::string report);
  std::unique_ptr<Impl> impl_;
  Kind kind_;
  std::string name_;
  Options options_;
  int frames_ = 0;
  std::string lock_report_;
};

}  // namespace bb::vision
