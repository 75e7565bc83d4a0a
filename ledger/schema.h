#pragma once
#include <string>
#include <vector>

namespace bb::ledger {

class Database;

// The ledger's tables, versioned with PRAGMA user_version. Each version is reached from the one before by one
// forward migration, run in its own transaction; a file is never moved backwards.
class Schema {
 public:
  static constexpr int kCurrentVersion = 4;

  // Brings `db` (new, or made by any earlier version) to kCurrentVersion. Throws SqlError; a file made by a
  // newer boardbank is refused (std::runtime_error) and left untouched.
  static void migrate(Database& db);
  // Stops at `version`: tests build files as earlier releases left them.
  static void migrate_to(Database& db, int version);
  // How the tables, indexes and triggers of `db` differ from what its version should have (empty: identical).
  // A flipped byte in a trigger's text passes SQLite's integrity check; this does not.
  static std::vector<std::string> differences(Database& db);
};

}  // namespace bb::ledger
