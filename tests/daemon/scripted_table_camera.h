// A rendered table camera the service tests script: the test queues what a family's hands do (a script of
// frames from vision::TableScript), the camera thread grabs one frame at a time at a camera's pace and, once
// the queue is empty, keeps seeing the last one. Test code only: the test's thread scripts and asks
// caught_up(), the service's camera thread grabs (through shared_camera, which the service may own); one lock
// between them.
#pragma once

#include <chrono>
#include <deque>
#include <expected>
#include <functional>
#include <memory>
#include <mutex>
#include <opencv2/core.hpp>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "vision/board_layout.h"
#include "vision/frame_source.h"
#include "vision/space_map.h"
#include "vision/table_renderer.h"
#include "vision/table_script.h"

namespace bb::daemon::service_test {

class ScriptedTableCamera : public vision::FrameSource {
 public:
  // Where each token stands when the camera starts (board units), given the renderer for the board's places;
  // none: apart on GO, clear of the marker.
  using StartPositions = std::function<std::vector<vision::Point2>(const vision::TableRenderer&)>;

  // The classic board at 960x540 in clean light with these tokens; the script's opening frames are queued.
  ScriptedTableCamera(std::vector<vision::TokenLook> looks, std::string description,
                      const StartPositions& start_positions = {})
      : renderer_(vision::classic_layout(), vision::SpaceMap(vision::classic_layout().spaces_per_side),
                  std::move(looks), 960, 540),
        description_(std::move(description)) {
    vision::TableScript::Settings settings;
    if (start_positions) settings.start_positions = start_positions(renderer_);
    std::mt19937_64 rng(kSeed);
    script_ = std::make_unique<vision::TableScript>(
        renderer_, vision::scene_for(vision::Condition::clean, renderer_, rng),
        static_cast<int>(renderer_.looks().size()), kSeed, settings);
    queue(script_->opening());
  }

  // Every frame scripted so far has been shown.
  bool caught_up() {
    std::lock_guard lock(mutex_);
    return pending_.empty();
  }

  Grab grab(cv::Mat& frame) override {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));  // a camera's pace, shortened
    vision::TableScene scene;
    {
      std::lock_guard lock(mutex_);
      if (!pending_.empty()) {
        last_ = std::move(pending_.front());
        pending_.pop_front();
      }
      scene = last_;
    }
    renderer_.render(scene, frame);
    return {};
  }
  std::string describe() const override { return description_; }

 protected:
  // What a script may use while the camera's lock is held: the script itself, the renderer (for places on
  // the board) and the next move's number.
  struct Scripting {
    vision::TableScript& script;
    const vision::TableRenderer& renderer;
    int& moves;
  };
  // Runs `write` under the camera's lock and queues the frames it returns: what one call scripts is shown
  // whole, with no frame of another script between (two hands' work seen as one moment).
  template <class Write>
  void script(Write&& write) {
    std::lock_guard lock(mutex_);
    queue(std::forward<Write>(write)(Scripting{*script_, renderer_, moves_}));
  }

  const vision::TableRenderer& renderer() const { return renderer_; }

 private:
  static constexpr std::uint64_t kSeed = 11;
  void queue(std::vector<vision::TableScript::Frame> frames) {
    for (auto& f : frames) pending_.push_back(std::move(f.scene));
  }

  vision::TableRenderer renderer_;
  std::string description_;
  std::unique_ptr<vision::TableScript> script_;
  std::mutex mutex_;
  std::deque<vision::TableScene> pending_;
  vision::TableScene last_;
  int moves_ = 0;
};

// The camera as a FrameSource the service may own (it owns what its factory returns), over a camera the test
// keeps to script.
template <class Camera>
std::function<std::expected<std::unique_ptr<vision::FrameSource>, std::string>()> shared_camera(
    std::shared_ptr<Camera> camera) {
  return [camera]() -> std::expected<std::unique_ptr<vision::FrameSource>, std::string> {
    struct Shared final : vision::FrameSource {
      std::shared_ptr<Camera> c;
      Grab grab(cv::Mat& frame) override { return c->grab(frame); }
      std::string describe() const override { return c->describe(); }
    };
    auto s = std::make_unique<Shared>();
    s->c = camera;
    return s;
  };
}

}  // namespace bb::daemon::service_test
