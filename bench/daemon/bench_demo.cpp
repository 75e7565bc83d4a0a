// The demo's figures, measured on a demo game played through the service (headless, the ledger on a real
// file, the 720p virtual camera and the tracker running):
//   - tap -> presented: from the last edge of a player's Wiegand frame (the moment the bot handed the card
//     to the simulated reader plus the frame's length: the edges cannot end earlier, so a late read only
//     lengthens the figure) to what it did: a payment it confirmed closed, or an input it made stored (a
//     purchase, a card's payment), its picture handed to the screen once the ledger's sync covered it, and a
//     frame drawn, as seen by a 1 ms observer on the loop (p50, p99, max). A confirming tap stores no input
//     (the rules posted the money with the throw), so "until the next input" alone would time the next
//     throw;
//   - the longest stall of the loop: the largest lateness of a 1 ms participant timer over the whole game,
//     and the service's own figure (the longest callback, with and without its waits for a CPU);
//   - the process's resident memory, sampled during the game, and its peak (VmHWM);
//   - CPU while idle: a second service on a fresh ledger with the same 720p virtual camera and no bots (the
//     table waits at the set-up screen, the camera thread grabs steadily): the loop thread's CPU time and
//     the frames drawn over 5 s after 1 s to settle, and the whole process's CPU (the virtual camera's
//     rendering of its frames included: on a real table that is the camera driver's work).
// Usage: bench_demo [--turns N] [--players N] [--seed N] [--speed X]
#include <fmt/format.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "daemon/demo.h"
#include "machine_load.h"
#include "peripherals/trace_generator.h"
#include "peripherals/wiegand_decoder.h"
#include "table/table.h"

namespace {

using Clock = std::chrono::steady_clock;
using display_version_t = decltype(bb::display::Snapshot::version);
using bb::bench::machine_load;
using bb::daemon::DemoBots;
using bb::daemon::Participant;
using bb::daemon::ParticipantContext;

// Shared objects mapped into the process: with OpenCV's imgcodecs and videoio linked it was 285.
int shared_libraries_mapped() {
  std::ifstream in("/proc/self/maps");
  std::set<std::string> files;
  std::string line;
  while (std::getline(in, line)) {
    const auto slash = line.find('/');
    if (slash != std::string::npos && line.find(".so", slash) != std::string::npos)
      files.insert(line.substr(slash));
  }
  return static_cast<int>(files.size());
}

long status_kb(const char* key) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(key, 0) == 0) return std::strtol(line.c_str() + std::strlen(key), nullptr, 10);
  return -1;
}

// How long a Wiegand 26 frame lasts from its first edge to its last, as the simulated reader sends it.
std::chrono::nanoseconds wiegand_frame_length(const std::string& uid) {
  const auto bits = bb::peripherals::wiegand_frame_bits({uid, 26});
  if (!bits) return {};
  const auto edges = bb::peripherals::wiegand_edges(*bits, 0);
  return std::chrono::nanoseconds(edges.empty() ? 0 : edges.back().ts_ns);
}

// Watches the loop, the table and the Wiegand reader's pipe every millisecond. It decides nothing and touches
// nothing.
class Probe final : public Participant {
 public:
  Probe(bb::daemon::DemoFamily family, std::shared_ptr<bb::daemon::VirtualDevices> devices)
      : family_(family), devices_(std::move(devices)) {}
  std::string name() const override { return "bench probe"; }
  Wake wake() const override {
    Wake w;
    w.period = std::chrono::milliseconds(1);
    w.observer = true;  // woken while the screen waits for the ledger too: it reads only
    return w;
  }
  void on_wake(ParticipantContext& context) override {
    const auto now = Clock::now();
    if (last_wake_) longest_gap_ = std::max(longest_gap_, now - *last_wake_);
    last_wake_ = now;
    if (++wakes_ % 100 == 0) {
      const long rss = status_kb("VmRSS:");
      if (rss > rss_max_kb_) {
        rss_max_kb_ = rss;
        rss_anon_kb_ = status_kb("RssAnon:");
        rss_file_kb_ = status_kb("RssFile:");
        libraries_ = shared_libraries_mapped();
      }
    }
    const auto& view = context.table().view();
    const display_version_t shown = context.screen_snapshot() ? context.screen_snapshot()->version : 0;
    const auto inputs = view.game ? view.game->input_count() : 0;
    const auto sent = devices_->last_wiegand_tap();
    if (sent && sent != wiegand_seen_) {
      wiegand_seen_ = sent;
      // A card the bots handed to the Wiegand reader since the last wake. Its uid says whose it is: a
      // neighbour's card tapped on purpose is refused and stores nothing, so only the player the table waits
      // for counts.
      const std::optional<bb::rules::PlayerId> player = view.awaiting.player;
      pending_.reset();
      if (player && family_.reader(*player) == bb::daemon::Reader::wiegand)
        pending_ = Pending{*sent + wiegand_frame_length(family_.card(*player)), view.unconfirmed.size(),
                           inputs, shown, context.frames_presented()};
    }
    // Done when what it did shows: the payment it confirmed is closed (a confirmation stores no input: the
    // rules posted the money already) or the input it made is stored, a new snapshot went to the screen and
    // a frame was drawn from it.
    if (pending_ && (view.unconfirmed.size() < pending_->unconfirmed || inputs > pending_->inputs) &&
        shown > pending_->shown && context.frames_presented() > pending_->frames) {
      if (now > pending_->last_edge) latencies_.push_back(now - pending_->last_edge);
      pending_.reset();
    }
    if (pending_ && now - pending_->last_edge > std::chrono::seconds(3))
      pending_.reset();  // nothing confirmed
  }

