#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rules/money.h"
#include "rules/state.h"

namespace bb::ledger {

using GameId = std::int64_t;

// What went wrong, as the table should hear it. `message` says what to do.
struct LedgerError {
  enum class Kind {
    refused,       // the rules refuse the input; nothing was stored
    conflict,      // this input id is already stored with different contents
    unauthorised,  // a correction without the banker's card or PIN, or without a reason
    game_over,     // the game is finished; it stays as history
    storage_full,  // the SD card is full: nothing was written, free space and send the input again
    io,            // the card or file failed: nothing half-written; send the input again
    damaged,       // the file is damaged: it is never written to; restore a backup
    diverged,      // replaying the log does not give the stored balances: needs a person
    read_only,     // the file or its medium cannot be written: it was opened for reading only
    not_found,
    invalid,  // a bad setup, edition or file, or a file that is not a ledger
  };
  Kind kind = Kind::invalid;
  std::string message;
};

// Where an input came from. The id is made by its source and makes a repeat harmless: a card tap is
// "card:<reader>:<frame timestamp>", a dice result "dice:<strobe sequence>", a touch "touch:<UI counter>".
struct InputMeta {
  std::string id;
  std::string source = "touch";
  std::string authorised_by;  // corrections (undo, adopt): the banker's card UID, or "pin"
  std::string reason;         // corrections: why
};

// An input as the ledger holds it after record(): either just stored, or found stored already.
struct Recorded {
  std::int64_t seq = -1;   // its position in the game's log
  bool duplicate = false;  // the id was stored already: nothing changed, this is the stored outcome
  std::vector<rules::Posting> postings;
  std::vector<rules::Event> events;
  bool game_over = false;
  std::optional<std::string> warning;  // something that did not stop the input (a failed end-of-game backup)
};

struct GameSummary {
  GameId id = 0;
  std::string edition;
  std::vector<std::string> players;
  std::optional<std::string> origin;
  std::string started_at;
  std::optional<std::string> finished_at;
  std::int64_t inputs = 0;
};

struct AccountBalance {
  int account = 0;
  std::string name;
  rules::Money balance = 0;
};

// What resuming a game found.
struct ResumeReport {
  GameId game = 0;
  std::int64_t inputs = 0;
  double replay_ms = 0;            // rebuilding it: restoring the snapshot, if any, and replaying the rest
  std::int64_t from_snapshot = 0;  // inputs covered by the snapshot it was restored from (0: none used)
  std::int64_t replayed = 0;       // inputs replayed through the engine
  std::string snapshot_note;       // why a stored snapshot was not used, or could not be written
  std::vector<std::string> differences;  // empty: the replay gives exactly the stored balances and postings
};

// How Ledger::open treats the file at its path.
enum class LedgerAccess {
  // The service, the demo, `replay --db`, `--create`: a missing (or zero-byte) file becomes a new ledger; the
  // file must be writable.
  create_or_open,
  // The command-line verbs: the file must exist and be a ledger. On a read-only file, directory or medium it
  // is opened for reading only (Ledger::read_only()); writing then fails with Kind::read_only.
  open_existing,
};

struct LedgerOptions {
  std::string path;
  LedgerAccess access = LedgerAccess::create_or_open;
  std::vector<std::string> edition_dirs;
  std::string backup_dir;  // empty: no backups
  int keep_backups = 10;
  int backup_every_minutes = 0;  // 0: only at the end of each game and on request
  std::string vfs;               // a registered SQLite VFS name (tests inject faults); empty: the default
  // Resuming a game should take no longer than this. The ledger stores a snapshot of the engine often enough
  // that replaying the inputs after the newest one takes about half of it, judged by how fast this machine
  // replayed at the last resume; 0 turns snapshots off (every resume replays the whole log).
  double resume_budget_ms = 100;
  int snapshot_every_inputs = 0;  // a snapshot every this many inputs instead (tests, benchmarks); 0: by time
  // The anchor beside the file is rewritten after an input at most this often (and always at a game's start
  // and end, at checkpoint(), at a backup and when the ledger closes): renaming a file after every commit
  // costs each input a part of its fsync. 0: after every input (tests).
  int anchor_every_ms = 1000;
  // When a commit becomes durable. `each_commit`: SQLite syncs the WAL inside every commit, so record()
  // returns an input that survives a pulled plug. `by_caller`: a commit is written to the WAL, ordered and
  // atomic (SQLite's synchronous=NORMAL), and is durable once the WAL file has been synced (`WalSync`, on
  // any thread); a pulled plug loses at most the inputs written since the last sync, whole and from the
  // end. The caller must not show an input as done before its sync returned (the service's ledger syncer).
  enum class Durability { each_commit, by_caller };
  Durability durability = Durability::each_commit;
};

}  // namespace bb::ledger
