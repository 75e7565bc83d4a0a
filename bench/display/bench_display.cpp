// Figures for the touchscreen issue: the time to lay out and draw each screen at 800x480 with SDL's software
// renderer on one core (aim: 4 ms or less), and the frames drawn while nothing changes (aim: none).
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <thread>

#include "display/canvas.h"
#include "display/font_set.h"
#include "display/layout.h"
#include "display/sample_table.h"
#include "display/touch_screen.h"
#include "display/ui.h"

namespace {

using bb::display::ScreenId;

std::vector<bb::display::SampleTable>* g_tables = nullptr;

const std::vector<std::pair<ScreenId, const char*>> kScreens = {
    {ScreenId::home, "home"},   {ScreenId::auction, "auction"}, {ScreenId::properties, "properties"},
    {ScreenId::trade, "trade"}, {ScreenId::ledger, "ledger"},   {ScreenId::charts, "charts"},
    {ScreenId::board, "board"}, {ScreenId::setup, "setup"},     {ScreenId::devices, "devices"}};

// One redraw as the loop does it: lay the snapshot out into a frame, then draw the frame.
void draw_screen(benchmark::State& state, bb::display::SampleTable* table, ScreenId screen) {
  auto fonts = bb::display::FontSet::open();
  if (!fonts) {
    state.SkipWithError(fonts.error().c_str());
    return;
  }
  auto canvas = bb::display::Canvas::offscreen(800, 480, **fonts);
  if (!canvas) {
    state.SkipWithError(canvas.error().c_str());
    return;
  }
  const auto layout = bb::display::Layout::for_window(800, 480);
  bb::display::Ui ui;
  ui.go(screen);
  const auto snapshot = table->snapshot();
  for (auto _ : state) {
    const auto& frame = ui.build(snapshot, layout, **fonts, 0);
    (*canvas)->draw(frame);
    benchmark::DoNotOptimize(&frame);
  }
}

// Frames drawn over an idle period by the loop the daemon runs: poll, draw if needed, sleep.
void idle_check() {
  bb::display::TouchScreen::Options o;
  auto screen = bb::display::TouchScreen::open(o);
  if (!screen) {
    fmt::print("idle check: {}\n", screen.error());
    return;
  }
  auto& table = g_tables->front();
  (*screen)->show(table.snapshot());
  (*screen)->draw_if_needed();
  const int before = (*screen)->frames_drawn();
  const auto start = std::chrono::steady_clock::now();
  int polls = 0;
  while (std::chrono::steady_clock::now() - start < std::chrono::seconds(2)) {
    (*screen)->pump();
    (*screen)->draw_if_needed();
    (*screen)->wait(20);
    ++polls;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  fmt::print("idle: {} frames drawn over {:.1f} s of an unchanged table ({} polls of the event loop)\n",
             (*screen)->frames_drawn() - before, seconds, polls);
}

}  // namespace

int main(int argc, char** argv) {
  setenv("SDL_VIDEODRIVER", "dummy", 0);
  setenv("SDL_AUDIODRIVER", "dummy", 0);
  auto tables = bb::display::SampleTable::samples(EDITIONS_DIR);
  if (!tables) {
    fmt::print(stderr, "bench_display: {}\n", tables.error());
    return 1;
  }
  g_tables = &*tables;
  idle_check();
  for (auto& t : *tables) {
    for (const auto& [screen, name] : kScreens) {
      if (screen == ScreenId::auction && !t.game().state().auction) continue;
      benchmark::RegisterBenchmark(fmt::format("draw_800x480/{}/{}", name, t.name()).c_str(), draw_screen, &t,
                                   screen)
          ->Unit(benchmark::kMillisecond)
          ->MinTime(0.05);
    }
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
