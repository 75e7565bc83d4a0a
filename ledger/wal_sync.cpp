#include "ledger/wal_sync.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace bb::ledger {

WalSync::WalSync(std::string database_path) : wal_path_(std::move(database_path) + "-wal") {}

std::expected<void, std::string> WalSync::sync() const {
  const int fd = ::open(wal_path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return {};
    return std::unexpected(fmt::format("cannot open {}: {}", wal_path_, std::strerror(errno)));
  }
  int rc = 0;
  do {
    rc = ::fdatasync(fd);
  } while (rc != 0 && errno == EINTR);
  const int error = errno;
  ::close(fd);
  if (rc != 0)
    return std::unexpected(fmt::format("cannot store {} on its disk: {}", wal_path_, std::strerror(error)));
  return {};
}

}  // namespace bb::ledger
