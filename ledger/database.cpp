#include "ledger/database.h"

#include <fmt/format.h>
#include <sqlite3.h>

#include <utility>

#include "ledger/sql_error.h"

namespace bb::ledger {

namespace {

// A path as an SQLite URI ("file:" + the path with the characters a URI gives meaning to escaped).
std::string immutable_uri(const std::string& path) {
  std::string uri = "file:";
  for (unsigned char c : path) {
    if (c == '?' || c == '#' || c == '%' || c < 0x20 || c >= 0x7f)
      uri += fmt::format("%{:02X}", c);
    else
      uri += static_cast<char>(c);
  }
  return uri + "?immutable=1";
}

}  // namespace

Database::Database(const std::string& path, Mode mode, const std::string& vfs) : path_(path), mode_(mode) {
  int flags = mode == Mode::read_write ? (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) : SQLITE_OPEN_READONLY;
  flags |= SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE;
  if (mode == Mode::immutable) flags |= SQLITE_OPEN_URI;
  std::string name = mode == Mode::immutable ? immutable_uri(path) : path;
  int rc = sqlite3_open_v2(name.c_str(), &db_, flags, vfs.empty() ? nullptr : vfs.c_str());
  if (rc != SQLITE_OK) {
    std::string message = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    sqlite3_close_v2(db_);
    db_ = nullptr;
    throw SqlError(rc, fmt::format("cannot open {}: {}", path, message));
  }
  sqlite3_extended_result_codes(db_, 1);
  try {
    // Another process (the CLI beside the daemon) may hold the write lock for a moment: wait rather than
    // fail.
    sqlite3_busy_timeout(db_, 5000);
    // Catches a damaged page early, as a corruption error, instead of reading past it.
    exec("PRAGMA cell_size_check=ON");
    if (mode == Mode::read_write) {
      // WAL: a commit appends to the log and one fsync makes it durable; a torn write at a power cut is
      // discarded at the next open because its frame checksum does not match.
      std::string journal = query_text("PRAGMA journal_mode=WAL");
      if (journal != "wal" && path != ":memory:")
        throw SqlError(SQLITE_ERROR, fmt::format("{}: cannot switch to WAL (got {})", path, journal));
      // FULL: the WAL is synced at every commit, so an acknowledged input survives a pulled plug.
      exec("PRAGMA synchronous=FULL");
      exec("PRAGMA foreign_keys=ON");
    }
  } catch (...) {
    sqlite3_close_v2(db_);
    db_ = nullptr;
    throw;
  }
}

Database::~Database() {
  // close_v2 never fails in a way we could act on here; a destructor must not throw.
  if (db_) sqlite3_close_v2(db_);
}

Database::Database(Database&& other) noexcept
    : db_(std::exchange(other.db_, nullptr)), path_(std::move(other.path_)), mode_(other.mode_) {}

Database& Database::operator=(Database&& other) noexcept {
  if (this != &other) {
    if (db_) sqlite3_close_v2(db_);
    db_ = std::exchange(other.db_, nullptr);
    path_ = std::move(other.path_);
    mode_ = other.mode_;
  }
  return *this;
}

void Database::exec(std::string_view sql) {
  std::string text(sql);
  char* error = nullptr;
  int rc = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &error);
  if (rc != SQLITE_OK) {
    std::string message = error ? error : sqlite3_errstr(rc);
    sqlite3_free(error);
    throw SqlError(sqlite3_extended_errcode(db_) ? sqlite3_extended_errcode(db_) : rc,
                   fmt::format("{}: {}", text.substr(0, 80), message));
  }
}

Statement Database::prepare(std::string_view sql) { return Statement(db_, sql); }

std::string Database::query_text(std::string_view sql) {
  Statement statement(db_, sql);
  std::string value = statement.step() ? statement.column_text(0) : std::string();
  statement.reset();
  return value;
}

std::int64_t Database::query_int64(std::string_view sql) {
  Statement statement(db_, sql);
  std::int64_t value = statement.step() ? statement.column_int64(0) : 0;
  statement.reset();
  return value;
}

std::vector<std::string> Database::query_column(std::string_view sql) {
  Statement statement(db_, sql);
  std::vector<std::string> rows;
  while (statement.step()) rows.push_back(statement.column_text(0));
  return rows;
}

int Database::user_version() { return static_cast<int>(query_int64("PRAGMA user_version")); }

void Database::set_user_version(int version) { exec(fmt::format("PRAGMA user_version={}", version)); }

bool Database::in_transaction() const { return sqlite3_get_autocommit(db_) == 0; }

}  // namespace bb::ledger
