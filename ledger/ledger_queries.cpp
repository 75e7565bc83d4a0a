// Ledger's queries for people and tools: the games, their summaries and balances, and the exports
// (`boardbank ledger list|balances|export`).
#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "ledger/ledger.h"
#include "ledger/ledger_private.h"
#include "ledger/rebuild.h"

namespace bb::ledger {

using Kind = LedgerError::Kind;

namespace {

std::string csv_field(std::string_view text) {
  if (text.find_first_of(",\"\n") == std::string_view::npos) return std::string(text);
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + '"';
}

}  // namespace

std::optional<GameId> Ledger::newest_unfinished_game() {
  Statement q = db_.prepare("SELECT id FROM games WHERE finished_at IS NULL ORDER BY id DESC LIMIT 1");
  if (!q.step()) return std::nullopt;
  return q.column_int64(0);
}

std::optional<GameId> Ledger::newest_game_with_origin(const std::string& origin) {
  Statement q = db_.prepare("SELECT id FROM games WHERE origin = ?1 ORDER BY id DESC LIMIT 1");
  q.bind(1, origin);
  if (!q.step()) return std::nullopt;
  return q.column_int64(0);
}

bool Ledger::has_input(GameId id, const std::string& input_id) {
  sql_->find_input.bind(1, id).bind(2, input_id);
  bool found = sql_->find_input.step();
  sql_->find_input.reset();
  return found;
}

std::vector<GameSummary> Ledger::list() {
  std::vector<GameSummary> games;
  Statement q = db_.prepare(
      "SELECT g.id, g.edition, g.setup, g.origin, g.started_at, g.finished_at, "
      "(SELECT count(*) FROM inputs i WHERE i.game = g.id) FROM games g ORDER BY g.id");
  while (q.step()) {
    GameSummary s;
    s.id = q.column_int64(0);
    s.edition = q.column_text(1);
    auto setup = nlohmann::json::parse(q.column_text(2), nullptr, false);
    if (!setup.is_discarded() && setup.contains("setup")) {
      for (const auto& p : setup["setup"].value("players", nlohmann::json::array())) {
        s.players.push_back(p.value("name", "?"));
      }
    }
    s.origin = q.column_optional_text(3);
    s.started_at = q.column_text(4);
    s.finished_at = q.column_optional_text(5);
    s.inputs = q.column_int64(6);
    games.push_back(std::move(s));
  }
  return games;
}

std::expected<GameSummary, LedgerError> Ledger::summary(GameId id) {
  for (GameSummary& s : list())
    if (s.id == id) return std::move(s);
  return std::unexpected(
      LedgerError{Kind::not_found, fmt::format("there is no game {} (see 'boardbank ledger list')", id)});
}

std::expected<std::vector<AccountBalance>, LedgerError> Ledger::balances(GameId id) {
  try {
    std::vector<AccountBalance> list;
    Statement q =
        db_.prepare("SELECT account, name, balance FROM accounts WHERE game = ?1 ORDER BY account DESC");
    q.bind(1, id);
    while (q.step()) {
      list.push_back({static_cast<int>(q.column_int64(0)), q.column_text(1), q.column_int64(2)});
    }
    if (list.empty()) {
      return std::unexpected(LedgerError{Kind::not_found, fmt::format("there is no game {}", id)});
    }
    return list;
  } catch (const SqlError& e) {
    return std::unexpected(storage_error(e, "reading balances"));
  }
}

std::expected<std::string, LedgerError> Ledger::export_csv(GameId id) {
  auto s = summary(id);
  if (!s) return std::unexpected(s.error());
  try {
    std::map<int, std::string> names;
    Statement a = db_.prepare("SELECT account, name FROM accounts WHERE game = ?1");
    a.bind(1, id);
    while (a.step()) names[static_cast<int>(a.column_int64(0))] = a.column_text(1);
    std::ostringstream out;
    // `amount` stays in the edition's units for the tools that read it; `money` is the amount as the edition
    // prints it ("$1,500", or "1.5M" where the edition counts in M and K), last so no column moves.
    // The edition comes from the game's own record, so the column is the same whether the game is loaded or
    // not.
    auto edition = edition_for(editions_, s->edition, options_.edition_dirs);
    const rules::Edition* printed = edition ? edition->get() : nullptr;
    out << "posting,input,input_id,source,kind,recorded_at,from,to,amount,memo,space,card,authorised_by,"
           "reason,money\n";
    Statement q = db_.prepare(R"sql(
      SELECT p.seq, p.input_seq, i.input_id, i.source, i.kind, coalesce(i.recorded_at, g.started_at), p.from_account,
             p.to_account, p.amount, p.memo, p.space, p.card, i.authorised_by, i.reason
      FROM postings p JOIN games g ON g.id = p.game
      LEFT JOIN inputs i ON i.game = p.game AND i.seq = p.input_seq
      WHERE p.game = ?1 ORDER BY p.seq)sql");
    q.bind(1, id);
    while (q.step()) {
      auto opt = [&](int column) { return q.column_is_null(column) ? std::string() : q.column_text(column); };
      out << q.column_int64(0) << ',' << (q.column_is_null(1) ? "setup" : q.column_text(1)) << ','
          << csv_field(opt(2)) << ',' << csv_field(opt(3)) << ',' << csv_field(opt(4)) << ','
          << q.column_text(5) << ',' << csv_field(names[static_cast<int>(q.column_int64(6))]) << ','
          << csv_field(names[static_cast<int>(q.column_int64(7))]) << ',' << q.column_int64(8) << ','
          << q.column_text(9) << ',' << opt(10) << ',' << csv_field(opt(11)) << ',' << csv_field(opt(12))
          << ',' << csv_field(opt(13)) << ','
          << csv_field(printed ? printed->format_money(q.column_int64(8)) : std::string()) << '\n';
    }
    return out.str();
  } catch (const SqlError& e) {
    return std::unexpected(storage_error(e, "exporting"));
  }
}

std::expected<std::string, LedgerError> Ledger::export_script(GameId id) {
  try {
    Statement g = db_.prepare("SELECT setup FROM games WHERE id = ?1");
    g.bind(1, id);
    if (!g.step())
      return std::unexpected(LedgerError{Kind::not_found, fmt::format("there is no game {}", id)});
    std::string out = g.column_text(0) + "\n";
    Statement q = db_.prepare("SELECT input_id, body FROM inputs WHERE game = ?1 ORDER BY seq");
    q.bind(1, id);
    while (q.step()) {
      auto line = nlohmann::ordered_json::parse(q.column_text(1), nullptr, false);
      if (line.is_discarded() || !line.is_object()) {
        return std::unexpected(
            LedgerError{Kind::damaged, fmt::format("game {}: a stored input is not JSON", id)});
      }
      line["id"] = q.column_text(0);
      out += line.dump() + "\n";
    }
    return out;
  } catch (const SqlError& e) {
    return std::unexpected(storage_error(e, "exporting"));
  }
}

}  // namespace bb::ledger
