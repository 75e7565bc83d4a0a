#include "vision/token_names.h"

#include <fmt/format.h>

namespace bb::vision {

std::string learned_token_name(int index) { return fmt::format("T{}", index + 1); }

std::optional<int> learned_token_index(std::string_view name) {
  // "T", then a number from 1 without leading zeros, of at most four digits (no table has that many tokens).
  if (name.size() < 2 || name.size() > 5 || name[0] != 'T' || name[1] == '0') return std::nullopt;
  int number = 0;
  for (const char c : name.substr(1)) {
    if (c < '0' || c > '9') return std::nullopt;
    number = number * 10 + (c - '0');
  }
  return number - 1;
}

}  // namespace bb::vision
