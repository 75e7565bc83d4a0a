#pragma once
// The smallest edition the loader accepts, and the helpers the edition tests build broken variants of it
// with: shared by the loader's error tests and the adversarial ones.
#include <gtest/gtest.h>

#include <string>

#include "rules/edition.h"

namespace bb::rules::testing {

inline constexpr const char* kMinimal = R"(id = "tiny"
[rules]
start_cash = 100
[[group]]
id = "red"
[[space]]
name = "Start"
type = "start"
[[space]]
name = "Lot"
type = "property"
group = "red"
price = 10
rent = [1, 2, 3, 4, 5, 6]
house_cost = 5
[[space]]
name = "Jail"
type = "jail"
[[space]]
name = "Chance"
type = "action"
on_land = [{ effect = "draw", deck = "chance" }]
[[deck]]
id = "chance"
[[deck.card]]
id = "home"
effects = [{ effect = "advance_to", space = "Start" }]
)";

inline std::string with(std::string text, const std::string& from, const std::string& to) {
  auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

inline EditionError refused(const std::string& text) {
  auto ed = parse_edition(text, "editions/tiny.toml");
  EXPECT_FALSE(ed);
  return ed ? EditionError{} : ed.error();
}

}  // namespace bb::rules::testing
