#include "vision/capture_source.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <opencv2/core.hpp>

#include "vision/capture_module.h"
#include "vision/libcamera_controls.h"

namespace bb::vision {

struct CaptureSource::Impl {
  std::unique_ptr<capture_module::VideoInput> capture;  // made by the camera module (boardbank_capture.so)
};

namespace {
using capture_module::Api;
using capture_module::Property;
}  // namespace

CaptureSource::CaptureSource(std::unique_ptr<Impl> impl, Kind kind, std::string name, Options options)
    : impl_(std::move(impl)), kind_(kind), name_(std::move(name)), options_(options) {}

CaptureSource::~CaptureSource() = default;

std::expected<std::unique_ptr<CaptureSource>, std::string> CaptureSource::open_v4l2(const std::string& device,
                                                                                    Options options) {
  const auto module = capture_module_loaded();
  if (!module) return std::unexpected(module.error());
  auto impl = std::make_unique<Impl>();
  const bool numeric =
      !device.empty() && device.size() < 6 && std::all_of(device.begin(), device.end(), ::isdigit);
  impl->capture = numeric ? (*module)->open_device(std::stoi(device), Api::v4l2)
                          : (*module)->open_named(device, Api::v4l2);
  if (!impl->capture)
    return std::unexpected(
        fmt::format("cannot open camera {} through V4L2; check it is plugged in (ls /dev/video*) and that "
                    "the user is in the "
                    "'video' group. A Pi camera module needs SOURCE 'libcamera' instead",
                    device));
  impl->capture->set(Property::mjpeg_stream, 1);
  impl->capture->set(Property::width, options.width);
  impl->capture->set(Property::height, options.height);
  impl->capture->set(Property::fps, options.fps);
  // A driver-side queue would hand us old frames; one buffer keeps the newest.
  impl->capture->set(Property::buffer_size, 1);
  return std::unique_ptr<CaptureSource>(
      new CaptureSource(std::move(impl), Kind::v4l2, "v4l2:" + device, options));
}

std::string CaptureSource::libcamera_pipeline(Options o, const std::string& source_element) {
  return fmt::format(
      "{} ! video/x-raw,width={},height={},framerate={}/1 ! videoconvert ! video/x-raw,format=BGR ! "
      "appsink drop=true max-buffers=1 sync=false",
      source_element, o.width, o.height, o.fps);
}

std::expected<std::unique_ptr<CaptureSource>, std::string> CaptureSource::open_libcamera(Options options) {
  const auto module = capture_module_loaded();
  if (!module) return std::unexpected(module.error());
  // OpenCV cannot change a playing pipeline: the warm-up runs first, on its own, and the capture pipeline
  // starts with the settled exposure and white balance fixed, where this libcamerasrc offers the controls.
  const auto offered = LibcameraControls::probe();
  std::optional<LibcameraControls::Settled> settled;
  std::string settle_error;
  if (offered.can_lock_exposure() || offered.can_lock_white_balance()) {
    auto s =
        LibcameraControls::settle(options.width, options.height, options.fps,
                                  options.warm_up_frames / static_cast<double>(std::max(1, options.fps)));
    if (s)
      settled = *s;
    else
      settle_error = s.error();
  }
  auto impl = std::make_unique<Impl>();
  const auto pipeline = libcamera_pipeline(options, LibcameraControls::source_element(offered, settled));
  impl->capture = (*module)->open_named(pipeline, Api::gstreamer);
  if (!impl->capture)
    return std::unexpected(
        "cannot open the Pi camera through GStreamer's libcamerasrc; install gstreamer1.0-libcamera and "
        "check 'libcamera-hello --list-cameras' sees it");
  std::unique_ptr<CaptureSource> source(
      new CaptureSource(std::move(impl), Kind::gstreamer, "libcamera", options));
  source->report_lock(LibcameraControls::lock_report(offered, settled, settle_error));
  return source;
}

std::expected<std::unique_ptr<CaptureSource>, std::string> CaptureSource::open_pipeline(
    const std::string& pipeline) {
  const auto module = capture_module_loaded();
  if (!module) return std::unexpected(module.error());
  auto impl = std::make_unique<Impl>();
  impl->capture = (*module)->open_named(pipeline, Api::gstreamer);
  if (!impl->capture)
    return std::unexpected("cannot start the GStreamer pipeline '" + pipeline +
                           "'; try it with gst-launch-1.0 first");
  std::unique_ptr<CaptureSource> source(
      new CaptureSource(std::move(impl), Kind::gstreamer, "gst", Options{}));
  source->report_lock(
      "white balance and exposure as the pipeline sets them (a running GStreamer pipeline cannot be changed "
      "through OpenCV; set libcamerasrc's properties in it)");
  return source;
}

std::expected<std::unique_ptr<CaptureSource>, std::string> CaptureSource::open_file(const std::string& path) {
  const auto module = capture_module_loaded();
  if (!module) return std::unexpected(module.error());
  auto impl = std::make_unique<Impl>();
  impl->capture = (*module)->open_named(path, Api::any);
  if (!impl->capture)
    return std::unexpected("cannot read the video " + path + "; check the path and that it is a video file");
  Options options;
  options.warm_up_frames = 0;
  return std::unique_ptr<CaptureSource>(new CaptureSource(std::move(impl), Kind::file, path, options));
}

FrameSource::Grab CaptureSource::grab(cv::Mat& frame) {
  if (!impl_->capture->read(frame) || frame.empty()) {
    if (kind_ == Kind::file) return {Status::end, false, "end of " + name_};
    return {Status::lost, false, "camera " + name_ + " stopped delivering frames"};
  }
  ++frames_;
  if (kind_ == Kind::v4l2 && frames_ == options_.warm_up_frames) {
    // Lock what the driver lets us lock; a camera that refuses still works, with drifting colours.
    const bool wb = impl_->capture->set(Property::auto_white_balance, 0);
    const bool exposure = impl_->capture->set(Property::manual_exposure, 1);
    report_lock(fmt::format("white balance {}, exposure {}", wb ? "locked" : "not lockable by this driver",
                            exposure ? "locked" : "not lockable by this driver"));
  }
  return {Status::frame, false, {}};
}

std::string CaptureSource::describe() const { return name_; }

void CaptureSource::report_lock(std::string report) {
  lock_report_ = std::move(report);
  // Said once per opening, where the owner reads the camera's messages.
  fmt::print(stderr, "camera {}: {}\n", name_, lock_report_);
}

}  // namespace bb::vision
