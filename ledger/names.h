#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "rules/input.h"
#include "rules/state.h"

namespace bb::ledger {

// The stable names the ledger stores for the engine's enums: a file written today must read the same after
// the engine reorders an enum, so the numbers are never stored.
class Names {
 public:
  static std::string_view memo(rules::Memo memo);
  static std::optional<rules::Memo> memo_from(std::string_view name);
  static std::string_view event(rules::Event::Kind kind);
  static std::optional<rules::Event::Kind> event_from(std::string_view name);
  // The game-script `t` of an input line ("roll", "undo", ...), read from the line itself so that inputs the
  // engine adds later are stored without a change here.
  static std::string input_kind(std::string_view script_line);
};

}  // namespace bb::ledger
