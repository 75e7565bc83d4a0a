#include "rules/json_input.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "rules/input_limits.h"

namespace bb::rules::json_input {

using nlohmann::json;

std::expected<json, std::string> parse_object_line(std::string_view line) {
  if (line.size() > kMaxScriptLineBytes)
    return std::unexpected(fmt::format(
        "the line is {} bytes long: a script line holds at most {} bytes (one input as one JSON object)",
        line.size(), kMaxScriptLineBytes));
  if (auto nul = line.find('\0'); nul != std::string_view::npos)
    return std::unexpected(fmt::format(
        "the line holds a NUL byte at column {}: a script is text, one JSON object per line", nul + 1));
  try {
    json j = json::parse(line);
    if (!j.is_object()) return std::unexpected("expected one JSON object on the line");
    return j;
  } catch (const json::exception& e) {
    return std::unexpected(fmt::format("not valid JSON ({})", e.what()));
  }
}

std::expected<long long, std::string> integer_in(const json& value, std::string_view field,
                                                 std::string_view what, long long lo, long long hi) {
  if (value.is_number_unsigned()) {
    const auto v = value.get<std::uint64_t>();
    if (hi >= 0 && v <= static_cast<std::uint64_t>(hi) && static_cast<long long>(v) >= lo)
      return static_cast<long long>(v);
    return std::unexpected(out_of_range_message(field, std::to_string(v), what, lo, hi));
  }
  if (value.is_number_integer()) {
    const auto v = value.get<std::int64_t>();
    if (v >= lo && v <= hi) return static_cast<long long>(v);
    return std::unexpected(out_of_range_message(field, std::to_string(v), what, lo, hi));
  }
  return std::unexpected(fmt::format("field '{}' must be a whole number ({}: {} to {}), found {}", field,
                                     what, lo, hi,
                                     value.is_number() ? value.dump() : std::string(value.type_name())));
}

std::expected<bool, std::string> optional_bool(const json& j, const char* key, bool fallback) {
  auto it = j.find(key);
  if (it == j.end()) return fallback;
  if (!it->is_boolean()) return std::unexpected(fmt::format("field '{}' must be true or false", key));
  return it->get<bool>();
}

std::optional<std::string> unknown_field(const json& j, std::initializer_list<std::string_view> known,
                                         std::string_view what) {
  for (const auto& [key, value] : j.items()) {
    if (std::find(known.begin(), known.end(), key) != known.end()) continue;
    const std::string fields =
        known.size() == 0 ? std::string("none") : fmt::format("{}", fmt::join(known, ", "));
    return fmt::format("unknown field '{}' in {} (its fields: {}): remove it or fix its spelling", key, what,
                       fields);
  }
  return std::nullopt;
}

std::expected<std::string, std::string> optional_string(const json& j, const char* key,
                                                        std::string fallback) {
  auto it = j.find(key);
  if (it == j.end()) return fallback;
  if (!it->is_string()) return std::unexpected(fmt::format("field '{}' must be text in quotes", key));
  return it->get<std::string>();
}

}  // namespace bb::rules::json_input
