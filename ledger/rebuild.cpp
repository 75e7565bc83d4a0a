#include "ledger/rebuild.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <nlohmann/json.hpp>

#include "ledger/chain.h"
#include "ledger/chain_hash.h"
#include "ledger/names.h"
#include "ledger/statement.h"
#include "rules/script.h"

namespace bb::ledger {

using Kind = LedgerError::Kind;

namespace {

std::string describe(const StoredPosting& p) {
  return fmt::format("#{} {} -> {} {} {}", p.seq, p.from, p.to, p.amount, p.memo);
}

bool same(const StoredPosting& a, const StoredPosting& b) {
  return a.seq == b.seq && a.input_seq == b.input_seq && a.from == b.from && a.to == b.to &&
         a.amount == b.amount && a.memo == b.memo && a.space == b.space && a.card == b.card;
}

struct StoredSnapshot {
  std::int64_t last_seq = -1;
  std::string body;
  std::string hash;
};

std::optional<StoredSnapshot> newest_snapshot(Database& db, GameId id) {
  Statement q =
      db.prepare("SELECT last_seq, body, hash FROM snapshots WHERE game = ?1 ORDER BY last_seq DESC LIMIT 1");
  q.bind(1, id);
  if (!q.step()) return std::nullopt;
  return StoredSnapshot{q.column_int64(0), q.column_text(1), q.column_text(2)};
}

struct LogRow {
  std::int64_t seq = 0;
  std::string input_id;
  std::string kind;
  std::string body;  // left empty before `bodies_from` (a snapshot covers those inputs)
  std::string chain;
};

// Is there an undo in the game's log after input `seq`?
bool undo_after(Database& db, GameId id, std::int64_t seq) {
  Statement q =
      db.prepare("SELECT EXISTS(SELECT 1 FROM inputs WHERE game = ?1 AND seq > ?2 AND kind = 'undo')");
  q.bind(1, id).bind(2, seq);
  return q.step() && q.column_int64(0) != 0;
}

std::vector<LogRow> read_log(Database& db, GameId id, std::int64_t bodies_from) {
  std::vector<LogRow> log;
  Statement q = db.prepare(
      "SELECT seq, input_id, kind, CASE WHEN seq >= ?2 THEN body ELSE '' END, chain FROM inputs WHERE game = "
      "?1 "
      "ORDER BY seq");
  q.bind(1, id).bind(2, bodies_from);
  while (q.step()) {
    log.push_back(
        {q.column_int64(0), q.column_text(1), q.column_text(2), q.column_text(3), q.column_text(4)});
  }
  return log;
}

// The engine after the first `count` inputs of the log, restored from `snap` instead of replayed. The engine
// gets the journal of postings, each tagged with the engine's index of the input that made it (an undo takes
// back the last input in effect). Without `history` those inputs are not even parsed, and an undo later needs
// a full replay; with it (the log's bodies read), the restored game can undo. Errors say why the snapshot
// cannot be used.
std::expected<rules::Game, std::string> restore_from(const StoredSnapshot& snap,
                                                     const std::vector<LogRow>& log,
                                                     const std::vector<StoredPosting>& stored,
                                                     const std::shared_ptr<const rules::Edition>& edition,
                                                     const rules::Setup& setup,
                                                     const std::vector<std::string>& names, bool history) {
  const auto count = static_cast<std::size_t>(snap.last_seq + 1);
  if (count > log.size() || log[count - 1].seq != snap.last_seq)
    return std::unexpected("it is of an input the log does not hold");
  if (snapshot_hash(log[count - 1].chain, snap.body) != snap.hash)
    return std::unexpected("its hash does not match (damaged)");
  std::vector<int> engine_input(count);
  int in_effect = 0;
  std::vector<rules::Input> inputs;
  for (std::size_t i = 0; i < count; ++i) {
    if (log[i].kind == "undo") {
      if (in_effect == 0) return std::unexpected(fmt::format("input {} undoes nothing", i));
      engine_input[i] = --in_effect;
      if (history) inputs.pop_back();
    } else {
      engine_input[i] = in_effect++;
      if (history) {
        auto input = rules::parse_input(log[i].body, names, *edition);
        if (!input) return std::unexpected(fmt::format("input {} no longer parses: {}", i, input.error()));
        inputs.push_back(std::move(*input));
      }
    }
  }
  std::vector<rules::Posting> journal;
  for (const StoredPosting& p : stored) {
    if (p.input_seq && *p.input_seq >= static_cast<std::int64_t>(count)) break;
    auto posting = from_stored(p, p.input_seq ? engine_input[static_cast<std::size_t>(*p.input_seq)] : -1);
    if (!posting) return std::unexpected(posting.error());
    journal.push_back(std::move(*posting));
  }
  if (history) return rules::Game::restore(edition, setup, snap.body, std::move(journal), std::move(inputs));
  return rules::Game::restore(edition, setup, snap.body, std::move(journal));
}

}  // namespace

// An account's name for a message, from the wire's number the file stores (rules/ids.h: -1 the bank, a
// seat); "?" for a number that is neither.
std::string account_label(const rules::Game& game, std::int64_t wire) {
  auto account = rules::Account::from_wire(static_cast<int>(wire));
  return account ? game.account_name(*account) : std::string("?");
}

StoredPosting to_stored(const rules::Posting& p, std::optional<std::int64_t> input_seq) {
  StoredPosting s;
  s.seq = p.seq;
  s.input_seq = input_seq;
  s.from = p.from.wire();
  s.to = p.to.wire();
  s.amount = p.amount;
  s.memo = std::string(Names::memo(p.memo));
  if (p.space) s.space = p.space->number();
  if (!p.card.empty()) s.card = p.card;
  return s;
}

using EditionCache = std::map<std::string, std::shared_ptr<const rules::Edition>>;

std::expected<std::shared_ptr<const rules::Edition>, LedgerError> edition_for(
    EditionCache& cache, const std::string& id, const std::vector<std::string>& dirs) {
  auto it = cache.find(id);
  if (it != cache.end()) return it->second;
  auto edition = rules::load_edition(id, dirs);
  if (!edition) {
    return std::unexpected(
        LedgerError{Kind::invalid, fmt::format("cannot load edition '{}': {}", id, edition.error().what())});
  }
  auto shared = std::make_shared<const rules::Edition>(std::move(*edition));
  cache.emplace(id, shared);
  return shared;
}

// A stored posting as the engine's, or why it cannot be (an account number that is neither the bank nor a
// seat: a damaged file).
std::expected<rules::Posting, std::string> from_stored(const StoredPosting& s, int engine_input) {
  auto from = rules::Account::from_wire(static_cast<int>(s.from));
  auto to = rules::Account::from_wire(static_cast<int>(s.to));
  if (!from || !to)
    return std::unexpected(
        fmt::format("posting {} names account {} -> {}, which is no account of a game", s.seq, s.from, s.to));
  rules::Posting p;
  p.seq = s.seq;
  p.from = *from;
  p.to = *to;
  p.amount = s.amount;
  p.memo = Names::memo_from(s.memo).value_or(rules::Memo::space);
  p.space = rules::space_from_wire(static_cast<int>(s.space.value_or(-1)));
  p.card = s.card.value_or("");
  p.input = engine_input;
  return p;
}
std::string snapshot_hash(const std::string& input_chain, const std::string& body) {
  return ChainHash(input_chain).add(body).hex();
}

// `use_snapshot`: start from the newest stored snapshot when it fits (resume); otherwise replay every input
// and compare any stored snapshot with the replay at its point (the full check).
std::expected<Rebuilt, LedgerError> rebuild(Database& db, GameId id, EditionCache& editions,
                                            const std::vector<std::string>& dirs, bool use_snapshot) {
  Rebuilt out;
  Statement g = db.prepare("SELECT setup, chain, finished_at FROM games WHERE id = ?1");
  g.bind(1, id);
  if (!g.step()) return std::unexpected(LedgerError{Kind::not_found, fmt::format("there is no game {}", id)});
  std::string setup_json = g.column_text(0);
  out.chain = g.column_text(1);
  out.finished = !g.column_is_null(2);
  g.reset();

  auto setup = rules::parse_setup(setup_json);
  if (!setup) {
    return std::unexpected(LedgerError{
        Kind::invalid, fmt::format("game {}: its stored setup no longer parses: {}", id, setup.error())});
  }
  auto edition = edition_for(editions, setup->edition, dirs);
  if (!edition) return std::unexpected(edition.error());
  auto started = std::chrono::steady_clock::now();
  auto game = rules::Game::start(*edition, *setup);
  if (!game) {
    return std::unexpected(LedgerError{
        Kind::invalid, fmt::format("game {}: the engine refuses its stored setup: {}", id, game.error())});
  }
  for (const auto& p : setup->players) out.names.push_back(p.name);

  std::optional<StoredSnapshot> snap = out.finished ? std::nullopt : newest_snapshot(db, id);
  if (snap) out.last_snapshot_seq = snap->last_seq;
  // An undo among the inputs after the snapshot rebuilds the game from its first input: the restored engine
  // then needs the inputs before the snapshot too.
  const bool history = snap && use_snapshot && undo_after(db, id, snap->last_seq);
  const bool skip_bodies = snap && use_snapshot && !history;
  std::vector<LogRow> log = read_log(db, id, skip_bodies ? snap->last_seq + 1 : 0);
  std::vector<StoredPosting> stored = stored_postings(db, id);

  // What the replay posts, to be compared with the stored postings from `compared_from` on (the postings of
  // a restored snapshot's inputs are the stored ones).
  std::vector<StoredPosting> expected;
  std::size_t compared_from = 0;
  std::size_t first = 0;  // the first input to replay
  if (snap && use_snapshot) {
    auto restored = restore_from(*snap, log, stored, *edition, *setup, out.names, history);
    if (restored) {
      *game = std::move(*restored);
      first = static_cast<std::size_t>(snap->last_seq + 1);
      out.from_snapshot = static_cast<std::int64_t>(first);
      out.inputs = out.from_snapshot;
      compared_from = game->state().postings.size();
      if (!log.empty()) out.chain = log[first - 1].chain;
    } else {
      out.snapshot_note =
          fmt::format("the snapshot after input {} was not used ({}); the whole log was replayed",
                      snap->last_seq, restored.error());
      if (skip_bodies) log = read_log(db, id, 0);
    }
  }
  if (first == 0) {
    for (const rules::Posting& p : game->state().postings) expected.push_back(to_stored(p, std::nullopt));
  }

  for (std::size_t i = first; i < log.size(); ++i) {
    const LogRow& row = log[i];
    out.chain = row.chain;
    if (row.seq != out.inputs) {
      out.differences.push_back(fmt::format("input {} is missing from the log", out.inputs));
      break;
    }
    auto input = rules::parse_input(row.body, out.names, **edition);
    if (!input) {
      out.differences.push_back(
          fmt::format("input {} (id {}) no longer parses: {}", row.seq, row.input_id, input.error()));
      break;
    }
    auto outcome = game->apply(*input);
    if (!outcome) {
      out.differences.push_back(
          fmt::format("input {} (id {}) is refused on replay: {}", row.seq, row.input_id, outcome.error()));
      break;
    }
    const auto& postings = game->state().postings;
    for (std::size_t k = outcome->first_posting; k < postings.size(); ++k)
      expected.push_back(to_stored(postings[k], row.seq));
    ++out.inputs;
    if (snap && !use_snapshot && row.seq == snap->last_seq) {
      // The full check: the stored snapshot must be the state the replay reaches (unless an engine of another
      // snapshot format wrote it, which resume simply does not use).
      auto format = nlohmann::json::parse(snap->body, nullptr, false);
      bool same_format = format.is_object() && format.value("format", 0) == rules::Game::kSnapshotFormat;
      if (snapshot_hash(row.chain, snap->body) != snap->hash) {
        out.differences.push_back(fmt::format("the snapshot stored after input {} is damaged", row.seq));
      } else if (same_format && game->snapshot() != snap->body) {
        out.differences.push_back(fmt::format(
            "the snapshot stored after input {} is not the state the replay reaches there", row.seq));
      }
    }
  }
  out.replay_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();

  if (stored.size() != compared_from + expected.size()) {
    out.differences.push_back(fmt::format("the file holds {} postings, the replay makes {}", stored.size(),
                                          compared_from + expected.size()));
  }
  for (std::size_t i = compared_from; i < std::min(stored.size(), compared_from + expected.size()); ++i) {
    if (!same(stored[i], expected[i - compared_from])) {
      out.differences.push_back(fmt::format("posting {} differs: stored {}, replay {}", i,
                                            describe(stored[i]), describe(expected[i - compared_from])));
      break;
    }
  }

  Statement b = db.prepare("SELECT account, name, balance FROM accounts WHERE game = ?1 ORDER BY account");
  b.bind(1, id);
  while (b.step()) out.stored_balances[static_cast<int>(b.column_int64(0))] = b.column_int64(2);
  b.reset();
  std::map<int, rules::Money> replayed;
  for (const rules::Posting& p : game->state().postings) {
    replayed[p.from.wire()] -= p.amount;
    replayed[p.to.wire()] += p.amount;
  }
  for (const auto& [account, balance] : replayed) {
    rules::Money stored_balance = out.stored_balances.contains(account) ? out.stored_balances.at(account) : 0;
    if (stored_balance != balance) {
      out.differences.push_back(fmt::format("{}: stored balance {}, replay gives {}",
                                            account_label(*game, account), stored_balance, balance));
    }
  }
  for (const auto& [account, balance] : out.stored_balances) {
    if (!replayed.contains(account) && balance != 0) {
      out.differences.push_back(
          fmt::format("{}: stored balance {}, replay gives 0", account_label(*game, account), balance));
    }
  }
  const auto& players = game->state().players;
  for (std::size_t i = 0; i < players.size(); ++i) {
    rules::Money balance = replayed.contains(static_cast<int>(i)) ? replayed.at(static_cast<int>(i)) : 0;
    if (players[i].cash != balance) {
      out.differences.push_back(fmt::format("{}: the engine says cash {}, its postings add up to {}",
                                            players[i].name, players[i].cash, balance));
    }
  }
  if (out.finished != game->state().ended) {
    out.differences.push_back(out.finished
                                  ? "the file marks the game finished, the replay has not ended"
                                  : "the replay has ended, the file does not mark the game finished");
  }
  out.game.emplace(std::move(*game));
  return out;
}

}  // namespace bb::ledger
