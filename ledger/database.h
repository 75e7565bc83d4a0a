#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ledger/statement.h"

struct sqlite3;

namespace bb::ledger {

// One SQLite connection. Opening read-write applies the ledger's durability settings (WAL, synchronous=FULL,
// foreign keys); opening read-only never writes the file, which is how a possibly damaged file is examined.
// Throws SqlError.
class Database {
 public:
  // immutable: read-only on a medium nobody can write (a read-only mount or directory), where SQLite could
  // not create the WAL's shared-memory file a plain read-only open of a WAL database needs.
  enum class Mode { read_only, read_write, immutable };

  // `vfs` names a registered SQLite VFS (tests use a fault-injecting one); empty: the default.
  Database(const std::string& path, Mode mode, const std::string& vfs = "");
  ~Database();
  Database(Database&& other) noexcept;
  Database& operator=(Database&& other) noexcept;
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  void exec(std::string_view sql);
  Statement prepare(std::string_view sql);
  // The first column of the first row as text (empty when there is no row).
  std::string query_text(std::string_view sql);
  std::int64_t query_int64(std::string_view sql);
  // Every row of a one-column query, as text.
  std::vector<std::string> query_column(std::string_view sql);

  int user_version();
  void set_user_version(int version);
  bool in_transaction() const;
  const std::string& path() const { return path_; }
  Mode mode() const { return mode_; }
  sqlite3* handle() const { return db_; }

 private:
  sqlite3* db_ = nullptr;
  std::string path_;
  Mode mode_ = Mode::read_only;
};

}  // namespace bb::ledger
