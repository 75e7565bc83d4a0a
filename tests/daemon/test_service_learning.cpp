// One-at-a-time token learning through the service: rendered frames of an emptied board go through the real
// tracker on the camera thread; the table asks each player for their token by name, the family puts it down
// alone anywhere, and the service hands each ask to the tracker.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <opencv2/core.hpp>

#include "daemon/service.h"
#include "service_test_support.h"
#include "table/table.h"
#include "vision/board_layout.h"
#include "vision/frame_source.h"
#include "vision/space_map.h"
#include "vision/table_renderer.h"
#include "vision/table_script.h"

namespace bb::daemon {
namespace {

using namespace std::chrono_literals;
using service_test::start_two_player_game;
using service_test::TempFolder;
using service_test::test_config;

// A table camera whose tokens stand beside the board until the family puts each down by hand.
class PuttingDownCamera final : public vision::FrameSource {
 public:
  explicit PuttingDownCamera(int tokens)
      : renderer_(vision::classic_layout(), vision::SpaceMap(vision::classic_layout().spaces_per_side),
                  vision::default_token_looks(tokens), 960, 540) {
    std::mt19937_64 rng(11);
    vision::TableScript::Settings settings;
    for (int t = 0; t < tokens; ++t) settings.start_positions.push_back({1.25, 0.2 + 0.15 * t});
    script_ = std::make_unique<vision::TableScript>(
        renderer_, vision::scene_for(vision::Condition::clean, renderer_, rng), tokens, 11, settings);
    for (auto& f : script_->opening()) pending_.push_back(std::move(f.scene));
  }
  // The family puts `token` down alone on `space` (a hand carries it in).
  void put_down(int token, int space) {
    std::lock_guard lock(mutex_);
    for (auto& f : script_->place(token, renderer_.slot_position(space, 1), ++moves_))
      pending_.push_back(std::move(f.scene));
  }
  Grab grab(cv::Mat& frame) override {
    std::this_thread::sleep_for(5ms);  // a camera's pace, shortened
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
  std::string describe() const override { return "a table whose tokens are put down one at a time"; }

 private:
  vision::TableRenderer renderer_;
  std::unique_ptr<vision::TableScript> script_;
  std::mutex mutex_;
  std::deque<vision::TableScene> pending_;
  vision::TableScene last_;
  int moves_ = 0;
};

// The family: starts a two-player game, chooses one at a time on the learning screen, and puts each token
// down when the screen asks for it by name (or leaves one to the dice).
// What the family saw, kept past the service (which owns the family).
struct Seen {
  std::vector<std::string> prompts;  // the questions' titles, in order
  bool done = false;                 // the learning ended and play waits for the dice
};

struct Family final : Participant {
  std::shared_ptr<PuttingDownCamera> camera;
  std::shared_ptr<Seen> seen = std::make_shared<Seen>();
  bool skip_second = false;
  bool started = false, chose = false;
  std::vector<bool> put;
  int wakes = 0;
  std::string name() const override { return "family"; }
  Wake wake() const override { return Wake{-1, 5ms}; }
  void on_wake(ParticipantContext& c) override {
    const auto& view = c.table().view();
    if (++wakes > 6000) return c.stop(1);  // 30 s: the test failed; do not hang
    if (start_two_player_game(c, started)) return;
    if (!view.game) return;
    const auto& q = view.question;
    if (view.awaiting.kind != table::Awaiting::Kind::learn_tokens) {
      if (chose) {
        seen->done = true;
        c.stop(0);
      }
      return;
    }
    if (!q || q->kind != display::TableQuestion::Kind::learn_tokens) return;
    if (!chose) {
      c.touch(display::AnswerQuestion{q->id, "one_by_one", ""});
      chose = true;
      return;
    }
    auto& prompts = seen->prompts;
    if (prompts.empty() || prompts.back() != q->title) {
      prompts.push_back(q->title);
      // To look at the prompts as a family sees them: BOARDBANK_TEST_SCREENSHOTS=<folder>.
      if (const char* folder = std::getenv("BOARDBANK_TEST_SCREENSHOTS"))
        (void)c.save_screen(fmt::format("{}/learn-one-at-a-time-{}.png", folder, prompts.size()));
    }
    put.resize(2, false);
    for (int p = 0; p < 2; ++p) {
      const std::string who = p == 0 ? "Ann: put the car" : "Bob: put the dog";
      if (q->title.rfind(who, 0) != 0 || put[static_cast<std::size_t>(p)]) continue;
      put[static_cast<std::size_t>(p)] = true;
      if (p == 1 && skip_second)
        c.touch(display::AnswerQuestion{q->id, "skip_token", ""});
      else
        camera->put_down(p, p == 0 ? 12 : 25);
    }
  }
};

Seen run_learning(bool skip_second, std::vector<std::string>& lines, int& exit_code) {
  TempFolder dir;
  ServiceSetup setup;
  setup.config = test_config(dir);
  setup.headless = true;
  setup.devices_from_config = false;
  setup.log = [&lines](const std::string& line) { lines.push_back(line); };
  auto camera = std::make_shared<PuttingDownCamera>(2);
  setup.frame_source = [camera]() -> std::expected<std::unique_ptr<vision::FrameSource>, std::string> {
    struct Shared final : vision::FrameSource {
      std::shared_ptr<PuttingDownCamera> c;
      Grab grab(cv::Mat& frame) override { return c->grab(frame); }
      std::string describe() const override { return c->describe(); }
    };
    auto s = std::make_unique<Shared>();
    s->c = camera;
    return s;
  };
  auto family = std::make_unique<Family>();
  family->camera = camera;
  family->skip_second = skip_second;
  const auto seen = family->seen;
  setup.participants.push_back(std::move(family));
  auto service = Service::create(std::move(setup));
  if (!service) {
    lines.push_back(service.error());
    return {};
  }
  exit_code = (*service)->run();
  return *seen;
}

bool said(const std::vector<std::string>& lines, const std::string& part) {
  for (const auto& line : lines)
    if (line.find(part) != std::string::npos) return true;
  return false;
}

TEST(ServiceLearning, EachTokenIsAskedForByNameInTurnAndLearnedFromTheRenderedTable) {
  std::vector<std::string> lines;
  int exit_code = -1;
  const Seen seen = run_learning(false, lines, exit_code);
  const auto& prompts = seen.prompts;
  ASSERT_EQ(exit_code, 0) << ::testing::PrintToString(lines);
  ASSERT_TRUE(seen.done);
  ASSERT_EQ(prompts.size(), 2u) << ::testing::PrintToString(prompts);
  EXPECT_EQ(prompts[0], "Ann: put the car on the board");
  EXPECT_EQ(prompts[1], "Bob: put the dog on the board");
  EXPECT_TRUE(said(lines, "the camera learns token T1 alone"));
  EXPECT_TRUE(said(lines, "The car learned"));
  EXPECT_TRUE(said(lines, "The dog learned"));
  EXPECT_TRUE(said(lines, "The camera knows every token")) << ::testing::PrintToString(lines);
}

TEST(ServiceLearning, ATokenLeftToTheDiceIsSaidAndPlayGoesOn) {
  std::vector<std::string> lines;
  int exit_code = -1;
  const Seen seen = run_learning(true, lines, exit_code);
  ASSERT_EQ(exit_code, 0) << ::testing::PrintToString(lines);
  ASSERT_TRUE(seen.done) << ::testing::PrintToString(lines);
  EXPECT_TRUE(said(lines, "The camera will not watch the dog: the dice alone move it"));
  EXPECT_TRUE(said(lines, "the dice alone move the dog")) << ::testing::PrintToString(lines);
}

}  // namespace
}  // namespace bb::daemon
