// `boardbank demo`: one complete classic game at the virtual table, through the service's own loop, devices,
// camera thread, table, ledger and screen. The bots are the only thing the service does not know.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "daemon/commands.h"
#include "daemon/demo_bots.h"
#include "daemon/paths.h"
#include "daemon/service.h"
#include "daemon/virtual_table.h"
#include "daemon/window_size.h"
#include "ledger/ledger.h"
#include "rules/script.h"
#include "vision/frame_source.h"

namespace bb::daemon {

namespace {

struct DemoOptions {
  bool headless = false;
  double speed = 1;
  std::uint64_t seed = 1;
  std::string db;
  int players = 4;
  int turns = 0;
  std::string size = "1024x600";
  std::string editions;
  std::string fonts;
  std::string state_json;  // where to write the final state (tests compare it with a replay of the ledger)
  bool no_slips = false;
};

// Where a demo keeps its ledger unless told: the user's state folder, so `./run.sh demo` resumes an
// unfinished demo game and never touches a real table's ledger.
std::string default_db() {
  const char* state = std::getenv("XDG_STATE_HOME");
  const char* home = std::getenv("HOME");
  std::filesystem::path dir = state && *state ? std::filesystem::path(state)
                              : home && *home ? std::filesystem::path(home) / ".local" / "state"
                                              : std::filesystem::temp_directory_path();
  return (dir / "boardbank" / "demo.db").string();
}

// The service's camera thread owns its frame source; the bots keep moving tokens on the same camera.
class SharedCamera final : public vision::FrameSource {
 public:
  explicit SharedCamera(std::shared_ptr<VirtualCamera> camera) : camera_(std::move(camera)) {}
  Grab grab(cv::Mat& frame) override { return camera_->grab(frame); }
  std::string describe() const override { return camera_->describe(); }

