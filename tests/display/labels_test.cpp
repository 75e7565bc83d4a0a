// Every button says all it says, on the panel upright (800x480) and turned portrait (480x800): no label is
// cut short with an ellipsis or left out, measured against its button, on every screen in every sample state
// and in every dialog one tap away.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "display/font_set.h"
#include "display/frame_builder.h"
#include "display/rotation.h"
#include "display/ui.h"
#include "display_test_support.h"

namespace bb::display {
namespace {

using testing::fonts;

// The labels of `frame`'s buttons that are not drawn in full inside their button: the words drawn there (one
// line, or several as a wrapped label) must be the label's words, each line no wider than its box and the
// box inside the button. A label holding one of `long_names` (players' own names, up to 24 characters as the
// name keyboard takes them) may be shortened, as names are everywhere.
std::vector<std::string> cut_labels(const Frame& frame, const std::vector<std::string>& long_names = {}) {
  std::vector<std::string> out;
  for (const auto& t : frame.targets) {
    if (t.label.empty()) continue;
    if (std::ranges::any_of(long_names, [&](const auto& n) { return t.label.find(n) != std::string::npos; }))
      continue;
    std::string drawn;
    for (const auto* op : frame.texts()) {
      if (op->layer != t.layer || !t.rect.contains(op->rect)) continue;
      if (op->text_size.w > op->rect.w || op->text_size.h > op->rect.h)
        out.push_back(fmt::format("{}: '{}' is {} px wide in a box of {}", t.id, op->text, op->text_size.w,
                                  op->rect.w));
      drawn += (drawn.empty() ? "" : " ") + op->text;
    }
    if (drawn != t.label) out.push_back(fmt::format("{}: says '{}' for '{}'", t.id, drawn, t.label));
  }
  return out;
}

// A panel size and how it is mounted; the screens are laid out turned back upright.
struct Mounting {
  int panel_w, panel_h;
  Rotation rotation;
};

class EveryMounting : public ::testing::TestWithParam<Mounting> {};

TEST_P(EveryMounting, NoButtonLabelIsCut) {
  const auto m = GetParam();
  const bool portrait = swaps_sides(m.rotation);
  const Layout layout =
      Layout::for_window(portrait ? m.panel_h : m.panel_w, portrait ? m.panel_w : m.panel_h);
  const std::vector<ScreenId> screens = {
      ScreenId::home,   ScreenId::auction, ScreenId::properties, ScreenId::trade,   ScreenId::ledger,
      ScreenId::charts, ScreenId::board,   ScreenId::setup,      ScreenId::devices, ScreenId::calibration};
  ASSERT_FALSE(testing::samples().empty());
  int buttons = 0;
  for (auto& table : testing::samples()) {
    std::vector<std::string> long_names;  // more than half of what the name keyboard takes
    if (const auto* game = table.snapshot().game)
      for (const auto& p : game->state().players)
        if (p.name.size() > 12) long_names.push_back(p.name);
    for (ScreenId s : screens) {
      Ui ui;
      ui.go(s);
      const Frame first = ui.build(table.snapshot(), layout, fonts(), 0);
      for (const auto& problem : cut_labels(first, long_names))
        ADD_FAILURE() << table.name() << ", screen " << static_cast<int>(s) << ": " << problem;
      // And laid out as cleanly as upright: text inside its box, targets large enough and apart.
      for (const auto& problem : testing::structural_problems(first, layout))
        ADD_FAILURE() << table.name() << ", screen " << static_cast<int>(s) << ": " << problem;
      // Each button and area tapped once, on a fresh screen: the dialogs and selections it opens.
      for (const auto& target : first.targets) {
        if (!target.enabled) continue;
        ++buttons;
        Ui tapped;
        tapped.go(s);
        tapped.build(table.snapshot(), layout, fonts(), 0);
        tapped.tap(target.rect.cx(), target.rect.cy());
        const Frame& after = tapped.build(table.snapshot(), layout, fonts(), 0);
        for (const auto& problem : cut_labels(after, long_names))
          ADD_FAILURE() << table.name() << ", screen " << static_cast<int>(s) << " after " << target.id
                        << ": " << problem;
      }
    }
  }
  EXPECT_GT(buttons, 500) << "the samples' screens should offer hundreds of buttons";
}

INSTANTIATE_TEST_SUITE_P(Panels, EveryMounting,
                         ::testing::Values(Mounting{800, 480, Rotation::upright},
                                           Mounting{800, 480, Rotation::clockwise_90},
                                           Mounting{1024, 600, Rotation::clockwise_270},
                                           Mounting{1280, 720, Rotation::clockwise_90}),
                         [](const ::testing::TestParamInfo<Mounting>& p) {
                           return fmt::format("panel{}x{}turned{}", p.param.panel_w, p.param.panel_h,
                                              degrees(p.param.rotation));
                         });

// The check itself finds a cut label: a button far too narrow for its word.
TEST(Labels, ACutLabelIsFound) {
  Frame frame(480, 800);
  const Layout layout = Layout::for_window(480, 800);
  FrameBuilder fb(frame, layout, fonts());
  fb.button("wide", {0, 0, 200, 52}, "Devices", Colour{0, 0, 0}, [] {});
  EXPECT_TRUE(cut_labels(frame).empty());
  fb.button("narrow", {0, 60, 40, 52}, "Devices", Colour{0, 0, 0}, [] {});
  ASSERT_EQ(cut_labels(frame).size(), 1u);
  EXPECT_NE(cut_labels(frame).front().find("narrow"), std::string::npos);
}

}  // namespace
}  // namespace bb::display
