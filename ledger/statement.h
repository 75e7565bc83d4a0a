#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace bb::ledger {

// One prepared statement. Binds are 1-based as in SQL, columns 0-based as in SQLite. Throws SqlError.
class Statement {
 public:
  Statement(sqlite3* db, std::string_view sql);
  ~Statement();
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&& other) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& bind(int index, std::int64_t value);
  Statement& bind(int index, int value) { return bind(index, static_cast<std::int64_t>(value)); }
  Statement& bind(int index, std::string_view value);
  Statement& bind(int index, const char* value) { return bind(index, std::string_view(value)); }
  Statement& bind(int index, const std::string& value) { return bind(index, std::string_view(value)); }
  Statement& bind(int index, const std::optional<std::string>& value);
  Statement& bind_null(int index);

  // Advances to the next row: true while there is one, false when done.
  bool step();
  // Runs a statement that returns no rows.
  void run();
  // Makes the statement ready to run again (clears bindings too).
  void reset();

  std::int64_t column_int64(int index) const;
  std::string column_text(int index) const;
  std::optional<std::string> column_optional_text(int index) const;
  std::optional<std::int64_t> column_optional_int64(int index) const;
  bool column_is_null(int index) const;

 private:
  sqlite3* db_ = nullptr;
  sqlite3_stmt* stmt_ = nullptr;
};

}  // namespace bb::ledger
