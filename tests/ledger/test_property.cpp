// Thousands of random simulated games written through the ledger, all into one file: after every input the
// ledger accepts or refuses exactly what a plain engine does, with the same cash; after every game, the game
// rebuilt from the file has the plain engine's signature (a hash of the whole state) and balances.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "fault_vfs.h"
#include "ledger/ledger.h"
#include "ledger_test_support.h"
#include "random_driver.h"
#include "rules/script.h"
#include "temp_dir.h"

namespace bb::ledger {
namespace {

using namespace testing;

TEST(Property, RandomGamesRebuildToTheEnginesState) {
  // Syncs are skipped: this test is about what is stored, the crash tests are about durability.
  FaultVfs::install(false);
  FaultVfs::skip_syncs(true);
  TempDir dir;
  LedgerOptions options = options_for(dir.file("games.db"));
  options.vfs = FaultVfs::kName;
  auto edition = rules::load_edition("classic", {EDITIONS_DIR});
  ASSERT_TRUE(edition.has_value());
  auto shared = std::make_shared<const rules::Edition>(std::move(*edition));

  int games = sweep_size("BOARDBANK_LEDGER_PROPERTY_GAMES", 2000, 200);
  std::optional<Ledger> ledger;
  long long inputs = 0;
  for (int g = 0; g < games; ++g) {
    if (g % 250 == 0) {  // a restart now and then: nothing may depend on what stayed in memory
      ledger.reset();
      auto opened = Ledger::open(options);
      ASSERT_TRUE(opened.has_value()) << opened.error().message;
      ledger.emplace(std::move(*opened));
    }
    std::uint64_t seed = 1000 + static_cast<std::uint64_t>(g);
    rules::Setup setup = RandomDriver::setup(seed, 2 + g % 3);
    auto id = ledger->start_game(setup);
    ASSERT_TRUE(id.has_value()) << id.error().message;
    auto shadow = rules::Game::start(shared, setup);
    ASSERT_TRUE(shadow.has_value());
    RandomDriver driver(seed, true);
    int length = 10 + static_cast<int>(seed % 50);
    for (int n = 0; n < length && !shadow->state().ended; ++n) {
      bool accepted = false;
      for (int attempt = 0; attempt <= 8 && !accepted; ++attempt) {
        rules::Input input = n + 1 == length ? rules::Input{rules::End{}} : driver.propose(*shadow, attempt);
        auto recorded =
            ledger->record(*id, input, {fmt::format("touch:{}", n), "touch", "pin", "property test"});
        auto applied = shadow->apply(input);
        ASSERT_EQ(recorded.has_value(), applied.has_value())
            << "game " << g << " input " << n << ": " << (recorded ? "" : recorded.error().message);
        accepted = applied.has_value();
      }
      ASSERT_TRUE(accepted) << "game " << g << ": the driver is stuck";
      ++inputs;
      const auto& players = ledger->game(*id)->state().players;
      for (std::size_t p = 0; p < players.size(); ++p) {
        ASSERT_EQ(players[p].cash, shadow->state().players[p].cash) << "game " << g << " input " << n;
      }
    }
    auto problems = ledger->invariant_violations();
    ASSERT_TRUE(problems.empty()) << "game " << g << ": " << problems[0];
    auto report = ledger->resume(*id);
    ASSERT_TRUE(report.has_value()) << report.error().message;
    ASSERT_TRUE(report->differences.empty()) << "game " << g << ": " << report->differences[0];
    ASSERT_EQ(ledger->game(*id)->signature(), shadow->signature()) << "game " << g;
    if (g % 50 == 0) {
      ASSERT_EQ(rules::state_to_json(*ledger->game(*id)), rules::state_to_json(*shadow));
    }
    ledger->forget(*id);
  }
  ledger.reset();
  auto problems = Ledger::inspect(options.path, options_for(options.path), false);
  ASSERT_TRUE(problems.has_value());
  EXPECT_TRUE(problems->empty()) << (*problems)[0];
  FaultVfs::skip_syncs(false);
  std::cout << "[ property ] " << games << " games, " << inputs << " inputs\n";
}

}  // namespace
}  // namespace bb::ledger
