// The service's loop under a game: a bot (the ledger tests' RandomDriver) plays every seat through the loop,
// throwing the simulated dice unit through its command pipe and answering the rest on the screen, while the
// screen draws offscreen at 800x480 and every input is committed to a real ledger file. Prints the longest
// time any one callback held the loop (the budget: one frame, 16 ms), with what it was, and the time
// from start to ready when the service resumes that unfinished game.
#include <fmt/format.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "daemon/service.h"
#include "ledger/ledger.h"
#include "machine_load.h"
#include "random_driver.h"
#include "rules/edition.h"
#include "rules/script.h"
#include "table/table.h"

using namespace bb;
using namespace std::chrono_literals;
using bb::bench::machine_load;

namespace {

class Bot final : public daemon::Participant {
 public:
  Bot(int dice_pipe, int reader_pipe, std::int64_t stop_after)
      : dice_pipe_(dice_pipe), reader_pipe_(reader_pipe), stop_after_(stop_after), driver_(7) {}
  static constexpr const char* kCards[] = {"1A2B3C", "1A2B3D", "1A2B3E"};
  std::string name() const override { return "bench bot"; }
  std::int64_t final_inputs = 0;
  bool game_over = false;
  Wake wake() const override { return Wake{-1, 2ms}; }

  void on_wake(daemon::ParticipantContext& context) override {
    const auto& view = context.table().view();
    using K = table::Awaiting::Kind;
    const std::int64_t inputs = view.game ? static_cast<std::int64_t>(view.game->input_count()) : 0;
    final_inputs = inputs;
    if (view.game && inputs >= stop_after_) return context.stop(0);
    if (context.uptime() > 60s) return context.stop(0);  // a bot stuck on a question: report what was played
    if (view.awaiting.kind == K::game_over) {
      game_over = true;
      return context.stop(0);
    }
    if (view.awaiting.kind == K::paused) return context.stop(2);
    const std::string state = fmt::format("{}:{}:{}", static_cast<int>(view.awaiting.kind), inputs,
                                          view.question ? view.question->id : "");
    // Act once per state; if nothing changes, try another proposal after a while.
    if (state == last_state_ && ++idle_ < 250) return;  // half a second: a throw takes the dice unit a while
    attempt_ = state == last_state_ ? attempt_ + 1 : 0;
    if (attempt_ > 0 && std::getenv("BENCH_VERBOSE"))
      fmt::print(stderr, "stuck at {} ({}), attempt {}\n", state, view.awaiting.detail, attempt_);
    idle_ = 0;
    last_state_ = state;
    if (view.awaiting.kind == K::setup) {
      rules::Setup setup;
      setup.edition = "classic";
      setup.seed = 11;
      setup.players = {
          {"Ann", "car", kCards[0], {}}, {"Bob", "dog", kCards[1], {}}, {"Cleo", "hat", kCards[2], {}}};
      context.touch(display::StartGame{setup, {0, 1, 2}});
      return;
    }
    // A payment waits for its payer's card: tap it on the simulated Wiegand reader.
    if (view.awaiting.kind == K::tap_card && view.awaiting.player && view.awaiting.player->index() < 3) {
      const std::size_t payer = view.awaiting.player->index();
      // A reader takes the same card within 1.5 s of its last sighting for the same tap (a card left on it):
      // a player taps again only after that.
      auto& last = last_tap_[payer];
      if (last.count() > 0 && context.uptime() - last < 1600ms) {
        last_state_.clear();  // look again at the next wake
        return;
      }
      last = context.uptime();
      const std::string command = fmt::format("card {}\n", kCards[payer]);
      [[maybe_unused]] const auto written = write(reader_pipe_, command.data(), command.size());
      return;
    }
    if (view.question) {
      const auto& q = *view.question;
      if (!q.options.empty()) {
        const auto& option = q.options[static_cast<std::size_t>(attempt_) % q.options.size()];
        context.touch(display::AnswerQuestion{q.id, option.key, option.needs_pin ? "1234" : ""});
        return;
      }
    }
    if (!view.game) return;
    const rules::Input input = driver_.propose(*view.game, attempt_);
    if (const auto* roll = std::get_if<rules::Roll>(&input); roll && view.awaiting.kind == K::throw_dice) {
      const std::string command = fmt::format("roll {} {}\n", roll->d1, roll->d2);
      [[maybe_unused]] const auto written = write(dice_pipe_, command.data(), command.size());
      return;
    }
    context.touch(display::ApplyInput{input, "bench", std::nullopt, "pin"});
  }

