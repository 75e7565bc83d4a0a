// The ledger's figures. Durability is measured where the ledger would live: a scratch directory under the
// current directory (on the Pi, the SD card), or BOARDBANK_BENCH_DIR. A tmpfs would make fsync free and the
// figure meaningless.
#include <fmt/format.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string_view>
#include <system_error>
#include <vector>

#include "fault_vfs.h"
#include "ledger/backup_store.h"
#include "ledger/ledger.h"
#include "random_driver.h"
#include "rules/bot.h"
#include "rules/script.h"

namespace fs = std::filesystem;
using bb::ledger::Ledger;
using bb::ledger::LedgerOptions;
using Clock = std::chrono::steady_clock;

namespace {

// This thread's time spent waiting for a CPU so far (the second field of /proc/thread-self/schedstat); 0
// where the kernel does not count it.
std::int64_t run_queue_wait_ns() {
  std::ifstream in("/proc/thread-self/schedstat");
  std::int64_t on_cpu = 0, waited = 0;
  if (!(in >> on_cpu >> waited)) return 0;
  return waited;
}

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

std::shared_ptr<const bb::rules::Edition> classic() {
  auto edition = bb::rules::load_edition("classic", {EDITIONS_DIR});
  if (!edition) {
    fmt::print(stderr, "bench_ledger: {}\n", edition.error().what());
    std::exit(1);
  }
  return std::make_shared<const bb::rules::Edition>(std::move(*edition));
}

// One game played by the rules' bot, as setup + inputs; ended with `end` after `max_inputs`.
struct Played {
  bb::rules::Setup setup;
  std::vector<bb::rules::Input> inputs;
};

Played play(const std::shared_ptr<const bb::rules::Edition>& edition, std::uint64_t seed, int players,
            int max_inputs) {
  Played p{bb::ledger::testing::RandomDriver::setup(seed, players), {}};
  auto game = bb::rules::Game::start(edition, p.setup);
  bb::rules::Bot bot(seed);
  while (!game->state().ended && static_cast<int>(p.inputs.size()) < max_inputs) {
    bb::rules::Input input = static_cast<int>(p.inputs.size()) + 1 == max_inputs
                                 ? bb::rules::Input{bb::rules::End{}}
                                 : bot.next(*game);
    if (!game->apply(input)) break;
    p.inputs.push_back(input);
  }
  return p;
}

// A marathon: nobody ever buys (every first landing goes to an auction nobody bids in), so nobody pays rent
// and the game never ends; the longest game a table could ever produce, for the resume figures.
Played marathon(const std::shared_ptr<const bb::rules::Edition>& edition, std::uint64_t seed, int inputs) {
  Played p{bb::ledger::testing::RandomDriver::setup(seed, 4), {}};
  auto game = bb::rules::Game::start(edition, p.setup);
  bb::rules::Bot bot(seed);
  while (static_cast<int>(p.inputs.size()) < inputs) {
    const auto& st = game->state();
    bb::rules::Input input = bot.next(*game);
    if (st.auction) {
      input = bb::rules::Close{};
    } else if (!st.pending.empty() && st.pending.front().kind == bb::rules::QuestionKind::buy) {
      input = bb::rules::Choose{st.pending.front().player, {bb::rules::Answer::auction}};
    }
    if (!game->apply(input)) {
      fmt::print(stderr, "bench_ledger: the marathon driver is stuck\n");
      std::exit(1);
    }
    if (game->state().ended) {
      fmt::print(stderr, "bench_ledger: the marathon ended after {} inputs\n", p.inputs.size());
      std::exit(1);
    }
    p.inputs.push_back(std::move(input));
  }
  return p;
}

LedgerOptions options(const std::string& path, const std::string& vfs = "") {
  LedgerOptions o;
  o.path = path;
  o.edition_dirs = {EDITIONS_DIR};
  o.vfs = vfs;
  return o;
}

void remove_db(const std::string& path) {
  std::error_code ec;
  for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(path + suffix, ec);
}

// Inputs per second, each committed durably with its postings (WAL, synchronous=FULL: one fsync per input).
double ledger_rate(const std::string& dir, const std::shared_ptr<const bb::rules::Edition>& edition,
                   int count) {
  std::string path = dir + "/durable.db";
  remove_db(path);
  auto ledger = Ledger::open(options(path));
  std::vector<Played> games;
  int total = 0;
  for (std::uint64_t seed = 1; total < count; ++seed) {
    games.push_back(play(edition, seed, 4, count));
    total += static_cast<int>(games.back().inputs.size());
  }
  int done = 0;
  auto start = Clock::now();
  for (const Played& g : games) {
    auto id = ledger->start_game(g.setup);
    for (std::size_t i = 0; i < g.inputs.size() && done < count; ++i, ++done) {
      auto r = ledger->record(*id, g.inputs[i], {fmt::format("touch:{}", i), "touch", "bench", "bench"});
      if (!r) {
        fmt::print(stderr, "bench_ledger: {}\n", r.error().message);
        std::exit(1);
      }
    }
  }
  double rate = done / seconds_since(start);
  remove_db(path);
  return rate;
}

// The same durability settings, one small row per commit: what SQLite alone costs on this card.
double bare_rate(const std::string& dir, int count) {
  std::string path = dir + "/bare.db";
  remove_db(path);
  sqlite3* db = nullptr;
  sqlite3_open(path.c_str(), &db);
  sqlite3_exec(db,
               "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;"
               "CREATE TABLE t(id INTEGER PRIMARY KEY, body TEXT NOT NULL)",
               nullptr, nullptr, nullptr);
  sqlite3_stmt* insert = nullptr;
  sqlite3_prepare_v2(db, "INSERT INTO t(body) VALUES ('{\"t\":\"roll\",\"dice\":[3,4]}')", -1, &insert,
                     nullptr);
  auto start = Clock::now();
  for (int i = 0; i < count; ++i) {
    sqlite3_exec(db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr);
    sqlite3_step(insert);
    sqlite3_reset(insert);
    sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
  }
  double rate = count / seconds_since(start);
  sqlite3_finalize(insert);
  sqlite3_close(db);
  remove_db(path);
  return rate;
}

}  // namespace

