// An input id already stored changes nothing and returns the stored outcome; the same id with different
// contents is refused as a conflict.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "ledger/database.h"
#include "ledger/ledger.h"
#include "ledger/script_replay.h"
#include "ledger_test_support.h"
#include "random_driver.h"
#include "rules/script.h"
#include "temp_dir.h"

namespace bb::ledger {
namespace {

using namespace testing;

class Idempotency : public ::testing::Test {
 protected:
  void SetUp() override {
    auto ledger = Ledger::open(options_for(path()));
    ASSERT_TRUE(ledger.has_value()) << ledger.error().message;
    ledger_.emplace(std::move(*ledger));
    auto game = ledger_->start_game(RandomDriver::setup(3, 2));
    ASSERT_TRUE(game.has_value()) << game.error().message;
    game_ = *game;
  }
  std::string path() const { return dir_.file("ledger.db"); }
  std::int64_t stored_inputs() {
    return Database(path(), Database::Mode::read_only).query_int64("SELECT count(*) FROM inputs");
  }
  std::vector<AccountBalance> balances() { return ledger_->balances(game_).value(); }

  TempDir dir_;
  std::optional<Ledger> ledger_;
  GameId game_ = 0;
};

bool same_postings(const std::vector<rules::Posting>& a, const std::vector<rules::Posting>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].seq != b[i].seq || a[i].from != b[i].from || a[i].to != b[i].to || a[i].amount != b[i].amount ||
        a[i].memo != b[i].memo || a[i].space != b[i].space || a[i].card != b[i].card) {
      return false;
    }
  }
  return true;
}

TEST_F(Idempotency, TheSameIdTwiceOrThriceIsStoredOnce) {
  rules::Roll roll{3, 4};
  InputMeta meta{"dice:17", "dice", "", ""};
  auto first = ledger_->record(game_, roll, meta);
  ASSERT_TRUE(first.has_value()) << first.error().message;
  EXPECT_FALSE(first->duplicate);
  auto after_first = balances();
  std::uint64_t signature = ledger_->game(game_)->signature();
  for (int i = 0; i < 2; ++i) {
    auto again = ledger_->record(game_, roll, meta);
    ASSERT_TRUE(again.has_value()) << again.error().message;
    EXPECT_TRUE(again->duplicate);
    EXPECT_EQ(again->seq, first->seq);
    EXPECT_TRUE(same_postings(again->postings, first->postings));
    EXPECT_EQ(again->events, first->events);  // read back from the stored outcome: the same typed events
  }
  EXPECT_EQ(stored_inputs(), 1);
  EXPECT_EQ(ledger_->game(game_)->signature(), signature);
  auto after = balances();
  ASSERT_EQ(after.size(), after_first.size());
  for (std::size_t i = 0; i < after.size(); ++i) EXPECT_EQ(after[i].balance, after_first[i].balance);
}

TEST_F(Idempotency, ARepeatAfterARestartIsStillStoredOnce) {
  InputMeta meta{"card:reader1:1234567", "card", "", ""};
  auto first = ledger_->record(game_, rules::Roll{6, 2}, meta);
  ASSERT_TRUE(first.has_value()) << first.error().message;
  ledger_.reset();
  auto reopened = Ledger::open(options_for(path()));
  ASSERT_TRUE(reopened.has_value());
  ledger_.emplace(std::move(*reopened));
  auto report = ledger_->resume(game_);
  ASSERT_TRUE(report.has_value());
  EXPECT_TRUE(report->differences.empty());
  auto again = ledger_->record(game_, rules::Roll{6, 2}, meta);
  ASSERT_TRUE(again.has_value()) << again.error().message;
  EXPECT_TRUE(again->duplicate);
  EXPECT_TRUE(same_postings(again->postings, first->postings));
  EXPECT_EQ(stored_inputs(), 1);
}

TEST_F(Idempotency, TheSameIdWithDifferentContentsIsAConflict) {
  InputMeta meta{"dice:5", "dice", "", ""};
  ASSERT_TRUE(ledger_->record(game_, rules::Roll{1, 2}, meta).has_value());
  std::uint64_t signature = ledger_->game(game_)->signature();
  auto other = ledger_->record(game_, rules::Roll{5, 6}, meta);
  ASSERT_FALSE(other.has_value());
  EXPECT_EQ(other.error().kind, LedgerError::Kind::conflict);
  EXPECT_EQ(stored_inputs(), 1);
  EXPECT_EQ(ledger_->game(game_)->signature(), signature);
}

TEST_F(Idempotency, AnInputNeedsAnId) {
  auto recorded = ledger_->record(game_, rules::Roll{1, 2}, InputMeta{});
  ASSERT_FALSE(recorded.has_value());
  EXPECT_EQ(recorded.error().kind, LedgerError::Kind::invalid);
}

