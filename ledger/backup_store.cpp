#include "ledger/backup_store.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <ctime>
#include <filesystem>

#include "ledger/anchor.h"
#include "ledger/database.h"
#include "ledger/medium.h"
#include "ledger/sql_error.h"

namespace bb::ledger {

namespace fs = std::filesystem;

namespace {

std::string stamp() {
  auto now = std::chrono::system_clock::now();
  std::time_t seconds = std::chrono::system_clock::to_time_t(now);
  auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  return fmt::format("{:04}{:02}{:02}T{:02}{:02}{:02}.{:03}Z", utc.tm_year + 1900, utc.tm_mon + 1,
                     utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec, millis);
}

bool is_backup_name(const std::string& name) {
  return name.starts_with("boardbank-") && name.ends_with(".db");
}

// Makes a file's contents, or a directory's entries, durable before the next step depends on them.
bool sync_path(const std::string& path, bool directory) {
  int fd = ::open(path.c_str(), directory ? (O_RDONLY | O_DIRECTORY) : O_RDONLY);
  if (fd < 0) return false;
  bool ok = ::fsync(fd) == 0;
  ::close(fd);
  return ok;
}

// A copy of a whole database into a new file with SQLite's online backup API, one step or many. It has no
// journal and syncs nothing itself: the file is renamed only when whole, and its owner syncs it before
// anything depends on it. Closed (the backup finished) when it goes.
struct CopyConnection {
  sqlite3* out = nullptr;
  sqlite3_backup* backup = nullptr;

  CopyConnection() = default;
  CopyConnection(const CopyConnection&) = delete;
  CopyConnection& operator=(const CopyConnection&) = delete;
  ~CopyConnection() { close(); }

  std::expected<void, std::string> open(sqlite3* source, const std::string& dest) {
    int rc = sqlite3_open_v2(dest.c_str(), &out, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
    if (rc != SQLITE_OK) {
      std::string message = error(rc);
      close();
      return std::unexpected(fmt::format("cannot create {}: {}", dest, message));
    }
    sqlite3_exec(out, "PRAGMA journal_mode=OFF", nullptr, nullptr, nullptr);
    sqlite3_exec(out, "PRAGMA synchronous=OFF", nullptr, nullptr, nullptr);
    backup = sqlite3_backup_init(out, "main", source, "main");
    if (!backup) {
      std::string message = sqlite3_errmsg(out);
      close();
      return std::unexpected(fmt::format("cannot start the backup: {}", message));
    }
    return {};
  }
  // Finishes the backup and closes the file: SQLITE_OK, or why the close failed.
  int close() {
    if (backup) sqlite3_backup_finish(backup);
    backup = nullptr;
    int rc = sqlite3_close_v2(out);
    out = nullptr;
    return rc;
  }
  std::string error(int rc) const { return out ? sqlite3_errmsg(out) : sqlite3_errstr(rc); }
};

// The whole copy in one step, in the page cache only: the caller syncs it.
std::expected<void, std::string> copy_unsynced(sqlite3* source, const std::string& dest) {
  CopyConnection copy;
  if (auto opened = copy.open(source, dest); !opened) return opened;
  int rc = sqlite3_backup_step(copy.backup, -1);
  if (rc != SQLITE_DONE)
    return std::unexpected(fmt::format("copying into {} failed: {}", dest, copy.error(rc)));
  if (copy.close() != SQLITE_OK)
    return std::unexpected(fmt::format("copying into {} failed: {}", dest, sqlite3_errstr(SQLITE_IOERR)));
  return {};
}

// The copy, then synced.
std::expected<void, std::string> copy_database(sqlite3* source, const std::string& dest) {
  if (auto copied = copy_unsynced(source, dest); !copied) return copied;
  if (!sync_path(dest, false)) return std::unexpected(fmt::format("cannot sync {}", dest));
  return {};
}

}  // namespace

BackupStore::BackupStore(std::string dir, int keep) : dir_(std::move(dir)), keep_(std::max(1, keep)) {}

std::expected<std::string, std::string> BackupStore::write_from(Database& source) {
  auto pending = copy_from(source);
  if (!pending) return std::unexpected(pending.error());
  return finish(*pending);
}

struct BackupCopy::State {
  CopyConnection copy;
  PendingBackup pending;
  bool whole = false;
  int remaining = 0;
  int total = 0;

