#pragma once
#include <stdexcept>
#include <string>

namespace bb::ledger {

// A failed SQLite call. Used only inside the ledger: its public functions turn it into a LedgerError.
class SqlError : public std::runtime_error {
 public:
  SqlError(int extended_code, const std::string& message);

  int code() const { return code_; }  // SQLite's extended result code
  bool disk_full() const;
  bool io_error() const;
  bool corrupt() const;         // SQLITE_CORRUPT or SQLITE_NOTADB
  bool not_a_database() const;  // SQLITE_NOTADB: the file is not an SQLite database at all
  bool constraint() const;
  bool read_only() const;  // SQLITE_READONLY: the file or its medium cannot be written

 private:
  int code_;
};

}  // namespace bb::ledger
