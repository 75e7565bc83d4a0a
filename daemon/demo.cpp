// `boardbank demo` (see demo.h): the service set up with the virtual table and the bots.
#include "daemon/demo.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string_view>

#include "daemon/paths.h"
#include "daemon/window_size.h"
#include "ledger/ledger.h"
#include "rules/script.h"
#include "vision/frame_source.h"

namespace bb::daemon {

// Where a demo keeps its ledger unless told: the user's state folder, so `./run.sh demo` resumes an
// unfinished demo game and never touches a real table's ledger.
std::string default_demo_db() {
  const char* state = std::getenv("XDG_STATE_HOME");
  const char* home = std::getenv("HOME");
  std::filesystem::path dir = state && *state ? std::filesystem::path(state)
                              : home && *home ? std::filesystem::path(home) / ".local" / "state"
                                              : std::filesystem::temp_directory_path();
  return (dir / "boardbank" / "demo.db").string();
}

namespace {

// "1 question", "2 questions": a count and its noun, for the summary lines.
std::string count_of(int n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
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

}  // namespace

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
  for (rules::PlayerId p : family.seats())
    if (p.number() >= DemoFamily::kMaxPlayers || game->state().players[p].card != family.card(p))
      return fmt::format(
          "{} holds an unfinished game that is not a demo game (game {}); give the demo its own file with "
          "--db",
          path, *unfinished);
  return std::nullopt;
}

void print_demo_summary(const std::string& path, const std::vector<std::string>& editions) {
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
      std::vector<rules::PlayerId> order;
      for (rules::PlayerId p : st.players.ids()) order.push_back(p);
      std::stable_sort(order.begin(), order.end(),
                       [&](rules::PlayerId a, rules::PlayerId b) { return game->worth(a) > game->worth(b); });
      fmt::print("standings after {} turns{}:\n", st.turns, st.ended ? "" : " (unfinished)");
      for (std::size_t rank = 0; rank < order.size(); ++rank) {
        const auto& p = st.players[order[rank]];
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

std::optional<std::string> demo_options_problem(const DemoOptions& o) {
  if (o.players < 2 || o.players > DemoFamily::kMaxPlayers)
    return fmt::format("--players must be 2 to {}", DemoFamily::kMaxPlayers);
  if (!(o.speed >= 0.1 && o.speed <= 1000)) return "--speed must be 0.1 to 1000 (1: as fast as a family)";
  if (o.turns < 0) return "--turns must be 0 (play to the end) or more";
  if (o.time_factor < 1 || o.time_factor > 100) return "--time-factor must be 1 to 100 (1: a Pi or faster)";
  if (!parse_window_size(o.size, 640, 400))
    return "--size must be WIDTHxHEIGHT, at least 640x400 (e.g. 1024x600)";
  // Refused before the game, not found out after it has been played.
  if (std::error_code ec; !o.state_json.empty() && std::filesystem::is_directory(o.state_json, ec))
    return fmt::format("--state-json {} is a folder: name the file to write the final state to",
                       o.state_json);
  return std::nullopt;
}

std::expected<Demo, std::string> make_demo(const DemoOptions& o) {
  if (auto problem = demo_options_problem(o)) return std::unexpected(*problem);
  const auto size = parse_window_size(o.size, 640, 400);
  Demo demo;
  demo.db = o.db.empty() ? default_demo_db() : o.db;
  std::error_code ec;
  if (const auto parent = std::filesystem::path(demo.db).parent_path(); !parent.empty())
    std::filesystem::create_directories(parent, ec);
  auto dirs = edition_dirs(o.editions);
  if (!dirs) return std::unexpected(dirs.error());
  demo.editions = std::move(*dirs);
  if (auto refused = not_a_demo_ledger(demo.db, demo.editions)) return std::unexpected(*refused);

  auto devices = VirtualDevices::open();
  if (!devices) return std::unexpected(devices.error());
  demo.devices = std::move(*devices);
  VirtualCamera::Settings camera_settings;
  camera_settings.players = o.players;
  camera_settings.seed = o.seed;
  camera_settings.speed = o.speed;
  camera_settings.tokens_beside_board = o.one_at_a_time;
  demo.camera = std::make_shared<VirtualCamera>(camera_settings);

  ServiceSetup& setup = demo.setup;
  Config& config = setup.config;
  config.ledger.path = demo.db;
  config.ledger.backup_dir = (std::filesystem::path(demo.db).parent_path() / "demo-backups").string();
  config.editions_dir = demo.editions.empty() ? std::string() : demo.editions.front();
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
  setup.devices = {demo.devices->dice_config(), demo.devices->reader_config(Reader::wiegand),
                   demo.devices->reader_config(Reader::rc522)};
  setup.devices_from_config = false;
  setup.frame_source =
      [camera = demo.camera]() -> std::expected<std::unique_ptr<vision::FrameSource>, std::string> {
    return std::make_unique<SharedCamera>(camera);
  };
  setup.new_game_seed = o.seed;  // the family starts its game on the setup screen: the seed makes it the same
  setup.headless = o.headless;
  setup.camera_silence = kCameraSilence * o.time_factor;
  // Headless, the bots print one line per turn; the service's line per stored input ("input N: ...") would
  // drown them, so only its other lines (devices, the table's messages, the end) are shown.
  setup.log = [log_inputs = o.log_inputs](const std::string& line) {
    if (!log_inputs && line.rfind("input ", 0) == 0) return;
    fmt::print("{}\n", line);
    std::fflush(stdout);
  };

  DemoBots::Settings bots;
  bots.family.players = o.players;
  bots.seed = o.seed;
  bots.speed = o.speed;
  bots.turns = o.turns;
  bots.learn_one_at_a_time = o.one_at_a_time;
  if (o.no_slips) bots.slips.miscount = bots.slips.wrong_card = 0;
  if (!o.screenshots.empty()) {
    std::filesystem::create_directories(o.screenshots, ec);
    if (ec) return std::unexpected(fmt::format("cannot create {}: {}", o.screenshots, ec.message()));
    bots.screenshots = o.screenshots;
  }
  if (o.headless)
    bots.print = [](const std::string& line) {
      fmt::print("{}\n", line);
      std::fflush(stdout);
    };
  auto players = std::make_unique<DemoBots>(bots, demo.devices, demo.camera);
  demo.bots = players.get();
  setup.participants.push_back(std::move(players));
  return demo;
}

int run_demo(const DemoOptions& o) {
  auto made = make_demo(o);
  if (!made) {
    fmt::print(stderr, "boardbank demo: {}\n", made.error());
    return 2;
  }
  Demo& demo = *made;
  std::string final_state;
  demo.bots->on_game_over(
      [&final_state](const rules::Game& game) { final_state = rules::state_to_json(game); });
  fmt::print("boardbank demo: seed {}, {} players, speed {}, ledger {}\n", o.seed, o.players, o.speed,
             demo.db);
  std::fflush(stdout);
  int code = 0;
  DemoBots::Tally tally;
  {
    auto service = Service::create(std::move(demo.setup));
    if (!service) {
      fmt::print(stderr, "boardbank demo: {}\n", service.error());
      return 1;
    }
    code = (*service)->run();
    tally = demo.bots->tally();  // the service (and the bots it owns) end with this block
  }
  fmt::print("demo: {}, {} ({} of the wrong card), {} ({} miscounted), {}, {} answered{}\n",
             count_of(tally.throws, "throw", "throws"), count_of(tally.taps, "card tap", "card taps"),
             tally.wrong_taps, count_of(tally.token_moves, "token move", "token moves"), tally.miscounts,
             count_of(tally.touches, "touch", "touches"), count_of(tally.questions, "question", "questions"),
             tally.stopped_because.empty() ? "" : "; " + tally.stopped_because);
  fmt::print("screen: {} buttons pressed, {} not found, {} touches handed over as intents\n", tally.presses,
             tally.missed_presses, tally.intents);
  // What the table refused: only the neighbour's cards the bots tapped on purpose should be (anything else is
  // a bot acting before the screen asked, said when it happened); then the readings the table never heard
  // and the situations the bots planned for again.
  fmt::print(
      "refusals: {} ({} of them the wrong cards tapped on purpose); {} taps or throws not heard; {} "
      "situations tried again\n",
      tally.refusals, tally.refusals_on_purpose, tally.unheard, tally.replans);
  if (tally.trades_handed_over > 0)
    fmt::print("faults: {} trades the screen did not take were handed over as intents\n",
               tally.trades_handed_over);
  // A bot could not find what it meant to press, or could not agree a trade on the screen.
  if ((tally.missed_presses > 0 || tally.trades_handed_over > 0) && code == 0) code = 1;
  const int checked = tally.camera_agreed + tally.camera_questioned_moves;
  fmt::print("camera: agreed on {} of {}, {} ({} settled by an answer)\n", tally.camera_agreed,
             count_of(checked, "move", "moves"), count_of(tally.camera_questions, "question", "questions"),
             count_of(tally.camera_questioned_moves, "move", "moves"));
  if (!o.state_json.empty() && !final_state.empty()) {
    std::ofstream out(o.state_json);
    out << final_state << "\n";
    if (!out) {
      fmt::print(stderr, "boardbank demo: cannot write {}: check that its folder exists and may be written\n",
                 o.state_json);
      if (code == 0) code = 1;
    }
  }
  print_demo_summary(demo.db, demo.editions);
  return code;
}

}  // namespace bb::daemon
