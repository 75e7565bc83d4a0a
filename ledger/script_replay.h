#pragma once
#include <cstdint>
#include <expected>
#include <functional>
#include <string>
#include <vector>

#include "ledger/ledger_types.h"

namespace bb::ledger {

class Ledger;

// Plays a game-script file into a ledger exactly as the daemon records a game: one transaction per input, the
// input id being the line's "id" or else its line number. Run again on the same script, it finds its game (by
// the setup line), skips what is stored and carries on.
class ScriptReplay {
 public:
  struct Result {
    GameId game = 0;
    int applied = 0;  // inputs stored by this run
    int skipped = 0;  // inputs found stored already
    // "file:N: why" for lines the rules refused; without keep_going the run stops at the first one.
    std::vector<std::string> refused;
  };
  // Called after each input is durably stored (acknowledged), with its line number and id. An error is what
  // stops a run without a game to show (an unreadable script, a bad setup, a failing card).
  using OnStored = std::function<void(int line, const std::string& id, const Recorded&)>;

  static std::expected<Result, std::string> run(Ledger& ledger, const std::string& script_path,
                                                bool keep_going, const OnStored& on_stored = {});
  // The origin under which a script's game is stored: the same setup finds the same game.
  static std::string origin_of(const std::string& setup_line);

  // Far above any real game (a line is about 100 bytes, a long game a few thousand lines), far below what
  // would exhaust a Raspberry Pi's memory: a larger script, or a line without end, is refused.
  static constexpr std::size_t kMaxLineBytes = 1u << 20;
  static constexpr std::size_t kMaxScriptBytes = 64u << 20;
};

}  // namespace bb::ledger
