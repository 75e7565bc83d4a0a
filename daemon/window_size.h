#pragma once
#include <optional>
#include <string_view>

namespace bb::daemon {

struct WindowSize {
  int width = 0;
  int height = 0;
};

// A --size option as WIDTHxHEIGHT ("800x480"), at least min_width x min_height and at most 4096 either way;
// nullopt otherwise (the caller says what it wants).
std::optional<WindowSize> parse_window_size(std::string_view text, int min_width, int min_height);

}  // namespace bb::daemon
