#pragma once
#include <chrono>
#include <cstdint>
#include <expected>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ledger/anchor.h"
#include "ledger/backup_store.h"
#include "ledger/database.h"
#include "ledger/ledger_types.h"
#include "rules/game.h"

namespace bb::ledger {

// Every game and every posting, durable through a pulled plug. One SQLite transaction per input holds the
// input (its game-script line) and the postings it caused; an input id already stored is answered from the
// file and changes nothing. A game is rebuilt by replaying its log through the engine and must then equal
// what is stored. A damaged file is never opened for writing.
class Ledger {
 public:
  // Checks an existing file (read-only) before opening it for writing, then brings its schema up to date.
  static std::expected<Ledger, LedgerError> open(const LedgerOptions& options);

  // Examines a file without writing to it: SQLite's own check, the balances, the hash chain and, when
  // `replay`, every game replayed through the engine. Returns the problems found (empty: healthy).
  static std::expected<std::vector<std::string>, LedgerError> inspect(const std::string& path,
                                                                      const LedgerOptions& options,
                                                                      bool replay);

  // The newest backup that passes the check without replay (an empty or damaged copy is never offered).
  static std::optional<std::string> newest_sound_backup(const LedgerOptions& options);

  Ledger(Ledger&&) noexcept;
  Ledger& operator=(Ledger&&) noexcept;
  ~Ledger();

  // A new game: its setup and starting postings in one transaction. `origin` says what made it.
  std::expected<GameId, LedgerError> start_game(const rules::Setup& setup,
                                                const std::string& origin = "table");
  // Applies one input through the engine and stores it with its postings, or returns the stored outcome when
  // meta.id is already stored with the same contents.
  std::expected<Recorded, LedgerError> record(GameId game, const rules::Input& input, const InputMeta& meta);
  // Rebuilds a game from its log and compares it with what is stored. A game that differs is reported and
  // refuses further inputs; it is never silently fixed.
  std::expected<ResumeReport, LedgerError> resume(GameId game);

  // The engine's state of a game rebuilt by resume() or start_game() (nullptr when not loaded). The pointer
  // stays valid until forget(game) or the ledger's end: resume() and a failed record() rebuild the game in
  // place, never elsewhere, so a display snapshot holding it cannot dangle.
  const rules::Game* game(GameId game) const;
  // After a record() that failed to commit, the engine stands one input ahead of the file until the game is
  // rebuilt (by resume() or the next record()); the caller shows nothing of it meanwhile.
  bool stale(GameId game) const;
  // An undo needs the game's whole history, which a game restored from a snapshot lacks: record() would then
  // replay the whole log at the moment of the undo. The service calls this when the table is idle after a
  // resume, so that the undo itself is quick. Does nothing when the history is there.
  std::expected<void, LedgerError> load_history(GameId game);
  // Drops a game's engine state from memory (it stays stored; resume() or record() loads it again).
  void forget(GameId game);
  std::optional<GameId> newest_unfinished_game();
  std::optional<GameId> newest_game_with_origin(const std::string& origin);
  std::vector<GameSummary> list();
  std::expected<GameSummary, LedgerError> summary(GameId game);
  std::expected<std::vector<AccountBalance>, LedgerError> balances(GameId game);
  // Is this input id stored for this game?
  bool has_input(GameId game, const std::string& input_id);

  std::expected<std::string, LedgerError> export_csv(GameId game);
  // The game as a game script: the setup line, then every stored input with its id.
  std::expected<std::string, LedgerError> export_script(GameId game);

