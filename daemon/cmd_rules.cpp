#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "daemon/commands.h"
#include "daemon/ledger_replay.h"
#include "daemon/paths.h"
#include "daemon/text_file.h"
#include "rules/bot.h"
#include "rules/replay.h"
#include "rules/script.h"

namespace bb::daemon {

namespace {

struct ReplayOptions {
  std::string script;
  bool json = false;
  bool keep_going = false;
  std::string editions;
  std::string db;
};

int run_replay(const ReplayOptions& o) {
  if (!o.db.empty()) return replay_into_ledger(o.script, o.db, o.json, o.keep_going);
  auto text = read_text_file(o.script, "the game script", kMaxScriptFileBytes);
  if (!text) {
    fmt::print(stderr, "boardbank replay: {}\n", text.error().message);
    return 2;
  }
  auto dirs = edition_dirs(o.editions);
  if (!dirs) {
    fmt::print(stderr, "boardbank replay: {}\n", dirs.error());
    return 2;
  }
  auto result = rules::replay_script(*text, o.script, *dirs, o.keep_going);
  for (const auto& e : result.errors) fmt::print(stderr, "{}\n", e);
  if (!result.game) return 2;
  if (o.json)
    fmt::print("{}\n", rules::state_to_json(*result.game));
  else
    fmt::print("{}", rules::state_summary(*result.game));
  if (auto bad = result.game->invariant_violations(); !bad.empty()) {
    for (const auto& b : bad) fmt::print(stderr, "invariant broken: {}\n", b);
    return 3;
  }
  return result.errors.empty() ? 0 : 1;
}

struct SimulateOptions {
  int games = 1;
  std::uint64_t seed = 1;
  int players = 4;
  int max_turns = 1000;
  std::string edition = "classic";
  std::string editions;
  bool quiet = false;
  std::map<std::string, bool> options;  // the edition's variant switches, as a game's setup gives them
};

int run_simulate(const SimulateOptions& o) {
  if (o.players < 2 || o.players > 8) {
    fmt::print(stderr, "boardbank simulate: --players must be 2 to 8\n");
    return 2;
  }
  auto dirs = edition_dirs(o.editions);
  if (!dirs) {
    fmt::print(stderr, "boardbank simulate: {}\n", dirs.error());
    return 2;
  }
  auto edition = rules::load_edition(o.edition, *dirs);
  if (!edition) {
    fmt::print(stderr, "boardbank simulate: {}\n", edition.error().what());
    return 2;
  }
  auto shared = std::make_shared<const rules::Edition>(std::move(*edition));
  static const char* kNames[] = {"Ann", "Bob", "Cleo", "Dev", "Eve", "Finn", "Gus", "Hana"};
  static const char* kTokens[] = {"car", "dog", "hat", "ship", "boot", "iron", "thimble", "cat"};
  std::uint64_t signature = 0xcbf29ce484222325ULL;
  long long total_turns = 0, total_inputs = 0, finished = 0, broken = 0;
  bool verbose = o.games <= 5 && !o.quiet;
  auto started = std::chrono::steady_clock::now();
  for (int gi = 0; gi < o.games; ++gi) {
    rules::Setup setup;
    setup.edition = shared->id;
    setup.seed = o.seed + static_cast<std::uint64_t>(gi);
    setup.options = o.options;
    for (int p = 0; p < o.players; ++p) setup.players.push_back({kNames[p], kTokens[p], "", {}});
    auto game = rules::Game::start(shared, setup);
    if (!game) {
      fmt::print(stderr, "boardbank simulate: {}\n", game.error());
      return 2;
    }
    rules::Bot bot(setup.seed);
    while (!game->state().ended) {
      rules::Input input =
          game->state().turns >= o.max_turns && game->state().pending.empty() && !game->state().auction
              ? rules::Input{rules::End{}}
              : bot.next(*game);
      auto applied = game->apply(input);
      ++total_inputs;
      if (!applied) {
        fmt::print(stderr, "game {} (seed {}): the bot's input {} was refused: {}\n", gi, setup.seed,
                   rules::input_to_json(input, {}, game->edition()), applied.error());
        ++broken;
        break;
      }
      if (auto bad = game->invariant_violations(); !bad.empty()) {
        fmt::print(stderr, "game {} (seed {}), input {}: invariant broken: {}\n", gi, setup.seed,
                   game->inputs().size(), bad.front());
        ++broken;
        break;
      }
    }
    total_turns += game->state().turns;
    finished += game->state().ended ? 1 : 0;
    signature = (signature ^ game->signature()) * 0x100000001b3ULL;
    if (verbose) {
      fmt::print("Game {} (seed {})\n{}", gi + 1, setup.seed, rules::state_summary(*game));
      const auto& postings = game->state().postings;
      std::size_t from = postings.size() > 8 ? postings.size() - 8 : 0;
      fmt::print("  last postings:\n");
      for (std::size_t i = from; i < postings.size(); ++i)
        fmt::print("    #{:<5} {:>10}  {} -> {}  {}\n", postings[i].seq,
                   game->edition().format_money(postings[i].amount), game->account_name(postings[i].from),
                   game->account_name(postings[i].to), game->memo_text(postings[i]));
      fmt::print("\n");
    }
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  fmt::print("games {}  finished {}  turns {}  inputs {}  invariant failures {}\n", o.games, finished,
             total_turns, total_inputs, broken);
  fmt::print("games/s {:.1f}  turns/s {:.0f}  (invariants checked after every input)\n", o.games / seconds,
             total_turns / seconds);
  fmt::print("signature {:016x}\n", signature);
  return broken == 0 ? 0 : 1;
}

struct CheckEditionOptions {
  std::string file;
  int games = 1000;
  std::string editions;
};

// The loader's checks, then simulated games with every invariant checked after every input: with the
// edition's default switches, and again with each of its options turned on.
int run_check_edition(const CheckEditionOptions& o) {
  auto dirs = edition_dirs(o.editions);
  if (!dirs) {
    fmt::print(stderr, "boardbank check-edition: {}\n", dirs.error());
    return 2;
  }
  auto edition = rules::load_edition(o.file, *dirs);
  if (!edition) {
    fmt::print(stderr, "{}\n", edition.error().what());
    return 2;
  }
  int ownable = 0;
  for (const auto& sp : edition->spaces) ownable += sp.price > 0 ? 1 : 0;
  int cards = 0;
  for (const auto& d : edition->decks)
    for (const auto& c : d.cards) cards += c.copies;
  fmt::print("{} ({}): {} spaces, {} to own in {} groups, {} decks with {} cards, {} options\n",
             edition->name, edition->id, edition->spaces.size(), ownable, edition->groups.size(),
             edition->decks.size(), cards, edition->options.size());
  fmt::print("the file reads cleanly; playing {} games with every invariant checked after every input\n",
             o.games);
  SimulateOptions sim;
  sim.edition = o.file;
  sim.editions = o.editions;
  sim.games = o.games;
  sim.quiet = true;
  int result = run_simulate(sim);
  for (const auto& option : edition->options) {
    if (result != 0) break;
    sim.options = {{option.name, !option.default_on}};
    sim.games = std::max(1, o.games / 10);
    fmt::print("with option {} {}:\n", option.name, option.default_on ? "off" : "on");
    result = run_simulate(sim);
  }
  fmt::print("{}\n", result == 0 ? "the edition is ready for game night"
                                 : "the edition broke a rule of the engine: see the game and input above");
  return result;
}

}  // namespace

void add_rules_commands(CLI::App& app) {
  auto replay_opts = std::make_shared<ReplayOptions>();
  auto* replay =
      app.add_subcommand("replay", "Run a game script through the engine and print the resulting state");
  replay->add_option("script", replay_opts->script, "The game script (JSON Lines)")->required();
  replay->add_flag("--json", replay_opts->json, "Print the state dump as JSON");
  replay->add_flag("--keep-going", replay_opts->keep_going, "Report refused lines and carry on");
  replay->add_option("--editions", replay_opts->editions, "Directory of edition files")
      ->check(CLI::ExistingDirectory);
  replay->add_option("--db", replay_opts->db,
                     "Play the script into this ledger database, one transaction per input, skipping inputs "
                     "already stored (safe to run again after a crash)");
  replay->callback([replay_opts] { std::exit(run_replay(*replay_opts)); });

  auto sim_opts = std::make_shared<SimulateOptions>();
  auto* simulate =
      app.add_subcommand("simulate", "Play complete games between simple bots, checking every invariant");
  simulate->add_option("--games", sim_opts->games, "How many games")->check(CLI::Range(1, 10'000'000));
  simulate->add_option("--seed", sim_opts->seed, "The first game's seed");
  simulate->add_option("--players", sim_opts->players, "Players per game (2-8)")->check(CLI::Range(2, 8));
  simulate
      ->add_option("--max-turns", sim_opts->max_turns,
                   "End a game as a time-limit game after this many turns")
      ->check(CLI::Range(1, 1'000'000));
  simulate->add_option("--edition", sim_opts->edition, "Edition id or file");
  simulate->add_option("--editions", sim_opts->editions, "Directory of edition files")
      ->check(CLI::ExistingDirectory);
  simulate->add_flag("--quiet", sim_opts->quiet, "Print only the totals");
  simulate->callback([sim_opts] { std::exit(run_simulate(*sim_opts)); });

  auto check_opts = std::make_shared<CheckEditionOptions>();
  auto* check = app.add_subcommand(
      "check-edition",
      "Check an edition file: the loader's checks, then simulated games with every invariant");
  check->add_option("file", check_opts->file, "The edition file (or an edition id)")->required();
  check->add_option("--games", check_opts->games, "How many games with the default switches")
      ->check(CLI::Range(1, 10'000'000));
  check->add_option("--editions", check_opts->editions, "Directory of edition files (for `extends`)")
      ->check(CLI::ExistingDirectory);
  check->callback([check_opts] { std::exit(run_check_edition(*check_opts)); });
}

}  // namespace bb::daemon
