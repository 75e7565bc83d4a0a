// The notice the service lays over the screen's last picture while the ledger cannot store the game.
#include "display/screen_notice.h"

#include <SDL.h>
#include <gtest/gtest.h>

#include "display/canvas.h"
#include "display/palette.h"
#include "display_test_support.h"

namespace bb::display {
namespace {

using testing::fonts;
using testing::Harness;
using testing::sample;

ScreenNotice card_failing() {
  return {"The game cannot be saved",
          "Cannot store ledger.db-wal on its disk: No space left on device. Nothing is lost: the table keeps "
          "it and tries again every second. Check the SD card."};
}

TEST(ScreenNotice, LaysTheNoticeOverTheLastPictureWithoutChangingIt) {
  Harness h(sample("developed"));
  const Frame& last = h.frame();
  ASSERT_FALSE(last.ops.empty());
  const Layout layout = Layout::for_window(last.width(), last.height());
  Frame noticed = frame_with_notice(last, layout, fonts(), card_failing());
  // Every drawing of the last picture, unchanged and first; the notice after them, above any dialog.
  ASSERT_GT(noticed.ops.size(), last.ops.size());
  for (std::size_t i = 0; i < last.ops.size(); ++i) {
    EXPECT_EQ(noticed.ops[i].kind, last.ops[i].kind) << i;
    EXPECT_EQ(noticed.ops[i].text, last.ops[i].text) << i;
    EXPECT_TRUE(noticed.ops[i].rect.x == last.ops[i].rect.x && noticed.ops[i].rect.y == last.ops[i].rect.y &&
                noticed.ops[i].rect.w == last.ops[i].rect.w && noticed.ops[i].rect.h == last.ops[i].rect.h)
        << i;
  }
  for (std::size_t i = last.ops.size(); i < noticed.ops.size(); ++i) EXPECT_EQ(noticed.ops[i].layer, 2) << i;
  EXPECT_TRUE(noticed.shows("The game cannot be saved"));
  EXPECT_TRUE(noticed.shows("No space left on device"));
  EXPECT_TRUE(noticed.shows("Check the SD card."));  // the whole body fits: nothing cut off
  // Nothing under it can be pressed while it shows.
  EXPECT_TRUE(noticed.targets.empty());
  // Every line of it inside the picture.
  for (std::size_t i = last.ops.size(); i < noticed.ops.size(); ++i) {
    const Rect& r = noticed.ops[i].rect;
    EXPECT_GE(r.x, 0);
    EXPECT_GE(r.y, 0);
    EXPECT_LE(r.x + r.w, last.width());
    EXPECT_LE(r.y + r.h, last.height());
  }
}

TEST(ScreenNotice, TheTouchScreenDrawsItOverTheLastFrameAndKeepsItOverTheNextDraw) {
  Harness h(sample("developed"));
  TouchScreen& screen = h.screen();
  const int frames = screen.frames_drawn();
  const Colour corner_before = screen.canvas().pixel(2, 2);
  // A newer picture is handed over but must not be shown (the disk does not hold it yet).
  Snapshot newer = h.table().snapshot();
  newer.version += 1000;
  newer.table_status = "a state the disk does not hold";
  screen.show(newer);
  screen.draw_notice_over_last(card_failing());
  ASSERT_NE(screen.notice(), nullptr);
  EXPECT_EQ(screen.notice()->title, "The game cannot be saved");
  EXPECT_EQ(screen.frames_drawn(), frames + 1);
  EXPECT_FALSE(screen.frame().shows("a state the disk does not hold"));
  // The corner is the old picture, shaded: darker than before, not the newer picture.
  const Colour corner = screen.canvas().pixel(2, 2);
  EXPECT_LE(corner.r + corner.g + corner.b, corner_before.r + corner_before.g + corner_before.b);
  // The next draw lays out the newest picture, with the notice still over it: only its caller (the
  // condition cleared) or a finger takes it away.
  EXPECT_TRUE(screen.draw_if_needed());
  ASSERT_NE(screen.notice(), nullptr);
  EXPECT_EQ(screen.notice()->title, "The game cannot be saved");
  EXPECT_TRUE(screen.frame().shows("a state the disk does not hold"));
  EXPECT_LE(screen.canvas().pixel(2, 2).r + screen.canvas().pixel(2, 2).g + screen.canvas().pixel(2, 2).b,
            corner_before.r + corner_before.g + corner_before.b);
  screen.close_notice();
  EXPECT_TRUE(screen.draw_if_needed());
  EXPECT_EQ(screen.notice(), nullptr);
  EXPECT_EQ(screen.canvas().pixel(2, 2), corner_before);
}

// A notice over an auction whose countdown ticks every second: the tick redraws the picture, and the notice
// stays over it (before, the first tick took it away unread).
TEST(ScreenNotice, ACountdownTickKeepsTheNoticeOverThePicture) {
  Harness h(sample("auction"), 800, 480, UiSettings{true, "1234", "", 30});
  TouchScreen& screen = h.screen();
  ASSERT_TRUE(h.frame().shows("0:3") || h.frame().shows("0:2")) << "the countdown shows";
  const Colour corner_before = screen.canvas().pixel(2, 2);
  screen.draw_notice_over_last(
      {"The game is paused", "The SD card is full. Touch the screen to close this."});
  const int frames = screen.frames_drawn();
  // The next second's tick (within about a second of wall time; the test waits for it, it times nothing).
  bool ticked = false;
  for (int i = 0; i < 300 && !ticked; ++i) {
    ticked = screen.draw_if_needed();
    if (!ticked) SDL_Delay(10);
  }
  ASSERT_TRUE(ticked) << "the countdown redraws every second";
  EXPECT_EQ(screen.frames_drawn(), frames + 1);
  ASSERT_NE(screen.notice(), nullptr) << "a tick must not close the notice";
  EXPECT_EQ(screen.notice()->title, "The game is paused");
  const Colour corner = screen.canvas().pixel(2, 2);
  EXPECT_LT(corner.r + corner.g + corner.b, corner_before.r + corner_before.g + corner_before.b)
      << "the new picture is shaded under the notice";
  // Touched, it goes; the picture comes back unshaded.
  testing::push_finger_tap({0.5F, 0.5F});
  EXPECT_TRUE(screen.pump().empty());
  EXPECT_EQ(screen.notice(), nullptr);
  EXPECT_TRUE(screen.draw_if_needed());
  EXPECT_EQ(screen.canvas().pixel(2, 2), corner_before);
}

TEST(ScreenNotice, AFingerClosesItWithoutPressingWhatIsUnderIt) {
  Harness h(sample("developed"));
  TouchScreen& screen = h.screen();
  ASSERT_TRUE(h.can_see("nav.ledger"));
  const ScreenId before = screen.ui().screen();
  screen.draw_notice_over_last(card_failing());
  const Target* under = screen.frame().find("nav.ledger");
  ASSERT_NE(under, nullptr);
  const int frames = screen.frames_drawn();
  // A tap right on a button the notice covers: it closes the notice, and the button is not pressed.
  const float x =
      static_cast<float>(under->rect.x + under->rect.w / 2) / static_cast<float>(screen.frame().width());
  const float y =
      static_cast<float>(under->rect.y + under->rect.h / 2) / static_cast<float>(screen.frame().height());
  testing::push_finger_tap({x, y});
  EXPECT_TRUE(screen.pump().empty());
  EXPECT_EQ(screen.notice(), nullptr);
  EXPECT_EQ(screen.ui().screen(), before);
  // The picture under it is drawn again, and the screen then answers touches as before.
  EXPECT_TRUE(screen.draw_if_needed());
  EXPECT_EQ(screen.frames_drawn(), frames + 1);
  EXPECT_FALSE(screen.draw_if_needed());
}

}  // namespace
}  // namespace bb::display
