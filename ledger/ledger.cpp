// Ledger: opening a file (checked first), starting a game, recording inputs and resuming games. Its checks,
// queries and backups are in ledger_checks.cpp, ledger_queries.cpp and ledger_backups.cpp; the rebuild of a
// game from its rows in rebuild.cpp.
#include "ledger/ledger.h"

#include <fmt/format.h>

#include <cassert>
#include <ctime>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <utility>

#include "ledger/anchor.h"
#include "ledger/backup_store.h"
#include "ledger/chain.h"
#include "ledger/ledger_private.h"
#include "ledger/medium.h"
#include "ledger/names.h"
#include "ledger/rebuild.h"
#include "ledger/schema.h"
#include "ledger/sql_error.h"
#include "ledger/stored_events.h"
#include "ledger/transaction.h"
#include "rules/script.h"

namespace bb::ledger {

namespace fs = std::filesystem;
using Kind = LedgerError::Kind;

std::string now_text() {
  auto now = std::chrono::system_clock::now();
  std::time_t seconds = std::chrono::system_clock::to_time_t(now);
  auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z", utc.tm_year + 1900, utc.tm_mon + 1,
                     utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec, millis);
}

LedgerError storage_error(const SqlError& e, std::string_view what) {
  if (e.disk_full()) {
    return {Kind::storage_full,
            fmt::format(
                "The SD card is full: {} was not recorded and nothing was half-written. Free some space "
                "(for example old backups), then send it again; the game goes on from where it stood. ({})",
                what, e.what())};
  }
  if (e.read_only()) {
    return {Kind::read_only,
            fmt::format("The ledger cannot be written (its file, folder or card is read-only): {} was not "
                        "recorded and nothing was changed. Make it writable (for example remount the card "
                        "read-write), then send it again. ({})",
                        what, e.what())};
  }
  if (e.constraint()) {
    return {Kind::invalid,
            fmt::format("The ledger refused to store {}: it breaks one of its rules. This is a bug in "
                        "boardbank: nothing was stored; please report it with 'boardbank ledger "
                        "export --script'. ({})",
                        what, e.what())};
  }
  if (e.corrupt()) {
    return {Kind::damaged, fmt::format("The ledger file is damaged: {} was not recorded. Stop, run "
                                       "'boardbank ledger check' and restore the newest backup. ({})",
                                       what, e.what())};
  }
  return {Kind::io, fmt::format("The SD card failed while writing: {} was not recorded and nothing was "
                                "half-written. Send it again; if this repeats, check the card. ({})",
                                what, e.what())};
}

Ledger::Ledger(LedgerOptions options, Database db)
    : options_(std::move(options)), db_(std::move(db)), sql_(std::make_unique<Prepared>(db_)) {}
Ledger::Ledger(Ledger&&) noexcept = default;
Ledger& Ledger::operator=(Ledger&&) noexcept = default;
Ledger::~Ledger() {
  // Closing: the newest heads go on the card (a moved-from ledger has no connection and writes nothing).
  if (anchor_pending_ && db_.handle() != nullptr) (void)write_anchor(Anchor::Durability::synced);
}

