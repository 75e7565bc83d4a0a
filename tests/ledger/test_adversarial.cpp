// The ledger against someone or something working against it, by category: tampering (rows removed with the
// sqlite3 tool), truncation, files that are not ledgers, missing paths, read-only media. Each case asserts
// the exact refusal, and that nothing stored was lost or altered.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <functional>
#include <limits>

#include "ledger/anchor.h"
#include "ledger/backup_store.h"
#include "ledger/chain_hash.h"
#include "ledger/database.h"
#include "ledger/ledger.h"
#include "ledger/script_replay.h"
#include "ledger_test_support.h"
#include "random_driver.h"
#include "temp_dir.h"

namespace bb::ledger {
namespace {

using namespace testing;
namespace fs = std::filesystem;

bool contains(const std::vector<std::string>& problems, const std::string& text) {
  for (const auto& p : problems) {
    if (p.find(text) != std::string::npos) return true;
  }
  return false;
}

std::string joined(const std::vector<std::string>& problems) {
  return fmt::format("{}", fmt::join(problems, "\n"));
}

// What the sqlite3 tool lets anyone do: drop the append-only triggers, change rows, put the triggers back
// exactly as they were (so that the schema check sees nothing).
void behind_the_ledgers_back(const std::string& path, const std::string& sql) {
  Database db(path, Database::Mode::read_write);
  std::vector<std::string> names = db.query_column("SELECT name FROM sqlite_schema WHERE type = 'trigger'");
  std::vector<std::string> triggers = db.query_column("SELECT sql FROM sqlite_schema WHERE type = 'trigger'");
  for (const auto& name : names) db.exec("DROP TRIGGER " + name);
  db.exec(sql);
  for (const auto& trigger : triggers) db.exec(trigger);
}

class Adversarial : public ::testing::Test {
 protected:
  std::string db() const { return dir_.file("bank.db"); }
  LedgerOptions options(LedgerAccess access = LedgerAccess::create_or_open) const {
    LedgerOptions o = options_for(db(), dir_.file("backups"));
    o.access = access;
    o.anchor_every_ms = 0;  // the anchor after every input (the throttle has its own test)
    return o;
  }
  // Two games of `inputs` random inputs each (no undo), the file closed afterwards.
  void play_two_games(int inputs = 40) {
    auto ledger = Ledger::open(options());
    ASSERT_TRUE(ledger.has_value()) << ledger.error().message;
    for (std::uint64_t seed : {3u, 4u}) {
      std::string script = dir_.file(fmt::format("game-{}.jsonl", seed));
      write_file(script, RandomDriver::script(EDITIONS_DIR, seed, 3, inputs, false));
      auto run = ScriptReplay::run(*ledger, script, false);
      ASSERT_TRUE(run.has_value()) << run.error();
      ASSERT_TRUE(run->refused.empty());
    }
  }
  std::vector<std::string> check() const {
    auto problems = Ledger::inspect(db(), options(), true);
    EXPECT_TRUE(problems.has_value()) << problems.error().message;
    return problems.value_or(std::vector<std::string>{"(inspect failed)"});
  }
  TempDir dir_;
};

// --- Tampering -------------------------------------------------------------------------------------------

TEST_F(Adversarial, AGameDeletedWithTheSqliteToolIsFound) {
  play_two_games();
  ASSERT_TRUE(check().empty()) << joined(check());
  behind_the_ledgers_back(db(), R"sql(
    DELETE FROM snapshots WHERE game = 2; DELETE FROM postings WHERE game = 2;
    DELETE FROM inputs WHERE game = 2; DELETE FROM accounts WHERE game = 2; DELETE FROM games WHERE id = 2;)sql");
  auto problems = check();
  ASSERT_EQ(problems.size(), 1u) << joined(problems);
  EXPECT_EQ(
      problems[0],
      "anchor: game 2: it is missing from the file, but its anchor says it held 40 input(s): it was removed");
  auto opened = Ledger::open(options());
  ASSERT_FALSE(opened.has_value());
  EXPECT_EQ(opened.error().kind, LedgerError::Kind::damaged);
  EXPECT_NE(opened.error().message.find("it was removed"), std::string::npos) << opened.error().message;
}

TEST_F(Adversarial, ACutOffTailWithItsPostingsAndBalanceFixesIsFound) {
  play_two_games();
  // The last input of game 1 goes, with its postings, and the balances are put back as if it never was:
  // the hash chain of what is left is whole, and the balances add up.
  behind_the_ledgers_back(db(), R"sql(
    UPDATE accounts SET balance = balance + coalesce((SELECT sum(amount) FROM postings p WHERE p.game = 1
        AND p.input_seq = 39 AND p.from_account = accounts.account), 0)
      - coalesce((SELECT sum(amount) FROM postings p WHERE p.game = 1 AND p.input_seq = 39
        AND p.to_account = accounts.account), 0) WHERE game = 1;
    DELETE FROM snapshots WHERE game = 1 AND last_seq >= 39;
    DELETE FROM postings WHERE game = 1 AND input_seq = 39; DELETE FROM inputs WHERE game = 1 AND seq = 39;
    UPDATE games SET finished_at = NULL WHERE id = 1;)sql");
  auto problems = check();
  ASSERT_TRUE(contains(problems,
                       "anchor: game 1: its anchor says it held 40 input(s), the file holds fewer: "
                       "its end was cut off"))
      << joined(problems);
}

TEST_F(Adversarial, AnAnchorOneCommitBehindIsNotTampering) {
  // A pulled plug between the commit and the anchor's rename leaves the anchor one commit behind.
  auto ledger = Ledger::open(options());
  ASSERT_TRUE(ledger.has_value());
  auto game = ledger->start_game(RandomDriver::setup(1, 2));
  ASSERT_TRUE(game.has_value());
  std::string behind = read_file(Anchor::path_for(db()));
  auto recorded = ledger->record(*game, rules::Roll{1, 2}, {"dice:1", "dice", "", ""});
  ASSERT_TRUE(recorded.has_value());
  EXPECT_FALSE(recorded->warning.has_value()) << *recorded->warning;
  EXPECT_NE(read_file(Anchor::path_for(db())), behind);
  write_file(Anchor::path_for(db()), behind);
  EXPECT_TRUE(check().empty()) << joined(check());
  // And an anchor from before the game began (the game's own row not yet anchored).
  write_file(
      Anchor::path_for(db()), "boardbank ledger anchor 1\ndigest " + [] {
        ChainHash hash;
        hash.add("boardbank ledger anchor 1");
        return hash.hex();
      }() + "\n");
  EXPECT_TRUE(check().empty()) << joined(check());
}

TEST_F(Adversarial, TheAnchorIsRewrittenAtMostEveryIntervalAndAlwaysAtTheClose) {
  LedgerOptions throttled = options();
  throttled.anchor_every_ms = 60'000;
  std::string at_start;
  {
    auto ledger = Ledger::open(throttled);
    ASSERT_TRUE(ledger.has_value());
    auto game = ledger->start_game(RandomDriver::setup(1, 2));  // a game's start is always written
    ASSERT_TRUE(game.has_value());
    at_start = read_file(Anchor::path_for(db()));
    ASSERT_NE(at_start.find("game 1 0 "), std::string::npos) << at_start;
    ASSERT_TRUE(ledger->record(*game, rules::Roll{1, 2}, {"dice:1", "dice", "", ""}).has_value());
    EXPECT_EQ(read_file(Anchor::path_for(db())), at_start);  // within the interval: left pending
    EXPECT_TRUE(check().empty()) << joined(check());         // and a pending anchor is only behind
  }
  EXPECT_NE(read_file(Anchor::path_for(db())).find("game 1 1 "), std::string::npos);  // the close wrote it
  EXPECT_TRUE(check().empty()) << joined(check());
}

TEST_F(Adversarial, AnEditedAnchorIsReported) {
  play_two_games(10);
  std::string anchor = read_file(Anchor::path_for(db()));
  auto at = anchor.find("game 2 10 ");
  ASSERT_NE(at, std::string::npos) << anchor;
  anchor.replace(at, 10, "game 2 11 ");
  write_file(Anchor::path_for(db()), anchor);
  auto problems = check();
  ASSERT_EQ(problems.size(), 1u) << joined(problems);
  EXPECT_NE(problems[0].find("its lines do not match its digest (edited or damaged)"), std::string::npos)
      << problems[0];
}

TEST_F(Adversarial, ARemovedAnchorIsReported) {
  play_two_games(10);
  fs::remove(Anchor::path_for(db()));
  auto problems = check();
  ASSERT_EQ(problems.size(), 1u) << joined(problems);
  EXPECT_NE(problems[0].find("is missing, but this ledger has been anchored"), std::string::npos)
      << problems[0];
  EXPECT_FALSE(Ledger::open(options()).has_value());
}

TEST_F(Adversarial, ALedgerFromBeforeAnchorsGetsItsFirstAnchorWhenOpened) {
  play_two_games(10);
  fs::remove(Anchor::path_for(db()));
  {
    Database file(db(), Database::Mode::read_write);
    file.exec("PRAGMA application_id=0");
  }
  EXPECT_TRUE(check().empty()) << joined(check());
  ASSERT_TRUE(Ledger::open(options()).has_value());
  auto anchor = Anchor::read(Anchor::path_for(db()));
  ASSERT_TRUE(anchor.has_value() && anchor->has_value());
  ASSERT_EQ((*anchor)->size(), 2u);
  EXPECT_EQ((**anchor)[1].inputs, 10);
  Database file(db(), Database::Mode::read_only);
  EXPECT_EQ(file.query_int64("PRAGMA application_id"), Anchor::kApplicationId);
}

TEST_F(Adversarial, EveryBackupHasItsAnchorAndARestoreBringsIt) {
  play_two_games(10);
  std::string backup;
  {
    auto ledger = Ledger::open(options());
    ASSERT_TRUE(ledger.has_value());
    auto made = ledger->backup_now();
    ASSERT_TRUE(made.has_value()) << made.error().message;
    backup = *made;
    EXPECT_EQ(read_file(Anchor::path_for(backup)), read_file(Anchor::path_for(db())));
    auto game = ledger->start_game(RandomDriver::setup(9, 2));  // the live file moves on past the backup
    ASSERT_TRUE(game.has_value());
  }
  auto backup_problems = Ledger::inspect(backup, options(), true);
  ASSERT_TRUE(backup_problems.has_value() && backup_problems->empty());
  std::string newer_anchor = read_file(Anchor::path_for(db()));
  auto kept = BackupStore::restore(backup, db());
  ASSERT_TRUE(kept.has_value()) << kept.error();
  // The restored file is judged by its own anchor, not by the newer one of the file it replaced.
  EXPECT_TRUE(check().empty()) << joined(check());
  EXPECT_EQ(read_file(Anchor::path_for(db())), read_file(Anchor::path_for(backup)));
  EXPECT_EQ(read_file(Anchor::path_for(*kept)), newer_anchor);
}

// --- Full or failing card ---------------------------------------------------------------------------------

TEST_F(Adversarial, AnAnchorThatCannotBeWrittenNeverLosesTheInput) {
  auto ledger = Ledger::open(options());
  ASSERT_TRUE(ledger.has_value());
  auto game = ledger->start_game(RandomDriver::setup(1, 2));
  ASSERT_TRUE(game.has_value());
  // The anchor's new file cannot be made (as on a full card): the input is stored all the same and the
  // warning says so; the anchor left behind is still accepted by the check.
  fs::create_directories(Anchor::path_for(db()) + ".new");
  auto recorded = ledger->record(*game, rules::Roll{1, 2}, {"dice:1", "dice", "", ""});
  ASSERT_TRUE(recorded.has_value()) << recorded.error().message;
  ASSERT_TRUE(recorded->warning.has_value());
  EXPECT_NE(recorded->warning->find("the ledger's anchor could not be updated"), std::string::npos)
      << *recorded->warning;
  EXPECT_TRUE(ledger->has_input(*game, "dice:1"));
  EXPECT_TRUE(check().empty()) << joined(check());
  fs::remove(Anchor::path_for(db()) + ".new");
}

// --- Numbers at the edge
// ------------------------------------------------------------------------------------

TEST_F(Adversarial, AnAmountBeyondWhatABalanceHoldsIsRefusedNotAnAbort) {
  auto ledger = Ledger::open(options());
  ASSERT_TRUE(ledger.has_value());
  auto game = ledger->start_game(RandomDriver::setup(1, 2));
  ASSERT_TRUE(game.has_value());
  rules::Adopt adopt;
  adopt.player = rules::PlayerId{0};
  adopt.cash = std::numeric_limits<rules::Money>::max();
  auto recorded = ledger->record(*game, adopt, {"touch:big", "touch", "pin", "a test at the edge"});
  // The rules may refuse it themselves; either way nothing is stored and the ledger stays whole.
  ASSERT_FALSE(recorded.has_value());
  EXPECT_TRUE(recorded.error().kind == LedgerError::Kind::invalid ||
              recorded.error().kind == LedgerError::Kind::refused)
      << recorded.error().message;
  EXPECT_FALSE(ledger->has_input(*game, "touch:big"));
  // The next input finds the game rebuilt from the file, as after any commit that did not happen.
  EXPECT_TRUE(ledger->record(*game, rules::Roll{1, 2}, {"dice:after", "dice", "", ""}).has_value());
  EXPECT_TRUE(ledger->invariant_violations().empty());
  EXPECT_TRUE(check().empty()) << joined(check());
}

// --- Truncation, zero-byte and non-ledger files ------------------------------------------------------------

TEST_F(Adversarial, AZeroByteFileIsNeverOkNorRestored) {
  play_two_games(10);
  std::string before = read_file(db());
  write_file(dir_.file("empty.db"), "");
  auto problems = Ledger::inspect(dir_.file("empty.db"), options(), true);
  ASSERT_TRUE(problems.has_value());
  EXPECT_EQ(*problems,
            std::vector<std::string>{dir_.file("empty.db") + " is empty (0 bytes): it is not a ledger"});
  LedgerOptions existing = options(LedgerAccess::open_existing);
  existing.path = dir_.file("empty.db");
  auto opened = Ledger::open(existing);
  ASSERT_FALSE(opened.has_value());
  EXPECT_EQ(opened.error().kind, LedgerError::Kind::invalid);
  EXPECT_NE(opened.error().message.find("is empty (0 bytes): it is not a ledger"), std::string::npos);
  EXPECT_EQ(read_file(db()), before);
}

TEST_F(Adversarial, FilesThatAreNotLedgersSaySoPlainly) {
  write_file(dir_.file("notes.txt"), "shopping: milk, dice\n");
  {
    Database other(dir_.file("other.db"), Database::Mode::read_write);
    other.exec("CREATE TABLE t(x)");
  }
  {
    Database empty(dir_.file("blank.db"), Database::Mode::read_write);
    empty.exec("PRAGMA user_version=0");
  }
  auto first = [&](const std::string& name) {
    auto problems = Ledger::inspect(dir_.file(name), options(), true);
    EXPECT_TRUE(problems.has_value());
    return problems && !problems->empty() ? (*problems)[0] : std::string("(ok)");
  };
  EXPECT_EQ(first("notes.txt"), dir_.file("notes.txt") + " is not a ledger: it is not an SQLite database");
  EXPECT_EQ(first("other.db"), dir_.file("other.db") +
                                   " is not a ledger: it is an SQLite database of something else (1 schema "
                                   "item(s), none made by boardbank)");
  // An SQLite file in WAL mode with nothing in it yet: still no ledger (its size is not zero).
  EXPECT_NE(first("blank.db").find("is not a ledger"), std::string::npos) << first("blank.db");
  auto directory = Ledger::inspect(dir_.path(), options(), true);
  ASSERT_FALSE(directory.has_value());
  EXPECT_NE(directory.error().message.find("is not a file"), std::string::npos);
}

TEST_F(Adversarial, ATruncatedLedgerIsNeverOk) {
  play_two_games(30);
  std::string bytes = read_file(db());
  ASSERT_GT(bytes.size(), 8192u);
  for (std::size_t keep : {std::size_t{100}, bytes.size() / 2, bytes.size() - 4096}) {
    write_file(dir_.file("cut.db"), bytes.substr(0, keep));
    fs::copy_file(Anchor::path_for(db()), Anchor::path_for(dir_.file("cut.db")),
                  fs::copy_options::overwrite_existing);
    auto problems = Ledger::inspect(dir_.file("cut.db"), options(), true);
    ASSERT_TRUE(problems.has_value());
    EXPECT_FALSE(problems->empty()) << "kept " << keep << " of " << bytes.size() << " bytes";
    fs::remove(dir_.file("cut.db"));
  }
}

// --- Missing paths --------------------------------------------------------------------------------------

TEST_F(Adversarial, AMissingFileIsRefusedUnlessCreating) {
  auto opened = Ledger::open(options(LedgerAccess::open_existing));
  ASSERT_FALSE(opened.has_value());
  EXPECT_EQ(opened.error().kind, LedgerError::Kind::not_found);
  EXPECT_EQ(opened.error().message,
            db() +
                " does not exist. Check the path (--db, or [ledger] path in the configuration); to start a "
                "new, empty ledger there, add --create");
  EXPECT_FALSE(fs::exists(db()));
  EXPECT_TRUE(Ledger::open(options(LedgerAccess::create_or_open)).has_value());
  EXPECT_TRUE(fs::exists(db()));
}

TEST_F(Adversarial, AnEmptyBackupIsNeverOffered) {
  play_two_games(10);
  fs::create_directories(dir_.file("backups"));
  std::string sound;
  {
    auto ledger = Ledger::open(options());
    ASSERT_TRUE(ledger.has_value());
    sound = ledger->backup_now().value_or("");
  }
  write_file(dir_.file("backups/boardbank-99990101T000000.000Z.db"), "");  // newest by name, and empty
  EXPECT_EQ(Ledger::newest_sound_backup(options()), sound);
}

// --- Read-only media ------------------------------------------------------------------------------------

// Runs `body` in a child process in which `dir` is read-only: a read-only bind mount in a private mount
// namespace when this runs as root (chmod does not stop root), chmod otherwise. The child's exit code is the
// number of failed expectations it counted; -1 when the directory could not be made read-only.
int with_read_only_dir(const std::string& dir, const std::function<int()>& body) {
  pid_t child = fork();
  if (child == 0) {
    if (geteuid() == 0) {
      if (unshare(CLONE_NEWNS) != 0 || mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0 ||
          mount(dir.c_str(), dir.c_str(), nullptr, MS_BIND, nullptr) != 0 ||
          mount(nullptr, dir.c_str(), nullptr, MS_REMOUNT | MS_BIND | MS_RDONLY, nullptr) != 0)
        _exit(255);
    } else if (chmod(dir.c_str(), 0555) != 0) {
      _exit(255);
    }
    _exit(body());
  }
  int status = 0;
  waitpid(child, &status, 0);
  if (geteuid() != 0) chmod(dir.c_str(), 0755);
  if (!WIFEXITED(status)) return 1000;
  return WEXITSTATUS(status) == 255 ? -1 : WEXITSTATUS(status);
}

TEST_F(Adversarial, AHealthyLedgerOnAReadOnlyMediumIsReadOnlyNotDamaged) {
  play_two_games(10);
  ASSERT_FALSE(fs::exists(db() + "-wal"));  // closed cleanly: no -wal, no -shm to read through
  std::string before = read_file(db());
  int failures = with_read_only_dir(dir_.path(), [&] {
    int failed = 0;
    auto expect = [&](bool ok, const std::string& what) {
      if (!ok) {
        fmt::print(stderr, "read-only: {}\n", what);
        ++failed;
      }
    };
    auto problems = Ledger::inspect(db(), options(), true);
    expect(problems && problems->empty(), "ledger check finds it healthy");
    auto service = Ledger::open(options(LedgerAccess::create_or_open));
    expect(!service && service.error().kind == LedgerError::Kind::read_only &&
               service.error().message.find("cannot be written") != std::string::npos,
           "the service is told it is read-only: " + (service ? "" : service.error().message));
    auto reader = Ledger::open(options(LedgerAccess::open_existing));
    expect(reader.has_value(), "the verbs open it: " + (reader ? "" : reader.error().message));
    if (!reader) return failed;
    expect(reader->read_only(), "it says it is read-only");
    expect(reader->list().size() == 2, "list works");
    expect(reader->export_script(2).has_value(), "export works");
    auto resumed = reader->resume(1);
    expect(resumed && resumed->differences.empty(), "show's replay works");
    auto refused = reader->start_game(RandomDriver::setup(5, 2));
    expect(!refused && refused.error().kind == LedgerError::Kind::read_only,
           "writing is refused as read-only: " + (refused ? "" : refused.error().message));
    return failed;
  });
  if (failures < 0)
    GTEST_SKIP() << "this system lets no process make a directory read-only (no mount "
                    "namespace for root, or chmod refused)";
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(read_file(db()), before);
}

}  // namespace
}  // namespace bb::ledger