  // Closes the copy's connection; a copy never completed is removed.
  void abandon() {
    copy.close();
    std::error_code ec;
    fs::remove(pending.partial, ec);
  }
  ~State() {
    if (copy.out) abandon();
  }
};

BackupCopy::BackupCopy(std::unique_ptr<State> state) : state_(std::move(state)) {}
BackupCopy::BackupCopy(BackupCopy&&) noexcept = default;
BackupCopy& BackupCopy::operator=(BackupCopy&&) noexcept = default;
BackupCopy::~BackupCopy() = default;

int BackupCopy::remaining_pages() const { return state_ ? state_->remaining : 0; }
int BackupCopy::total_pages() const { return state_ ? state_->total : 0; }

std::expected<bool, std::string> BackupCopy::step(int pages) {
  if (!state_ || !state_->copy.backup)
    return std::unexpected(std::string("the backup copy is no longer open"));
  if (state_->whole) return true;
  sqlite3_backup* backup = state_->copy.backup;
  int rc = sqlite3_backup_step(backup, pages < 0 ? -1 : std::max(1, pages));
  state_->remaining = sqlite3_backup_remaining(backup);
  state_->total = sqlite3_backup_pagecount(backup);
  if (rc == SQLITE_DONE) {
    state_->whole = true;
    return true;
  }
  // Busy or locked: the source is in the middle of a write by another connection; the next step tries again.
  if (rc == SQLITE_OK || rc == SQLITE_BUSY || rc == SQLITE_LOCKED) return false;
  std::string message =
      fmt::format("copying into {} failed: {}", state_->pending.partial, state_->copy.error(rc));
  state_->abandon();
  return std::unexpected(message);
}

std::expected<PendingBackup, std::string> BackupCopy::complete(Database& source) {
  if (!state_ || !state_->whole)
    return std::unexpected(std::string("the backup copy is not whole yet; it cannot be completed"));
  State& s = *state_;
  int closed = s.copy.close();
  std::error_code ec;
  if (closed != SQLITE_OK) {
    fs::remove(s.pending.partial, ec);
    return std::unexpected(
        fmt::format("closing the copy {} failed: {}", s.pending.partial, sqlite3_errstr(closed)));
  }
  // The copy's anchor goes beside it before the copy gets its final name (in finish), so that every backup
  // has one. The heads are read now, from the connection the copy came from, which it equals: nothing was
  // written on this thread since the last step.
  try {
    s.pending.heads = Anchor::heads(source);
  } catch (const SqlError& e) {
    fs::remove(s.pending.partial, ec);
    return std::unexpected(fmt::format("cannot read the chain heads for the backup's anchor: {}", e.what()));
  }
  PendingBackup pending = std::move(s.pending);
  state_.reset();
  return pending;
}

std::expected<BackupCopy, std::string> BackupStore::begin_copy(Database& source) {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec)
    return std::unexpected(fmt::format("cannot create the backup directory {}: {}", dir_, ec.message()));
  std::string base = (fs::path(dir_) / ("boardbank-" + stamp())).string();
  std::string final_name = base + ".db";
  for (int n = 2; fs::exists(final_name, ec); ++n) final_name = fmt::format("{}-{}.db", base, n);
  auto state = std::make_unique<BackupCopy::State>();
  state->pending = PendingBackup{dir_, keep_, final_name + ".partial", final_name, {}, {}};
  if (auto opened = state->copy.open(source.handle(), state->pending.partial); !opened) {
    state->abandon();
    return std::unexpected(opened.error());
  }
  return BackupCopy(std::move(state));
}

std::expected<PendingBackup, std::string> BackupStore::copy_from(Database& source) {
  auto copy = begin_copy(source);
  if (!copy) return std::unexpected(copy.error());
  auto whole = copy->step(-1);
  if (!whole) return std::unexpected(whole.error());
  if (!*whole) return std::unexpected(std::string("the database was busy; the backup was not copied"));
  return copy->complete(source);
}

std::expected<std::string, std::string> BackupStore::finish(const PendingBackup& pending) {
  std::error_code ec;
  if (!sync_path(pending.partial, false)) {
    fs::remove(pending.partial, ec);
    return std::unexpected(fmt::format("cannot sync {}", pending.partial));
  }
  auto anchored = Anchor::write(Anchor::path_for(pending.final_name), pending.heads);
  if (!anchored) {
    fs::remove(pending.partial, ec);
    return std::unexpected(anchored.error());
  }
  fs::rename(pending.partial, pending.final_name, ec);
  if (ec) {
    std::string message = ec.message();
    fs::remove(pending.partial, ec);
    fs::remove(Anchor::path_for(pending.final_name), ec);  // the anchor of a copy that never got its name
    return std::unexpected(fmt::format("cannot name the backup {}: {}", pending.final_name, message));
  }
  sync_path(pending.dir, true);
  // The ledger's anchor renamed into place when the copy completed: synced here rather than on the loop. A
  // failure is not the backup's: an anchor behind its file is accepted by the check, and the next checkpoint
  // or the close syncs it again.
  if (!pending.ledger_anchor.empty() && sync_path(pending.ledger_anchor, false)) {
    fs::path folder = fs::path(pending.ledger_anchor).parent_path();
    sync_path(folder.empty() ? "." : folder.string(), true);
  }
  rotate(pending.dir, std::max(1, pending.keep));
  return pending.final_name;
}

std::vector<std::string> BackupStore::list() const {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir_, ec)) {
    std::string name = entry.path().filename().string();
    if (entry.is_regular_file(ec) && is_backup_name(name)) names.push_back(entry.path().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::optional<std::string> BackupStore::newest() const {
  auto names = list();
  if (names.empty()) return std::nullopt;
  return names.back();
}

std::optional<std::chrono::system_clock::time_point> BackupStore::newest_time() const {
  auto name = newest();
  if (!name) return std::nullopt;
  std::error_code ec;
  auto written = fs::last_write_time(*name, ec);
  if (ec) return std::nullopt;
  return std::chrono::file_clock::to_sys(written);
}

void BackupStore::rotate(const std::string& dir, int keep) {
  auto names = BackupStore(dir, keep).list();
  std::error_code ec;
  for (std::size_t i = 0; i + static_cast<std::size_t>(keep) < names.size(); ++i) {
    fs::remove(names[i], ec);
    fs::remove(Anchor::path_for(names[i]), ec);
  }
  // Copies cut short by a crash or a full card never got their final name; they are of no use to anyone, nor
  // is the anchor of a copy that never got its name.
  const std::string anchor_suffix = std::string(".db") + Anchor::kSuffix;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    std::string name = entry.path().filename().string();
    if (!name.starts_with("boardbank-")) continue;
    bool partial = name.ends_with(".db.partial");
    bool orphan_anchor = name.ends_with(anchor_suffix) &&
                         !fs::exists(entry.path().string().substr(0, entry.path().string().size() -
                                                                         std::string(Anchor::kSuffix).size()),
                                     ec);
    if (partial || orphan_anchor) fs::remove(entry.path(), ec);
  }
}

std::expected<std::string, std::string> BackupStore::restore(const std::string& backup,
                                                             const std::string& db_path) {
  std::string incoming = db_path + ".restoring";
  std::error_code ec;
  fs::remove(incoming, ec);
  try {
    Database source(backup, reading_mode(backup));
    auto copied = copy_database(source.handle(), incoming);
    if (!copied) {
      fs::remove(incoming, ec);
      return std::unexpected(copied.error());
    }
  } catch (const std::exception& e) {
    return std::unexpected(fmt::format("cannot read {}: {}", backup, e.what()));
  }
  auto backup_anchor = Anchor::read(Anchor::path_for(backup));
  if (!backup_anchor) {
    fs::remove(incoming, ec);
    return std::unexpected(backup_anchor.error());
  }
  std::string kept;
  if (fs::exists(db_path, ec)) {
    kept = fmt::format("{}.replaced-{}", db_path, stamp());
    // The -wal belongs to the file it was written for: left behind, it would be applied to the restored copy.
    for (const char* suffix : {"-wal", "-shm"}) {
      if (fs::exists(db_path + suffix, ec)) {
        fs::rename(db_path + suffix, kept + suffix, ec);
        if (ec)
          return std::unexpected(fmt::format("cannot move {}{} aside: {}", db_path, suffix, ec.message()));
      }
    }
    fs::rename(db_path, kept, ec);
    if (ec) return std::unexpected(fmt::format("cannot move {} aside: {}", db_path, ec.message()));
  }
  // The anchor belongs to the file it was written for: the replaced file's goes aside with it (left in place,
  // it would show the older backup as cut short), and the backup's own comes along.
  std::string anchor = Anchor::path_for(db_path);
  if (fs::exists(anchor, ec)) {
    std::string aside = kept.empty() ? fmt::format("{}.replaced-{}", db_path, stamp()) : kept;
    fs::rename(anchor, Anchor::path_for(aside), ec);
    if (ec) return std::unexpected(fmt::format("cannot move {} aside: {}", anchor, ec.message()));
  }
  if (*backup_anchor) {
    auto written = Anchor::write(anchor, **backup_anchor);
    if (!written) return std::unexpected(written.error());
  }
  fs::rename(incoming, db_path, ec);
  if (ec)
    return std::unexpected(fmt::format("cannot put the copy in place at {}: {}", db_path, ec.message()));
  sync_path(fs::path(db_path).parent_path().empty() ? "." : fs::path(db_path).parent_path().string(), true);
  return kept;
}

}  // namespace bb::ledger
