#pragma once
#include <optional>
#include <string>

#include "ledger/database.h"

namespace bb::ledger {

// Why the ledger file at `path` cannot be written where it lies (a read-only mount, a directory or file
// without write permission), or nullopt when it can. SQLite writes beside the file (its -wal and -shm), so
// the directory counts too. Asks the kernel (access(2), statvfs(3)): a read-only mount refuses even root.
std::optional<std::string> read_only_reason(const std::string& path);

// How to open `path` for reading: Database::Mode::immutable where SQLite could not create the WAL's
// shared-memory file beside it (a directory nobody can write, and no log of unfinished writes left in it),
// Database::Mode::read_only otherwise.
Database::Mode reading_mode(const std::string& path);

}  // namespace bb::ledger
