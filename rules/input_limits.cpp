#include "rules/input_limits.h"

#include <fmt/format.h>

namespace bb::rules {

std::string out_of_range_message(std::string_view field, std::string_view value, std::string_view what,
                                 long long lo, long long hi) {
  return fmt::format("field '{}': {} is out of range ({}: {} to {})", field, value, what, lo, hi);
}

std::string card_uid_key(std::string_view uid) {
  std::string out;
  for (char c : uid) {
    if (c == ':' || c == '-' || c == ' ') continue;
    out.push_back(c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c);
  }
  return out;
}

}  // namespace bb::rules