 private:
  int dice_pipe_;
  int reader_pipe_;
  std::array<std::chrono::milliseconds, 3> last_tap_{};
  std::int64_t stop_after_;
  ledger::testing::RandomDriver driver_;
  std::string last_state_;
  int idle_ = 0;
  int attempt_ = 0;
};

struct RunFigures {
  int exit_code = 0;
  double create_ms = 0;
  double ready_ms = 0;  // from before create() to the "table ready" line (ledger, resume, screen, devices)
  std::string stall;
  std::string per_handler;
  std::string ready;
  std::int64_t inputs = 0;
  bool game_over = false;
};

RunFigures run_once(const std::string& dir, std::int64_t stop_after) {
  int dice_pipe[2];
  int reader_pipe[2];
  if (pipe(dice_pipe) != 0 || pipe(reader_pipe) != 0) std::abort();
  daemon::ServiceSetup setup;
  setup.config.screen.window = false;
  setup.config.screen.sound = false;
  setup.config.ledger.path = dir + "/ledger.db";
  setup.config.ledger.backup_dir = dir + "/backups";
  setup.config.editions_dir = EDITIONS_DIR;
  setup.headless = true;
  RunFigures figures;
  auto start = std::chrono::steady_clock::now();
  const bool verbose = std::getenv("BENCH_VERBOSE") != nullptr;
  setup.log = [&figures, &start, verbose](const std::string& line) {
    if (verbose) fmt::print(stderr, "{}\n", line);
    if (line.starts_with("longest loop stall")) figures.stall = line;
    if (line.starts_with("longest loop turn per handler")) figures.per_handler = line;
    if (line.starts_with("table ready")) {
      figures.ready = line;
      figures.ready_ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    }
  };
  peripherals::DeviceConfig dice;
  dice.kind = "dice";
  dice.backend = "simulated";
  dice.input_fd = dice_pipe[0];
  peripherals::DeviceConfig reader;
  reader.kind = "wiegand";
  reader.backend = "simulated";
  reader.input_fd = reader_pipe[0];
  setup.devices = {dice, reader};
  auto bot = std::make_unique<Bot>(dice_pipe[1], reader_pipe[1], stop_after);
  Bot* played = bot.get();
  setup.participants.push_back(std::move(bot));
  start = std::chrono::steady_clock::now();
  auto service = daemon::Service::create(std::move(setup));
  if (!service) {
    fmt::print(stderr, "bench: {}\n", service.error());
    std::exit(1);
  }
  figures.create_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  figures.exit_code = (*service)->run();
  figures.inputs = played->final_inputs;
  figures.game_over = played->game_over;
  service->reset();
  for (int fd : {dice_pipe[0], dice_pipe[1], reader_pipe[0], reader_pipe[1]}) close(fd);
  return figures;
}

// An unfinished game of (up to) `inputs` inputs stored straight into a ledger file in `dir`, played by the
// ledger tests' RandomDriver: the game the service must resume at start. Returns how many inputs it holds.
std::int64_t store_long_game(const std::string& dir, int inputs) {
  std::filesystem::create_directories(dir);
  const std::string script = ledger::testing::RandomDriver::script(EDITIONS_DIR, 5, 3, inputs);
  ledger::LedgerOptions options;
  options.path = dir + "/ledger.db";
  options.edition_dirs = {EDITIONS_DIR};
  auto opened = ledger::Ledger::open(options);
  if (!opened) return (fmt::print(stderr, "{}\n", opened.error().message), 0);
  std::optional<ledger::GameId> game;
  std::shared_ptr<const rules::Edition> edition;
  std::vector<std::string> names;
  std::int64_t stored = 0;
  std::size_t start = 0;
  while (start < script.size()) {
    std::size_t end = script.find('\n', start);
    if (end == std::string::npos) end = script.size();
    const std::string line = script.substr(start, end - start);
    start = end + 1;
    if (line.empty()) continue;
    if (!game) {
      auto setup = rules::parse_setup(line);
      if (!setup) return 0;
      auto id = opened->start_game(*setup, "bench");
      if (!id) return 0;
      game = *id;
      for (const auto& p : setup->players) names.push_back(p.name);
      continue;
    }
    const rules::Game* live = opened->game(*game);
    auto input = rules::parse_input(line, names, live->edition());
    if (!input || std::holds_alternative<rules::End>(*input)) break;  // kept unfinished
    auto recorded = opened->record(*game, *input, {fmt::format("bench:{}", stored), "touch", {}, {}});
    if (!recorded) break;
    ++stored;
  }
  return stored;
}

}  // namespace

int main(int argc, char** argv) {
  const std::int64_t inputs = argc > 1 ? std::atoll(argv[1]) : 1000;
  const std::string dir =
      (std::filesystem::temp_directory_path() / fmt::format("bb-bench-loop-{}", getpid())).string();
  std::filesystem::create_directories(dir);
  fmt::print("before the game: {}\n", machine_load());
  const auto played_start = std::chrono::steady_clock::now();
  const RunFigures played = run_once(dir, inputs);
  const double played_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - played_start).count();
  fmt::print(
      "loop while playing {} inputs{} (at most 60 s) through simulated dice and the offscreen screen ({:.1f} "
      "s, exit {}):\n"
      "  {}\n  {}\n",
      played.inputs, played.game_over ? " (to the game's end)" : "", played_s, played.exit_code, played.stall,
      played.per_handler);
  fmt::print("  after the game: {}\n", machine_load());
  // The same file again: the service resumes the unfinished game (if the bots did not finish it).
  const RunFigures resumed = run_once(dir, 0);
  fmt::print("start to ready with that game in the ledger: {:.1f} ms (of which create: {:.1f} ms); {}\n",
             resumed.ready_ms, resumed.create_ms, resumed.ready);
  fmt::print("  {}\n", resumed.stall);
  // The figure: start to ready with an unfinished game of 1,000 inputs (stored straight in the file).
  const std::string long_dir = dir + "/long";
  const std::int64_t long_inputs = store_long_game(long_dir, 1000);
  const RunFigures long_resumed = run_once(long_dir, 0);
  fmt::print(
      "start to ready with an unfinished game of {} inputs: {:.1f} ms (of which create: {:.1f} ms); {}\n",
      long_inputs, long_resumed.ready_ms, long_resumed.create_ms, long_resumed.ready);
  std::filesystem::remove_all(dir);
  return played.exit_code == 0 ? 0 : 1;
}