TEST_F(Idempotency, ARefusedInputIsNotStoredAndItsIdStaysFree) {
  auto bid =
      ledger_->record(game_, rules::Bid{rules::PlayerId{0}, 100}, InputMeta{"touch:1", "touch", "", ""});
  ASSERT_FALSE(bid.has_value());
  EXPECT_EQ(bid.error().kind, LedgerError::Kind::refused);
  EXPECT_EQ(stored_inputs(), 0);
  EXPECT_TRUE(ledger_->record(game_, rules::Roll{2, 3}, InputMeta{"touch:1", "touch", "", ""}).has_value());
}

TEST(ScriptReplayRuns, ASecondRunSkipsWhatIsStored) {
  TempDir dir;
  std::string script = dir.file("game.jsonl");
  write_file(script, RandomDriver::script(EDITIONS_DIR, 9, 3, 120, true));
  auto ledger = Ledger::open(options_for(dir.file("a.db")));
  ASSERT_TRUE(ledger.has_value());
  auto first = ScriptReplay::run(*ledger, script, false);
  ASSERT_TRUE(first.has_value()) << first.error();
  ASSERT_TRUE(first->refused.empty()) << first->refused[0];
  std::string state = rules::state_to_json(*ledger->game(first->game));
  auto second = ScriptReplay::run(*ledger, script, false);
  ASSERT_TRUE(second.has_value()) << second.error();
  EXPECT_EQ(second->game, first->game);
  EXPECT_EQ(second->applied, 0);
  EXPECT_EQ(second->skipped, first->applied);
  EXPECT_EQ(rules::state_to_json(*ledger->game(second->game)), state);
  EXPECT_EQ(ledger->list().size(), 1u);
}

TEST(ScriptReplayRuns, ARefusedLineStopsTheRunUnlessToldToKeepGoing) {
  TempDir dir;
  std::string text = RandomDriver::script(EDITIONS_DIR, 9, 2, 20, false);
  std::size_t second_line = text.find('\n') + 1;
  text.insert(second_line, "{\"t\":\"bid\",\"player\":\"Ann\",\"amount\":10}\n");  // no auction is running
  write_file(dir.file("game.jsonl"), text);
  auto ledger = Ledger::open(options_for(dir.file("a.db")));
  ASSERT_TRUE(ledger.has_value());
  auto stopped = ScriptReplay::run(*ledger, dir.file("game.jsonl"), false);
  ASSERT_TRUE(stopped.has_value()) << stopped.error();
  ASSERT_EQ(stopped->refused.size(), 1u);
  EXPECT_NE(stopped->refused[0].find(":2:"), std::string::npos) << stopped->refused[0];
  EXPECT_EQ(stopped->applied, 0);
  auto kept_going = ScriptReplay::run(*ledger, dir.file("game.jsonl"), true);
  ASSERT_TRUE(kept_going.has_value()) << kept_going.error();
  EXPECT_EQ(kept_going->refused.size(), 1u);
  EXPECT_GT(kept_going->applied, 10);
}

TEST(ScriptReplayRuns, AnInterruptedRunCarriesOnToTheSameEnd) {
  TempDir dir;
  std::string text = RandomDriver::script(EDITIONS_DIR, 12, 2, 100, false);
  write_file(dir.file("full.jsonl"), text);
  // The first run stops part-way, as a run killed half-way would have.
  std::size_t cut = 0;
  for (int lines = 0; lines < 40; ++lines) cut = text.find('\n', cut) + 1;
  write_file(dir.file("part.jsonl"), text.substr(0, cut));

  std::string uninterrupted;
  {
    auto ledger = Ledger::open(options_for(dir.file("whole.db")));
    auto run = ScriptReplay::run(*ledger, dir.file("full.jsonl"), false);
    ASSERT_TRUE(run.has_value()) << run.error();
    uninterrupted = rules::state_to_json(*ledger->game(run->game));
  }
  {
    auto ledger = Ledger::open(options_for(dir.file("resumed.db")));
    ASSERT_TRUE(ScriptReplay::run(*ledger, dir.file("part.jsonl"), false).has_value());
  }
  auto ledger = Ledger::open(options_for(dir.file("resumed.db")));
  auto run = ScriptReplay::run(*ledger, dir.file("full.jsonl"), false);
  ASSERT_TRUE(run.has_value()) << run.error();
  EXPECT_EQ(run->skipped, 39);
  EXPECT_EQ(rules::state_to_json(*ledger->game(run->game)), uninterrupted);
}

}  // namespace
}  // namespace bb::ledger
