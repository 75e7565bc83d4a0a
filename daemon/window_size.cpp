#include "daemon/window_size.h"

#include <cstdio>
#include <string>

namespace bb::daemon {

std::optional<WindowSize> parse_window_size(std::string_view text, int min_width, int min_height) {
  WindowSize size;
  if (std::sscanf(std::string(text).c_str(), "%dx%d", &size.width, &size.height) != 2) return std::nullopt;
  if (size.width < min_width || size.height < min_height || size.width > 4096 || size.height > 4096)
    return std::nullopt;
  return size;
}

}  // namespace bb::daemon
