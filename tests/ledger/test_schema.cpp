#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <optional>

#include "ledger/chain.h"
#include "ledger/database.h"
#include "ledger/schema.h"
#include "ledger/sql_error.h"
#include "temp_dir.h"

namespace bb::ledger {
namespace {

using testing::TempDir;

constexpr const char* kSetup =
    R"({"setup":{"edition":"classic","players":[{"name":"Ann","token":"car"},{"name":"Bob","token":"dog"}],"options":{},"seed":7}})";

// The rows an earlier release would have written for a short game: starting cash, one rent, one undo.
void write_game_as_of(Database& db, int version) {
  db.exec(fmt::format(
      "INSERT INTO games(id, edition, setup, origin, started_at) VALUES (1, 'classic', '{}', 'table', "
      "'2026-01-01T10:00:00.000Z')",
      kSetup));
  if (version >= 2) {
    db.exec("INSERT INTO accounts(game, account, name) VALUES (1, -1, 'bank'), (1, 0, 'Ann'), (1, 1, 'Bob')");
  }
  db.exec(R"sql(
    INSERT INTO inputs(game, seq, input_id, source, kind, body, outcome, authorised_by, reason, recorded_at) VALUES
      (1, 0, 'dice:1', 'dice', 'roll', '{"t":"roll","dice":[1,2]}', '{"events":[]}', NULL, NULL,
       '2026-01-01T10:00:01.000Z'),
      (1, 1, 'touch:2', 'touch', 'undo', '{"t":"undo"}', '{"events":[]}', 'pin', 'wrong dice',
       '2026-01-01T10:00:02.000Z');
    INSERT INTO postings(game, seq, input_seq, from_account, to_account, amount, memo, space, card) VALUES
      (1, 1, NULL, -1, 0, 1500, 'start_cash', NULL, NULL),
      (1, 2, NULL, -1, 1, 1500, 'start_cash', NULL, NULL),
      (1, 3, 0, 0, 1, 20, 'rent', 3, NULL),
      (1, 4, 1, 1, 0, 20, 'undo', 3, NULL);
  )sql");
}

class MigrationFrom : public ::testing::TestWithParam<int> {};

TEST_P(MigrationFrom, KeepsEveryRowAndReachesTheCurrentSchema) {
  int version = GetParam();
  TempDir dir;
  std::string path = dir.file("old.db");
  {
    Database db(path, Database::Mode::read_write);
    Schema::migrate_to(db, version);
    ASSERT_EQ(db.user_version(), version);
    if (version > 0) write_game_as_of(db, version);
  }
  Database db(path, Database::Mode::read_write);
  Schema::migrate(db);
  EXPECT_EQ(db.user_version(), Schema::kCurrentVersion);
  if (version == 0) {
    EXPECT_EQ(db.query_int64("SELECT count(*) FROM games"), 0);
    return;
  }
  EXPECT_EQ(db.query_int64("SELECT count(*) FROM inputs"), 2);
  EXPECT_EQ(db.query_int64("SELECT count(*) FROM postings"), 4);
  EXPECT_EQ(db.query_int64("SELECT balance FROM accounts WHERE game = 1 AND account = -1"), -3000);
  EXPECT_EQ(db.query_int64("SELECT balance FROM accounts WHERE game = 1 AND account = 0"), 1500);
  EXPECT_EQ(db.query_int64("SELECT balance FROM accounts WHERE game = 1 AND account = 1"), 1500);
  EXPECT_EQ(db.query_text("SELECT name FROM accounts WHERE game = 1 AND account = 1"), "Bob");
  EXPECT_EQ(db.query_int64("SELECT sum(balance) FROM accounts"), 0);
  EXPECT_TRUE(Chain::verify(db).empty());
  EXPECT_EQ(db.query_int64("SELECT count(*) FROM inputs WHERE chain IS NULL"), 0);
  // History stays append-only after the migration, whichever version it started from.
  EXPECT_THROW(db.exec("UPDATE inputs SET body = '{}' WHERE seq = 0"), SqlError);
  EXPECT_THROW(db.exec("DELETE FROM postings WHERE seq = 3"), SqlError);
  EXPECT_THROW(db.exec("DELETE FROM games"), SqlError);
  EXPECT_EQ(db.query_text("PRAGMA integrity_check"), "ok");
  EXPECT_EQ(db.query_int64("SELECT count(*) FROM pragma_foreign_key_check"), 0);
}

INSTANTIATE_TEST_SUITE_P(EveryEarlierVersion, MigrationFrom, ::testing::Range(0, Schema::kCurrentVersion));

TEST(Schema, MigratingTheCurrentVersionChangesNothing) {
  TempDir dir;
  Database db(dir.file("a.db"), Database::Mode::read_write);
  Schema::migrate(db);
  std::string before = db.query_text("SELECT group_concat(sql, ';') FROM sqlite_schema");
  Schema::migrate(db);
  EXPECT_EQ(db.query_text("SELECT group_concat(sql, ';') FROM sqlite_schema"), before);
}

TEST(Schema, RefusesAFileFromANewerRelease) {
  TempDir dir;
  Database db(dir.file("a.db"), Database::Mode::read_write);
  db.set_user_version(Schema::kCurrentVersion + 1);
  EXPECT_THROW(Schema::migrate(db), std::runtime_error);
  EXPECT_EQ(db.user_version(), Schema::kCurrentVersion + 1);
  EXPECT_EQ(db.query_int64("SELECT count(*) FROM sqlite_schema"), 0);
}

class Constraints : public ::testing::Test {
 protected:
  void SetUp() override {
    db_.emplace(dir_.file("a.db"), Database::Mode::read_write);
    Schema::migrate(*db_);
    db_->exec(
        fmt::format("INSERT INTO games(id, edition, setup, origin, started_at, chain) VALUES (1, 'classic', "
                    "'{}', 'table', "
                    "'2026-01-01T10:00:00.000Z', 'x')",
                    kSetup));
    db_->exec(
        "INSERT INTO accounts(game, account, name) VALUES (1, -1, 'bank'), (1, 0, 'Ann'), (1, 1, 'Bob')");
    db_->exec(R"sql(INSERT INTO inputs(game, seq, input_id, source, kind, body, outcome, recorded_at, chain)
                    VALUES (1, 0, 'a', 'dice', 'roll', '{"t":"roll"}', '{}', '2026-01-01T10:00:01Z', 'y'))sql");
  }
  void posting(int seq, int from, int to, long long amount) {
    db_->exec(
        fmt::format("INSERT INTO postings(game, seq, input_seq, from_account, to_account, amount, memo) "
                    "VALUES (1, {}, 0, {}, {}, {}, 'rent')",
                    seq, from, to, amount));
  }
  TempDir dir_;
  std::optional<Database> db_;
};

TEST_F(Constraints, TheBankMayGoNegative) {
  EXPECT_NO_THROW(posting(1, -1, 0, 100));
  EXPECT_EQ(db_->query_int64("SELECT balance FROM accounts WHERE account = -1"), -100);
  EXPECT_NO_THROW(posting(2, 0, 1, 100));
  EXPECT_EQ(db_->query_int64("SELECT balance FROM accounts WHERE account = 1"), 100);
  EXPECT_EQ(db_->query_int64("SELECT sum(balance) FROM accounts"), 0);
}

TEST_F(Constraints, APostingMovesAPositiveAmountBetweenTwoKnownAccounts) {
  EXPECT_THROW(posting(1, -1, 0, 0), SqlError);
  EXPECT_THROW(posting(2, -1, 0, -5), SqlError);
  EXPECT_THROW(posting(3, 0, 0, 5), SqlError);
  EXPECT_THROW(posting(4, -1, 7, 5), SqlError);  // no such account
  EXPECT_THROW(posting(5, -2, 0, 5), SqlError);  // kNobody holds no money
  EXPECT_EQ(db_->query_int64("SELECT count(*) FROM postings"), 0);
}

TEST_F(Constraints, ACorrectionNeedsWhoAuthorisedItAndWhy) {
  auto undo = [&](const char* by, const char* why) {
    db_->exec(
        fmt::format(R"sql(INSERT INTO inputs(game, seq, input_id, source, kind, body, outcome, authorised_by,
                                  reason, recorded_at, chain)
                                VALUES (1, 1, 'u', 'touch', 'undo', '{{"t":"undo"}}', '{{}}', {}, {},
                                        '2026-01-01T10:00:02Z', 'z'))sql",
                    by, why));
  };
  EXPECT_THROW(undo("NULL", "NULL"), SqlError);
  EXPECT_THROW(undo("'0A1B2C3D'", "NULL"), SqlError);
  EXPECT_THROW(undo("'0A1B2C3D'", "''"), SqlError);
  EXPECT_NO_THROW(undo("'0A1B2C3D'", "'Bob rolled twice'"));
}

TEST_F(Constraints, AnInputIdIsStoredOncePerGame) {
  EXPECT_THROW(
      db_->exec(R"sql(INSERT INTO inputs(game, seq, input_id, source, kind, body, outcome, recorded_at, chain)
                    VALUES (1, 1, 'a', 'dice', 'roll', '{"t":"roll"}', '{}', '2026-01-01T10:00:01Z', 'y'))sql"),
      SqlError);
}

TEST_F(Constraints, AGameIsFinishedOnceAndOtherwiseNeverChanges) {
  EXPECT_THROW(db_->exec("UPDATE games SET setup = '{}'"), SqlError);
  EXPECT_NO_THROW(db_->exec("UPDATE games SET finished_at = '2026-01-01T11:00:00Z'"));
  EXPECT_THROW(db_->exec("UPDATE games SET finished_at = '2026-01-01T12:00:00Z'"), SqlError);
}

}  // namespace
}  // namespace bb::ledger
