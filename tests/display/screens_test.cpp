#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "display/font_set.h"
#include "display/screen_gallery.h"
#include "display/ui.h"
#include "display_test_support.h"

namespace bb::display {
namespace {

const std::vector<ScreenId> kScreens = {
    ScreenId::home,   ScreenId::auction, ScreenId::properties, ScreenId::trade,   ScreenId::ledger,
    ScreenId::charts, ScreenId::board,   ScreenId::setup,      ScreenId::devices, ScreenId::calibration};

using testing::fonts;

struct Size {
  int w, h;
};

class EverySize : public ::testing::TestWithParam<Size> {};

// Every screen in every sample state: text inside its box, targets large enough and apart, nothing over
// anything else, nothing outside the window.
TEST_P(EverySize, EveryScreenInEveryStateIsLaidOutCleanly) {
  const auto [w, h] = GetParam();
  const Layout layout = Layout::for_window(w, h);
  ASSERT_FALSE(testing::samples().empty());
  for (auto& table : testing::samples()) {
    for (ScreenId s : kScreens) {
      Ui ui;
      ui.go(s);
      const auto& frame = ui.build(table.snapshot(), layout, fonts(), 0);
      const auto problems = testing::structural_problems(frame, layout);
      EXPECT_TRUE(problems.empty()) << table.name() << " screen " << static_cast<int>(s) << " at " << w << "x"
                                    << h << ": " << problems.front() << " (and " << problems.size() - 1
                                    << " more)";
      EXPECT_TRUE(ui.invariant_violations().empty());
      EXPECT_FALSE(frame.texts().empty());
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Layouts, EverySize,
                         ::testing::Values(Size{800, 480}, Size{1024, 600}, Size{1280, 720}),
                         [](const ::testing::TestParamInfo<Size>& p) {
                           return fmt::format("w{}h{}", p.param.w, p.param.h);
                         });

// Every screen has an obvious way back home.
TEST(Screens, EveryScreenButHomeHasAWayBack) {
  const Layout layout = Layout::for_window(800, 480);
  auto& table = testing::sample("developed");
  for (ScreenId s : kScreens) {
    if (s == ScreenId::home) continue;
    Ui ui;
    ui.go(s);
    const auto& frame = ui.build(table.snapshot(), layout, fonts(), 0);
    const Target* back = frame.find("back");
    ASSERT_NE(back, nullptr) << "screen " << static_cast<int>(s);
    ui.tap(back->rect.cx(), back->rect.cy());
    EXPECT_EQ(ui.screen(), ScreenId::home);
  }
}

// Pressing anything on any screen never changes the game: the display only produces intents.
TEST(Screens, TouchingEverythingNeverChangesTheGame) {
  const Layout layout = Layout::for_window(800, 480);
  for (auto& table : testing::samples()) {
    const auto before = table.game().signature();
    const auto postings = table.game().state().postings.size();
    for (ScreenId s : kScreens) {
      Ui probe;
      probe.go(s);
      const auto ids = [&] {
        std::vector<std::string> v;
        for (const auto& t : probe.build(table.snapshot(), layout, fonts(), 0).targets) v.push_back(t.id);
        return v;
      }();
      for (const auto& id : ids) {
        Ui ui;
        ui.go(s);
        const auto& frame = ui.build(table.snapshot(), layout, fonts(), 0);
        const Target* t = frame.find(id);
        ASSERT_NE(t, nullptr);
        ui.tap(t->rect.cx(), t->rect.cy());
        ui.build(table.snapshot(), layout, fonts(), 0);
        (void)ui.take_intents();
      }
    }
    EXPECT_EQ(table.game().signature(), before) << table.name();
    EXPECT_EQ(table.game().state().postings.size(), postings);
  }
}

TEST(Screens, HomeSaysWhatIsOwedAndWhy) {
  const Layout layout = Layout::for_window(800, 480);
  Ui ui;
  const auto& debt = ui.build(testing::sample("debt").snapshot(), layout, fonts(), 0);
  EXPECT_TRUE(debt.shows("Ann owes Bob")) << "the debt question names debtor and creditor";
  EXPECT_NE(debt.find("home.debt.bankrupt"), nullptr);
  Ui ui2;
  const auto& buy = ui2.build(testing::sample("developed").snapshot(), layout, fonts(), 0);
  EXPECT_TRUE(buy.shows("buy Oriental Avenue for $100?"));
  EXPECT_NE(buy.find("home.option.buy"), nullptr);
  EXPECT_NE(buy.find("home.option.auction"), nullptr);
}

// Issue 16: a game that ends with the richest equal says "tie" on the end screen and in the standings.
TEST(Screens, AGameEndedInATieSaysTieInTheStandings) {
  const Layout layout = Layout::for_window(800, 480);
  Ui ui;
  const auto& f = ui.build(testing::sample("tie").snapshot(), layout, fonts(), 0);
  EXPECT_TRUE(f.shows("Game over: a tie between Ann and Cleo!"));
  EXPECT_TRUE(f.shows("Final standings: a tie"));
  int ties = 0;
  for (const auto& op : f.ops) ties += op.text == "tie";
  EXPECT_EQ(ties, 4) << "Ann and Cleo, on their cards and in the standings";
  EXPECT_FALSE(f.shows("wins!"));
  EXPECT_TRUE(testing::structural_problems(f, layout).empty());
}

TEST(Screens, AnAuctionTakesTheScreenAndShowsTheHighestBidder) {
  const Layout layout = Layout::for_window(800, 480);
  Ui ui;
  const auto& f = ui.build(testing::sample("auction").snapshot(), layout, fonts(), 0);
  EXPECT_EQ(ui.screen(), ScreenId::auction);
  EXPECT_TRUE(f.shows("Bob is highest"));
  EXPECT_TRUE(f.shows("$52"));
}

TEST(Screens, LongNamesAreShortenedNotSpilled) {
  const Layout layout = Layout::for_window(800, 480);
  Ui ui;
  const auto& f = ui.build(testing::sample("six-players").snapshot(), layout, fonts(), 0);
  int players = 0;
  for (const auto& t : f.targets) players += t.id.rfind("home.player.", 0) == 0;
  EXPECT_EQ(players, 6);
  EXPECT_TRUE(testing::structural_problems(f, layout).empty());
}

// `boardbank screens`: every screen in every sample state as PNG files.
TEST(Gallery, WritesEveryScreenAsPng) {
  const char* keep = std::getenv("BB_SCREENS_OUT");
  const auto dir = keep ? std::filesystem::path(keep)
                        : std::filesystem::temp_directory_path() / fmt::format("bb-screens-{}", ::getpid());
  ScreenGallery::Options o;
  o.out_dir = dir.string();
  o.editions_dir = EDITIONS_DIR;
  auto files = ScreenGallery::render(o);
  ASSERT_TRUE(files.has_value()) << files.error();
  EXPECT_GE(files->size(), 6u * 8u);
  for (const auto& f : *files) {
    ASSERT_TRUE(std::filesystem::exists(f)) << f;
    EXPECT_GT(std::filesystem::file_size(f), 2000u) << f;
  }
  if (!keep) std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace bb::display
