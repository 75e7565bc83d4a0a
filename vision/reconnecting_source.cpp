#include "vision/reconnecting_source.h"

#include <algorithm>
#include <thread>

namespace bb::vision {

ReconnectingSource::ReconnectingSource(Opener opener, Backoff backoff)
    : ReconnectingSource(
          std::move(opener), backoff, [] { return std::chrono::steady_clock::now(); },
          [](std::chrono::milliseconds d) { std::this_thread::sleep_for(d); }) {}

ReconnectingSource::ReconnectingSource(Opener opener, Backoff backoff, Clock clock, Sleep sleep)
    : opener_(std::move(opener)),
      backoff_(backoff),
      clock_(std::move(clock)),
      sleep_(std::move(sleep)),
      wait_(backoff.first) {}

FrameSource::Grab ReconnectingSource::grab(cv::Mat& frame) {
  if (!source_) {
    const auto now = clock_();
    if (now < next_try_) {
      // Wait in short steps so the caller stays responsive.
      sleep_(std::min(std::chrono::duration_cast<std::chrono::milliseconds>(next_try_ - now),
                      std::chrono::milliseconds(200)));
      if (clock_() < next_try_) return {Status::waiting, false, last_error_};
    }
    ++attempts_;
    auto opened = opener_();
    if (!opened) {
      last_error_ = opened.error();
      next_try_ = clock_() + wait_;
      wait_ = std::min(wait_ * 2, backoff_.longest);
      if (!lost_) {
        lost_ = true;
        return {Status::lost, false, last_error_};
      }
      return {Status::waiting, false, last_error_};
    }
    source_ = std::move(*opened);
    wait_ = backoff_.first;
  }
  Grab g = source_->grab(frame);
  if (g.status == Status::frame) {
    g.reopened = lost_;
    lost_ = false;
    return g;
  }
  if (g.status == Status::end || g.status == Status::skipped) return g;
  // Lost: drop the device and report once; the next grab starts reopening after a pause.
  source_.reset();
  last_error_ = g.message;
  next_try_ = clock_() + wait_;
  if (lost_) return {Status::waiting, false, g.message};
  lost_ = true;
  return {Status::lost, false, g.message};
}

std::string ReconnectingSource::describe() const {
  return source_ ? source_->describe() : "camera (reconnecting)";
}

}  // namespace bb::vision
