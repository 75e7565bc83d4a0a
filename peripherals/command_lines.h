#pragma once
#include <optional>
#include <string>
#include <vector>

namespace bb::peripherals {

// Reads what has arrived on a simulated device's command input (a terminal or a pipe) without blocking and
// returns the complete lines; `partial` keeps an unfinished line between calls. nullopt: the input closed
// (end of file or a read error), so the caller stops watching it.
std::optional<std::vector<std::string>> read_command_lines(int fd, std::string& partial);

}  // namespace bb::peripherals