std::expected<Ledger, LedgerError> Ledger::open(const LedgerOptions& options) {
  std::error_code ec;
  const bool present = fs::exists(options.path, ec);
  const bool create = options.access == LedgerAccess::create_or_open;
  if (present && !fs::is_regular_file(options.path, ec)) {
    return std::unexpected(LedgerError{
        Kind::invalid, fmt::format("{} is not a file (a directory or a device?): give the ledger file's path",
                                   options.path)});
  }
  if (!present && !create) {
    return std::unexpected(LedgerError{
        Kind::not_found,
        fmt::format(
            "{} does not exist. Check the path (--db, or [ledger] path in the configuration); to start "
            "a new, empty ledger there, add --create",
            options.path)});
  }
  const bool exists = present && fs::file_size(options.path, ec) > 0;
  if (present && !exists && !create) {
    return std::unexpected(LedgerError{
        Kind::invalid,
        fmt::format("{} is empty (0 bytes): it is not a ledger. Check the path; 'boardbank ledger restore "
                    "<backup>' puts a backup in its place",
                    options.path)});
  }
  const auto read_only = read_only_reason(options.path);
  if (read_only && create) {
    return std::unexpected(
        LedgerError{Kind::read_only,
                    fmt::format("{} cannot be written: {}. The bank must write every payment: make it "
                                "writable (for example remount the card read-write). Nothing was changed",
                                options.path, *read_only)});
  }
  if (exists && !read_only && fs::exists(options.path + "-journal", ec)) {
    // A rollback journal only exists while a new file is being set up, before it switches to WAL: a crash
    // left that first transaction unfinished. SQLite rolls it back on the first read-write open; a read-only
    // check cannot, so let it happen first.
    try {
      Database recover(options.path, Database::Mode::read_write, options.vfs);
      recover.query_int64("SELECT count(*) FROM sqlite_schema");
    } catch (const SqlError& e) {
      return std::unexpected(storage_error(e, "recovering an interrupted first start"));
    }
  }
  // A new file whose first start was cut short before anything was in it holds no ledger yet: it is made
  // anew.
  bool blank = !exists || fs::file_size(options.path, ec) == 0;
  if (!blank && create) {
    try {
      Database peek(options.path, Database::Mode::read_only, options.vfs);
      blank = peek.user_version() == 0 && peek.query_int64("SELECT count(*) FROM sqlite_schema") == 0;
    } catch (const SqlError&) {
      blank = false;  // the check below says what is wrong with it
    }
  }
  if (!blank) {
    auto problems = inspect(options.path, options, false);
    if (!problems) return std::unexpected(problems.error());
    if (!problems->empty()) {
      std::string offer = "There is no backup to restore.";
      if (auto newest = newest_sound_backup(options)) {
        offer = fmt::format("The newest sound backup is {}; restore it with: boardbank ledger restore {}",
                            *newest, *newest);
      }
      return std::unexpected(LedgerError{
          Kind::damaged,
          fmt::format("{} is damaged and was left untouched ({}). {}", options.path, (*problems)[0], offer)});
    }
  }
  if (read_only) {
    try {
      Database db(options.path, reading_mode(options.path), options.vfs);
      if (db.user_version() != Schema::kCurrentVersion) {
        return std::unexpected(LedgerError{
            Kind::read_only,
            fmt::format("{} is healthy but read-only ({}), and it is of an older boardbank (schema {}) that "
                        "must be brought up to date before this one can read it: make it writable once",
                        options.path, *read_only, db.user_version())});
      }
      Ledger ledger(options, std::move(db));
      ledger.read_only_ = true;
      return ledger;
    } catch (const SqlError& e) {
      return std::unexpected(LedgerError{
          Kind::read_only,
          fmt::format("{} is read-only ({}) and could not be opened for reading: {}. Copy it (with any -wal "
                      "and -shm beside it) to writable storage and open the copy",
                      options.path, *read_only, e.what())});
    }
  }
  try {
    Database db(options.path, Database::Mode::read_write, options.vfs);
    // Commits stay atomic and ordered in the WAL; the caller syncs it (see LedgerOptions::durability).
    if (options.durability == LedgerOptions::Durability::by_caller) db.exec("PRAGMA synchronous=NORMAL");
    Schema::migrate(db);
    // The file passed its check against its anchor (if it had one): the anchor now says what it holds, and
    // the file is marked as anchored, so that a missing anchor is noticed from here on.
    auto heads = Anchor::heads(db);
    if (auto written = Anchor::write(Anchor::path_for(options.path), heads); !written) {
      return std::unexpected(LedgerError{
          Kind::io,
          fmt::format("The ledger's anchor could not be written: {}. Check the card", written.error())});
    }
    if (db.query_int64("PRAGMA application_id") != Anchor::kApplicationId)
      db.exec(fmt::format("PRAGMA application_id={}", Anchor::kApplicationId));
    Ledger ledger(options, std::move(db));
    for (AnchorHead& h : heads) ledger.anchor_heads_[h.game] = std::move(h);
    if (!options.backup_dir.empty()) {
      if (auto newest = BackupStore(options.backup_dir, options.keep_backups).newest_time()) {
        ledger.last_backup_ = *newest;
      }
    }
    return ledger;
  } catch (const SqlError& e) {
    return std::unexpected(storage_error(e, "opening the ledger"));
  } catch (const std::runtime_error& e) {
    return std::unexpected(LedgerError{Kind::invalid, e.what()});
  }
}

