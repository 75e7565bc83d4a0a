#include "vision/source_opener.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "vision/image_sequence_source.h"
#include "vision/latest_frame_grabber.h"
#include "vision/reconnecting_source.h"

namespace bb::vision {

namespace {
bool numeric(const std::string& s) { return !s.empty() && std::all_of(s.begin(), s.end(), ::isdigit); }
}  // namespace

bool is_live_source(const std::string& spec) {
  return numeric(spec) || spec.starts_with("/dev/video") || spec == "libcamera" || spec.starts_with("gst:");
}

std::expected<std::unique_ptr<FrameSource>, std::string> open_source(const std::string& spec,
                                                                     CaptureSource::Options options) {
  if (is_live_source(spec)) {
    ReconnectingSource::Opener opener =
        [spec, options]() -> std::expected<std::unique_ptr<FrameSource>, std::string> {
      std::expected<std::unique_ptr<CaptureSource>, std::string> camera =
          spec == "libcamera"        ? CaptureSource::open_libcamera(options)
          : spec.starts_with("gst:") ? CaptureSource::open_pipeline(spec.substr(4))
                                     : CaptureSource::open_v4l2(spec, options);
      if (!camera) return std::unexpected(camera.error());
      return std::make_unique<LatestFrameGrabber>(std::move(*camera));
    };
    return std::make_unique<ReconnectingSource>(opener, ReconnectingSource::Backoff{});
  }
  std::error_code ec;
  if (std::filesystem::is_directory(spec, ec)) {
    auto seq = ImageSequenceSource::open(spec);
    if (!seq) return std::unexpected(seq.error());
    return std::unique_ptr<FrameSource>(std::move(*seq));
  }
  if (!std::filesystem::exists(spec, ec))
    return std::unexpected(
        "SOURCE '" + spec +
        "' is neither a camera (0, /dev/video0, libcamera), a folder of images nor a video file");
  auto file = CaptureSource::open_file(spec);
  if (!file) return std::unexpected(file.error());
  return std::unique_ptr<FrameSource>(std::move(*file));
}

}  // namespace bb::vision
