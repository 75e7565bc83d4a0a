// What the table settles goes back to the tracker through the service: rendered frames of two tokens that
// look alike go through the real tracker on the camera thread, the family answers the table's question on
// the screen and puts the token where the dice say, and the tracker's next look tells the two apart again.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <opencv2/core.hpp>

#include "daemon/service.h"
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
using service_test::dice_service_setup;
using service_test::said;
using service_test::shared_camera;
using service_test::start_two_player_game;
using service_test::TempFolder;
using service_test::wake_limit;
using QK = display::TableQuestion::Kind;

// A table whose two tokens are alike (red discs: a family's two tokens of one set), standing apart on GO;
// the family moves them by hand when the test says.
class TwinsCamera final : public service_test::ScriptedTableCamera {
 public:
  TwinsCamera()
      : ScriptedTableCamera({{0xE01010, vision::TokenShape::circle}, {0xE01010, vision::TokenShape::circle}},
                            "a table with two tokens alike") {}
  // A hand carries token `token` (0: the one the camera names T1, the car's) to `space`.
  void move(int token, int space) {
    script([&](Scripting s) { return s.script.play({token, space}, ++s.moves); });
  }
  // A hand carries token `token` to `space` and, on its way, knocks token `other` to another place on GO:
  // one script, so no still moment between and the camera sees both changed at once.
  void move_and_knock(int token, int space, int other) {
    script([&](Scripting s) {
      auto frames = s.script.play({token, space}, ++s.moves);
      while (!frames.empty() && frames.back().still) frames.pop_back();
      for (auto& f : s.script.place(other, s.renderer.slot_position(0, 2), ++s.moves))
        frames.push_back(std::move(f));
      return frames;
    });
  }
};

// What the family saw, kept past the service.
struct TwinsSeen {
  std::string car_question;                   // the camera's question about the car, as the screen said it
  std::string dog_question;                   // the table's question once the dog moved (nobody threw)
  std::optional<rules::SpaceId> dog_seen_on;  // where the camera then saw the dog (nothing: unsure)
  bool done = false;
};

// Ann throws 2 and 3 (Reading Railroad) and puts the car one space too far, on Oriental Avenue, knocking the
// dog aside on GO as she does. The camera, unable to tell the two discs apart (both changed), asks where the
// car is; the family answers "Move it to Reading Railroad" and does. Then the dog is moved (a child, nobody
// threw): the camera says where it went.
struct TwinsFamily final : Participant {
  std::shared_ptr<TwinsCamera> camera;
  std::shared_ptr<TwinsSeen> seen = std::make_shared<TwinsSeen>();
  int dice_pipe = -1;
  std::string name() const override { return "family"; }
  Wake wake() const override { return Wake{-1, 5ms}; }
  void on_wake(ParticipantContext& c) override {
    if (++wakes_ > wake_limit(6000)) return c.stop(1);
    if (start_two_player_game(c, started_)) return;
    const auto& view = c.table().view();
    if (!view.game) return;
    const rules::PlayerId ann{0}, bob{1};
    switch (stage_) {
      case 0:  // the camera learned both tokens on GO
        if (view.awaiting.kind != table::Awaiting::Kind::throw_dice || !camera->caught_up()) return;
        ASSERT_EQ(write(dice_pipe, "roll 2 3\n", 9), 9);
        ++stage_;
        return;
      case 1:
        if (view.expected_positions[ann] != rules::SpaceId{5}) return;
        camera->move_and_knock(0, 6, 1);  // one space too far, and the dog knocked aside on GO
        ++stage_;
        return;
      case 2:
        if (!view.question || view.question->kind != QK::camera_mismatch) return;
        seen->car_question = view.question->text;
        question_ = view.question->id;
        c.touch(display::AnswerQuestion{question_, "move_token", ""});
        ++stage_;
        return;
      case 3:  // answered: the car goes where the dice say
        if (view.question && view.question->id == question_) return;
        camera->move(0, 5);
        ++stage_;
        return;
      case 4:  // 100 wakes (0.5 s natively) after the last frame is shown: longer than a decision takes
        if (!camera->caught_up() || ++still_wakes_ < wake_limit(100)) return;
        camera->move(1, 8);
        still_wakes_ = 0;
        ++stage_;
        return;
      default:
        if (!camera->caught_up() || ++still_wakes_ < wake_limit(100)) return;
        if (view.question && view.question->kind == QK::token_moved) seen->dog_question = view.question->text;
        seen->dog_seen_on = view.seen_positions[bob];
        seen->done = true;
        c.stop(0);
    }
  }

 private:
  bool started_ = false;
  int wakes_ = 0;
  int stage_ = 0;
  int still_wakes_ = 0;
  std::string question_;
};

TEST(ServiceCameraAnswers, TheCamerasQuestionIsAnsweredAndTheDicesSettlingReachesTheTracker) {
  TempFolder dir;
  int dice_pipe[2];
  ASSERT_EQ(pipe(dice_pipe), 0);
  std::vector<std::string> lines;
  ServiceSetup setup = dice_service_setup(dir, dice_pipe[0], lines);
  setup.camera_silence = kCameraSilence * service_test::test_time_factor();
  auto camera = std::make_shared<TwinsCamera>();
  setup.frame_source = shared_camera(camera);
  auto family = std::make_unique<TwinsFamily>();
  family->camera = camera;
  family->dice_pipe = dice_pipe[1];
  const auto seen = family->seen;
  setup.participants.push_back(std::move(family));
  auto service = Service::create(std::move(setup));
  ASSERT_TRUE(service.has_value()) << service.error();
  const int exit_code = (*service)->run();
  close(dice_pipe[0]);
  close(dice_pipe[1]);
  ASSERT_EQ(exit_code, 0) << ::testing::PrintToString(lines);
  ASSERT_TRUE(seen->done);
  // The camera could not tell which disc moved: it asked. The car put where the dice say was a doubt again,
  // which the dice settled: that went to the tracker.
  EXPECT_EQ(seen->car_question, "The camera is not sure where the car is; the dice say Reading Railroad");
  EXPECT_TRUE(said(lines, "the camera takes T1 as settled on space 5")) << ::testing::PrintToString(lines);
  // The dog's next move is then reported, sure or as a question: whether the tracker remembers the car's
  // blob from the dice's settling depends on which disc the locator gave which blob in that doubt (both
  // discs alike, neither remembered), so that it is told sure is not held here (see docs/vision.md, round 6).
  EXPECT_TRUE(seen->dog_seen_on == rules::SpaceId{8} ||
              seen->dog_question == "The dog moved to somewhere else, but nobody threw: it stands on GO")
      << seen->dog_question;
}

}  // namespace
}  // namespace bb::daemon
