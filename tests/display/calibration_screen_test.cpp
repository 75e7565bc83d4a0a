#include "display/calibration_screen.h"

#include <SDL.h>
#include <gtest/gtest.h>

#include <cmath>

#include "display_test_support.h"

// The calibration screen driven the way a family uses it: fingers put down on a corner handle, dragged onto
// the printed board's corner, lifted, then Save; all as injected SDL touch events through the real screen.
namespace bb::display {
namespace {

class CalibrationDrag : public ::testing::Test {
 protected:
  void SetUp() override {
    harness_ = std::make_unique<testing::Harness>(testing::sample("fresh"));
    harness_->screen().ui().go(ScreenId::calibration);
    const auto& f = harness_->frame();
    const Target* tl = f.find("calibration.corner.0");
    const Target* br = f.find("calibration.corner.2");
    ASSERT_TRUE(tl && br);
    origin_ = {static_cast<double>(tl->rect.cx()), static_cast<double>(tl->rect.cy())};
    unit_ = {static_cast<double>(br->rect.cx() - tl->rect.cx()),
             static_cast<double>(br->rect.cy() - tl->rect.cy())};
  }

  // Window pixels of a point in board units, from where the handles of the stored (default) grid were drawn
  // at the start: corner 0 on the board's (0, 0), corner 2 on its (1, 1).
  std::pair<float, float> pixel_of(BoardPoint p) const {
    return {static_cast<float>(origin_.x + p.x * unit_.x), static_cast<float>(origin_.y + p.y * unit_.y)};
  }

  void finger(Uint32 type, float x, float y) {
    SDL_Event e{};
    e.type = type;
    e.tfinger.touchId = 1;
    e.tfinger.fingerId = 1;
    e.tfinger.x = (x + 0.5f) / static_cast<float>(harness_->frame().width());
    e.tfinger.y = (y + 0.5f) / static_cast<float>(harness_->frame().height());
    e.tfinger.pressure = 1.0f;
    ASSERT_EQ(SDL_PushEvent(&e), 1) << SDL_GetError();
  }

  // Puts a finger on the handle of `corner`, drags it in a few steps to `to` (board units), and lifts it.
  void drag_corner(int corner, BoardPoint to) {
    const Target* handle = harness_->frame().find("calibration.corner." + std::to_string(corner));
    ASSERT_NE(handle, nullptr);
    const float x0 = static_cast<float>(handle->rect.cx()), y0 = static_cast<float>(handle->rect.cy());
    const auto [x1, y1] = pixel_of(to);
    finger(SDL_FINGERDOWN, x0, y0);
    for (int step = 1; step <= 4; ++step)
      finger(SDL_FINGERMOTION, x0 + (x1 - x0) * static_cast<float>(step) / 4,
             y0 + (y1 - y0) * static_cast<float>(step) / 4);
    finger(SDL_FINGERUP, x1, y1);
    pump();
  }

  void pump() {
    for (auto& i : harness_->screen().pump()) intents.push_back(std::move(i));
    harness_->screen().draw_if_needed();
  }

  std::vector<const SaveSpaceGrid*> saves() const {
    std::vector<const SaveSpaceGrid*> out;
    for (const auto& i : intents)
      if (const auto* s = std::get_if<SaveSpaceGrid>(&i)) out.push_back(s);
    return out;
  }

