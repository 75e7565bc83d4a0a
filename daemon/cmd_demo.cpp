// `boardbank demo`: one complete classic game at the virtual table, through the service's own loop, devices,
// camera thread, table, ledger and screen. The bots are the only thing the service does not know.
#include <CLI/CLI.hpp>
#include <cstdlib>
#include <memory>

#include "daemon/commands.h"
#include "daemon/demo.h"

namespace bb::daemon {

void add_demo_commands(CLI::App& app) {
  auto o = std::make_shared<DemoOptions>();
  auto* demo = app.add_subcommand(
      "demo",
      "Play one classic game at a virtual table: bots throw the simulated dice, tap the simulated card "
      "readers and move their tokens in front of a rendered camera; the service does the rest");
  demo->add_flag("--headless", o->headless, "draw offscreen; print one line per turn and the standings");
  demo->add_option("--speed", o->speed, "how much faster than a family the bots act (0.1-1000)")
      ->capture_default_str()
      ->check(CLI::Range(0.1, 1000.0));
  demo->add_option("--seed", o->seed, "the same seed plays the same game (dice, bots, camera)")
      ->capture_default_str();
  demo->add_option("--db", o->db,
                   "the ledger file; an unfinished demo game in it is resumed (default: "
                   "$XDG_STATE_HOME/boardbank/demo.db)");
  demo->add_option("--players", o->players, "players at the table (2-6)")
      ->capture_default_str()
      ->check(CLI::Range(2, 6));
  demo->add_option("--turns", o->turns,
                   "play the edition's time-limit game, ended after this many turns (0: play to the end)")
      ->capture_default_str()
      ->check(CLI::Range(0, 1'000'000));
  demo->add_option("--time-factor", o->time_factor,
                   "this machine is N times slower than a Pi (an emulator): the camera may be silent N times "
                   "longer before it is called gone (1-100)")
      ->capture_default_str()
      ->check(CLI::Range(1, 100));
  demo->add_option("--size", o->size, "the screen, WIDTHxHEIGHT")->capture_default_str();
  demo->add_option("--editions", o->editions, "folder holding the editions")->check(CLI::ExistingDirectory);
  demo->add_option("--fonts", o->fonts, "folder holding DejaVuSans.ttf (default: Debian's)");
  demo->add_option("--state-json", o->state_json,
                   "write the final game state here (as `replay --json` prints)");
  demo->add_option("--screenshots", o->screenshots,
                   "save the screen as PNGs in this folder at the evening's key moments (docs/playing.md)");
  demo->add_flag("--no-slips", o->no_slips, "the bots never miscount or tap the wrong card");
  demo->add_flag("--one-at-a-time", o->one_at_a_time,
                 "the tokens start beside the board: the family learns them one at a time as the table asks");
  demo->add_flag("--log-inputs", o->log_inputs,
                 "headless: also print one line per input stored in the ledger (\"input N: ...\")");
  demo->callback([o] { std::exit(run_demo(*o)); });
}

}  // namespace bb::daemon
