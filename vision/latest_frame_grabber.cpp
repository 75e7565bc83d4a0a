#include "vision/latest_frame_grabber.h"

#include <chrono>
#include <opencv2/core.hpp>

namespace bb::vision {

struct LatestFrameGrabber::Impl {
  std::unique_ptr<FrameSource> camera;
  int timeout_ms;
  mutable std::mutex mutex;
  std::condition_variable changed;
  cv::Mat latest;
  uint64_t sequence = 0, delivered = 0, dropped = 0;
  bool stop = false;
  Grab failure;  // set when the camera stops; the thread then ends
  bool failed = false;
  std::thread thread;

  void run() {
    cv::Mat frame;
    while (true) {
      const Grab g = camera->grab(frame);
      std::lock_guard lock(mutex);
      if (stop) return;
      if (g.status != Status::frame) {
        failure = g;
        failed = true;
        changed.notify_all();
        return;
      }
      if (sequence > delivered) ++dropped;
      std::swap(latest, frame);
      ++sequence;
      changed.notify_all();
    }
  }
};

LatestFrameGrabber::LatestFrameGrabber(std::unique_ptr<FrameSource> camera, int timeout_ms)
    : impl_(std::make_unique<Impl>()) {
  impl_->camera = std::move(camera);
  impl_->timeout_ms = timeout_ms;
  impl_->thread = std::thread([this] { impl_->run(); });
}

LatestFrameGrabber::~LatestFrameGrabber() {
  {
    std::lock_guard lock(impl_->mutex);
    impl_->stop = true;
  }
  // The camera's read returns within a frame interval, or fails once the device is gone.
  if (impl_->thread.joinable()) impl_->thread.join();
}

FrameSource::Grab LatestFrameGrabber::grab(cv::Mat& frame) {
  std::unique_lock lock(impl_->mutex);
  const bool ready = impl_->changed.wait_for(lock, std::chrono::milliseconds(impl_->timeout_ms), [&] {
    return impl_->sequence > impl_->delivered || impl_->failed;
  });
  if (impl_->sequence > impl_->delivered) {
    impl_->latest.copyTo(frame);
    impl_->delivered = impl_->sequence;
    return {Status::frame, false, {}};
  }
  if (impl_->failed) return impl_->failure;
  (void)ready;
  return {Status::lost, false,
          "no frame from " + impl_->camera->describe() + " for " + std::to_string(impl_->timeout_ms) + " ms"};
}

std::string LatestFrameGrabber::describe() const { return impl_->camera->describe(); }

uint64_t LatestFrameGrabber::frames_read() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->sequence;
}

uint64_t LatestFrameGrabber::frames_dropped() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->dropped;
}

}  // namespace bb::vision
