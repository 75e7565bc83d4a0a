#include "peripherals/epoll_watch.h"

#include <fmt/format.h>
#include <sys/epoll.h>

#include <cerrno>
#include <cstring>

namespace bb::peripherals {

std::expected<void, std::string> watch_readable(int epoll_fd, const std::vector<int>& fds,
                                                std::string_view what) {
  for (const int fd : fds) {
    epoll_event interest{};
    interest.events = EPOLLIN;
    interest.data.fd = fd;
    if (epoll_ctl(epoll_fd, EPOLL_CTL_ADD, fd, &interest) != 0)
      return std::unexpected(fmt::format("cannot watch {}: {}", what, std::strerror(errno)));
  }
  return {};
}

}  // namespace bb::peripherals