std::optional<std::string> Ledger::write_anchor(GameId id, std::int64_t inputs, const std::string& chain,
                                                Anchor::Durability durability, bool may_wait) {
  anchor_heads_[id] = AnchorHead{id, inputs, chain};
  auto now = std::chrono::steady_clock::now();
  if (may_wait && now - last_anchor_write_ < std::chrono::milliseconds(options_.anchor_every_ms)) {
    anchor_pending_ = true;  // written by the next input after the interval, a checkpoint, or the close
    return std::nullopt;
  }
  return write_anchor(durability);
}

std::optional<std::string> Ledger::write_anchor(Anchor::Durability durability) {
  if (read_only_) return std::nullopt;
  std::vector<AnchorHead> heads;
  heads.reserve(anchor_heads_.size());
  for (const auto& [game, head] : anchor_heads_) heads.push_back(head);
  auto written = Anchor::write(Anchor::path_for(options_.path), heads, durability);
  last_anchor_write_ = std::chrono::steady_clock::now();
  anchor_pending_ = !written.has_value();
  if (written) return std::nullopt;
  // The input is stored: an anchor left behind is accepted by the check, so this only narrows what a later
  // check can tell. Said, not hidden.
  return fmt::format("the ledger's anchor could not be updated ({}); the input is stored", written.error());
}