  std::vector<Clock::duration> latencies_;
  Clock::duration longest_gap_{};
  long rss_max_kb_ = 0;
  long rss_anon_kb_ = 0;  // at the largest sample: the process's own memory (heap, frames, stacks)
  long rss_file_kb_ = 0;  // at the largest sample: pages of mapped files (mostly shared libraries)
  int libraries_ = 0;     // at the largest sample: shared objects mapped

 private:
  struct Pending {
    Clock::time_point last_edge;
    std::size_t unconfirmed = 0;  // payments waiting for a tap when it was made
    std::size_t inputs = 0;       // inputs stored when it was made
    display_version_t shown = 0;  // the snapshot on the screen when it was made
    int frames = 0;               // frames drawn when it was made
  };
  bb::daemon::DemoFamily family_;
  std::optional<Clock::time_point> last_wake_;
  std::shared_ptr<bb::daemon::VirtualDevices> devices_;
  std::optional<Pending> pending_;
  long wakes_ = 0;
  std::optional<Clock::time_point> wiegand_seen_;
};

std::chrono::nanoseconds thread_cpu() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return std::chrono::seconds(t.tv_sec) + std::chrono::nanoseconds(t.tv_nsec);
}

std::chrono::nanoseconds process_cpu() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return std::chrono::seconds(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         std::chrono::microseconds(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

// The idle table: settles for 1 s, then measures the loop thread's CPU (it runs on the loop thread), the
// process's CPU and the frames drawn over 5 s, and stops the service.
class IdleProbe final : public Participant {
 public:
  std::string name() const override { return "idle probe"; }
  Wake wake() const override {
    Wake w;
    w.period = std::chrono::milliseconds(100);
    w.observer = true;
    return w;
  }
  void on_wake(ParticipantContext& context) override {
    const auto up = context.uptime();
    if (!started_ && up >= std::chrono::seconds(1)) {
      started_ = true;
      at_ = Clock::now();
      loop_cpu_ = thread_cpu();
      process_cpu_ = process_cpu();
      frames_ = context.frames_presented();
    } else if (started_ && Clock::now() - at_ >= std::chrono::seconds(5)) {
      wall = Clock::now() - at_;
      loop_cpu = thread_cpu() - loop_cpu_;
      process = process_cpu() - process_cpu_;
      frames = context.frames_presented() - frames_;
      context.stop(0);
    }
  }
  Clock::duration wall{};
  std::chrono::nanoseconds loop_cpu{};
  std::chrono::nanoseconds process{};
  int frames = -1;

 private:
  bool started_ = false;
  Clock::time_point at_;
  std::chrono::nanoseconds loop_cpu_{};
  std::chrono::nanoseconds process_cpu_{};
  int frames_ = 0;
};

double ms(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

}  // namespace

int main(int argc, char** argv) {
  bb::daemon::DemoOptions o;
  o.headless = true;
  o.speed = 10;
  o.players = 2;
  o.turns = 60;  // some 16 committed Wiegand taps (seed 11): enough for a p50, a rough p99
  o.seed = 11;
  o.no_slips = true;  // every tap confirms something
  CLI::App app{"The demo's figures: tap to committed, the loop's longest stall, memory and idle CPU"};
  app.add_option("--turns", o.turns, "turns of the time-limit game")
      ->capture_default_str()
      ->check(CLI::Range(1, 100'000));
  app.add_option("--players", o.players, "players at the table (2-6)")
      ->capture_default_str()
      ->check(CLI::Range(2, 6));
  app.add_option("--seed", o.seed, "the same seed plays the same game")->capture_default_str();
  app.add_option("--speed", o.speed, "how much faster than a family the bots act (0.1-1000)")
      ->capture_default_str()
      ->check(CLI::Range(0.1, 1000.0));
  CLI11_PARSE(app, argc, argv);
  const auto dir = std::filesystem::temp_directory_path() / fmt::format("bench_demo_{}", ::getpid());
  std::filesystem::create_directories(dir);
  o.db = (dir / "ledger.db").string();

  auto made = bb::daemon::make_demo(o);
  if (!made) {
    fmt::print(stderr, "bench_demo: {}\n", made.error());
    return 1;
  }
  bb::daemon::DemoFamily family;
  family.players = o.players;
  auto probe = std::make_unique<Probe>(family, made->devices);
  Probe* seen = probe.get();
  made->setup.participants.push_back(std::move(probe));
  std::string service_stall;  // the service's own lines at its end
  std::string per_handler;
  made->setup.log = [&service_stall, &per_handler](const std::string& line) {
    if (line.starts_with("longest loop stall")) service_stall = line;
    if (line.starts_with("longest loop turn per handler")) per_handler = line;
  };

  fmt::print("before the game: {}\n", machine_load());
  const auto started = Clock::now();
  std::vector<Clock::duration> latencies;
  Clock::duration longest{};
  long rss_max = 0;
  long rss_anon = 0;
  long rss_file = 0;
  int libraries = 0;
  int code = 0;
  DemoBots::Tally tally;
  {
    auto service = bb::daemon::Service::create(std::move(made->setup));
    if (!service) {
      fmt::print(stderr, "bench_demo: {}\n", service.error());
      return 1;
    }
    code = (*service)->run();
    latencies = seen->latencies_;
    longest = seen->longest_gap_;
    rss_max = seen->rss_max_kb_;
    rss_anon = seen->rss_anon_kb_;
    rss_file = seen->rss_file_kb_;
    libraries = seen->libraries_;
    tally = made->bots->tally();
  }
  const double seconds = std::chrono::duration<double>(Clock::now() - started).count();
  std::sort(latencies.begin(), latencies.end());
  auto pct = [&](double p) {
    return latencies.empty()
               ? 0.0
               : ms(latencies[std::min(latencies.size() - 1,
                                       static_cast<std::size_t>(p * static_cast<double>(latencies.size())))]);
  };
  fmt::print("demo game: {} players, {} turns, speed {}, seed {}: {:.1f} s, exit {}\n", o.players, o.turns,
             o.speed, o.seed, seconds, code);
  fmt::print("  after the game: {}\n", machine_load());
  fmt::print("  {} throws, {} taps, {} token moves, {} camera frames\n", tally.throws, tally.taps,
             tally.token_moves, made->camera->frames_grabbed());
  fmt::print(
      "tap (last Wiegand edge) -> payment confirmed or input stored (the ledger's sync) and its frame "
      "presented, "
      "ledger on a file: n={} p50 {:.2f} ms  p99 {:.2f} ms  max {:.2f} ms\n",
      latencies.size(), pct(0.5), pct(0.99), latencies.empty() ? 0.0 : ms(latencies.back()));
  fmt::print("longest loop stall (lateness of a 1 ms participant timer): {:.2f} ms\n",
             ms(longest - std::chrono::milliseconds(1)));
  fmt::print("the service's {}\n", service_stall);
  fmt::print("the service's {}\n", per_handler);
  fmt::print("RSS during the game (720p camera): max sampled {:.1f} MB, peak (VmHWM) {:.1f} MB\n",
             rss_max / 1024.0, status_kb("VmHWM:") / 1024.0);
  fmt::print(
      "  of the largest sample: anonymous {:.1f} MB (heap, frames, stacks), mapped files {:.1f} MB "
      "({} shared libraries mapped; no camera module: the virtual camera needs none)\n",
      rss_anon / 1024.0, rss_file / 1024.0, libraries);

  // The idle table: the same demo's devices and camera on a fresh ledger, without the bots.
  bb::daemon::DemoOptions idle_options = o;
  idle_options.db = (dir / "idle.db").string();
  auto idle = bb::daemon::make_demo(idle_options);
  if (!idle) {
    fmt::print(stderr, "bench_demo: {}\n", idle.error());
    return 1;
  }
  idle->setup.participants.clear();
  auto idle_probe = std::make_unique<IdleProbe>();
  IdleProbe* idle_seen = idle_probe.get();
  idle->setup.participants.push_back(std::move(idle_probe));
  idle->setup.log = [](const std::string&) {};
  IdleProbe idle_figures;  // copied out before the service (which owns the probe) goes
  {
    auto service = bb::daemon::Service::create(std::move(idle->setup));
    if (!service) {
      fmt::print(stderr, "bench_demo: {}\n", service.error());
      return 1;
    }
    (void)(*service)->run();
    idle_figures.wall = idle_seen->wall;
    idle_figures.loop_cpu = idle_seen->loop_cpu;
    idle_figures.process = idle_seen->process;
    idle_figures.frames = idle_seen->frames;
  }
  const double idle_s = std::chrono::duration<double>(idle_figures.wall).count();
  fmt::print(
      "idle table (set-up screen, 720p virtual camera grabbing) over {:.1f} s: {} frames drawn; loop thread "
      "CPU {:.1f} ms/s ({:.2f} %); whole process CPU {:.0f} ms/s (the virtual camera's rendering included)\n",
      idle_s, idle_figures.frames, ms(idle_figures.loop_cpu) / idle_s,
      ms(idle_figures.loop_cpu) / idle_s / 10.0, ms(idle_figures.process) / idle_s);
  std::filesystem::remove_all(dir);
  return code;
}
