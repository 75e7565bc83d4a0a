#include "table/ledger_game_store.h"

namespace bb::table {

std::expected<ledger::Recorded, ledger::LedgerError> LedgerGameStore::record(const rules::Input& input,
                                                                             const ledger::InputMeta& meta) {
  if (!current_)
    return std::unexpected(ledger::LedgerError{ledger::LedgerError::Kind::not_found,
                                               "No game is open: start a new game or resume one"});
  auto recorded = ledger_.record(*current_, input, meta);
  // A commit that failed leaves the engine one input ahead of the file; the table shows the game while it is
  // paused, so it is rebuilt from the file now (a family's game replays in milliseconds) and shows only what
  // is stored. If even reading fails, the ledger rebuilds it at the next input.
  if (!recorded && ledger_.stale(*current_)) (void)ledger_.resume(*current_);
  return recorded;
}

const rules::Game* LedgerGameStore::game() const { return current_ ? ledger_.game(*current_) : nullptr; }

std::expected<ledger::GameId, ledger::LedgerError> LedgerGameStore::start(const rules::Setup& setup) {
  auto id = ledger_.start_game(setup, "table");
  if (id) current_ = *id;
  return id;
}

std::expected<ledger::ResumeReport, ledger::LedgerError> LedgerGameStore::resume(ledger::GameId game) {
  auto report = ledger_.resume(game);
  if (report) current_ = game;
  return report;
}

bool LedgerGameStore::has_input(const std::string& input_id) {
  return current_ && ledger_.has_input(*current_, input_id);
}

bool LedgerGameStore::load_history() { return current_ && ledger_.load_history(*current_).has_value(); }

}  // namespace bb::table
