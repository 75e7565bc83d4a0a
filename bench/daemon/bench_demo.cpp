// The demo's figures, measured on a demo game played through the service (headless, the ledger on a real
// file, the 720p virtual camera and the tracker running):
//   - tap -> confirmed: from the last edge of a player's Wiegand frame to the payment it confirmed closed and
//     the new snapshot handed to the screen, as seen on the loop (p50, p99, max). A confirming tap stores no
//     input (the rules posted the money with the throw), so "until the next input" would time the next throw;
//   - the longest stall of the loop: the largest lateness of a 1 ms participant timer over the whole game;
//   - the process's resident memory, sampled during the game, and its peak (VmHWM).
// Usage: bench_demo [--turns N] [--players N] [--seed N] [--speed X]
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "daemon/demo.h"
#include "peripherals/trace_generator.h"
#include "peripherals/wiegand_decoder.h"
#include "table/table.h"

namespace {

using Clock = std::chrono::steady_clock;
using display_version_t = decltype(bb::display::Snapshot::version);
using bb::daemon::DemoBots;
using bb::daemon::Participant;
using bb::daemon::ParticipantContext;

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

// Watches the loop and the bots every millisecond. It decides nothing and touches nothing.
class Probe final : public Participant {
 public:
  Probe(const DemoBots& bots, bb::daemon::DemoFamily family) : bots_(bots), family_(family) {}
  std::string name() const override { return "bench probe"; }
  Wake wake() const override { return {-1, std::chrono::milliseconds(1)}; }
  void on_wake(ParticipantContext& context) override {
    const auto now = Clock::now();
    if (last_wake_) longest_gap_ = std::max(longest_gap_, now - *last_wake_);
    last_wake_ = now;
    if (++wakes_ % 100 == 0) rss_max_kb_ = std::max(rss_max_kb_, status_kb("VmRSS:"));
    const auto& view = context.table().view();
    const display_version_t shown = context.screen_snapshot() ? context.screen_snapshot()->version : 0;
    const int taps = bots_.tally().taps;
    if (taps != taps_seen_) {
      taps_seen_ = taps;
      // A tap the bots made since the last wake (at most 1 ms ago), for the payment the table waits for.
      const int player = view.awaiting.player;
      pending_.reset();
      if (view.awaiting.kind == bb::table::Awaiting::Kind::tap_card && player >= 0 &&
          family_.reader(player) == bb::daemon::Reader::wiegand)
        pending_ = Pending{now + wiegand_frame_length(family_.card(player)), view.unconfirmed.size(), shown};
    }
    // Done when the payment it confirmed is closed (a confirmation stores no input: the rules posted the
    // money already) and a new snapshot went to the screen.
    if (pending_ && view.unconfirmed.size() < pending_->unconfirmed && shown > pending_->shown) {
      if (now > pending_->last_edge) latencies_.push_back(now - pending_->last_edge);
      pending_.reset();
    }
    if (pending_ && now - pending_->last_edge > std::chrono::seconds(3))
      pending_.reset();  // nothing confirmed
  }

  std::vector<Clock::duration> latencies_;
  Clock::duration longest_gap_{};
  long rss_max_kb_ = 0;

 private:
  struct Pending {
    Clock::time_point last_edge;
    std::size_t unconfirmed = 0;  // payments waiting for a tap when it was made
    display_version_t shown = 0;  // the snapshot on the screen when it was made
  };
  const DemoBots& bots_;
  bb::daemon::DemoFamily family_;
  std::optional<Clock::time_point> last_wake_;
  std::optional<Pending> pending_;
  long wakes_ = 0;
  int taps_seen_ = 0;
};

double ms(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

}  // namespace

int main(int argc, char** argv) {
  bb::daemon::DemoOptions o;
  o.headless = true;
  o.speed = 10;
  o.players = 2;
  o.turns = 30;
  o.seed = 11;
  o.no_slips = true;  // every tap confirms something
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i];
    const char* value = argv[i + 1];
    if (key == "--turns")
      o.turns = std::atoi(value);
    else if (key == "--players")
      o.players = std::atoi(value);
    else if (key == "--seed")
      o.seed = std::strtoull(value, nullptr, 10);
    else if (key == "--speed")
      o.speed = std::atof(value);
    else {
      fmt::print(stderr, "usage: bench_demo [--turns N] [--players N] [--seed N] [--speed X]\n");
      return 2;
    }
  }
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
  auto probe = std::make_unique<Probe>(*made->bots, family);
  Probe* seen = probe.get();
  made->setup.participants.push_back(std::move(probe));
  made->setup.log = [](const std::string&) {};  // the figures only

  const auto started = Clock::now();
  std::vector<Clock::duration> latencies;
  Clock::duration longest{};
  long rss_max = 0;
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
  fmt::print("  {} throws, {} taps, {} token moves, {} camera frames\n", tally.throws, tally.taps,
             tally.token_moves, made->camera->frames_grabbed());
  fmt::print(
      "tap (last Wiegand edge) -> payment confirmed and the new snapshot handed to the screen (drawn at its "
      "next "
      "frame tick, <= 50 ms offscreen, 16 ms in a window), ledger on a file: n={} p50 {:.2f} ms  p99 {:.2f} "
      "ms  max {:.2f} "
      "ms\n",
      latencies.size(), pct(0.5), pct(0.99), latencies.empty() ? 0.0 : ms(latencies.back()));
  fmt::print("longest loop stall (lateness of a 1 ms participant timer): {:.2f} ms\n",
             ms(longest - std::chrono::milliseconds(1)));
  fmt::print("RSS during the game (720p camera): max sampled {:.1f} MB, peak (VmHWM) {:.1f} MB\n",
             rss_max / 1024.0, status_kb("VmHWM:") / 1024.0);
  std::filesystem::remove_all(dir);
  return code;
}
