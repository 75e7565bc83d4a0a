#pragma once
#include <expected>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bb::peripherals {

// Reads what has arrived on a simulated device's command input (a terminal or a pipe) without blocking and
// returns the complete lines; `partial` keeps an unfinished line between calls. nullopt: the input closed
// (end of file or a read error), so the caller stops watching it.
std::optional<std::vector<std::string>> read_command_lines(int fd, std::string& partial);

// Runs every complete command line that has arrived on `fd` through `command`, collecting its refusals in
// `errors`. Returns false once the input has closed; it is then taken out of the device's `epoll_fd`.
bool run_command_lines(int fd, int epoll_fd, std::string& partial,
                       const std::function<std::expected<void, std::string>(std::string_view)>& command,
                       std::vector<std::string>& errors);

}  // namespace bb::peripherals