  // A copy made with SQLite's online backup API into the backup directory, then rotated. record() never makes
  // one (a copy takes longer than a frame): the service calls this at the end of each game
  // (Recorded::game_over) and backup_if_due() from a timer, when its loop is free.
  std::expected<std::string, LedgerError> backup_now();
  // Makes a backup when the configured interval has passed since the newest one.
  std::optional<std::expected<std::string, LedgerError>> backup_if_due(
      std::chrono::system_clock::time_point now);
  // The same in two halves, so that a service loop runs only the first: start_backup() copies the file (the
  // part that needs this connection, so this ledger's thread) and returns what BackupStore::finish, on any
  // thread, needs to sync, anchor, name and rotate it. The interval counts from the start.
  std::expected<PendingBackup, LedgerError> start_backup();
  std::optional<std::expected<PendingBackup, LedgerError>> start_backup_if_due(
      std::chrono::system_clock::time_point now);
  // The same copy in steps, for a loop that must not be held for the whole file: begin_backup() opens the
  // copy, step_backup(pages) copies up to `pages` pages a call, and the call that copies the last page
  // returns what BackupStore::finish needs. Inputs recorded between two steps are in the copy: it holds
  // every input this ledger committed before the step that completed it (BackupCopy). The interval counts
  // from begin_backup(); a step that fails drops the copy and makes the next scheduled backup due at once.
  // One copy at a time: start_backup() and begin_backup() refuse while one is under way.
  std::expected<void, LedgerError> begin_backup();
  std::optional<std::expected<void, LedgerError>> begin_backup_if_due(
      std::chrono::system_clock::time_point now);
  // nullopt: pages remain (call again on a later turn).
  std::expected<std::optional<PendingBackup>, LedgerError> step_backup(int pages);
  bool backup_under_way() const { return backup_copy_.has_value(); }
  struct BackupProgress {
    int remaining_pages = 0;
    int total_pages = 0;
  };
  BackupProgress backup_progress() const;
  // A started backup could not be finished: the next start_backup_if_due() is due at once, as after a copy
  // that failed.
  void backup_not_finished() { last_backup_ = {}; }
  // Moves the WAL into the main file (the daemon calls it when the table is idle).
  std::expected<void, LedgerError> checkpoint();

  // The always-callable check, over the games loaded in memory: their stored balances sum to zero and equal
  // their postings, and agree with the engine's state. Empty when consistent. (inspect() checks every game.)
  std::vector<std::string> invariant_violations();

  const LedgerOptions& options() const { return options_; }
  // Opened for reading only (LedgerAccess::open_existing on a read-only file or medium): writes fail with
  // Kind::read_only, and resume() writes no snapshot.
  bool read_only() const { return read_only_; }

 private:
  struct LiveGame;
  explicit Ledger(LedgerOptions options, Database db);
  std::expected<LiveGame*, LedgerError> live(GameId game);
  std::expected<Recorded, LedgerError> stored_outcome(GameId game, std::int64_t seq,
                                                      const std::string& outcome,
                                                      const rules::Edition& edition);

  struct Prepared;
  LedgerOptions options_;
  Database db_;
  std::unique_ptr<Prepared> sql_;
  std::map<GameId, std::unique_ptr<LiveGame>> games_;
  std::map<std::string, std::shared_ptr<const rules::Edition>> editions_;
  std::chrono::system_clock::time_point last_backup_{};
  // The backup being copied in steps. After db_: destroyed (and its partial copy removed) before the
  // connection it reads closes.
  std::optional<BackupCopy> backup_copy_;
  bool read_only_ = false;
  // The head of every game's chain as committed, written to the anchor file after each commit.
  std::map<GameId, AnchorHead> anchor_heads_;
  std::chrono::steady_clock::time_point last_anchor_write_{};
  bool anchor_pending_ = false;  // heads newer than the anchor file
  // Records a game's new head and rewrites the anchor; a message when that failed (the commit stands).
  // `may_wait`: skip the file when it was written less than anchor_every_ms ago (left pending).
  std::optional<std::string> write_anchor(GameId id, std::int64_t inputs, const std::string& chain,
                                          Anchor::Durability durability, bool may_wait);
  std::optional<std::string> write_anchor(Anchor::Durability durability);
  // How long replaying one input takes here, measured at the last resume that replayed enough inputs to tell.
  // Until then, a Raspberry Pi 4's figure (about eight times this project's development machine's).
  double replay_ms_per_input_ = 0.025;
  std::expected<ResumeReport, LedgerError> resume(GameId game, bool use_snapshot);
  std::int64_t snapshot_interval() const;
  // Stores the engine's snapshot after input `last_seq` (whose chain hash is `chain`) and drops older ones.
  // Inside the caller's transaction.
  void store_snapshot(GameId id, const LiveGame& g, std::int64_t last_seq, const std::string& chain);
  void store_snapshot(GameId id, LiveGame& g);  // after the game's newest stored input
};

}  // namespace bb::ledger
