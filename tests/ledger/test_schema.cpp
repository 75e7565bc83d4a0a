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

// The rows an earlier release would have written for a short game: starting cash, one rent, one undo. From
// version 3 on, every row carries its chain hash, made as that release made it.
void write_game_as_of(Database& db, int version) {
  StoredGame game{1, "classic", kSetup, "table", "2026-01-01T10:00:00.000Z"};
  std::vector<StoredPosting> setup_postings = {
      {1, std::nullopt, -1, 0, 1500, "start_cash", std::nullopt, std::nullopt},
      {2, std::nullopt, -1, 1, 1500, "start_cash", std::nullopt, std::nullopt}};
  std::vector<StoredInput> inputs = {
      {0, "dice:1", "dice", "roll", R"({"t":"roll","dice":[1,2]})", R"({"events":[]})", std::nullopt,
       std::nullopt, "2026-01-01T10:00:01.000Z"},
      {1, "touch:2", "touch", "undo", R"({"t":"undo"})", R"({"events":[]})", "pin", "wrong dice",
       "2026-01-01T10:00:02.000Z"}};
  std::vector<std::vector<StoredPosting>> input_postings = {{{3, 0, 0, 1, 20, "rent", 3, std::nullopt}},
                                                            {{4, 1, 1, 0, 20, "undo", 3, std::nullopt}}};
  const bool chained = version >= 3;
  std::string chain = Chain::game_hash(game, setup_postings);
  Statement g = db.prepare(chained ? "INSERT INTO games(id, edition, setup, origin, started_at, chain) "
                                     "VALUES (?1, ?2, ?3, ?4, ?5, ?6)"
                                   : "INSERT INTO games(id, edition, setup, origin, started_at) "
                                     "VALUES (?1, ?2, ?3, ?4, ?5)");
  g.bind(1, game.id).bind(2, game.edition).bind(3, game.setup).bind(4, game.origin).bind(5, game.started_at);
  if (chained) g.bind(6, chain);
  g.run();
  if (version >= 2) {
    db.exec("INSERT INTO accounts(game, account, name) VALUES (1, -1, 'bank'), (1, 0, 'Ann'), (1, 1, 'Bob')");
  }
  auto insert_postings = [&](const std::vector<StoredPosting>& postings) {
    for (const StoredPosting& p : postings) {
      Statement q = db.prepare(
          "INSERT INTO postings(game, seq, input_seq, from_account, to_account, amount, memo, space, card) "
          "VALUES (1, ?1, ?2, ?3, ?4, ?5, ?6, ?7, NULL)");
      q.bind(1, p.seq);
      if (p.input_seq)
        q.bind(2, *p.input_seq);
      else
        q.bind_null(2);
      q.bind(3, p.from).bind(4, p.to).bind(5, p.amount).bind(6, p.memo);
      if (p.space)
        q.bind(7, *p.space);
      else
        q.bind_null(7);
      q.run();
    }
  };
  insert_postings(setup_postings);
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const StoredInput& in = inputs[i];
    chain = Chain::input_hash(chain, in, input_postings[i]);
    Statement q = db.prepare(
        chained
            ? "INSERT INTO inputs(game, seq, input_id, source, kind, body, outcome, authorised_by, reason, "
              "recorded_at, chain) VALUES (1, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)"
            : "INSERT INTO inputs(game, seq, input_id, source, kind, body, outcome, authorised_by, reason, "
              "recorded_at) VALUES (1, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
    q.bind(1, in.seq).bind(2, in.input_id).bind(3, in.source).bind(4, in.kind).bind(5, in.body);
    q.bind(6, in.outcome).bind(7, in.authorised_by).bind(8, in.reason).bind(9, in.recorded_at);
    if (chained) q.bind(10, chain);
    q.run();
    insert_postings(input_postings[i]);
  }
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
  EXPECT_THROW(posting(5, -2, 0, 5), SqlError);  // -2, "nobody" on the wire, holds no money
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
