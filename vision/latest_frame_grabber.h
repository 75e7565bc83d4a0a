#pragma once

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>

#include "vision/frame_source.h"

namespace bb::vision {

// Reads a live camera on its own thread and keeps only the newest frame, so a slow consumer always gets
// the present, never a queue of old frames.
class LatestFrameGrabber : public FrameSource {
 public:
  explicit LatestFrameGrabber(std::unique_ptr<FrameSource> camera, int timeout_ms = 3000);
  ~LatestFrameGrabber() override;
  LatestFrameGrabber(const LatestFrameGrabber&) = delete;
  LatestFrameGrabber& operator=(const LatestFrameGrabber&) = delete;

  // Waits for a frame newer than the last one handed out.
  Grab grab(cv::Mat& frame) override;
  std::string describe() const override;
  uint64_t frames_read() const;     // by the thread
  uint64_t frames_dropped() const;  // read but never handed out

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace bb::vision
