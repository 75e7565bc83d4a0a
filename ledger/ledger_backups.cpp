// Ledger's backups (copied on the connection's thread, whole or in steps; finished by BackupStore on another)
// and the checkpoint that puts the WAL and the newest anchor on the card.
#include <fmt/format.h>

#include "ledger/backup_store.h"
#include "ledger/ledger.h"
#include "ledger/ledger_private.h"

namespace bb::ledger {

using Kind = LedgerError::Kind;

std::expected<std::string, LedgerError> Ledger::backup_now() {
  if (options_.backup_dir.empty()) {
    return std::unexpected(
        LedgerError{Kind::invalid, "no backup directory is configured ([ledger] backup_dir)"});
  }
  auto made = BackupStore(options_.backup_dir, options_.keep_backups).write_from(db_);
  if (!made) return std::unexpected(LedgerError{Kind::io, made.error()});
  last_backup_ = std::chrono::system_clock::now();
  if (anchor_pending_) (void)write_anchor(Anchor::Durability::synced);
  return *made;
}

std::optional<std::expected<std::string, LedgerError>> Ledger::backup_if_due(
    std::chrono::system_clock::time_point now) {
  if (options_.backup_dir.empty() || options_.backup_every_minutes <= 0) return std::nullopt;
  if (now - last_backup_ < std::chrono::minutes(options_.backup_every_minutes)) return std::nullopt;
  return backup_now();
}

std::expected<PendingBackup, LedgerError> Ledger::start_backup() {
  if (auto begun = begin_backup(); !begun) return std::unexpected(begun.error());
  auto copied = step_backup(-1);
  if (!copied) return std::unexpected(copied.error());
  if (!*copied) {
    backup_copy_.reset();
    last_backup_ = {};
    return std::unexpected(LedgerError{Kind::io, "the database was busy; the backup was not copied"});
  }
  return std::move(**copied);
}

std::expected<void, LedgerError> Ledger::begin_backup() {
  if (options_.backup_dir.empty()) {
    return std::unexpected(
        LedgerError{Kind::invalid, "no backup directory is configured ([ledger] backup_dir)"});
  }
  if (backup_copy_) {
    return std::unexpected(
        LedgerError{Kind::invalid, "a backup is being copied already; wait for it to finish"});
  }
  auto copy = BackupStore(options_.backup_dir, options_.keep_backups).begin_copy(db_);
  if (!copy) return std::unexpected(LedgerError{Kind::io, copy.error()});
  backup_copy_.emplace(std::move(*copy));
  last_backup_ = std::chrono::system_clock::now();
  return {};
}

std::optional<std::expected<void, LedgerError>> Ledger::begin_backup_if_due(
    std::chrono::system_clock::time_point now) {
  if (options_.backup_dir.empty() || options_.backup_every_minutes <= 0 || backup_copy_) return std::nullopt;
  if (now - last_backup_ < std::chrono::minutes(options_.backup_every_minutes)) return std::nullopt;
  return begin_backup();
}

std::expected<std::optional<PendingBackup>, LedgerError> Ledger::step_backup(int pages) {
  if (!backup_copy_) return std::unexpected(LedgerError{Kind::invalid, "no backup is being copied"});
  auto whole = backup_copy_->step(pages);
  if (whole && !*whole) return std::optional<PendingBackup>{};
  std::expected<PendingBackup, std::string> completed =
      whole ? backup_copy_->complete(db_) : std::unexpected(whole.error());
  backup_copy_.reset();
  if (!completed) {
    last_backup_ = {};  // due again at the next check, as after a copy that failed
    return std::unexpected(LedgerError{Kind::io, completed.error()});
  }
  // Every backup puts the ledger's newest heads on the card too. Renamed into place here (no fsync: this is
  // the connection's thread, often a service loop); BackupStore::finish syncs it on its own thread.
  if (anchor_pending_) (void)write_anchor(Anchor::Durability::page_cache);
  if (!anchor_pending_) completed->ledger_anchor = Anchor::path_for(options_.path);
  return std::optional<PendingBackup>(std::move(*completed));
}

Ledger::BackupProgress Ledger::backup_progress() const {
  if (!backup_copy_) return {};
  return {backup_copy_->remaining_pages(), backup_copy_->total_pages()};
}

std::optional<std::expected<PendingBackup, LedgerError>> Ledger::start_backup_if_due(
    std::chrono::system_clock::time_point now) {
  if (options_.backup_dir.empty() || options_.backup_every_minutes <= 0) return std::nullopt;
  if (now - last_backup_ < std::chrono::minutes(options_.backup_every_minutes)) return std::nullopt;
  return start_backup();
}

std::expected<void, LedgerError> Ledger::checkpoint() {
  try {
    db_.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    // The anchors written since the last checkpoint may still be in the page cache: put the newest on the
    // card.
    if (auto failed = write_anchor(Anchor::Durability::synced))
      return std::unexpected(LedgerError{Kind::io, *failed});
    return {};
  } catch (const SqlError& e) {
    return std::unexpected(storage_error(e, "the checkpoint"));
  }
}

}  // namespace bb::ledger
