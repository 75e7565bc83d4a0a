#pragma once
#include <optional>

#include "ledger/ledger.h"
#include "table/game_store.h"

namespace bb::table {

// The GameStore over a real ledger: the current game is one of the ledger's games.
// Owns: which game is current. Must never: keep a game pointer past a call that may reload the game.
// Thread: the loop thread only.
class LedgerGameStore : public GameStore {
 public:
  explicit LedgerGameStore(ledger::Ledger& ledger) : ledger_(ledger) {}

  std::expected<ledger::Recorded, ledger::LedgerError> record(const rules::Input& input,
                                                              const ledger::InputMeta& meta) override;
  const rules::Game* game() const override;
  std::optional<ledger::GameId> current() const override { return current_; }
  std::expected<ledger::GameId, ledger::LedgerError> start(const rules::Setup& setup) override;
  std::expected<ledger::ResumeReport, ledger::LedgerError> resume(ledger::GameId game) override;
  std::optional<ledger::GameId> newest_unfinished() override { return ledger_.newest_unfinished_game(); }
  std::vector<ledger::GameSummary> list() override { return ledger_.list(); }
  bool has_input(const std::string& input_id) override;
  bool load_history() override;

 private:
  ledger::Ledger& ledger_;
  std::optional<ledger::GameId> current_;
};

}  // namespace bb::table
