#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "ledger/database.h"
#include "ledger/sql_error.h"
#include "ledger/transaction.h"
#include "temp_dir.h"

namespace bb::ledger {
namespace {

using testing::TempDir;

TEST(Database, OpensWithTheDurabilitySettings) {
  TempDir dir;
  Database db(dir.file("a.db"), Database::Mode::read_write);
  EXPECT_EQ(db.query_text("PRAGMA journal_mode"), "wal");
  EXPECT_EQ(db.query_int64("PRAGMA synchronous"), 2);  // FULL
  EXPECT_EQ(db.query_int64("PRAGMA foreign_keys"), 1);
}

TEST(Database, ReadOnlyNeverCreatesAFile) {
  TempDir dir;
  EXPECT_THROW(Database(dir.file("missing.db"), Database::Mode::read_only), SqlError);
  EXPECT_FALSE(std::filesystem::exists(dir.file("missing.db")));
}

TEST(Database, ReadOnlyRefusesWrites) {
  TempDir dir;
  {
    Database db(dir.file("a.db"), Database::Mode::read_write);
    db.exec("CREATE TABLE t(x)");
  }
  Database db(dir.file("a.db"), Database::Mode::read_only);
  EXPECT_THROW(db.exec("INSERT INTO t VALUES (1)"), SqlError);
}

TEST(Transaction, RollsBackInItsDestructorUnlessCommitted) {
  TempDir dir;
  Database db(dir.file("a.db"), Database::Mode::read_write);
  db.exec("CREATE TABLE t(x INTEGER NOT NULL)");
  {
    Transaction t(db);
    db.exec("INSERT INTO t VALUES (1)");
  }
  EXPECT_FALSE(db.in_transaction());
  EXPECT_EQ(db.query_int64("SELECT count(*) FROM t"), 0);
  {
    Transaction t(db);
    db.exec("INSERT INTO t VALUES (2)");
    t.commit();
  }
  EXPECT_EQ(db.query_int64("SELECT count(*) FROM t"), 1);
}

TEST(Transaction, AFailedStatementLeavesNothingHalfWritten) {
  TempDir dir;
  Database db(dir.file("a.db"), Database::Mode::read_write);
  db.exec("CREATE TABLE t(x INTEGER NOT NULL CHECK(x > 0))");
  try {
    Transaction t(db);
    db.exec("INSERT INTO t VALUES (1)");
    db.exec("INSERT INTO t VALUES (-1)");
    t.commit();
    FAIL() << "the CHECK constraint should have refused -1";
  } catch (const SqlError& e) {
    EXPECT_TRUE(e.constraint());
  }
  EXPECT_FALSE(db.in_transaction());
  EXPECT_EQ(db.query_int64("SELECT count(*) FROM t"), 0);
}

TEST(Statement, BindsAndReadsBack) {
  TempDir dir;
  Database db(dir.file("a.db"), Database::Mode::read_write);
  db.exec("CREATE TABLE t(i INTEGER, s TEXT, n TEXT)");
  Statement insert = db.prepare("INSERT INTO t VALUES (?1, ?2, ?3)");
  insert.bind(1, std::int64_t{1} << 40).bind(2, "a,b\"c").bind(3, std::optional<std::string>{}).run();
  Statement q = db.prepare("SELECT i, s, n FROM t");
  ASSERT_TRUE(q.step());
  EXPECT_EQ(q.column_int64(0), std::int64_t{1} << 40);
  EXPECT_EQ(q.column_text(1), "a,b\"c");
  EXPECT_FALSE(q.column_optional_text(2).has_value());
  EXPECT_FALSE(q.step());
}

TEST(Database, MovedConnectionStillWorks) {
  TempDir dir;
  Database a(dir.file("a.db"), Database::Mode::read_write);
  Database b = std::move(a);
  b.exec("CREATE TABLE t(x)");
  EXPECT_EQ(b.query_int64("SELECT count(*) FROM t"), 0);
}

}  // namespace
}  // namespace bb::ledger
