// Turns per second of simulated play on one core: a turn is one roll and everything it causes, including the
// questions the bots answer along the way. Invariants are not checked here (the tests do that).
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <chrono>
#include <ctime>
#include <string>
#include <string_view>

#include "rules/bot.h"
#include "rules/edition.h"
#include "rules/game.h"
#include "rules/playout_engine.h"

namespace {

std::shared_ptr<const bb::rules::Edition> classic() {
  static auto ed = [] {
    auto loaded = bb::rules::load_edition("classic", {EDITIONS_DIR});
    if (!loaded) throw std::runtime_error(loaded.error().what());
    return std::make_shared<const bb::rules::Edition>(std::move(*loaded));
  }();
  return ed;
}

struct Totals {
  long long turns = 0;
  long long inputs = 0;
  long long games = 0;
  bb::rules::PlayoutEngine::Stats engine;  // the compact engine's points at rest, and those it handed over
};

// keep_history false: the game keeps no inputs for undo (Game::forget_history); with_events false: the bot's
// decisions go through Bot::play (fused with the engine) and Game::play, which build no events. Both false is
// how the odds' playouts play: then the game keeps no journal of postings either (Game::forget_journal).
// Never inlined: callgrind's --toggle-collect names it (main, below).
// compact: the same games by the compact playout engine (rules/playout_engine.h), as the odds' playouts now
// play them (no history, journal or events either).
[[gnu::noinline]] Totals play_games(int games, std::uint64_t seed, int players, bool keep_history = true,
                                    bool with_events = true, bool compact = false) {
  Totals t;
  // The players' names are made once: the figures are the games', not the harness's strings.
  bb::rules::Setup setup;
  setup.edition = "classic";
  for (int p = 0; p < players; ++p) setup.players.push_back({"P" + std::to_string(p), "", "", {}});
  for (int g = 0; g < games; ++g) {
    setup.seed = seed + static_cast<std::uint64_t>(g);
    auto game = bb::rules::Game::start(classic(), setup);
    if (!keep_history) game->forget_history();
    if (!keep_history && !with_events) game->forget_journal();  // as a playout plays: no journal either
    bb::rules::Bot bot(setup.seed);
    if (compact) {
      game->forget_history();
      game->forget_journal();
      if (bb::rules::PlayoutEngine::play(*game, bot, 1000, nullptr, nullptr, &t.engine) !=
          bb::rules::PlayoutEngine::Result::ended)
        std::abort();
    }
    while (!game->state().ended) {
      const bool cap = game->state().turns >= 1000 && game->state().pending.empty() && !game->state().auction;
      if (!with_events && !cap) {
        // As a playout plays: the bot's decision and the engine fused (Bot::play), no Input for a throw.
        if (!bot.play(*game)) std::abort();
      } else {
        bb::rules::Input in = cap ? bb::rules::Input{bb::rules::End{}} : bot.next(*game);
        if (with_events ? !game->apply(in) : !game->play(in)) std::abort();
      }
    }
    // Counted by the game: one Bot::play call may play a throw and the questions it asks.
    t.inputs += static_cast<long long>(game->input_count());
    t.turns += game->state().turns;
    ++t.games;
  }
  return t;
}

void BM_SimulatedTurns(benchmark::State& state) {
  std::uint64_t seed = 1;
  long long turns = 0, inputs = 0;
  for (auto _ : state) {
    Totals t = play_games(10, seed, static_cast<int>(state.range(0)));
    seed += 10;
    turns += t.turns;
    inputs += t.inputs;
  }
  state.counters["turns/s"] = benchmark::Counter(static_cast<double>(turns), benchmark::Counter::kIsRate);
  state.counters["inputs/s"] = benchmark::Counter(static_cast<double>(inputs), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_SimulatedTurns)->Arg(4)->Arg(2)->Unit(benchmark::kMillisecond);

void BM_ApplyOneRoll(benchmark::State& state) {
  bb::rules::Setup setup;
  setup.edition = "classic";
  setup.players = {{"Ann", "", "", {}}, {"Bob", "", "", {}}};
  auto game = bb::rules::Game::start(classic(), setup);
  bb::rules::Bot bot(3);
  for (auto _ : state) {
    if (game->state().ended) {
      state.PauseTiming();
      game = bb::rules::Game::start(classic(), setup);
      state.ResumeTiming();
    }
    auto out = game->apply(bot.next(*game));
    benchmark::DoNotOptimize(out);
  }
}
BENCHMARK(BM_ApplyOneRoll);

}  // namespace

int main(int argc, char** argv) {
  // `bench_rules --playout-games=N`: only N of the games below, as a playout plays them, and no timing: a
  // fixed run for `valgrind --tool=cachegrind`, whose instruction count does not depend on the machine's
  // load. The edition is loaded before the games, so that `valgrind --tool=callgrind
  // --toggle-collect='*play_games*'` counts the games alone (the loading was about 5.25M instructions of the
  // whole run's count).
  if (argc > 1) {
    const std::string_view arg = argv[1];
    constexpr std::string_view flag = "--playout-games=";
    if (arg.starts_with(flag)) {
      const int games = std::stoi(std::string(arg.substr(flag.size())));
      classic();
      Totals tp = play_games(games, 100, 4, false, false);
      fmt::print("rules: {} games as a playout plays, {} turns, {} inputs\n", tp.games, tp.turns, tp.inputs);
      return 0;
    }
    constexpr std::string_view compact_flag = "--compact-games=";
    if (arg.starts_with(compact_flag)) {
      const int games = std::stoi(std::string(arg.substr(compact_flag.size())));
      classic();
      Totals tc = play_games(games, 100, 4, false, false, true);
      fmt::print("rules: {} games by the compact playout engine, {} turns, {} inputs\n", tc.games, tc.turns,
                 tc.inputs);
      return 0;
    }
  }
  // The headline figure the issue asks for, printed plainly before Google Benchmark's table.
  // CPU time of this thread, so other work on a shared machine does not lower the figure.
  auto cpu_seconds = [] {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
  };
  auto start = std::chrono::steady_clock::now();
  double cpu_start = cpu_seconds();
  Totals t = play_games(4000, 100, 4);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  double cpu = cpu_seconds() - cpu_start;
  fmt::print("rules: {} games of 4 bots, {} turns, {} inputs; {:.2f} s CPU on one core ({:.2f} s wall)\n",
             t.games, t.turns, t.inputs, cpu, s);
  fmt::print("rules: {:.0f} turns/s, {:.0f} inputs/s, {:.0f} games/s (CPU time)\n", t.turns / cpu,
             t.inputs / cpu, t.games / cpu);
  // The same games without an input history kept for undo.
  const double cpu_no_history_start = cpu_seconds();
  Totals th = play_games(4000, 100, 4, false);
  const double cpu_no_history = cpu_seconds() - cpu_no_history_start;
  fmt::print("rules: {:.0f} turns/s without an undo history (CPU time)\n", th.turns / cpu_no_history);
  // The same games as a playout plays them: no undo history, no journal and no events (Game::play).
  const double cpu_playout_start = cpu_seconds();
  Totals tp = play_games(4000, 100, 4, false, false);
  const double cpu_playout = cpu_seconds() - cpu_playout_start;
  fmt::print(
      "rules: {} turns; {:.0f} turns/s without an undo history, journal or events (as the odds' playouts "
      "play; "
      "CPU time)\n",
      tp.turns, tp.turns / cpu_playout);
  // The same games by the compact playout engine (rules/playout_engine.h): the same turns and inputs.
  const double cpu_compact_start = cpu_seconds();
  Totals tc = play_games(4000, 100, 4, false, false, true);
  const double cpu_compact = cpu_seconds() - cpu_compact_start;
  if (tc.turns != tp.turns || tc.inputs != tp.inputs) {
    fmt::print(stderr, "rules: the compact engine played other games ({} turns, {} inputs)\n", tc.turns,
               tc.inputs);
    return 1;
  }
  fmt::print(
      "rules: {} turns; {:.0f} turns/s by the compact playout engine (the same games; {} of {} points "
      "between "
      "moves handed to Game; CPU time)\n",
      tc.turns, tc.turns / cpu_compact, tc.engine.handed_over, tc.engine.from_rest);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
