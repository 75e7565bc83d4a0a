// One-at-a-time token learning through the service: rendered frames of an emptied board go through the real
// tracker on the camera thread; the table asks each player for their token by name, the family puts it down
// alone anywhere, and the service hands each ask to the tracker.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <opencv2/core.hpp>

#include "daemon/service.h"
#include "daemon/token_setup_store.h"
#include "scripted_table_camera.h"
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
using service_test::said;
using service_test::shared_camera;
using service_test::start_two_player_game;
using service_test::TempFolder;
using service_test::test_config;
using service_test::wake_limit;

// A table camera whose tokens stand beside the board until the family puts each down by hand.
class PuttingDownCamera final : public service_test::ScriptedTableCamera {
 public:
  // `down_on`: per token, the space it already stands on (a restart after it was learned), -1 beside the
  // board.
  explicit PuttingDownCamera(int tokens, std::vector<int> down_on = {})
      : ScriptedTableCamera(vision::default_token_looks(tokens),
                            "a table whose tokens are put down one at a time",
                            [tokens, down_on](const vision::TableRenderer& board) {
                              std::vector<vision::Point2> at;
                              for (std::size_t t = 0; t < static_cast<std::size_t>(tokens); ++t)
                                at.push_back(t < down_on.size() && down_on[t] >= 0
                                                 ? board.slot_position(down_on[t], 1)
                                                 : vision::Point2{1.25, 0.2 + 0.15 * static_cast<double>(t)});
                              return at;
                            }) {}
  // The family puts `token` down alone on `space` (a hand carries it in).
  void put_down(int token, int space) {
    script([&](Scripting s) { return s.script.place(token, s.renderer.slot_position(space, 1), ++s.moves); });
  }
};

// The family: starts a two-player game, chooses one at a time on the learning screen, and puts each token
// down when the screen asks for it by name (or leaves one to the dice).
// What the family saw, kept past the service (which owns the family).
struct Seen {
  std::vector<std::string> prompts;           // the questions' titles, in order
  bool done = false;                          // the learning ended and play waits for the dice
  std::optional<rules::SpaceId> dog_seen_on;  // where the table last had the camera see the dog, at the end
};

// A family at the table in these tests: it wakes every 5 ms, gives up after 30 s of wakes (the test failed;
// it must not hang) and, unless told otherwise, starts a two-player game when the table waits for one; then
// it does what on_table says with the table as it stands.
struct TestFamily : Participant {
  bool starts_game = true;
  std::string name() const override { return "family"; }
  Wake wake() const override { return Wake{-1, 5ms}; }
  void on_wake(ParticipantContext& c) final {
    if (++wakes_ > wake_limit(6000)) return c.stop(1);
    if (starts_game && start_two_player_game(c, started_)) return;
    on_table(c);
  }
  virtual void on_table(ParticipantContext& c) = 0;

 private:
  bool started_ = false;
  int wakes_ = 0;
};

