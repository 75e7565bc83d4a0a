#pragma once
// The edition loader's checks of meaning (not only types): every number of an edition file range-checked
// into its type (rules/input_limits.h), mortgages within prices, no negative money, move chains that end,
// unique names and ids, sane counts. Internal to rules/ (edition.cpp calls it); each problem blames the key
// that is wrong, and all problems are reported at once.
// Owns: nothing. Must never: stop at the first problem it finds, or change the edition. Thread: any.
#include <toml++/toml.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rules/edition.h"

namespace bb::rules::edition_checks {

// Whether `value` is allowed for the [rules] switch (or option override) `key`; the reason when not.
// Booleans are not checked here.
std::optional<std::string> rule_value_problem(std::string_view key, long long value);

struct RuleProblem {
  std::string key;  // the switch to blame
  std::string message;
};
// Checks between switches of a complete set of rules (a timer's minimum above its maximum, ...).
std::vector<RuleProblem> rules_problems(const Rules& rules);

// Everything wrong with a built edition's board, groups and decks, in file order; `root` is the TOML it was
// built from (to name lines), `file` the file it came from.
std::vector<EditionError> meaning_problems(const Edition& edition, const toml::table& root,
                                           const std::string& file);

}  // namespace bb::rules::edition_checks
