#pragma once
#include <expected>
#include <optional>
#include <string>
#include <vector>

#include "ledger/ledger_types.h"
#include "rules/game.h"
#include "rules/input.h"

namespace bb::table {

// Where the table keeps its games: the ledger behind a small seam, so the table stays pure. The daemon (and
// the tests) use LedgerGameStore over a real ledger::Ledger; record() commits before it returns, so whatever
// the table says is done is stored.
//
// Thread: the loop thread only, like the table.
class GameStore {
 public:
  virtual ~GameStore() = default;
  // Applies an input to the current game through the rules and stores it with its postings; an id stored
  // already answers with the stored outcome (Recorded::duplicate) and changes nothing.
  virtual std::expected<ledger::Recorded, ledger::LedgerError> record(const rules::Input& input,
                                                                      const ledger::InputMeta& meta) = 0;
  // The current game's engine state (nullptr when no game is open). Valid until the next call that changes
  // the current game (start, resume).
  virtual const rules::Game* game() const = 0;
  virtual std::optional<ledger::GameId> current() const = 0;
  // A new game becomes the current one.
  virtual std::expected<ledger::GameId, ledger::LedgerError> start(const rules::Setup& setup) = 0;
  // A stored game, rebuilt from its log, becomes the current one.
  virtual std::expected<ledger::ResumeReport, ledger::LedgerError> resume(ledger::GameId game) = 0;
  virtual std::optional<ledger::GameId> newest_unfinished() = 0;
  virtual std::vector<ledger::GameSummary> list() = 0;
  // Is this input id stored in the current game?
  virtual bool has_input(const std::string& input_id) = 0;
  // The current game restored from a snapshot holds only the inputs after it (rules::Game::has_history):
  // rebuilds it with all of them (a full replay; game() stays valid). False when it could not.
  virtual bool load_history() { return false; }
};

}  // namespace bb::table
