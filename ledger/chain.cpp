#include "ledger/chain.h"

#include <fmt/format.h>

#include <map>

#include "ledger/chain_hash.h"
#include "ledger/database.h"

namespace bb::ledger {

std::vector<StoredPosting> stored_postings(Database& db, std::int64_t game,
                                           std::optional<std::int64_t> input_seq) {
  Statement q = db.prepare(
      input_seq ? "SELECT seq, input_seq, from_account, to_account, amount, memo, space, card FROM postings "
                  "WHERE game = ?1 AND input_seq = ?2 ORDER BY seq"
                : "SELECT seq, input_seq, from_account, to_account, amount, memo, space, card FROM postings "
                  "WHERE game = ?1 ORDER BY seq");
  q.bind(1, game);
  if (input_seq) q.bind(2, *input_seq);
  std::vector<StoredPosting> list;
  while (q.step()) {
    StoredPosting p;
    p.seq = q.column_int64(0);
    p.input_seq = q.column_optional_int64(1);
    p.from = q.column_int64(2);
    p.to = q.column_int64(3);
    p.amount = q.column_int64(4);
    p.memo = q.column_text(5);
    p.space = q.column_optional_int64(6);
    p.card = q.column_optional_text(7);
    list.push_back(std::move(p));
  }
  return list;
}

namespace {

void add_postings(ChainHash& hash, const std::vector<StoredPosting>& postings) {
  hash.add(static_cast<std::int64_t>(postings.size()));
  for (const StoredPosting& p : postings) {
    hash.add(p.seq).add(p.input_seq.value_or(-1)).add(p.from).add(p.to).add(p.amount).add(p.memo);
    hash.add(p.space.value_or(-1)).add(p.card);
  }
}

// Every posting of one game, grouped by the input that made it (-1: the setup).
std::map<std::int64_t, std::vector<StoredPosting>> postings_of(Database& db, std::int64_t game) {
  std::map<std::int64_t, std::vector<StoredPosting>> by_input;
  for (auto& p : stored_postings(db, game)) by_input[p.input_seq.value_or(-1)].push_back(std::move(p));
  return by_input;
}

std::vector<StoredGame> games_of(Database& db) {
  Statement q = db.prepare("SELECT id, edition, setup, origin, started_at FROM games ORDER BY id");
  std::vector<StoredGame> games;
  while (q.step()) {
    games.push_back(
        {q.column_int64(0), q.column_text(1), q.column_text(2), q.column_optional_text(3), q.column_text(4)});
  }
  return games;
}

StoredInput read_input(const Statement& q) {
  StoredInput in;
  in.seq = q.column_int64(0);
  in.input_id = q.column_text(1);
  in.source = q.column_text(2);
  in.kind = q.column_text(3);
  in.body = q.column_text(4);
  in.outcome = q.column_text(5);
  in.authorised_by = q.column_optional_text(6);
  in.reason = q.column_optional_text(7);
  in.recorded_at = q.column_text(8);
  return in;
}

constexpr const char* kInputColumns =
    "seq, input_id, source, kind, body, outcome, authorised_by, reason, recorded_at, chain";

}  // namespace

std::string Chain::game_hash(const StoredGame& game, const std::vector<StoredPosting>& setup_postings) {
  ChainHash hash;
  hash.add(game.id).add(game.edition).add(game.setup).add(game.origin).add(game.started_at);
  add_postings(hash, setup_postings);
  return hash.hex();
}

std::string Chain::input_hash(const std::string& previous, const StoredInput& input,
                              const std::vector<StoredPosting>& postings) {
  ChainHash hash(previous);
  hash.add(input.seq)
      .add(input.input_id)
      .add(input.source)
      .add(input.kind)
      .add(input.body)
      .add(input.outcome);
  hash.add(input.authorised_by).add(input.reason).add(input.recorded_at);
  add_postings(hash, postings);
  return hash.hex();
}

std::vector<std::string> Chain::verify(Database& db) {
  std::vector<std::string> problems;
  static const std::vector<StoredPosting> kNone;
  for (const StoredGame& game : games_of(db)) {
    auto postings = postings_of(db, game.id);
    auto find = [&](std::int64_t input) -> const std::vector<StoredPosting>& {
      auto it = postings.find(input);
      return it == postings.end() ? kNone : it->second;
    };
    Statement g = db.prepare("SELECT chain FROM games WHERE id = ?1");
    g.bind(1, game.id);
    std::string stored = g.step() ? g.column_text(0) : "";
    std::string hash = game_hash(game, find(-1));
    if (stored != hash) {
      problems.push_back(
          fmt::format("game {}: its setup row or setup postings do not match their hash", game.id));
      continue;
    }
    Statement q =
        db.prepare(fmt::format("SELECT {} FROM inputs WHERE game = ?1 ORDER BY seq", kInputColumns));
    q.bind(1, game.id);
    std::int64_t expected_seq = 0;
    std::size_t postings_seen = find(-1).size();
    while (q.step()) {
      StoredInput input = read_input(q);
      if (input.seq != expected_seq) {
        problems.push_back(fmt::format("game {}: input {} is missing from the log", game.id, expected_seq));
        break;
      }
      hash = input_hash(hash, input, find(input.seq));
      postings_seen += find(input.seq).size();
      if (q.column_text(9) != hash) {
        problems.push_back(
            fmt::format("game {}: input {} (id {}) or its postings do not match the chain hash", game.id,
                        input.seq, input.input_id));
        break;
      }
      ++expected_seq;
    }
    std::size_t postings_total = 0;
    for (const auto& [input, list] : postings) postings_total += list.size();
    if (problems.empty() && postings_seen != postings_total) {
      problems.push_back(fmt::format("game {}: {} postings belong to no stored input", game.id,
                                     postings_total - postings_seen));
    }
  }
  return problems;
}

void Chain::fill(Database& db) {
  for (const StoredGame& game : games_of(db)) {
    auto postings = postings_of(db, game.id);
    auto find = [&](std::int64_t input) {
      auto it = postings.find(input);
      return it == postings.end() ? std::vector<StoredPosting>{} : it->second;
    };
    std::string hash = game_hash(game, find(-1));
    Statement set_game = db.prepare("UPDATE games SET chain = ?2 WHERE id = ?1");
    set_game.bind(1, game.id).bind(2, hash).run();
    Statement q =
        db.prepare(fmt::format("SELECT {} FROM inputs WHERE game = ?1 ORDER BY seq", kInputColumns));
    q.bind(1, game.id);
    std::vector<std::pair<std::int64_t, std::string>> hashes;
    while (q.step()) {
      StoredInput input = read_input(q);
      hash = input_hash(hash, input, find(input.seq));
      hashes.emplace_back(input.seq, hash);
    }
    q.reset();
    Statement set_input = db.prepare("UPDATE inputs SET chain = ?3 WHERE game = ?1 AND seq = ?2");
    for (const auto& [seq, h] : hashes) {
      set_input.bind(1, game.id).bind(2, seq).bind(3, h);
      set_input.run();
    }
  }
}

}  // namespace bb::ledger
