// The chances on the charts screen and the trade adviser's line on the trade screen, laid out from a
// ChancesView as the daemon fills it, checked for structure and words, and drawn offscreen to PNG
// (BB_SCREENS_OUT keeps them for a look).
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "display/canvas.h"
#include "display/font_set.h"
#include "display/ui.h"
#include "display_test_support.h"

namespace bb::display {
namespace {

using testing::fonts;

bool shows(const Frame& frame, const std::string& words) {
  for (const auto* t : frame.texts())
    if (t->text.find(words) != std::string::npos) return true;
  return false;
}

void tap(Ui& ui, const Frame& frame, const std::string& id) {
  const Target* t = frame.find(id);
  ASSERT_NE(t, nullptr) << id;
  ui.tap(t->rect.cx(), t->rect.cy());
}

// Draws the frame offscreen and writes it as NAME.png in BB_SCREENS_OUT, or in a folder removed at the end.
void draw_png(const Frame& frame, const Layout& layout, const std::string& name) {
  const char* keep = std::getenv("BB_SCREENS_OUT");
  const auto dir = keep ? std::filesystem::path(keep)
                        : std::filesystem::temp_directory_path() / fmt::format("bb-chances-{}", ::getpid());
  std::filesystem::create_directories(dir);
  auto canvas = Canvas::offscreen(layout.width, layout.height, fonts());
  ASSERT_TRUE(canvas) << canvas.error();
  (*canvas)->draw(frame);
  const auto file = dir / (name + ".png");
  ASSERT_TRUE((*canvas)->save_png(file.string()));
  EXPECT_GT(std::filesystem::file_size(file), 2000u);
  if (!keep) std::filesystem::remove_all(dir);
}

ChancesView::Chance chance(double p, double margin, const std::string& text) {
  return {p, p - margin, p + margin, text};
}

// Turn by turn from `first` to `last`: Bob and Ann gaining, Cleo and Dev losing.
std::shared_ptr<ChancesView> four_players_view(int first = 0, int last = 30) {
  auto view = std::make_shared<ChancesView>();
  view->now = {chance(0.31, 0.02, "31% ±3"), chance(0.35, 0.02, "35% ±3"), chance(0.22, 0.02, "22% ±2"),
               chance(0.12, 0.015, "12% ±2")};
  view->playouts = 1600;
  view->refining = true;
  for (int turn = first; turn < last; ++turn) {
    const double t = static_cast<double>(turn - first) / std::max(1, last - first);
    view->over_game.push_back({turn, {0.25 + 0.06 * t, 0.25 + 0.10 * t, 0.25 - 0.03 * t, 0.25 - 0.13 * t}});
  }
  return view;
}

TEST(ChancesScreens, TheChartsShowEachPlayersChanceWithItsMarginAndALineOverTheGame) {
  // A game of its own (samples share their game), played on to a settled position a few turns in.
  auto started = SampleTable::start("chances", EDITIONS_DIR, {"Ann", "Bob", "Cleo", "Dev"}, 11);
  ASSERT_TRUE(started) << started.error();
  SampleTable table = std::move(*started);
  for (int i = 0; i < 500 && !(table.game().state().turns >= 8 && table.game().between_moves()); ++i)
    table.play(1, 3 + static_cast<std::uint64_t>(i));
  ASSERT_TRUE(table.game().between_moves());
  const int turns = table.game().state().turns;
  for (const auto& p : table.game().state().players) ASSERT_FALSE(p.bankrupt);
  table.chances = four_players_view(0, turns);
  const Layout layout = Layout::for_window(800, 480);
  Ui ui;
  ui.go(ScreenId::charts);
  const Frame& worth = ui.build(table.snapshot(), layout, fonts(), 0);
  EXPECT_TRUE(shows(worth, "31% ±3")) << "the worth legend carries the chance";
  tap(ui, worth, "charts.chances");
  const Frame& frame = ui.build(table.snapshot(), layout, fonts(), 0);
  for (const auto* words : {"31% ±3", "35% ±3", "22% ±2", "12% ±2", "from 1,600 playouts"})
    EXPECT_TRUE(shows(frame, words)) << words;
  EXPECT_TRUE(shows(frame, fmt::format("turn 0 to turn {}", turns)));
  const auto problems = testing::structural_problems(frame, layout);
  EXPECT_TRUE(problems.empty()) << problems.front();
  draw_png(frame, layout, "charts-chances");
}

TEST(ChancesScreens, WithoutTheOddsWorkerTheChartsHaveNoChancesTab) {
  SampleTable table = testing::sample("developed");
  table.chances.reset();
  Ui ui;
  ui.go(ScreenId::charts);
  const Frame& frame = ui.build(table.snapshot(), Layout::for_window(800, 480), fonts(), 0);
  EXPECT_EQ(frame.find("charts.chances"), nullptr);
}

TEST(ChancesScreens, TheTradeScreenAsksForTheTradeToBeWeighedAndShowsBothSidesChances) {
  SampleTable table = testing::sample("developed");
  table.chances = four_players_view();
  const Layout layout = Layout::for_window(800, 480);
  Ui ui;
  ui.go(ScreenId::trade);
  const Frame& before = ui.build(table.snapshot(), layout, fonts(), 0);
  EXPECT_TRUE(shows(before, "Chance of winning now:"));
  EXPECT_TRUE(ui.take_intents().empty()) << "nothing to weigh before anything is offered";
  // The first lot the left-hand player owns goes into the offer.
  std::string lot;
  for (const auto& t : before.targets)
    if (t.id.starts_with("trade.0.space.")) {
      lot = t.id;
      break;
    }
  ASSERT_FALSE(lot.empty());
  tap(ui, before, lot);
  (void)ui.build(table.snapshot(), layout, fonts(), 0);
  const auto intents = ui.take_intents();
  ASSERT_EQ(intents.size(), 1u);
  const auto* weigh = std::get_if<WeighTrade>(&intents.front());
  ASSERT_NE(weigh, nullptr);
  ASSERT_EQ(weigh->trade.give.spaces.size(), 1u);
  EXPECT_TRUE(shows(ui.build(table.snapshot(), layout, fonts(), 0), "Weighing this trade"));
  EXPECT_TRUE(ui.take_intents().empty()) << "the same trade is weighed once";

  ChancesView::TradeAdvice advice;
  advice.trade = weigh->trade;
  advice.summary = "Ann 31% -> 44%, Bob 35% -> 27%";
  advice.playouts = 2400;
  table.chances->trade = advice;
  const Frame& frame = ui.build(table.snapshot(), layout, fonts(), 1);
  EXPECT_TRUE(shows(frame, "With this trade: Ann 31% -> 44%, Bob 35% -> 27%  (2,400 playouts)"));
  const auto problems = testing::structural_problems(frame, layout);
  EXPECT_TRUE(problems.empty()) << problems.front();
  draw_png(frame, layout, "trade-adviser");
}

TEST(ChancesView, ATradeIsTheSameWhateverTheOrderOfItsLots) {
  rules::Trade a;
  a.from = rules::PlayerId{0};
  a.to = rules::PlayerId{1};
  a.give.spaces = {rules::SpaceId{1}, rules::SpaceId{3}};
  rules::Trade b = a;
  b.give.spaces = {rules::SpaceId{3}, rules::SpaceId{1}};
  EXPECT_TRUE(same_trade(a, b));
  b.get.cash = 10;
  EXPECT_FALSE(same_trade(a, b));
}

}  // namespace
}  // namespace bb::display
