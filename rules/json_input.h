#pragma once
// Reading a game-script line (spec/game-script.md) safely: the size and encoding of the line, and every
// integer field range-checked into its type (rules/input_limits.h) before the script reader uses it.
// Internal to rules/ (script.cpp); not part of the module's public interface.
// Owns: nothing. Must never: accept a number it had to truncate, wrap or round. Thread: any.
#include <expected>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "rules/ids.h"

namespace bb::rules {
// A space goes out as its number, the spec's spelling (nlohmann finds these by the type's namespace).
inline void to_json(nlohmann::json& j, SpaceId space) { j = space.number(); }
}  // namespace bb::rules

namespace bb::rules::json_input {

// One JSON object, the whole line and nothing after it: refuses a line longer than kMaxScriptLineBytes, a
// NUL byte anywhere, invalid JSON or UTF-8, trailing bytes, and anything that is not an object.
std::expected<nlohmann::json, std::string> parse_object_line(std::string_view line);

// A JSON integer in [lo, hi]. Refuses a decimal, a string, and any integer outside the range (including
// those beyond 32 or 64 bits) with the field, the value as written and the range; `what` says what the
// number is ("a die shows").
std::expected<long long, std::string> integer_in(const nlohmann::json& value, std::string_view field,
                                                 std::string_view what, long long lo, long long hi);

// The boolean at `key` of object `j`, or `fallback` when absent; refuses anything but true or false.
std::expected<bool, std::string> optional_bool(const nlohmann::json& j, const char* key, bool fallback);
// Refuses a field of object `j` that is not among `known` (a field the kind of line does not have): a
// misspelt optional field ("crad" for a draw's "card") would otherwise be passed over, and the line accepted
// to do something else. `what` names the object ("a draw line", "a trade's \"give\""). Nothing: every
// field is known.
std::optional<std::string> unknown_field(const nlohmann::json& j,
                                         std::initializer_list<std::string_view> known,
                                         std::string_view what);
// The string at `key` of object `j`, or `fallback` when absent; refuses anything but a string.
std::expected<std::string, std::string> optional_string(const nlohmann::json& j, const char* key,
                                                        std::string fallback);

}  // namespace bb::rules::json_input
