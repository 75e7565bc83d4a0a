// I/O errors and a full card, injected at every write of a game: the input in flight is refused with a clear
// message and nothing half-written; the game goes on once the space is back; the file is never corrupt and no
// acknowledged input is lost.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <memory>

#include "fault_vfs.h"
#include "ledger/ledger.h"
#include "ledger_test_support.h"
#include "random_driver.h"
#include "rules/script.h"
#include "temp_dir.h"

namespace bb::ledger {
namespace {

using namespace testing;

struct ScriptedGame {
  rules::Setup setup;
  std::vector<rules::Input> inputs;
};

ScriptedGame parse(const std::string& script) {
  ScriptedGame g;
  auto lines = std::vector<std::string>();
  std::size_t start = 0;
  while (start < script.size()) {
    auto end = script.find('\n', start);
    lines.push_back(script.substr(start, end - start));
    start = end + 1;
  }
  g.setup = *rules::parse_setup(lines.at(0));
  auto edition = rules::load_edition("classic", {EDITIONS_DIR});
  std::vector<std::string> names;
  for (const auto& p : g.setup.players) names.push_back(p.name);
  for (std::size_t i = 1; i < lines.size(); ++i)
    g.inputs.push_back(*rules::parse_input(lines[i], names, *edition));
  return g;
}

bool storage_kind(const LedgerError& e) {
  return e.kind == LedgerError::Kind::io || e.kind == LedgerError::Kind::storage_full;
}

class IoErrors : public ::testing::Test {
 protected:
  void SetUp() override {
    FaultVfs::install(false);
    FaultVfs::skip_syncs(true);
    game_ = parse(
        RandomDriver::script(EDITIONS_DIR, 77, 3, sweep_size("BOARDBANK_LEDGER_IO_INPUTS", 30, 20), true));
  }
  void TearDown() override {
    FaultVfs::disarm();
    FaultVfs::skip_syncs(false);
    FaultVfs::fail_with_disk_full(false);
  }
  LedgerOptions options(const std::string& name) {
    LedgerOptions o = options_for(dir_.file(name));
    o.vfs = FaultVfs::kName;
    return o;
  }
  InputMeta meta(std::size_t i) { return {fmt::format("touch:{}", i), "touch", "pin", "test correction"}; }

  // Plays the game; returns the final state dump and the acknowledged ids. Each refused input is sent again
  // after "freeing space" (disarming the fault), as the table would.
  std::string play(const LedgerOptions& o, std::set<std::string>& acked, int& refusals) {
    auto ledger = Ledger::open(o);
    if (!ledger) {
      EXPECT_TRUE(storage_kind(ledger.error())) << ledger.error().message;
      ++refusals;
      FaultVfs::disarm();
      ledger = Ledger::open(o);
    }
    EXPECT_TRUE(ledger.has_value()) << ledger.error().message;
    if (!ledger) return {};
    auto game = ledger->start_game(game_.setup, "io-test");
    if (!game) {
      EXPECT_TRUE(storage_kind(game.error())) << game.error().message;
      ++refusals;
      FaultVfs::disarm();
      game = ledger->start_game(game_.setup, "io-test");
    }
    EXPECT_TRUE(game.has_value());
    if (!game) return {};
    for (std::size_t i = 0; i < game_.inputs.size(); ++i) {
      std::uint64_t before = ledger->game(*game) ? ledger->game(*game)->signature() : 0;
      auto recorded = ledger->record(*game, game_.inputs[i], meta(i));
      if (!recorded) {
        EXPECT_TRUE(storage_kind(recorded.error())) << recorded.error().message;
        if (recorded.error().kind == LedgerError::Kind::storage_full) {
          EXPECT_NE(recorded.error().message.find("full"), std::string::npos);
        }
        ++refusals;
        FaultVfs::disarm();
        // Nothing half-done: the engine stands where it stood before the refused input.
        auto resumed = ledger->resume(*game);
        EXPECT_TRUE(resumed.has_value() && resumed->differences.empty());
        EXPECT_EQ(ledger->game(*game)->signature(), before);
        recorded = ledger->record(*game, game_.inputs[i], meta(i));
      }
      EXPECT_TRUE(recorded.has_value()) << "input " << i << ": " << recorded.error().message;
      if (!recorded) return {};
      acked.insert(fmt::format("{}:{}", *game, meta(i).id));
    }
    EXPECT_TRUE(ledger->invariant_violations().empty());
    return rules::state_to_json(*ledger->game(*game));
  }

  TempDir dir_;
  ScriptedGame game_;
};

TEST_F(IoErrors, EveryWriteOfAGameCanFailWithoutLosingOrCorruptingAnything) {
  std::set<std::string> acked;
  int refusals = 0;
  FaultVfs::arm(FaultVfs::Mode::count);
  std::string expected = play(options("baseline.db"), acked, refusals);
  std::int64_t writes = FaultVfs::writes();
  ASSERT_GT(writes, 10);
  ASSERT_EQ(refusals, 0);

  int step = sweep_size("BOARDBANK_LEDGER_IO_STEP", 1, 2);
  for (std::int64_t n = 1; n <= writes; n += step) {
    SCOPED_TRACE(fmt::format("failing from write {} of {}", n, writes));
    std::string name = fmt::format("fail-{}.db", n);
    acked.clear();
    refusals = 0;
    FaultVfs::fail_with_disk_full(n % 2 == 0);
    FaultVfs::arm(n % 3 == 0 ? FaultVfs::Mode::fail_once : FaultVfs::Mode::fail, n);
    std::string state = play(options(name), acked, refusals);
    FaultVfs::disarm();
    EXPECT_EQ(state, expected);
    auto problems = Ledger::inspect(dir_.file(name), options_for(dir_.file(name)), true);
    ASSERT_TRUE(problems.has_value());
    EXPECT_TRUE(problems->empty()) << ::testing::PrintToString(*problems);
    auto counts = stored_id_counts(dir_.file(name));
    EXPECT_EQ(counts.size(), acked.size());
    for (const auto& id : acked) EXPECT_EQ(counts[id], 1) << id;
    if (HasFailure()) return;
  }
}

TEST_F(IoErrors, AFullCardStaysFullUntilSpaceIsFreed) {
  auto ledger = Ledger::open(options("full.db"));
  ASSERT_TRUE(ledger.has_value());
  auto game = ledger->start_game(game_.setup, "io-test");
  ASSERT_TRUE(game.has_value());
  FaultVfs::fail_with_disk_full(true);
  FaultVfs::arm(FaultVfs::Mode::fail, 1);
  for (int attempt = 0; attempt < 3; ++attempt) {
    auto recorded = ledger->record(*game, game_.inputs[0], meta(0));
    ASSERT_FALSE(recorded.has_value());
    EXPECT_EQ(recorded.error().kind, LedgerError::Kind::storage_full);
  }
  FaultVfs::disarm();
  auto recorded = ledger->record(*game, game_.inputs[0], meta(0));
  ASSERT_TRUE(recorded.has_value()) << recorded.error().message;
  EXPECT_FALSE(recorded->duplicate);
  EXPECT_EQ(recorded->seq, 0);
}

}  // namespace
}  // namespace bb::ledger
