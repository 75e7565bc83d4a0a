#pragma once

#include <expected>
#include <memory>
#include <string>

#include "vision/capture_source.h"
#include "vision/frame_source.h"

namespace bb::vision {

// Opens what `boardbank track SOURCE` names: a number or /dev/videoN (USB webcam, V4L2), "libcamera" (a Pi
// camera module), "gst:PIPELINE", a folder of images, or a video file. Live cameras come wrapped so that
// only the newest frame is read and a lost camera is reopened.
std::expected<std::unique_ptr<FrameSource>, std::string> open_source(const std::string& spec,
                                                                     CaptureSource::Options options);
bool is_live_source(const std::string& spec);

}  // namespace bb::vision
