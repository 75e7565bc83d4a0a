#pragma once
#include <expected>
#include <string>
#include <string_view>
#include <vector>

namespace bb::peripherals {

// Adds each of `fds` to the epoll set `epoll_fd`, readable, keyed by the fd itself: how a device gathers its
// sources (lines, timers, a simulator's command input) behind the one fd the daemon polls. The error names
// `what` was being watched and the kernel's reason.
std::expected<void, std::string> watch_readable(int epoll_fd, const std::vector<int>& fds,
                                                std::string_view what);

}  // namespace bb::peripherals
