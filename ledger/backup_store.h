#pragma once
#include <chrono>
#include <expected>
#include <optional>
#include <string>
#include <vector>

namespace bb::ledger {

class Database;

// A directory of ledger copies named boardbank-<UTC time>.db, newest last by name. A copy is written under a
// temporary name, synced, then renamed, so a copy with a final name is always whole.
class BackupStore {
 public:
  BackupStore(std::string dir, int keep);

  // Copies `source` with SQLite's online backup API (it may be in use), then keeps only the newest `keep`.
  std::expected<std::string, std::string> write_from(Database& source);
  std::vector<std::string> list() const;  // oldest first
  std::optional<std::string> newest() const;
  std::optional<std::chrono::system_clock::time_point> newest_time() const;

  // Puts a copy of `backup` at `db_path`. The file it replaces (with its -wal and -shm) is kept beside it as
  // <db>.replaced-<time>; returns that name, or an empty string when there was none.
  static std::expected<std::string, std::string> restore(const std::string& backup,
                                                         const std::string& db_path);

 private:
  void rotate() const;
  std::string dir_;
  int keep_;
};

}  // namespace bb::ledger