std::expected<GameId, LedgerError> Ledger::start_game(const rules::Setup& setup, const std::string& origin) {
  auto edition = edition_for(editions_, setup.edition, options_.edition_dirs);
  if (!edition) return std::unexpected(edition.error());
  auto game = rules::Game::start(*edition, setup);
  if (!game) return std::unexpected(LedgerError{Kind::invalid, game.error()});
  std::vector<std::string> names;
  for (const auto& p : setup.players) names.push_back(p.name);
  auto live_game = std::make_unique<LiveGame>(std::move(*game), std::move(names));
  const rules::Game& g = live_game->game;

  StoredGame row;
  row.edition = setup.edition;
  row.setup = rules::setup_to_json(g.setup());
  row.origin = origin;
  row.started_at = now_text();
  std::vector<StoredPosting> postings;
  for (const rules::Posting& p : g.state().postings) postings.push_back(to_stored(p, std::nullopt));
  try {
    Transaction transaction(db_);
    row.id = db_.query_int64("SELECT coalesce(max(id), 0) + 1 FROM games");
    std::string chain = Chain::game_hash(row, postings);
    Statement insert = db_.prepare(
        "INSERT INTO games(id, edition, setup, origin, started_at, chain) VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
    insert.bind(1, row.id)
        .bind(2, row.edition)
        .bind(3, row.setup)
        .bind(4, row.origin)
        .bind(5, row.started_at);
    insert.bind(6, chain).run();
    // The accounts table is keyed by the wire's number of each account (rules/ids.h).
    std::set<int> accounts = {rules::Account::bank().wire()};
    for (rules::PlayerId p : g.state().players.ids()) accounts.insert(rules::Account{p}.wire());
    for (const rules::Posting& p : g.state().postings) accounts.insert({p.from.wire(), p.to.wire()});
    for (int account : accounts) {
      sql_->insert_account.bind(1, row.id).bind(2, account).bind(3, account_label(g, account));
      sql_->insert_account.run();
    }
    for (const StoredPosting& p : postings) {
      sql_->insert_posting.bind(1, row.id).bind(2, p.seq).bind_null(3).bind(4, p.from).bind(5, p.to);
      sql_->insert_posting.bind(6, p.amount).bind(7, p.memo).bind(8, p.space ? *p.space : -1);
      if (!p.space) sql_->insert_posting.bind_null(8);
      sql_->insert_posting.bind(9, p.card);
      sql_->insert_posting.run();
    }
    transaction.commit();
    live_game->chain = chain;
    live_game->accounts = accounts;
    for (const rules::Posting& p : g.state().postings) {
      live_game->balances[p.from.wire()] -= p.amount;
      live_game->balances[p.to.wire()] += p.amount;
    }
    games_[row.id] = std::move(live_game);
    // A failed anchor write leaves it behind, which the check accepts; the game is stored either way.
    (void)write_anchor(row.id, 0, chain, Anchor::Durability::page_cache, false);
    return row.id;
  } catch (const SqlError& e) {
    return std::unexpected(storage_error(e, "the new game"));
  }
}

std::expected<Ledger::LiveGame*, LedgerError> Ledger::live(GameId id) {
  auto it = games_.find(id);
  if (it == games_.end() || it->second->stale) {
    auto report = resume(id);
    if (!report) return std::unexpected(report.error());
    it = games_.find(id);
    assert(it != games_.end());
  }
  LiveGame* g = it->second.get();
  if (!g->differences.empty()) {
    return std::unexpected(LedgerError{
        Kind::diverged,
        fmt::format("game {} does not replay to what is stored ({}); it takes no more inputs until "
                    "someone looks: run 'boardbank ledger check'",
                    id, g->differences[0])});
  }
  return g;
}

std::expected<ResumeReport, LedgerError> Ledger::resume(GameId id) {
  return resume(id, options_.resume_budget_ms > 0);
}

std::expected<ResumeReport, LedgerError> Ledger::resume(GameId id, bool use_snapshot) {
  // A game already loaded is rebuilt in place, so that the pointer game() gave out stays valid (the display's
  // snapshot holds it); until the rebuild succeeds it is marked stale and takes no input.
  auto loaded = games_.find(id);
  if (loaded != games_.end()) loaded->second->stale = true;
  try {
    auto rebuilt = rebuild(db_, id, editions_, options_.edition_dirs, use_snapshot);
    if (!rebuilt) return std::unexpected(rebuilt.error());
    ResumeReport report;
    report.game = id;
    report.inputs = rebuilt->inputs;
    report.replay_ms = rebuilt->replay_ms;
    report.from_snapshot = rebuilt->from_snapshot;
    report.replayed = rebuilt->inputs - rebuilt->from_snapshot;
    report.snapshot_note = rebuilt->snapshot_note;
    report.differences = rebuilt->differences;
    // How fast this machine replays, for the snapshot cadence (a few inputs tell nothing).
    if (report.replayed >= 200)
      replay_ms_per_input_ = report.replay_ms / static_cast<double>(report.replayed);
    auto g = std::make_unique<LiveGame>(std::move(*rebuilt->game), std::move(rebuilt->names));
    g->next_seq = rebuilt->inputs;
    g->chain = rebuilt->chain;
    g->finished = rebuilt->finished;
    g->differences = std::move(rebuilt->differences);
    g->last_snapshot_seq = rebuilt->last_snapshot_seq;
    for (const auto& [account, balance] : rebuilt->stored_balances) g->accounts.insert(account);
    g->balances = std::move(rebuilt->stored_balances);
    loaded = games_.find(id);
    if (loaded == games_.end()) {
      loaded = games_.emplace(id, std::move(g)).first;
    } else {
      *loaded->second = std::move(*g);  // same LiveGame, same address of its game
    }
    LiveGame& live_game = *loaded->second;
    // A resume slower than the budget (or one whose snapshot could not be used) leaves a fresh snapshot, so
    // that the next one is quick. It is only a cache: failing to write it changes nothing else.
    bool slow = options_.resume_budget_ms > 0 && report.replay_ms > options_.resume_budget_ms;
    bool unusable = !report.snapshot_note.empty() && options_.resume_budget_ms > 0;
    if ((slow || unusable) && !read_only_ && !live_game.finished && live_game.differences.empty() &&
        live_game.next_seq > 0) {
      try {
        Transaction transaction(db_);
        store_snapshot(id, live_game);
        transaction.commit();
      } catch (const SqlError& e) {
        if (!report.snapshot_note.empty()) report.snapshot_note += "; ";
        report.snapshot_note += fmt::format("a new snapshot could not be written ({})", e.what());
      }
    }
    return report;
  } catch (const SqlError& e) {
    return std::unexpected(storage_error(e, fmt::format("reading game {}", id)));
  }
}

std::expected<Recorded, LedgerError> Ledger::stored_outcome(GameId game, std::int64_t seq,
                                                            const std::string& outcome_json,
                                                            const rules::Edition& edition) {
  Recorded recorded;
  recorded.seq = seq;
  recorded.duplicate = true;
  auto outcome = nlohmann::json::parse(outcome_json, nullptr, false);
  if (outcome.is_discarded()) {
    return std::unexpected(LedgerError{
        Kind::damaged, fmt::format("game {} input {}: its stored outcome is not JSON", game, seq)});
  }
  recorded.events = events_from_json(outcome.value("events", nlohmann::json::array()), edition);
  recorded.game_over = outcome.value("game_over", false);
  int engine_input = outcome.value("engine_input", -1);
  for (const StoredPosting& p : stored_postings(db_, game, seq)) {
    auto posting = from_stored(p, engine_input);
    if (!posting)
      return std::unexpected(
          LedgerError{Kind::damaged, fmt::format("game {} input {}: {}", game, seq, posting.error())});
    recorded.postings.push_back(std::move(*posting));
  }
  return recorded;
}

std::expected<Recorded, LedgerError> Ledger::record(GameId id, const rules::Input& input,
                                                    const InputMeta& meta) {
  if (meta.id.empty()) {
    return std::unexpected(LedgerError{Kind::invalid, "an input needs an id made by its source"});
  }
  try {
    auto found = live(id);
    if (!found) return std::unexpected(found.error());
    if (std::holds_alternative<rules::Undo>(input) && !(*found)->game.has_history()) {
      // The engine undoes by replaying the game without its last input, so it needs the inputs the snapshot
      // it was restored from let it skip: replay the whole log once.
      auto full = resume(id, false);
      if (!full) return std::unexpected(full.error());
      found = live(id);
      if (!found) return std::unexpected(found.error());
    }
    LiveGame& g = **found;
    // With the edition: a partnership's group and a trade's free rides are stored by their group's id.
    std::string body = rules::input_to_json(input, g.names, g.game.edition());

    sql_->find_input.bind(1, id).bind(2, meta.id);
    if (sql_->find_input.step()) {
      std::int64_t seq = sql_->find_input.column_int64(0);
      std::string stored_body = sql_->find_input.column_text(1);
      std::string outcome = sql_->find_input.column_text(2);
      sql_->find_input.reset();
      if (stored_body != body) {
        return std::unexpected(
            LedgerError{Kind::conflict,
                        fmt::format("input id {} is already stored as input {} with different contents ({}); "
                                    "this one ({}) was not applied",
                                    meta.id, seq, stored_body, body)});
      }
      return stored_outcome(id, seq, outcome, g.game.edition());
    }
    sql_->find_input.reset();

    if (g.finished) {
      return std::unexpected(
          LedgerError{Kind::game_over, fmt::format("game {} is over; it stays as history", id)});
    }
    std::string kind = Names::input_kind(body);
    bool correction = kind == "undo" || kind == "adopt";
    if (correction && (meta.authorised_by.empty() || meta.reason.empty())) {
      return std::unexpected(
          LedgerError{Kind::unauthorised,
                      fmt::format("{} changes money outside play: the banker must confirm it with their card "
                                  "or PIN and say why",
                                  kind)});
    }
    if (const auto* house = std::get_if<rules::HousePayment>(&input);
        house && house->from.is_bank() && meta.authorised_by.empty()) {
      return std::unexpected(LedgerError{
          Kind::unauthorised, "a house-rule payment from the bank needs the banker's card or PIN"});
    }

    auto outcome = g.game.apply(input);
    if (!outcome) return std::unexpected(LedgerError{Kind::refused, outcome.error()});

    const auto& all = g.game.state().postings;
    std::vector<StoredPosting> postings;
    for (std::size_t i = outcome->first_posting; i < all.size(); ++i)
      postings.push_back(to_stored(all[i], g.next_seq));
    bool ended = g.game.state().ended;
    nlohmann::json outcome_json = {{"events", events_to_json(outcome->events, g.game.edition())}};
    if (ended) outcome_json["game_over"] = true;
    if (outcome->first_posting < all.size()) outcome_json["engine_input"] = all[outcome->first_posting].input;

    StoredInput row;
    row.seq = g.next_seq;
    row.input_id = meta.id;
    row.source = meta.source.empty() ? "unknown" : meta.source;
    row.kind = std::string(kind);
    row.body = body;
    row.outcome = outcome_json.dump();
    if (!meta.authorised_by.empty()) row.authorised_by = meta.authorised_by;
    if (!meta.reason.empty()) row.reason = meta.reason;
    row.recorded_at = now_text();
    std::string chain = Chain::input_hash(g.chain, row, postings);
    const bool snapshot_due = !ended && row.seq - g.last_snapshot_seq >= snapshot_interval();

    try {
      Transaction transaction(db_);
      Statement& in = sql_->insert_input;
      in.bind(1, id)
          .bind(2, row.seq)
          .bind(3, row.input_id)
          .bind(4, row.source)
          .bind(5, row.kind)
          .bind(6, row.body);
      in.bind(7, row.outcome).bind(8, row.authorised_by).bind(9, row.reason).bind(10, row.recorded_at);
      in.bind(11, chain).run();
      for (const StoredPosting& p : postings) {
        for (std::int64_t account : {p.from, p.to}) {
          if (g.accounts.contains(static_cast<int>(account))) continue;
          sql_->insert_account.bind(1, id).bind(2, account).bind(3, account_label(g.game, account));
          sql_->insert_account.run();
        }
        Statement& ps = sql_->insert_posting;
        ps.bind(1, id).bind(2, p.seq).bind(3, row.seq).bind(4, p.from).bind(5, p.to).bind(6, p.amount);
        ps.bind(7, p.memo);
        if (p.space)
          ps.bind(8, *p.space);
        else
          ps.bind_null(8);
        ps.bind(9, p.card).run();
      }
      if (ended) {
        sql_->finish_game.bind(1, id).bind(2, row.recorded_at).run();
        // A finished game is never resumed: its snapshots are no longer needed.
        sql_->drop_snapshots_before.bind(1, id).bind(2, row.seq + 1).run();
      } else if (snapshot_due) {
        store_snapshot(id, g, row.seq, chain);
      }
      if (!postings.empty()) {
        sql_->game_total.bind(1, id);
        sql_->game_total.step();
        std::int64_t total = sql_->game_total.column_int64(0);
        sql_->game_total.reset();
        // Every posting moves money from one account to another, so a non-zero sum means a balance left the
        // range SQLite's integers hold (an amount near 2^63 that the rules let through). Refused, never
        // stored and never an abort: the transaction rolls back and the game is rebuilt from the file.
        if (total != 0) {
          g.stale = true;
          return std::unexpected(LedgerError{
              Kind::invalid,
              fmt::format("the {} (id {}) was not recorded: its amounts would take a balance beyond what the "
                          "ledger can hold (the balances would sum to {}, not zero). Nothing was stored",
                          kind, meta.id, total)});
        }
      }
      transaction.commit();
    } catch (const SqlError& e) {
      // The engine has moved on but the file has not: rebuild it from what is stored, so both stand where
      // they stood before this input. If even reading fails, the game is rebuilt at the next input.
      // Rebuilt at the next input (or resume()), in place: the game() pointer stays valid. No replay here,
      // so a failed commit costs the loop no more than the failure itself.
      g.stale = true;
      return std::unexpected(storage_error(e, fmt::format("the {} (id {})", kind, meta.id)));
    }

    if (ended) {
      g.last_snapshot_seq = -1;
    } else if (snapshot_due) {
      g.last_snapshot_seq = row.seq;
    }
    g.next_seq++;
    g.chain = chain;
    g.finished = ended;
    for (const StoredPosting& p : postings) {
      g.accounts.insert({static_cast<int>(p.from), static_cast<int>(p.to)});
      g.balances[static_cast<int>(p.from)] -= p.amount;
      g.balances[static_cast<int>(p.to)] += p.amount;
    }

    Recorded recorded;
    recorded.seq = row.seq;
    recorded.postings.assign(all.begin() + static_cast<std::ptrdiff_t>(outcome->first_posting), all.end());
    recorded.events = std::move(outcome->events);
    recorded.game_over = ended;
    recorded.warning = write_anchor(
        id, g.next_seq, chain, ended ? Anchor::Durability::synced : Anchor::Durability::page_cache, !ended);
    // No backup here: a copy of the file takes longer than a frame. The caller makes the end-of-game backup
    // (backup_now()) and the scheduled ones (backup_if_due()) when its loop is free.
    return recorded;
  } catch (const SqlError& e) {
    return std::unexpected(storage_error(e, fmt::format("input {}", meta.id)));
  }
}

std::int64_t Ledger::snapshot_interval() const {
  if (options_.snapshot_every_inputs > 0) return options_.snapshot_every_inputs;
  if (options_.resume_budget_ms <= 0) return std::numeric_limits<std::int64_t>::max();
  // Half the budget for replaying the inputs after the newest snapshot; the rest is reading and checking.
  double inputs = options_.resume_budget_ms / 2 / replay_ms_per_input_;
  return std::clamp<std::int64_t>(static_cast<std::int64_t>(inputs), 100, 1'000'000);
}

void Ledger::store_snapshot(GameId id, const LiveGame& g, std::int64_t last_seq, const std::string& chain) {
  std::string body = g.game.snapshot();
  sql_->insert_snapshot.bind(1, id).bind(2, last_seq).bind(3, body).bind(4, snapshot_hash(chain, body));
  sql_->insert_snapshot.bind(5, now_text()).run();
  sql_->drop_snapshots_before.bind(1, id).bind(2, last_seq).run();
}

void Ledger::store_snapshot(GameId id, LiveGame& g) {
  store_snapshot(id, g, g.next_seq - 1, g.chain);
  g.last_snapshot_seq = g.next_seq - 1;
}

void Ledger::forget(GameId id) { games_.erase(id); }

bool Ledger::stale(GameId id) const {
  auto it = games_.find(id);
  return it != games_.end() && it->second->stale;
}

std::expected<void, LedgerError> Ledger::load_history(GameId id) {
  auto found = live(id);
  if (!found) return std::unexpected(found.error());
  if ((*found)->game.has_history()) return {};
  auto full = resume(id, false);
  if (!full) return std::unexpected(full.error());
  return {};
}

const rules::Game* Ledger::game(GameId id) const {
  auto it = games_.find(id);
  return it == games_.end() ? nullptr : &it->second->game;
}

}  // namespace bb::ledger
