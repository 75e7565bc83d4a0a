#pragma once
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>

#include "ledger/ledger.h"
#include "table/ledger_game_store.h"
#include "table/table.h"
#include "temp_dir.h"

namespace bb::table::testing {

inline constexpr const char* kAnnCard = "A1A1A1A1";
inline constexpr const char* kBobCard = "B2B2B2B2";
inline constexpr const char* kCyCard = "C3C3C3C3";
inline constexpr const char* kBankerCard = "BA0BA0BA";
inline constexpr const char* kPin = "2468";

// A table over a real ledger on a temp file, driven by scripted events. Every event gets a fresh id unless
// the test gives one; after every event the table's and the ledger's invariants are checked.
class TableTest : public ::testing::Test {
 protected:
  TableTest();
  ~TableTest() override;

  // Opens (again) the ledger on the same file and a fresh table over it: what a restart does.
  void open(TableSettings settings);
  void restart();
  TableSettings default_settings() const;

  Reaction start(std::vector<std::string> names = {"Ann", "Bob"},
                 std::vector<std::string> cards = {kAnnCard, kBobCard},
                 const std::string& edition = "classic");
  Reaction event(Event e);
  Reaction dice(int d1, int d2, std::string id = {});
  Reaction tap(const std::string& uid, std::string id = {}, std::int64_t at_ms = -1);
  Reaction touch(display::Intent intent);
  Reaction answer(const std::string& option, const std::string& value = {});
  // Test shorthand: the camera reports seat `player` on space number `space`.
  Reaction seen(int player, int space, TokenReport::Kind kind = TokenReport::Kind::moved);

  const rules::Game& game() const;
  std::size_t inputs() const { return game().input_count(); }
  rules::Money cash(int player) const;
  const std::optional<display::TableQuestion>& question() const { return table->view().question; }
  // Writes an edition like classic with a deal timer of `seconds` into the temp dir, id "timed".
  void write_timed_edition(int seconds);

  ledger::testing::TempDir dir;
  std::string db;
  int snapshot_every_inputs = 0;  // the ledger's snapshots (0: by time); 1: after every input
  std::string vfs;  // a registered SQLite VFS for the ledger (the fault-injecting one), empty: the default
  TableSettings settings;
  std::optional<ledger::Ledger> ledger;
  std::unique_ptr<LedgerGameStore> store;
  std::unique_ptr<Table> table;
  int next_id = 1;
};

bool contains(const std::vector<std::string>& messages, const std::string& part);
// Every input's "authorised_by|reason" as the file holds them, read without writing to it.
std::vector<std::string> stored_authorisations(const std::string& db_path);

}  // namespace bb::table::testing