  std::unique_ptr<testing::Harness> harness_;
  std::vector<Intent> intents;
  BoardPoint origin_, unit_;
};

TEST_F(CalibrationDrag, DraggedCornersAreSavedInBoardUnits) {
  // One board unit is about 350 window pixels at 800x480: a pixel is 0.003 board units.
  const double pixel = 1.0 / 300;
  const auto printed = SampleTable::synthetic_printed_corners();
  // Before the Save: the default grid's handles sit where the board's outer square is.
  ASSERT_TRUE(harness_->frame().shows("Drag the four corners onto the corners of the printed board"));
  // The handle follows the finger while it moves.
  const Target* before = harness_->frame().find("calibration.corner.1");
  ASSERT_NE(before, nullptr);
  const Rect start = before->rect;
  for (int k = 0; k < 4; ++k) drag_corner(k, printed[static_cast<std::size_t>(k)]);
  const Target* after = harness_->frame().find("calibration.corner.1");
  ASSERT_NE(after, nullptr);
  EXPECT_NE(after->rect, start);
  // Nothing is emitted until Save.
  EXPECT_TRUE(saves().empty());
  harness_->tap("calibration.save");
  intents.insert(intents.end(), harness_->intents.begin(), harness_->intents.end());
  ASSERT_EQ(saves().size(), 1u);
  const auto& corners = saves()[0]->corners;
  for (std::size_t k = 0; k < 4; ++k) {
    EXPECT_NEAR(corners[k].x, printed[k].x, 1.5 * pixel) << "corner " << k;
    EXPECT_NEAR(corners[k].y, printed[k].y, 1.5 * pixel) << "corner " << k;
  }
}

TEST_F(CalibrationDrag, AHeldCornerIsShownEnlarged) {
  auto enlarged = [this] {
    int n = 0;
    for (const auto& op : harness_->frame().ops) n += op.kind == DrawOp::Kind::image && op.source.w > 0;
    return n;
  };
  EXPECT_EQ(enlarged(), 0);
  EXPECT_TRUE(harness_->frame().shows("Hold a corner"));
  const Target* handle = harness_->frame().find("calibration.corner.3");
  ASSERT_NE(handle, nullptr);
  const auto x = static_cast<float>(handle->rect.cx()), y = static_cast<float>(handle->rect.cy());
  finger(SDL_FINGERDOWN, x, y);
  finger(SDL_FINGERMOTION, x + 10, y - 10);
  pump();
  EXPECT_EQ(enlarged(), 1);  // the picture around the held corner, beside the board
  finger(SDL_FINGERUP, x + 10, y - 10);
  pump();
  EXPECT_TRUE(saves().empty());
}

TEST_F(CalibrationDrag, ResetPutsTheGridBackAndCancelSavesNothing) {
  drag_corner(2, {0.9, 0.85});
  harness_->tap("calibration.reset");
  harness_->tap("calibration.save");
  std::vector<const SaveSpaceGrid*> saved;
  for (const auto& i : harness_->intents)
    if (const auto* s = std::get_if<SaveSpaceGrid>(&i)) saved.push_back(s);
  ASSERT_EQ(saved.size(), 1u);
  EXPECT_EQ(saved[0]->corners[2], (BoardPoint{1, 1}));

  drag_corner(0, {0.1, 0.1});
  harness_->tap("calibration.cancel");
  bool cancelled = false;
  int saves_seen = 0;
  for (const auto& i : harness_->intents) {
    cancelled |= std::holds_alternative<CancelCalibration>(i);
    saves_seen += std::holds_alternative<SaveSpaceGrid>(i);
  }
  EXPECT_TRUE(cancelled);
  EXPECT_EQ(saves_seen, 1);
  EXPECT_EQ(harness_->screen().ui().screen(), ScreenId::home);
}

TEST_F(CalibrationDrag, CrossedCornersCannotBeSaved) {
  // Top-left dragged past the diagonal: the grid would fold over itself.
  drag_corner(0, {0.8, 0.75});
  harness_->tap("calibration.save");
  for (const auto& i : harness_->intents) EXPECT_FALSE(std::holds_alternative<SaveSpaceGrid>(i));
  EXPECT_TRUE(harness_->frame().shows("crossed"));
}

TEST(CalibrationGrid, LinesFollowTheCornersAndConvexityIsChecked) {
  const std::array<BoardPoint, 4> square{BoardPoint{0, 0}, BoardPoint{1, 0}, BoardPoint{1, 1},
                                         BoardPoint{0, 1}};
  const auto lines = CalibrationScreen::grid_lines(square, 10, 1.6);
  // Outer and inner edges, and the ten borders across each side.
  EXPECT_EQ(lines.size(), 8u + 4u * 10u);
  EXPECT_EQ(lines[0].a, (BoardPoint{0, 0}));
  EXPECT_EQ(lines[0].b, (BoardPoint{1, 0}));
  // A dragged grid: its outer edge runs through the dragged corners.
  const std::array<BoardPoint, 4> dragged{BoardPoint{0.05, 0.02}, BoardPoint{0.97, 0.04},
                                          BoardPoint{0.95, 0.96}, BoardPoint{0.03, 0.99}};
  const auto moved = CalibrationScreen::grid_lines(dragged, 10, 1.6);
  EXPECT_NEAR(moved[1].a.x, 0.97, 1e-9);
  EXPECT_NEAR(moved[1].b.y, 0.96, 1e-9);
  EXPECT_TRUE(CalibrationScreen::convex(square));
  EXPECT_TRUE(CalibrationScreen::convex(dragged));
  EXPECT_FALSE(
      CalibrationScreen::convex({BoardPoint{1, 1}, BoardPoint{1, 0}, BoardPoint{0, 0}, BoardPoint{0.2, 1}}));
  EXPECT_FALSE(
      CalibrationScreen::convex({BoardPoint{0, 0}, BoardPoint{1, 0}, BoardPoint{0, 1}, BoardPoint{1, 1}}));
}

}  // namespace
}  // namespace bb::display
