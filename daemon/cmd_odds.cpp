// `boardbank odds SCRIPT`: each player's chance of winning at the end of a game script, by playouts with the
// bots on the odds worker's threads.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <condition_variable>
#include <fstream>
#include <mutex>
#include <sstream>

#include "daemon/commands.h"
#include "daemon/paths.h"
#include "daemon/text_file.h"
#include "odds/odds_worker.h"
#include "rules/replay.h"

namespace bb::daemon {

namespace {

struct OddsOptions {
  std::string script;
  int playouts = 2000;
  std::uint64_t seed = 1;
  int threads = 0;
  int turn_cap = 400;
  std::string editions;
};

int run_odds(const OddsOptions& o) {
  auto text = read_text_file(o.script, "the game script", kMaxScriptFileBytes);
  if (!text) {
    fmt::print(stderr, "boardbank odds: {}\n", text.error().message);
    return 2;
  }
  auto dirs = edition_dirs(o.editions);
  if (!dirs) {
    fmt::print(stderr, "boardbank odds: {}\n", dirs.error());
    return 2;
  }
  auto replayed = rules::replay_script(*text, o.script, *dirs, false);
  for (const auto& e : replayed.errors) fmt::print(stderr, "{}\n", e);
  if (!replayed.ok()) {
    fmt::print(stderr,
               "boardbank odds: the script must replay without a refused line (try `boardbank replay {}`)\n",
               o.script);
    return 2;
  }
  const rules::Game& game = *replayed.game;
  const auto& st = game.state();
  if (st.ended) {
    std::vector<std::string> names;
    for (rules::PlayerId w : st.winners) names.push_back(st.players[w].name);
    fmt::print("The game is over: {} won. Nothing left to estimate.\n", fmt::join(names, " and "));
    return 0;
  }

  std::mutex mutex;
  std::condition_variable reported;
  odds::OddsWorker worker(o.threads, [&] {
    std::lock_guard lock(mutex);
    reported.notify_all();
  });
  auto job =
      worker.start({game, std::nullopt, {.playouts = o.playouts, .seed = o.seed, .turn_cap = o.turn_cap}});
  if (!job) {
    fmt::print(stderr, "boardbank odds: {}\n", job.error());
    return 2;
  }
  {
    std::unique_lock lock(mutex);
    reported.wait(lock, [&] { return worker.progress().done; });
  }
  const odds::Chances c = worker.progress().without_trade;

  const auto inputs = game.input_count();
  fmt::print(
      "Chances of winning after {} input{} of {} (turn {}), {} playouts with seed {} on {} thread{}:\n",
      inputs, inputs == 1 ? "" : "s", o.script, st.turns, c.playouts, o.seed, worker.threads(),
      worker.threads() == 1 ? "" : "s");
  std::size_t width = 4;
  for (const auto& p : st.players) width = std::max(width, p.name.size());
  for (std::size_t p = 0; p < st.players.size(); ++p) {
    const odds::Chance& ch = c.players[p];
    fmt::print("  {:<{}}  {:<12}  95% interval {:.1f}% to {:.1f}%{}\n", st.players[p].name, width,
               odds::format_chance(ch), 100 * ch.low(), 100 * ch.high(),
               st.players[p].bankrupt ? "  (bankrupt)" : "");
  }
  if (c.capped > 0)
    fmt::print(
        "{} of {} playouts were still going after {} more turns and were ended there as a time-limit "
        "game, won by worth.\n",
        c.capped, c.playouts, o.turn_cap);
  if (c.refused > 0) {
    fmt::print(stderr,
               "boardbank odds: {} playouts stopped on a refused bot input (a bug: please report it)\n",
               c.refused);
    return 1;
  }
  return 0;
}

}  // namespace

void add_odds_commands(CLI::App& app) {
  auto opts = std::make_shared<OddsOptions>();
  auto* odds = app.add_subcommand(
      "odds",
      "Each player's chance of winning at the end of a game script, by playing the rest out with bots");
  odds->add_option("script", opts->script, "The game script (JSON lines, spec/game-script.md)")->required();
  odds->add_option("--playouts", opts->playouts, "How many times to play the rest of the game out")
      ->check(CLI::Range(1, 10'000'000));
  odds->add_option("--seed", opts->seed, "The seed of the playouts' dice; the same seed gives the same odds");
  odds->add_option("--threads", opts->threads, "Threads to play on (0: one per hardware thread)")
      ->check(CLI::Range(0, 64));
  odds->add_option("--turn-cap", opts->turn_cap,
                   "End a playout as a time-limit game (won by worth) after this many more turns")
      ->check(CLI::Range(1, 100'000));
  odds->add_option("--editions", opts->editions, "Directory of edition files")->check(CLI::ExistingDirectory);
  odds->callback([opts] { std::exit(run_odds(*opts)); });
}

}  // namespace bb::daemon
