#include "peripherals/command_lines.h"

#include <poll.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <cerrno>

namespace bb::peripherals {

std::optional<std::vector<std::string>> read_command_lines(int fd, std::string& partial) {
  std::vector<std::string> lines;
  pollfd ready{fd, POLLIN, 0};
  if (poll(&ready, 1, 0) <= 0) return lines;
  char buffer[4096];
  const ssize_t got = read(fd, buffer, sizeof buffer);
  if (got <= 0) {
    if (got == 0 || (errno != EAGAIN && errno != EINTR)) return std::nullopt;
    return lines;
  }
  partial.append(buffer, static_cast<std::size_t>(got));
  std::size_t newline = 0;
  while ((newline = partial.find('\n')) != std::string::npos) {
    lines.push_back(partial.substr(0, newline));
    partial.erase(0, newline + 1);
  }
  return lines;
}

bool run_command_lines(int fd, int epoll_fd, std::string& partial,
                       const std::function<std::expected<void, std::string>(std::string_view)>& command,
                       std::vector<std::string>& errors) {
  auto lines = read_command_lines(fd, partial);
  if (!lines) {
    epoll_ctl(epoll_fd, EPOLL_CTL_DEL, fd, nullptr);
    return false;
  }
  for (const auto& line : *lines)
    if (auto done = command(line); !done) errors.push_back(done.error());
  return true;
}

}  // namespace bb::peripherals
