#pragma once
// Between the engine and the rows: postings as stored and back (events: stored_events.h), and a game rebuilt
// from its rows (its log replayed, or restored from its newest snapshot and the inputs after it) with how it
// compares with the file. Internal to bb_ledger: never included outside ledger/. Pure functions over a
// Database the caller owns: the thread that owns that connection.
#include <cstdint>
#include <expected>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ledger/chain.h"
#include "ledger/database.h"
#include "ledger/ledger.h"
#include "ledger/ledger_types.h"
#include "rules/edition.h"
#include "rules/game.h"

namespace bb::ledger {

// An account's name for a message, from the wire's number the file stores (rules/ids.h: -1 the bank, a
// seat); "?" for a number that is neither.
std::string account_label(const rules::Game& game, std::int64_t wire);

// A posting as stored; `input_seq` is the input that made it (none: the game's setup).
StoredPosting to_stored(const rules::Posting& p, std::optional<std::int64_t> input_seq);

using EditionCache = std::map<std::string, std::shared_ptr<const rules::Edition>>;

// The edition `id`, loaded once per cache.
std::expected<std::shared_ptr<const rules::Edition>, LedgerError> edition_for(
    EditionCache& cache, const std::string& id, const std::vector<std::string>& dirs);

// A game rebuilt from its rows: the engine state after replaying the log, and how it compares with the file.
struct Rebuilt {
  std::optional<rules::Game> game;
  std::vector<std::string> names;
  std::int64_t inputs = 0;
  std::string chain;
  bool finished = false;
  std::map<int, rules::Money> stored_balances;
  std::vector<std::string> differences;
  double replay_ms = 0;
  std::int64_t from_snapshot = 0;  // inputs covered by the snapshot restored (0: replayed from the start)
  std::int64_t last_snapshot_seq = -1;
  std::string snapshot_note;
};

// A stored posting as the engine's, or why it cannot be (an account number that is neither the bank nor a
// seat: a damaged file).
std::expected<rules::Posting, std::string> from_stored(const StoredPosting& s, int engine_input);

// A snapshot's hash: over its body, chained to the hash of the input it follows.
std::string snapshot_hash(const std::string& input_chain, const std::string& body);

// `use_snapshot`: start from the newest stored snapshot when it fits (resume); otherwise replay every input
// and compare any stored snapshot with the replay at its point (the full check).
std::expected<Rebuilt, LedgerError> rebuild(Database& db, GameId id, EditionCache& editions,
                                            const std::vector<std::string>& dirs, bool use_snapshot);

}  // namespace bb::ledger
