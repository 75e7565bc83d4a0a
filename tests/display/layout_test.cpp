#include "display/layout.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "display/board_geometry.h"
#include "display/font_set.h"
#include "display/frame_builder.h"
#include "display/game_history.h"
#include "display/keypad_dialog.h"
#include "display/palette.h"
#include "display/wording.h"
#include "display_test_support.h"

namespace bb::display {
namespace {

TEST(Layout, WindowSizeChoosesTheLayout) {
  EXPECT_EQ(Layout::for_window(800, 480).size, Layout::Size::compact);
  EXPECT_EQ(Layout::for_window(1024, 600).size, Layout::Size::medium);
  EXPECT_EQ(Layout::for_window(1280, 720).size, Layout::Size::large);
  EXPECT_EQ(Layout::for_window(1920, 1080).size, Layout::Size::large);
  EXPECT_EQ(Layout::for_window(640, 480).size, Layout::Size::compact);
  // 9 mm on the official 7-inch display (about 5.3 px/mm) is 48 px.
  EXPECT_GE(Layout::for_window(800, 480).target, 48);
  EXPECT_GT(Layout::for_window(1280, 720).font_body, Layout::for_window(800, 480).font_body);
}

// Simulated deuteranopia (Machado et al. 2009, severity 1.0) on linear-ish RGB; distances in the result.
double deutan_distance(Colour a, Colour b) {
  auto sim = [](Colour c) {
    const double r = c.r, g = c.g, bl = c.b;
    return std::array<double, 3>{0.367 * r + 0.861 * g - 0.228 * bl, 0.280 * r + 0.673 * g + 0.047 * bl,
                                 -0.012 * r + 0.043 * g + 0.969 * bl};
  };
  const auto x = sim(a), y = sim(b);
  return std::sqrt((x[0] - y[0]) * (x[0] - y[0]) + (x[1] - y[1]) * (x[1] - y[1]) +
                   (x[2] - y[2]) * (x[2] - y[2]));
}

TEST(Palette, PlayerColoursStayApartForColourBlindPlayers) {
  for (int i = 0; i < 6; ++i)
    for (int j = i + 1; j < 6; ++j)
      EXPECT_GT(deutan_distance(Palette::player(i), Palette::player(j)), 40.0)
          << Palette::player_colour_name(i) << " vs " << Palette::player_colour_name(j);
}

TEST(Palette, TextContrastsWithItsBackground) {
  EXPECT_EQ(Palette::text_on({240, 228, 66}), (Colour{0, 0, 0}));
  EXPECT_EQ(Palette::text_on({0, 114, 178}), (Colour{255, 255, 255}));
  EXPECT_EQ(Palette::parse_hex("#8B4513"), (Colour{0x8B, 0x45, 0x13}));
  EXPECT_EQ(Palette::parse_hex("nonsense"), (Colour{128, 128, 128}));
}

TEST(Keypad, AmountsInTheEditionsUnits) {
  rules::Currency dollars;
  EXPECT_EQ(KeypadDialog::parse("120", dollars).value(), 120);
  EXPECT_FALSE(KeypadDialog::parse("", dollars).has_value());
  rules::Currency mk;
  mk.symbol = "M";
  mk.unit = 10000;
  mk.mk = true;
  EXPECT_EQ(KeypadDialog::parse("2M", mk).value(), 200);
  EXPECT_EQ(KeypadDialog::parse("260K", mk).value(), 26);
  EXPECT_EQ(KeypadDialog::parse("1.5M", mk).value(), 150);
  EXPECT_FALSE(KeypadDialog::parse("255K", mk).has_value()) << "not a whole number of 10K";
  EXPECT_FALSE(KeypadDialog::parse("1.2.3M", mk).has_value());
}

TEST(BoardGeometry, CellsTileTheRingWithoutOverlap) {
  using rules::SpaceId;
  const BoardGeometry geo({10, 20, 440, 440}, 40);
  const Rect square{10, 20, 440, 440};
  for (const SpaceId s : rules::IdRange<SpaceId>{40}) {
    EXPECT_TRUE(square.contains(geo.cell(s))) << s.number();
    EXPECT_FALSE(geo.centre().overlaps(geo.cell(s))) << s.number();
    for (int j = s.number() + 1; j < 40; ++j)
      EXPECT_FALSE(geo.cell(s).overlaps(geo.cell(SpaceId{j}))) << s.number() << " " << j;
  }
  for (const int corner : {0, 10, 20, 30}) EXPECT_TRUE(geo.corner(SpaceId{corner})) << corner;
  EXPECT_FALSE(geo.corner(SpaceId{1}) || geo.corner(SpaceId{19}) || geo.corner(SpaceId{39}));
  EXPECT_GT(geo.cell(SpaceId{0}).x, geo.cell(SpaceId{1}).x)
      << "play runs left along the bottom from the start corner";
  EXPECT_GT(geo.cell(SpaceId{11}).y, geo.cell(SpaceId{12}).y) << "and up the left side";
}

TEST(FrameBuilder, LongTextShrinksThenEndsInAnEllipsis) {
  auto fonts = FontSet::open();
  ASSERT_TRUE(fonts.has_value()) << fonts.error();
  Frame frame(800, 480);
  const Layout layout = Layout::for_window(800, 480);
  FrameBuilder fb(frame, layout, **fonts);
  const auto fit =
      fb.text({0, 0, 200, 40}, "Bartholomew Featherstonehaugh-Smythe", FontFace::bold, 20, Palette::text);
  ASSERT_EQ(frame.ops.size(), 1u);
  EXPECT_LE(fit.w, 200);
  EXPECT_LT(frame.ops[0].px, 20);
  EXPECT_NE(frame.ops[0].text.find("\u2026"), std::string::npos);
  const auto shortfit = fb.text({0, 0, 200, 40}, "Ann", FontFace::bold, 20, Palette::text);
  EXPECT_EQ(frame.ops[1].px, 20);
  EXPECT_EQ(frame.ops[1].text, "Ann");
  EXPECT_LE(shortfit.w, 200);
}

// A swatch button (a ship line's or a colour group's choice) lays its label out beside the swatch: a label
// as wide as the button wraps or shrinks instead of running under the colour (the ships draft's long lines).
TEST(FrameBuilder, ASwatchButtonsLabelNeverRunsUnderItsSwatch) {
  auto fonts = FontSet::open();
  ASSERT_TRUE(fonts.has_value()) << fonts.error();
  Frame frame(800, 480);
  const Layout layout = Layout::for_window(800, 480);
  FrameBuilder fb(frame, layout, **fonts);
  const Rect r{40, 40, 344, layout.button_h};
  const std::string label = "Hamburg America Line: Deutschland, Vaterland, Imperator";
  fb.swatch_button("choice.0", r, Colour{255, 140, 0, 255}, label, Palette::panel_light, [] {});
  const int swatch_right = r.x + fb.swatch_width();
  int drawn = 0;
  for (const DrawOp* t : frame.texts()) {
    ++drawn;
    EXPECT_GE(t->rect.x, swatch_right) << t->text;
    const int left_ink = t->rect.x + (t->rect.w - t->text_size.w) / 2;  // centred in its box
    EXPECT_GE(left_ink, swatch_right) << t->text;
    EXPECT_LE(t->rect.x + t->rect.w, r.right()) << t->text;
  }
  EXPECT_GE(drawn, 1);
  EXPECT_TRUE(frame.shows("Imperator"));
  ASSERT_NE(frame.find("choice.0"), nullptr);
  EXPECT_EQ(frame.find("choice.0")->rect.x, r.x) << "the whole button, swatch included, takes the touch";
  // Measured with the room the swatch leaves: a label that just fits a plain button may not fit beside one.
  EXPECT_TRUE(fb.label_fits(r.w, r.h, label, 0, FrameBuilder::LabelRoom::beside_swatch));
  EXPECT_FALSE(fb.label_fits(fb.swatch_width() + 8, r.h, "Tugs", 0, FrameBuilder::LabelRoom::beside_swatch));
}

TEST(Wording, CountsAreGroupedByThousands) {
  EXPECT_EQ(Wording::count(0), "0");
  EXPECT_EQ(Wording::count(999), "999");
  EXPECT_EQ(Wording::count(2000), "2,000");
  EXPECT_EQ(Wording::count(12500), "12,500");
  EXPECT_EQ(Wording::count(1234567), "1,234,567");
  EXPECT_EQ(Wording::count(-100000), "-100,000");
}

TEST(Wording, PostingsReadAsSentences) {
  auto& table = testing::sample("debt");
  const auto& game = table.game();
  rules::Posting rent;
  rent.from = rules::PlayerId{0};
  rent.to = rules::PlayerId{1};
  rent.amount = 26;
  rent.memo = rules::Memo::rent;
  rent.space = *game.edition().space_by_name("Vermont Avenue");
  EXPECT_EQ(Wording::posting(game, rent), "Ann paid Bob $26 rent for Vermont Avenue");
  rules::Posting buy;
  buy.from = rules::PlayerId{2};
  buy.to = rules::Account::bank();
  buy.amount = 60;
  buy.memo = rules::Memo::buy;
  buy.space = *game.edition().space_by_name("Baltic Avenue");
  EXPECT_EQ(Wording::posting(game, buy), "Cleo bought Baltic Avenue for $60");
}

TEST(GameHistory, RecordsWorthAndLandings) {
  auto& table = testing::sample("long-ledger");
  const auto& h = table.history();
  EXPECT_GT(h.worth().size(), 100u);
  EXPECT_EQ(h.worth().front().size(), table.game().state().players.size());
  int landings = 0;
  for (int v : h.landings()) landings += v;
  EXPECT_GT(landings, 50);
  EXPECT_TRUE(h.invariant_violations().empty());
}

}  // namespace
}  // namespace bb::display
