#include "daemon/database_lock.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace bb::daemon {

std::expected<DatabaseLock, std::string> DatabaseLock::take(const std::string& database) {
  const std::string path = database + ".lock";
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return std::unexpected(fmt::format("cannot open {}: {}", path, std::strerror(errno)));
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    ::close(fd);
    if (error == EWOULDBLOCK)
      return std::unexpected(fmt::format(
          "{} is in use by another boardbank (a service or demo still running): stop it first", database));
    return std::unexpected(fmt::format("cannot lock {}: {}", path, std::strerror(error)));
  }
  return DatabaseLock(fd);
}

DatabaseLock::DatabaseLock(DatabaseLock&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}

DatabaseLock::~DatabaseLock() {
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace bb::daemon
