#pragma once
#include <expected>
#include <string>

namespace bb::ledger {

// Makes every commit written so far to a ledger opened with `Durability::by_caller` durable: one
// fdatasync of its write-ahead log ("<database>-wal"), which on Linux flushes what any descriptor wrote to
// that file, SQLite's own included. A commit whose write() returned before sync() began is covered.
// Owns nothing but the path (the file is opened for each sync: SQLite may truncate it at a checkpoint).
// Must never: touch the SQLite connection (it runs beside the thread that writes). Thread: any; one sync
// at a time per instance is enough (calls from several threads are safe, each opens its own descriptor).
class WalSync {
 public:
  explicit WalSync(std::string database_path);
  // The error names the file and what the system said (an SD card that failed: the inputs written since
  // the last successful sync are not known to be stored). No log yet (nothing written since the open, or
  // all checkpointed away and removed) is success: the database file itself was synced by SQLite then.
  std::expected<void, std::string> sync() const;
  const std::string& wal_path() const { return wal_path_; }

 private:
  std::string wal_path_;
};

}  // namespace bb::ledger