int main() {
  using bb::ledger::testing::FaultVfs;
  const char* env = std::getenv("BOARDBANK_BENCH_DIR");
  std::string dir = env ? env : (fs::current_path() / fmt::format("bench-ledger-{}", ::getpid())).string();
  fs::create_directories(dir);
  auto edition = classic();

  // 1. Durable inputs per second, ledger against bare SQLite, interleaved in the same run.
  int count = 400;
  if (const char* inputs = std::getenv("BOARDBANK_BENCH_INPUTS")) {
    const std::string_view text(inputs);
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), count);
    if (error != std::errc{} || end != text.data() + text.size() || count < 1 || count > 1'000'000) {
      fmt::print(stderr,
                 "bench_ledger: BOARDBANK_BENCH_INPUTS must be a whole number from 1 to 1000000, not '{}'\n",
                 text);
      return 2;
    }
  }
  std::vector<double> ledger_rates, bare_rates;
  for (int round = 0; round < 3; ++round) {
    bare_rates.push_back(bare_rate(dir, count));
    ledger_rates.push_back(ledger_rate(dir, edition, count));
  }
  std::sort(ledger_rates.begin(), ledger_rates.end());
  std::sort(bare_rates.begin(), bare_rates.end());
  double ledger = ledger_rates[1], bare = bare_rates[1];
  fmt::print("ledger: durable inputs/s (input + postings, one fsync'd commit each): {:.0f}\n", ledger);
  fmt::print("ledger: bare SQLite insert+commit/s, same pragmas, same run:         {:.0f}\n", bare);
  fmt::print("ledger: bare / ledger = {:.2f}x (aim: within 1.5x)\n", bare / ledger);

  // 2. A 100,000-input log (many games in one file), written without fsync to save time, then replayed.
  FaultVfs::install(false);
  FaultVfs::skip_syncs(true);
  std::string big = dir + "/big.db";
  remove_db(big);
  std::vector<bb::ledger::GameId> ids;
  long long inputs = 0;
  {
    auto ledger_db = Ledger::open(options(big, FaultVfs::kName));
    for (std::uint64_t seed = 100; inputs < 100000; ++seed) {
      Played g = play(edition, seed, 4, std::min<long long>(3000, 100000 - inputs + 1));
      auto id = ledger_db->start_game(g.setup);
      for (std::size_t i = 0; i < g.inputs.size(); ++i) {
        if (!ledger_db->record(*id, g.inputs[i], {fmt::format("touch:{}", i), "touch", "bench", "bench"}))
          break;
        ++inputs;
      }
      ids.push_back(*id);
    }
  }
  {
    auto start = Clock::now();
    auto ledger_db = Ledger::open(options(big));
    double open_s = seconds_since(start);
    start = Clock::now();
    for (auto id : ids) {
      auto report = ledger_db->resume(id);
      if (!report || !report->differences.empty()) {
        fmt::print(stderr, "bench_ledger: game {} does not replay cleanly\n", id);
        return 1;
      }
    }
    double replay_s = seconds_since(start);
    fmt::print("ledger: open with integrity check of {} inputs: {:.0f} ms\n", inputs, open_s * 1000);
    fmt::print(
        "ledger: replay of a {}-input log ({} games) from the file through the engine: {:.0f} ms "
        "({:.0f} inputs/s)\n",
        inputs, ids.size(), replay_s * 1000, inputs / replay_s);
  }
  std::uintmax_t size = fs::file_size(big);
  fmt::print("ledger: database size per 1,000 inputs: {:.1f} KiB ({:.1f} MiB for {} inputs)\n",
             size / 1024.0 / (inputs / 1000.0), size / 1048576.0, inputs);

  // 2b. A backup of that file as the service makes it: the copy on its loop (Ledger::start_backup), the rest
  // (fsyncs, anchor, rename, rotation) on its backup finisher's thread (BackupStore::finish).
  {
    LedgerOptions with_backups = options(big);
    with_backups.backup_dir = dir + "/backups";
    auto ledger_db = Ledger::open(with_backups);
    if (!ledger_db) {
      fmt::print(stderr, "bench_ledger: {}\n", ledger_db.error().message);
      return 1;
    }
    auto finish = [&](const bb::ledger::PendingBackup& pending) -> double {
      auto start = Clock::now();
      auto made = bb::ledger::BackupStore::finish(pending);
      if (!made) {
        fmt::print(stderr, "bench_ledger: {}\n", made.error());
        std::exit(1);
      }
      return seconds_since(start);
    };
    // The whole copy in one call (Ledger::start_backup, `boardbank ledger backup`'s way), for comparison.
    {
      auto start = Clock::now();
      auto pending = ledger_db->start_backup();
      double copy_s = seconds_since(start);
      if (!pending) {
        fmt::print(stderr, "bench_ledger: {}\n", pending.error().message);
        return 1;
      }
      double finish_s = finish(*pending);
      fmt::print(
          "ledger: backup of the {:.1f} MiB file in one call: copy {:.1f} ms, finish (fsyncs, anchor, "
          "rename, "
          "rotation) {:.1f} ms\n",
          size / 1048576.0, copy_s * 1000, finish_s * 1000);
    }
    // In steps, as the service's loop copies it (64 pages a step; the loop runs between the steps): the
    // longest step is what a backup holds the loop for. "own": the step's wall time less this thread's wait
    // for a CPU (its run-queue wait in /proc/thread-self/schedstat), as the loop's stall figure counts it.
    constexpr int kPagesPerStep = 64;
    for (int round = 1; round <= 3; ++round) {
      auto start = Clock::now();
      if (auto begun = ledger_db->begin_backup(); !begun) {
        fmt::print(stderr, "bench_ledger: {}\n", begun.error().message);
        return 1;
      }
      std::vector<double> wall_ms, own_ms;
      std::optional<bb::ledger::PendingBackup> pending;
      while (!pending) {
        const std::int64_t waited_before = run_queue_wait_ns();
        auto step_start = Clock::now();
        auto stepped = ledger_db->step_backup(kPagesPerStep);
        const double wall = seconds_since(step_start) * 1000;
        const double waited = static_cast<double>(run_queue_wait_ns() - waited_before) / 1e6;
        if (!stepped) {
          fmt::print(stderr, "bench_ledger: {}\n", stepped.error().message);
          return 1;
        }
        wall_ms.push_back(wall);
        own_ms.push_back(std::max(0.0, wall - waited));
        if (*stepped) pending = std::move(**stepped);
      }
      double copy_s = seconds_since(start);
      double finish_s = finish(*pending);
      std::vector<double> sorted = wall_ms;
      std::sort(sorted.begin(), sorted.end());
      fmt::print(
          "ledger: backup {} of the {:.1f} MiB file in {} steps of {} pages: longest step {:.2f} ms wall, "
          "{:.2f} ms own (median {:.2f} ms); copy {:.1f} ms of steps in all; finish (its thread) {:.1f} ms\n",
          round, size / 1048576.0, wall_ms.size(), kPagesPerStep, sorted.back(),
          *std::max_element(own_ms.begin(), own_ms.end()), sorted[sorted.size() / 2], copy_s * 1000,
          finish_s * 1000);
    }
  }

  // 3. Resume of a 1,000-input game: open the file and rebuild the game, as the daemon does at start.
  std::string resume_db = dir + "/resume.db";
  remove_db(resume_db);
  bb::ledger::GameId game = 0;
  {
    auto ledger_db = Ledger::open(options(resume_db, FaultVfs::kName));
    Played g;
    for (std::uint64_t seed = 1; g.inputs.size() < 1000; ++seed) g = play(edition, seed, 4, 1001);
    g.inputs.pop_back();  // the `end`: the game stays unfinished, as a game paused at the table
    game = *ledger_db->start_game(g.setup);
    for (std::size_t i = 0; i < g.inputs.size(); ++i) {
      (void)ledger_db->record(game, g.inputs[i], {fmt::format("touch:{}", i), "touch", "bench", "bench"});
    }
  }
  std::vector<double> times;
  double replay_ms = 0;
  for (int round = 0; round < 7; ++round) {
    auto start = Clock::now();
    auto ledger_db = Ledger::open(options(resume_db));
    auto report = ledger_db->resume(*ledger_db->newest_unfinished_game());
    times.push_back(seconds_since(start) * 1000);
    replay_ms = report->replay_ms;
  }
  std::sort(times.begin(), times.end());
  fmt::print(
      "ledger: resume of a 1,000-input game (open, check, replay, compare): {:.1f} ms, of which replay "
      "{:.1f} ms (aim: under 200 ms)\n",
      times[times.size() / 2], replay_ms);
  (void)game;

  // 4. Resume of one very long game, from the newest snapshot (as the ledger does) and from the start.
  // Lengths one short of a snapshot point: the worst case, the most inputs to replay after the newest one.
  for (int length : {9999, 99999}) {
    std::string long_db = dir + fmt::format("/marathon-{}.db", length);
    remove_db(long_db);
    Played g = marathon(edition, 7, length);
    std::int64_t snapshots = 0;
    {
      LedgerOptions o = options(long_db, FaultVfs::kName);  // written without fsync to save time
      auto ledger_db = Ledger::open(o);
      auto id = ledger_db->start_game(g.setup);
      for (std::size_t i = 0; i < g.inputs.size(); ++i) {
        if (!ledger_db->record(*id, g.inputs[i], {fmt::format("touch:{}", i), "touch", "bench", "bench"})) {
          fmt::print(stderr, "bench_ledger: the marathon was refused at input {}\n", i);
          return 1;
        }
      }
    }
    {
      sqlite3* db = nullptr;
      sqlite3_open(long_db.c_str(), &db);
      sqlite3_stmt* q = nullptr;
      sqlite3_prepare_v2(db, "SELECT count(*), coalesce(max(length(body)), 0) FROM snapshots", -1, &q,
                         nullptr);
      if (sqlite3_step(q) == SQLITE_ROW) snapshots = sqlite3_column_int64(q, 1);
      sqlite3_finalize(q);
      sqlite3_close(db);
    }
    for (bool use_snapshot : {true, false}) {
      LedgerOptions o = options(long_db);
      if (!use_snapshot) o.resume_budget_ms = 0;
      std::vector<double> total;
      bb::ledger::ResumeReport last;
      for (int round = 0; round < 3; ++round) {
        auto start = Clock::now();
        auto ledger_db = Ledger::open(o);
        auto report = ledger_db->resume(*ledger_db->newest_unfinished_game());
        total.push_back(seconds_since(start) * 1000);
        if (!report || !report->differences.empty()) {
          fmt::print(stderr, "bench_ledger: the marathon does not resume cleanly\n");
          return 1;
        }
        last = *report;
      }
      std::sort(total.begin(), total.end());
      fmt::print(
          "ledger: resume of a {}-input game {}: {:.1f} ms (open, check, read, rebuild), rebuild {:.1f} ms, "
          "{} inputs replayed{}\n",
          length, use_snapshot ? "from its newest snapshot" : "replaying the whole log", total[1],
          last.replay_ms, last.replayed,
          use_snapshot ? fmt::format(" (snapshot {:.0f} KiB)", snapshots / 1024.0) : "");
    }
    remove_db(long_db);
  }
  std::error_code ec;
  fs::remove_all(dir, ec);
  return 0;
}
