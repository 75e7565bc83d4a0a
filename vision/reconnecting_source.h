#pragma once

#include <chrono>
#include <expected>
#include <functional>
#include <memory>
#include <string>

#include "vision/frame_source.h"

namespace bb::vision {

// A camera that may disappear (a loose USB cable, a crashed driver): the loss is reported once, then the
// camera is reopened with growing pauses until it is back. Meanwhile the daemon offers manual entry.
class ReconnectingSource : public FrameSource {
 public:
  using Opener = std::function<std::expected<std::unique_ptr<FrameSource>, std::string>()>;
  using Clock = std::function<std::chrono::steady_clock::time_point()>;
  using Sleep = std::function<void(std::chrono::milliseconds)>;
  struct Backoff {
    std::chrono::milliseconds first{250};
    std::chrono::milliseconds longest{5000};
  };

  ReconnectingSource(Opener opener, Backoff backoff);
  ReconnectingSource(Opener opener, Backoff backoff, Clock clock, Sleep sleep);  // tests drive time

  Grab grab(cv::Mat& frame) override;
  std::string describe() const override;
  int reopen_attempts() const { return attempts_; }

 private:
  Opener opener_;
  Backoff backoff_;
  Clock clock_;
  Sleep sleep_;
  std::unique_ptr<FrameSource> source_;
  std::chrono::milliseconds wait_;
  std::chrono::steady_clock::time_point next_try_{};
  bool lost_ = false;
  int attempts_ = 0;
  std::string last_error_;
};

}  // namespace bb::vision
