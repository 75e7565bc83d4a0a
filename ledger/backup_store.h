#pragma once
#include <chrono>
#include <expected>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ledger/anchor.h"

namespace bb::ledger {

class Database;

// A backup copied but not yet made durable nor named: what BackupStore::finish needs, and nothing that
// touches the connection. Made by BackupStore::copy_from on the connection's thread.
struct PendingBackup {
  std::string dir;                // the backup directory
  int keep = 1;                   // how many backups the rotation keeps
  std::string partial;            // the copy, under its temporary name (<final>.partial)
  std::string final_name;         // the name it gets once whole and synced
  std::vector<AnchorHead> heads;  // the chain heads the copy holds, for its anchor
  // The ledger's own anchor, renamed into place but not synced when the copy completed (empty: none): finish
  // syncs it, so that the fsync that every backup owes it never runs on the connection's thread.
  std::string ledger_anchor;
};

// A backup being copied in steps, so that a service loop copies a large ledger a few pages per turn instead
// of holding its loop for the whole file. SQLite's online backup API copies pages; a write made through the
// source connection between two steps is applied to the pages already copied (SQLite updates the copy as the
// connection writes), and the pages not yet copied are read as they stand at their step: the copy, once
// whole, holds everything committed on that connection before its last step. (A write by *another*
// connection would make the next step start over; the service has the only one.)
// Owns: the copy's own connection and the <final>.partial file until complete() hands it on; destroyed
// before completion, it removes the partial copy.
// Must never: outlive the source connection, or be stepped from another thread than the source's.
// Thread: the source connection's thread only.
class BackupCopy {
 public:
  BackupCopy(BackupCopy&&) noexcept;
  BackupCopy& operator=(BackupCopy&&) noexcept;
  ~BackupCopy();

  // Copies up to `pages` more pages (-1: all that remain). true once the copy is whole.
  std::expected<bool, std::string> step(int pages);
  // Pages left to copy and the source's size in pages, as of the last step (both 0 before the first).
  int remaining_pages() const;
  int total_pages() const;
  // Once step() returned true, and before `source` is written again: closes the copy and reads the chain
  // heads it holds (from `source`, which the copy equals at this moment) for its anchor.
  std::expected<PendingBackup, std::string> complete(Database& source);

 private:
  friend class BackupStore;
  struct State;
  explicit BackupCopy(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

// A directory of ledger copies named boardbank-<UTC time>.db, newest last by name. A copy is written under a
// temporary name, synced, then renamed, so a copy with a final name is always whole.
class BackupStore {
 public:
  BackupStore(std::string dir, int keep);

  // Copies `source` with SQLite's online backup API (it may be in use), then keeps only the newest `keep`:
  // copy_from, then finish, on the calling thread.
  std::expected<std::string, std::string> write_from(Database& source);
  // The part of a backup that needs the connection (the thread that owns `source`): the copy into
  // <final>.partial (not synced) and the chain heads for its anchor. Nothing has its final name yet.
  std::expected<PendingBackup, std::string> copy_from(Database& source);
  // The same copy in steps (BackupCopy): creates <final>.partial, copies nothing yet.
  std::expected<BackupCopy, std::string> begin_copy(Database& source);
  // The rest, on any thread (it never touches a connection): syncs the copy, writes its anchor (synced),
  // renames the copy into place, syncs the directory and rotates. Returns the backup's final name; on failure
  // the partial copy is removed. One finish at a time per directory, and no copy_from into the same
  // directory while it runs (the rotation removes stray partial copies).
  static std::expected<std::string, std::string> finish(const PendingBackup& pending);
  std::vector<std::string> list() const;  // oldest first
  std::optional<std::string> newest() const;
  std::optional<std::chrono::system_clock::time_point> newest_time() const;

  // Puts a copy of `backup` at `db_path`. The file it replaces (with its -wal and -shm) is kept beside it as
  // <db>.replaced-<time>; returns that name, or an empty string when there was none.
  static std::expected<std::string, std::string> restore(const std::string& backup,
                                                         const std::string& db_path);

 private:
  static void rotate(const std::string& dir, int keep);
  std::string dir_;
  int keep_;
};

}  // namespace bb::ledger