struct Family final : TestFamily {
  std::shared_ptr<PuttingDownCamera> camera;
  std::shared_ptr<Seen> seen = std::make_shared<Seen>();
  bool skip_second = false;
  // Once play starts, the token left to the dice is put on the board after all (it stands there in play), and
  // the camera is given the time to learn it if it were still waiting for it.
  bool put_skipped_later = false;
  bool chose = false;
  std::vector<bool> put;
  int wakes_after_put = -1;
  void on_table(ParticipantContext& c) override {
    const auto& view = c.table().view();
    if (!view.game) return;
    const auto& q = view.question;
    if (view.awaiting.kind != table::Awaiting::Kind::learn_tokens) {
      if (!chose) return;
      if (put_skipped_later && wakes_after_put < 0) {
        camera->put_down(1, 25);
        wakes_after_put = 0;
      }
      // 100 wakes (0.5 s natively) after the last frame is shown: longer than learning a token takes.
      if (wakes_after_put >= 0 && (!camera->caught_up() || ++wakes_after_put < wake_limit(100))) return;
      if (view.seen_positions.size() > 1) seen->dog_seen_on = view.seen_positions[rules::PlayerId{1}];
      seen->done = true;
      c.stop(0);
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

// The service as these tests run it: headless, no devices from the configuration, its log into `lines`, and
// the camera's silence stretched by the time factor (the rendered table takes longer than kCameraSilence per
// picture under an emulator).
ServiceSetup learning_setup(const Config& config, std::vector<std::string>& lines) {
  ServiceSetup setup;
  setup.config = config;
  setup.headless = true;
  setup.devices_from_config = false;
  setup.camera_silence = kCameraSilence * service_test::test_time_factor();
  setup.log = [&lines](const std::string& line) { lines.push_back(line); };
  return setup;
}

Seen run_learning(bool skip_second, std::vector<std::string>& lines, int& exit_code,
                  bool put_skipped_later = false) {
  TempFolder dir;
  ServiceSetup setup = learning_setup(test_config(dir), lines);
  auto camera = std::make_shared<PuttingDownCamera>(2);
  setup.frame_source = shared_camera(camera);
  auto family = std::make_unique<Family>();
  family->camera = camera;
  family->skip_second = skip_second;
  family->put_skipped_later = put_skipped_later;
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

TEST(ServiceLearning, ATokenLeftToTheDiceIsNotLearnedWhenItIsPutDownInPlay) {
  // The camera was waiting for the dog when the family went on without it: the service tells the tracker,
  // so the dog standing on the board in play is not learned (the dice move it, as the family chose).
  std::vector<std::string> lines;
  int exit_code = -1;
  const Seen seen = run_learning(true, lines, exit_code, true);
  ASSERT_EQ(exit_code, 0) << ::testing::PrintToString(lines);
  ASSERT_TRUE(seen.done) << ::testing::PrintToString(lines);
  EXPECT_TRUE(said(lines, "The car learned")) << ::testing::PrintToString(lines);
  EXPECT_FALSE(said(lines, "The dog learned")) << ::testing::PrintToString(lines);
  EXPECT_EQ(rules::space_wire(seen.dog_seen_on), -1)
      << "the camera took the dog put down in play for the token it waited for";
}

// First run: the family chooses one at a time and puts Ann's car down; once the camera has kept it, the
// service stops (the table is switched off). Nothing else is learned.
struct FamilyStoppedMidLearning final : TestFamily {
  std::shared_ptr<PuttingDownCamera> camera;
  std::string kept_path;
  bool chose = false, put = false;
  void on_table(ParticipantContext& c) override {
    const auto& view = c.table().view();
    const auto& q = view.question;
    if (!view.game || !q || q->kind != display::TableQuestion::Kind::learn_tokens) return;
    if (!chose) {
      c.touch(display::AnswerQuestion{q->id, "one_by_one", ""});
      chose = true;
      return;
    }
    if (!put && q->title.rfind("Ann: put the car", 0) == 0) {
      camera->put_down(0, 12);
      put = true;
      return;
    }
    // The car learned and kept (whole, with the learning's progress): the plug is pulled.
    if (put && q->title.rfind("Bob: put the dog", 0) == 0) {
      auto kept = TokenSetupStore(kept_path).read();
      if (kept && kept->learned == std::vector<rules::PlayerId>{rules::PlayerId{0}} &&
          kept->learning.one_at_a_time)
        c.stop(0);
    }
  }
};

// After the restart: the family answers only what the table asks, putting down what is asked for.
struct FamilyAfterRestart final : TestFamily {
  FamilyAfterRestart() { starts_game = false; }  // the game is resumed, not started
  std::shared_ptr<PuttingDownCamera> camera;
  std::string kept_path;
  std::shared_ptr<Seen> seen = std::make_shared<Seen>();
  std::shared_ptr<std::string> first_text = std::make_shared<std::string>();
  bool put_dog = false;
  void on_table(ParticipantContext& c) override {
    const auto& view = c.table().view();
    if (!view.game) return;
    const auto& q = view.question;
    if (view.awaiting.kind != table::Awaiting::Kind::learn_tokens) {
      // Learned, and kept whole again (the camera thread keeps it just after it says so).
      auto kept = TokenSetupStore(kept_path).read();
      if (!seen->prompts.empty() && kept &&
          kept->learned == std::vector<rules::PlayerId>{rules::PlayerId{0}, rules::PlayerId{1}}) {
        seen->done = true;
        c.stop(0);
      }
      return;
    }
    if (!q || q->kind != display::TableQuestion::Kind::learn_tokens) return;
    if (seen->prompts.empty() || seen->prompts.back() != q->title) {
      if (seen->prompts.empty()) *first_text = q->text;
      seen->prompts.push_back(q->title);
      if (const char* folder = std::getenv("BOARDBANK_TEST_SCREENSHOTS"))
        (void)c.save_screen(fmt::format("{}/learn-after-restart-{}.png", folder, seen->prompts.size()));
    }
    if (!put_dog && q->title.rfind("Bob: put the dog", 0) == 0) {
      camera->put_down(1, 25);
      put_dog = true;
    }
  }
};

// Learning on GO with nothing on it: the tracker says it (found 0), the table asks with its three choices,
// and "Look again" starts the camera's count afresh.
struct FamilyWithNothingOnGo final : TestFamily {
  std::shared_ptr<std::string> text = std::make_shared<std::string>();
  std::shared_ptr<std::vector<std::string>> options = std::make_shared<std::vector<std::string>>();
  bool looked_again = false;
  void on_table(ParticipantContext& c) override {
    const auto& view = c.table().view();
    const auto& q = view.question;
    if (!view.game || !q || q->kind != display::TableQuestion::Kind::learn_tokens) return;
    if (!looked_again && q->text.find("no token on GO") != std::string::npos) {
      *text = q->text;
      for (const auto& o : q->options) options->push_back(o.key);
      if (const char* folder = std::getenv("BOARDBANK_TEST_SCREENSHOTS"))
        (void)c.save_screen(fmt::format("{}/learn-nothing-on-go.png", folder));
      c.touch(display::AnswerQuestion{q->id, "retry", ""});
      looked_again = true;
      return;
    }
    if (looked_again) c.stop(0);
  }
};

TEST(ServiceLearning, NothingOnGoIsAskedAboutAndLookedAtAgain) {
  TempFolder dir;
  std::vector<std::string> lines;
  ServiceSetup setup = learning_setup(test_config(dir), lines);
  auto camera = std::make_shared<PuttingDownCamera>(2);  // both tokens beside the board
  setup.frame_source = shared_camera(camera);
  auto family = std::make_unique<FamilyWithNothingOnGo>();
  const auto text = family->text;
  const auto options = family->options;
  setup.participants.push_back(std::move(family));
  auto service = Service::create(std::move(setup));
  ASSERT_TRUE(service.has_value()) << service.error();
  EXPECT_EQ((*service)->run(), 0) << ::testing::PrintToString(lines);
  EXPECT_NE(text->find("The camera sees the board but no token on GO"), std::string::npos) << *text;
  EXPECT_EQ(*options, (std::vector<std::string>{"retry", "one_by_one", "skip"}));
  EXPECT_TRUE(said(lines, "The camera sees no token on GO")) << ::testing::PrintToString(lines);
  EXPECT_TRUE(said(lines, "the camera looks at the start space again")) << ::testing::PrintToString(lines);
}

TEST(ServiceLearning, ARestartMidLearningAsksOnlyForTheTokensNotLearnedYet) {
  TempFolder dir;
  std::vector<std::string> lines;
  const Config config = test_config(dir);
  const std::string kept_path = config.ledger.path + ".tokens.json";
  {
    ServiceSetup setup = learning_setup(config, lines);
    auto camera = std::make_shared<PuttingDownCamera>(2);
    setup.frame_source = shared_camera(camera);
    auto family = std::make_unique<FamilyStoppedMidLearning>();
    family->camera = camera;
    family->kept_path = kept_path;
    setup.participants.push_back(std::move(family));
    auto service = Service::create(std::move(setup));
    ASSERT_TRUE(service.has_value()) << service.error();
    ASSERT_EQ((*service)->run(), 0) << ::testing::PrintToString(lines);
  }
  // Kept as it was learned: the car, for this game, learned one at a time.
  auto before = TokenSetupStore(kept_path).read();
  ASSERT_TRUE(before.has_value()) << before.error();
  EXPECT_EQ(before->learned, std::vector<rules::PlayerId>{rules::PlayerId{0}});
  EXPECT_EQ(before->learning.game, std::optional<std::int64_t>(1));
  EXPECT_EQ(before->learning.players, 2);
  // The table again: the car stands where Ann put it; the dog is still beside the board.
  std::vector<std::string> again;
  ServiceSetup setup = learning_setup(config, again);
  auto camera = std::make_shared<PuttingDownCamera>(2, std::vector<int>{12, -1});
  setup.frame_source = shared_camera(camera);
  auto family = std::make_unique<FamilyAfterRestart>();
  family->camera = camera;
  family->kept_path = kept_path;
  const auto seen = family->seen;
  const auto first_text = family->first_text;
  setup.participants.push_back(std::move(family));
  auto service = Service::create(std::move(setup));
  ASSERT_TRUE(service.has_value()) << service.error();
  EXPECT_EQ((*service)->run(), 0) << ::testing::PrintToString(again);
  ASSERT_TRUE(seen->done) << ::testing::PrintToString(again);
  // Only Bob's dog is asked for; the screen says the car came back.
  EXPECT_EQ(seen->prompts, std::vector<std::string>{"Bob: put the dog on the board"})
      << ::testing::PrintToString(again);
  EXPECT_NE(first_text->find("The camera kept the car from before the restart"), std::string::npos)
      << *first_text;
  EXPECT_TRUE(said(again, "the camera kept 1 of 2 tokens learned for game 1"))
      << ::testing::PrintToString(again);
  EXPECT_FALSE(said(again, "the camera learns token T1 alone")) << ::testing::PrintToString(again);
  EXPECT_TRUE(said(again, "The dog learned"));
  EXPECT_TRUE(said(again, "The camera knows every token")) << ::testing::PrintToString(again);
  auto kept = TokenSetupStore(kept_path).read();
  ASSERT_TRUE(kept.has_value()) << kept.error();
  EXPECT_EQ(kept->learned, (std::vector<rules::PlayerId>{rules::PlayerId{0}, rules::PlayerId{1}}));
}

}  // namespace
}  // namespace bb::daemon
