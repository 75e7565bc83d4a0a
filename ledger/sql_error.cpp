#include "ledger/sql_error.h"

#include <sqlite3.h>

namespace bb::ledger {

SqlError::SqlError(int extended_code, const std::string& message)
    : std::runtime_error(message), code_(extended_code) {}

bool SqlError::disk_full() const { return (code_ & 0xff) == SQLITE_FULL; }
bool SqlError::io_error() const {
  return (code_ & 0xff) == SQLITE_IOERR || (code_ & 0xff) == SQLITE_CANTOPEN;
}
bool SqlError::corrupt() const { return (code_ & 0xff) == SQLITE_CORRUPT || (code_ & 0xff) == SQLITE_NOTADB; }
bool SqlError::read_only() const { return (code_ & 0xff) == SQLITE_READONLY; }
bool SqlError::not_a_database() const { return (code_ & 0xff) == SQLITE_NOTADB; }
bool SqlError::constraint() const { return (code_ & 0xff) == SQLITE_CONSTRAINT; }

}  // namespace bb::ledger
