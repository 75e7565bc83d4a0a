// The figures of issue 15's "Chances, live": playouts per second from three positions (the start, mid-game,
// a late game with hotels), 10,000 playouts from mid-game on one thread, and the time to a first answer with
// 1 and 4 threads. Run at nice 10 on a shared machine; CPU time is printed beside wall time where it matters.
#include <fmt/format.h>

#include <chrono>
#include <condition_variable>
#include <ctime>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "odds/chances.h"
#include "odds/odds_worker.h"
#include "rules/bot.h"
#include "rules/edition.h"
#include "rules/game.h"

namespace {

using bb::rules::Game;

std::shared_ptr<const bb::rules::Edition> classic() {
  static auto ed = [] {
    auto loaded = bb::rules::load_edition("classic", {EDITIONS_DIR});
    if (!loaded) throw std::runtime_error(loaded.error().what());
    return std::make_shared<const bb::rules::Edition>(std::move(*loaded));
  }();
  return ed;
}

double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

Game fresh(std::uint64_t seed) {
  bb::rules::Setup setup;
  setup.edition = "classic";
  setup.seed = seed;
  for (const char* name : {"Ann", "Bob", "Cleo", "Dev"}) setup.players.push_back({name, "", "", {}, -1});
  auto game = Game::start(classic(), setup);
  if (!game) throw std::runtime_error(game.error());
  return std::move(*game);
}

int hotels(const Game& g) {
  int n = 0;
  for (const auto& s : g.state().spaces) n += s.hotel ? 1 : 0;
  return n;
}

// A bot game played on from a fresh start until `reached` says so, stopped between moves and before its end.
template <class Reached>
Game played_until(Reached&& reached) {
  for (std::uint64_t seed = 1; seed < 1000; ++seed) {
    Game game = fresh(seed);
    bb::rules::Bot bot(seed);
    while (!game.state().ended && game.state().turns < 1000) {
      if (game.between_moves() && reached(game)) return game;
      if (!game.apply(bot.next(game))) break;
    }
  }
  throw std::runtime_error("no bot game reached the position");
}

struct Rate {
  double playouts_per_s = 0;
  double turns_per_playout = 0;
  double cpu_s = 0;
  int capped = 0;
};

Rate rate(const Game& game, int playouts) {
  const double cpu0 = thread_cpu_seconds();
  const auto c = bb::odds::estimate_chances(game, {.playouts = playouts, .seed = 1, .turn_cap = 400});
  const double cpu = thread_cpu_seconds() - cpu0;
  return {c.playouts / cpu, static_cast<double>(c.turns) / c.playouts, cpu, c.capped};
}

// Wall time from start() to the worker's first report and to its last.
std::pair<double, double> first_and_full_answer(const Game& game, int threads, int playouts) {
  std::mutex mutex;
  std::condition_variable reported;
  bb::odds::OddsWorker worker(threads, [&] {
    std::lock_guard lock(mutex);
    reported.notify_all();
  });
  const auto t0 = std::chrono::steady_clock::now();
  if (!worker.start({game, std::nullopt, {.playouts = playouts, .seed = 1, .turn_cap = 400}}))
    throw std::runtime_error("the worker refused the position");
  std::unique_lock lock(mutex);
  reported.wait(lock, [&] { return worker.progress().without_trade.playouts > 0; });
  const double first = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  reported.wait(lock, [&] { return worker.progress().done; });
  const double full = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return {first, full};
}

std::string describe(const Game& g) {
  int owned = 0, houses = 0;
  for (const auto& s : g.state().spaces) {
    owned += s.owner ? 1 : 0;
    houses += s.houses;
  }
  return fmt::format("turn {}, {} lots owned, {} houses, {} hotels", g.state().turns, owned, houses,
                     hotels(g));
}

}  // namespace

int main() {
  const Game start = fresh(1);
  // Mid-game: most lots bought, nothing built yet. Late game: hotels standing.
  const Game mid = played_until([](const Game& g) {
    int owned = 0, buildings = 0;
    for (const auto& s : g.state().spaces) {
      owned += s.owner ? 1 : 0;
      buildings += s.houses + (s.hotel ? 1 : 0);
    }
    return owned >= 20 && buildings == 0;
  });
  const Game late = played_until([](const Game& g) { return hotels(g) >= 6; });

  fmt::print("odds: 4 players, classic edition, playouts by rules::Bot to the end or 400 more turns\n");
  fmt::print("odds: hardware threads here {}\n", std::thread::hardware_concurrency());
  for (const auto& [name, game] :
       {std::pair<const char*, const Game*>{"start", &start}, {"mid-game", &mid}, {"late game", &late}}) {
    const Rate r = rate(*game, 1000);
    fmt::print(
        "odds: from {:<9} ({}): {:.0f} playouts/s on one core (CPU time), {:.0f} turns a playout, "
        "{} of 1000 capped\n",
        name, describe(*game), r.playouts_per_s, r.turns_per_playout, r.capped);
  }
  const Rate tenk = rate(mid, 10'000);
  fmt::print("odds: 10,000 playouts from mid-game on 1 thread: {:.2f} s CPU (issue's aim: 0.5 s)\n",
             tenk.cpu_s);
  for (int threads : {1, 4}) {
    const auto [first, full] = first_and_full_answer(mid, threads, 2000);
    fmt::print(
        "odds: {} thread(s), mid-game: first answer ({} playouts a thread) after {:.3f} s wall, 2,000 "
        "playouts after {:.2f} s wall\n",
        threads, bb::odds::OddsWorker::kBatch, first, full);
  }
  return 0;
}