 private:
  std::shared_ptr<VirtualCamera> camera_;
};

// A demo must never play on a real family's unfinished game: the newest unfinished game in the file must be
// one of the demo's (its players hold the demo's cards), or there must be none.
std::optional<std::string> not_a_demo_ledger(const std::string& path,
                                             const std::vector<std::string>& editions) {
  if (!std::filesystem::exists(path)) return std::nullopt;
  ledger::LedgerOptions options;
  options.path = path;
  options.edition_dirs = editions;
  auto opened = ledger::Ledger::open(options);
  if (!opened) return fmt::format("{}: {}", path, opened.error().message);
  auto unfinished = opened->newest_unfinished_game();
  if (!unfinished) return std::nullopt;
  auto resumed = opened->resume(*unfinished);
  const rules::Game* game = resumed ? opened->game(*unfinished) : nullptr;
  if (!game) return std::nullopt;  // the service reports what is wrong with it
  DemoFamily family;
  family.players = static_cast<int>(game->state().players.size());
  for (int p = 0; p < family.players; ++p)
    if (p >= DemoFamily::kMaxPlayers ||
        game->state().players[static_cast<std::size_t>(p)].card != family.card(p))
      return fmt::format(
          "{} holds an unfinished game that is not a demo game (game {}); give the demo its own file with "
          "--db",
          path, *unfinished);
  return std::nullopt;
}

// The end of the demo: the standings and what the ledger holds, read back from the file.
void print_summary(const std::string& path, const std::vector<std::string>& editions) {
  ledger::LedgerOptions options;
  options.path = path;
  options.edition_dirs = editions;
  auto opened = ledger::Ledger::open(options);
  if (!opened) {
    fmt::print("ledger {}: {}\n", path, opened.error().message);
    return;
  }
  const auto games = opened->list();
  if (games.empty()) {
    fmt::print("ledger {}: no game stored\n", path);
    return;
  }
  const auto& newest = games.back();
  if (auto resumed = opened->resume(newest.id); resumed) {
    if (const rules::Game* game = opened->game(newest.id)) {
      const auto& st = game->state();
      std::vector<int> order(st.players.size());
      for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
      std::stable_sort(order.begin(), order.end(),
                       [&](int a, int b) { return game->worth(a) > game->worth(b); });
      fmt::print("standings after {} turns{}:\n", st.turns, st.ended ? "" : " (unfinished)");
      for (std::size_t rank = 0; rank < order.size(); ++rank) {
        const auto& p = st.players[static_cast<std::size_t>(order[rank])];
        fmt::print("  {}. {:<5} worth ${:<6} cash ${}{}{}\n", rank + 1, p.name, game->worth(order[rank]),
                   p.cash, p.bankrupt ? "  bankrupt" : "", st.winner == order[rank] ? "  winner" : "");
      }
      fmt::print("ledger {}: game {}, {} inputs, {} postings, {}\n", path, newest.id, newest.inputs,
                 st.postings.size(), newest.finished_at ? "finished" : "unfinished");
    }
  } else {
    fmt::print("ledger {}: game {} cannot be read back: {}\n", path, newest.id, resumed.error().message);
  }
  const auto problems = opened->invariant_violations();
  fmt::print("ledger check: {}\n", problems.empty() ? "ok" : fmt::format("{} problems", problems.size()));
}

int run_demo(const DemoOptions& o) {
  if (o.players < 2 || o.players > DemoFamily::kMaxPlayers) {
    fmt::print(stderr, "boardbank demo: --players must be 2 to {}\n", DemoFamily::kMaxPlayers);
    return 2;
  }
  if (!(o.speed >= 0.1 && o.speed <= 1000)) {
    fmt::print(stderr, "boardbank demo: --speed must be 0.1 to 1000 (1: as fast as a family)\n");
    return 2;
  }
  if (o.turns < 0) {
    fmt::print(stderr, "boardbank demo: --turns must be 0 (play to the end) or more\n");
    return 2;
  }
  const auto size = parse_window_size(o.size, 640, 400);
  if (!size) {
    fmt::print(stderr, "boardbank demo: --size must be WIDTHxHEIGHT, at least 640x400 (e.g. 1024x600)\n");
    return 2;
  }
  const std::string db = o.db.empty() ? default_db() : o.db;
  std::error_code ec;
  if (const auto parent = std::filesystem::path(db).parent_path(); !parent.empty())
    std::filesystem::create_directories(parent, ec);
  const std::vector<std::string> editions = edition_dirs(o.editions);
  if (auto refused = not_a_demo_ledger(db, editions)) {
    fmt::print(stderr, "boardbank demo: {}\n", *refused);
    return 2;
  }

  auto devices = VirtualDevices::open();
  if (!devices) {
    fmt::print(stderr, "boardbank demo: {}\n", devices.error());
    return 1;
  }
  std::shared_ptr<VirtualDevices> shared_devices = std::move(*devices);
  VirtualCamera::Settings camera_settings;
  camera_settings.players = o.players;
  camera_settings.seed = o.seed;
  camera_settings.speed = o.speed;
  auto camera = std::make_shared<VirtualCamera>(camera_settings);

  ServiceSetup setup;
  Config& config = setup.config;
  config.ledger.path = db;
  config.ledger.backup_dir = (std::filesystem::path(db).parent_path() / "demo-backups").string();
  config.editions_dir = editions.empty() ? std::string() : editions.front();
  config.banker_card = DemoFamily::banker_card();
  config.screen.width = size->width;
  config.screen.height = size->height;
  config.screen.window = !o.headless;
  config.screen.fullscreen = false;
  config.screen.sound = false;
  config.screen.font_dir = o.fonts;
  config.house_rules.virtual_decks = true;
  config.camera.width = camera_settings.width;
  config.camera.height = camera_settings.height;
  setup.devices = {shared_devices->dice_config(), shared_devices->reader_config(Reader::wiegand),
                   shared_devices->reader_config(Reader::rc522)};
  setup.devices_from_config = false;
  setup.frame_source = [camera]() -> std::expected<std::unique_ptr<vision::FrameSource>, std::string> {
    return std::make_unique<SharedCamera>(camera);
  };
  setup.headless = o.headless;

  DemoBots::Settings bots;
  bots.family.players = o.players;
  bots.seed = o.seed;
  bots.speed = o.speed;
  bots.turns = o.turns;
  if (o.no_slips) bots.slips.miscount = bots.slips.wrong_card = 0;
  if (o.headless) bots.print = [](const std::string& line) { fmt::print("{}\n", line); };
  auto bot_players = std::make_unique<DemoBots>(bots, shared_devices, camera);
  DemoBots* bots_seen = bot_players.get();
  std::string final_state;
  bot_players->on_game_over(
      [&final_state](const rules::Game& game) { final_state = rules::state_to_json(game); });
  setup.participants.push_back(std::move(bot_players));

  fmt::print("boardbank demo: seed {}, {} players, speed {}, ledger {}\n", o.seed, o.players, o.speed, db);
  std::fflush(stdout);
  int code = 0;
  DemoBots::Tally tally;
  {
    auto service = Service::create(std::move(setup));
    if (!service) {
      fmt::print(stderr, "boardbank demo: {}\n", service.error());
      return 1;
    }
    code = (*service)->run();
    tally = bots_seen->tally();  // the service (and the bots it owns) end with this block
  }
  fmt::print(
      "demo: {} throws, {} card taps ({} of the wrong card), {} token moves ({} miscounted), "
      "{} touches, {} questions answered{}\n",
      tally.throws, tally.taps, tally.wrong_taps, tally.token_moves, tally.miscounts, tally.touches,
      tally.questions, tally.stopped_because.empty() ? "" : "; " + tally.stopped_because);
  if (!o.state_json.empty() && !final_state.empty()) {
    std::ofstream out(o.state_json);
    out << final_state << "\n";
    if (!out) fmt::print(stderr, "boardbank demo: cannot write {}\n", o.state_json);
  }
  print_summary(db, editions);
  return code;
}

}  // namespace

void add_demo_commands(CLI::App& app) {
  auto o = std::make_shared<DemoOptions>();
  auto* demo = app.add_subcommand(
      "demo",
      "Play one classic game at a virtual table: bots throw the simulated dice, tap the simulated card "
      "readers and move their tokens in front of a rendered camera; the service does the rest");
  demo->add_flag("--headless", o->headless, "draw offscreen; print one line per turn and the standings");
  demo->add_option("--speed", o->speed, "how much faster than a family the bots act (0.1-1000)")
      ->capture_default_str();
  demo->add_option("--seed", o->seed, "the same seed plays the same game (dice, bots, camera)")
      ->capture_default_str();
  demo->add_option("--db", o->db,
                   "the ledger file; an unfinished demo game in it is resumed (default: "
                   "$XDG_STATE_HOME/boardbank/demo.db)");
  demo->add_option("--players", o->players, "players at the table (2-6)")->capture_default_str();
  demo->add_option("--turns", o->turns,
                   "play the edition's time-limit game, ended after this many turns (0: play to the end)")
      ->capture_default_str();
  demo->add_option("--size", o->size, "the screen, WIDTHxHEIGHT")->capture_default_str();
  demo->add_option("--editions", o->editions, "folder holding the editions");
  demo->add_option("--fonts", o->fonts, "folder holding DejaVuSans.ttf (default: Debian's)");
  demo->add_option("--state-json", o->state_json,
                   "write the final game state here (as `replay --json` prints)");
  demo->add_flag("--no-slips", o->no_slips, "the bots never miscount or tap the wrong card");
  demo->callback([o] { std::exit(run_demo(*o)); });
}

}  // namespace bb::daemon
