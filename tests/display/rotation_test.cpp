#include "display/rotation.h"

#include <SDL.h>
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "display/canvas.h"
#include "display_test_support.h"

// A screen mounted another way up: the picture is turned onto the panel, and a finger or a click on the panel
// is turned back, so a tap lands on what the panel shows under it. The expected positions below are worked
// out by hand for each turn, not with the functions under test.
namespace bb::display {
namespace {

using testing::Harness;

constexpr Rotation kRotations[] = {Rotation::upright, Rotation::clockwise_90, Rotation::upside_down,
                                   Rotation::clockwise_270};
constexpr int kPanelWidth = 800;
constexpr int kPanelHeight = 480;

std::string name(Rotation r) { return fmt::format("{} degrees", degrees(r)); }

// A game whose first player is about to throw, with no card reader (the screen confirms).
SampleTable rotated_table() {
  auto t = testing::started_table("rotated", {"Ann", "Bob", "Cleo", "Dev"});
  t.devices[1] = {DeviceStatus::Kind::card_reader, "Card reader", DeviceStatus::State::missing,
                  "No answer on the SPI bus", "Check its cable"};
  return t;
}

// Where the upright picture's pixel (x, y) of a layout_w x layout_h layout appears on the panel, by hand:
// a quarter turn clockwise puts the picture's top left corner at the panel's top right, half a turn at its
// bottom right, three quarters at its bottom left.
PixelPoint on_panel_by_hand(Rotation r, int layout_w, int layout_h, int x, int y) {
  switch (r) {
    case Rotation::upright:
      return {x, y};
    case Rotation::clockwise_90:
      return {layout_h - 1 - y, x};
    case Rotation::upside_down:
      return {layout_w - 1 - x, layout_h - 1 - y};
    case Rotation::clockwise_270:
      return {y, layout_w - 1 - x};
  }
  return {x, y};
}

TEST(Rotation, OnlyQuarterTurnsAreRotations) {
  EXPECT_EQ(rotation_from_degrees(0), Rotation::upright);
  EXPECT_EQ(rotation_from_degrees(90), Rotation::clockwise_90);
  EXPECT_EQ(rotation_from_degrees(180), Rotation::upside_down);
  EXPECT_EQ(rotation_from_degrees(270), Rotation::clockwise_270);
  for (int d : {-90, 45, 91, 360}) EXPECT_FALSE(rotation_from_degrees(d).has_value()) << d;
}

TEST(Rotation, PanelAndLayoutPositionsAreInverses) {
  for (auto r : kRotations) {
    const int layout_w = swaps_sides(r) ? 5 : 7, layout_h = swaps_sides(r) ? 7 : 5;
    for (int y = 0; y < layout_h; ++y)
      for (int x = 0; x < layout_w; ++x) {
        const PixelPoint panel = layout_to_panel(r, 7, 5, {x, y});
        EXPECT_EQ(panel, on_panel_by_hand(r, layout_w, layout_h, x, y)) << name(r) << " at " << x << "," << y;
        EXPECT_EQ(panel_to_layout(r, 7, 5, panel), (PixelPoint{x, y})) << name(r);
      }
  }
}

// The panel shows exactly the upright picture of the same layout, turned: every pixel.
TEST(Rotation, ATurnedPanelShowsTheUprightFrameTurned) {
  for (auto r : kRotations) {
    for (auto screen : {ScreenId::home, ScreenId::ledger}) {
      const bool swap = swaps_sides(r);
      const int layout_w = swap ? kPanelHeight : kPanelWidth, layout_h = swap ? kPanelWidth : kPanelHeight;
      Harness upright(testing::sample("developed"), layout_w, layout_h);
      Harness turned(testing::sample("developed"), kPanelWidth, kPanelHeight, {}, r);
      upright.screen().ui().go(screen);
      turned.screen().ui().go(screen);
      ASSERT_EQ(turned.frame().width(), layout_w) << name(r);
      ASSERT_EQ(turned.frame().height(), layout_h) << name(r);
      ASSERT_EQ(upright.frame().ops.size(), turned.frame().ops.size()) << "the same layout, " << name(r);
      const Canvas& a = upright.screen().canvas();
      const Canvas& b = turned.screen().canvas();
      ASSERT_EQ(b.panel_width(), kPanelWidth);
      ASSERT_EQ(b.panel_height(), kPanelHeight);
      int differ = 0;
      for (int y = 0; y < layout_h; ++y)
        for (int x = 0; x < layout_w; ++x) {
          const PixelPoint p = on_panel_by_hand(r, layout_w, layout_h, x, y);
          if (a.pixel(x, y) != b.panel_pixel(p.x, p.y)) ++differ;
          if (a.pixel(x, y) != b.pixel(x, y)) ++differ;  // and its upright picture is the same
        }
      EXPECT_EQ(differ, 0) << name(r);
      // Not trivially so: the picture is not the same read unturned.
      if (r != Rotation::upright) {
        int same = 0;
        for (int y = 0; y < kPanelHeight; y += 7)
          for (int x = 0; x < std::min(kPanelWidth, layout_w); x += 7)
            same += y < layout_h && a.pixel(x, y) == b.panel_pixel(x, y);
        EXPECT_LT(same, (kPanelHeight / 7) * (std::min(kPanelWidth, layout_w) / 7)) << name(r);
      }
    }
  }
}

// The centre of a target, where the panel shows it, as a finger there reports it (fractions of the panel).
UnitPoint finger_on_panel(Harness& h, Rotation r, const std::string& id) {
  const Target* t = h.frame().find(id);
  EXPECT_NE(t, nullptr) << id;
  if (!t) return {};
  const PixelPoint p = on_panel_by_hand(r, h.frame().width(), h.frame().height(), t->rect.cx(), t->rect.cy());
  return {(static_cast<float>(p.x) + 0.5f) / kPanelWidth, (static_cast<float>(p.y) + 0.5f) / kPanelHeight};
}

void finger_tap(Harness& h, Rotation r, const std::string& id) {
  const UnitPoint at = finger_on_panel(h, r, id);
  testing::push_finger_tap(at);
  h.screen().pump();
}

void mouse_click(Harness& h, Rotation r, const std::string& id) {
  const Target* t = h.frame().find(id);
  ASSERT_NE(t, nullptr) << id;
  const PixelPoint p = on_panel_by_hand(r, h.frame().width(), h.frame().height(), t->rect.cx(), t->rect.cy());
  SDL_Event e{};
  e.type = SDL_MOUSEBUTTONDOWN;
  e.button.which = 0;  // a real mouse, not one SDL made up from a touch
  e.button.button = SDL_BUTTON_LEFT;
  e.button.state = SDL_PRESSED;
  e.button.x = p.x;
  e.button.y = p.y;
  ASSERT_EQ(SDL_PushEvent(&e), 1) << SDL_GetError();
  e.type = SDL_MOUSEBUTTONUP;
  e.button.state = SDL_RELEASED;
  ASSERT_EQ(SDL_PushEvent(&e), 1) << SDL_GetError();
  h.screen().pump();
}

TEST(Rotation, AFingerOnTheTurnedPanelPressesTheButtonDrawnThere) {
  for (auto r : kRotations) {
    Harness h(rotated_table(), kPanelWidth, kPanelHeight, {}, r);
    ASSERT_TRUE(h.can_see("home.roll")) << name(r);
    // The button is drawn where the finger goes: the panel's pixel there has the button's colour, not the
    // background's (the upright picture at the target's centre).
    const Target* roll = h.frame().find("home.roll");
    const PixelPoint centre =
        on_panel_by_hand(r, h.frame().width(), h.frame().height(), roll->rect.cx(), roll->rect.cy());
    EXPECT_EQ(h.screen().canvas().panel_pixel(centre.x, centre.y),
              h.screen().canvas().pixel(roll->rect.cx(), roll->rect.cy()))
        << name(r);
    finger_tap(h, r, "home.roll");
    EXPECT_TRUE(h.can_see("dice.ok")) << "the dice dialog opened, " << name(r);
    finger_tap(h, r, "dice.1.1");
    finger_tap(h, r, "dice.2.2");
    finger_tap(h, r, "dice.ok");
    EXPECT_FALSE(h.can_see("dice.ok")) << "the dice dialog took the throw, " << name(r);
  }
}

TEST(Rotation, AClickOnTheTurnedPanelPressesTheButtonDrawnThere) {
  for (auto r : kRotations) {
    Harness h(rotated_table(), kPanelWidth, kPanelHeight, {}, r);
    mouse_click(h, r, "home.roll");
    EXPECT_TRUE(h.can_see("dice.ok")) << name(r);
  }
}

// A whole flow through the shared harness on a panel mounted upside down and portrait: buying a property,
// confirmed on screen (no card reader), changes the game.
TEST(Rotation, ABuyOnATurnedPanelReachesTheGame) {
  for (auto r : kRotations) {
    auto t = SampleTable::start("rotated", EDITIONS_DIR, {"Ann", "Bob", "Cleo", "Dev"}, 5);
    ASSERT_TRUE(t.has_value()) << t.error();
    t->devices[1] = {DeviceStatus::Kind::card_reader, "Card reader", DeviceStatus::State::missing,
                     "No answer on the SPI bus", "Check its cable"};
    Harness h(std::move(*t), kPanelWidth, kPanelHeight, {}, r);
    h.tap("home.roll");
    h.tap("dice.1.1");
    h.tap("dice.2.2");
    h.tap("dice.ok");
    ASSERT_EQ(h.table().game().state().players[0].position, rules::SpaceId{3}) << name(r);
    h.tap("home.option.buy");
    ASSERT_TRUE(h.can_see("confirm.ok")) << name(r);
    h.tap("confirm.ok");
    EXPECT_EQ(h.table().game().state().spaces[3].owner, rules::PlayerId{0}) << name(r);
    EXPECT_TRUE(h.refusals.empty()) << name(r);
  }
}

}  // namespace
}  // namespace bb::display
