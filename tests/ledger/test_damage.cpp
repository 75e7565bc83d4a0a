// A damaged file (bytes flipped in a copy) is detected at start and never written to; a flip that goes
// unnoticed must have damaged nothing the ledger reads.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "ledger/anchor.h"
#include "ledger/ledger.h"
#include "ledger/script_replay.h"
#include "ledger_test_support.h"
#include "random_driver.h"
#include "temp_dir.h"

namespace bb::ledger {
namespace {

using namespace testing;

// What the ledger reads from a file: every game, input, posting and balance.
std::string content_of(Ledger& ledger) {
  std::string out;
  for (const auto& g : ledger.list()) {
    out += fmt::format("game {} {} {} {}\n", g.id, g.edition, g.inputs, g.finished_at.has_value());
    out += ledger.export_script(g.id).value_or("?");
    out += ledger.export_csv(g.id).value_or("?");
    for (const auto& b : ledger.balances(g.id).value_or(std::vector<AccountBalance>{})) {
      out += fmt::format("{} {} {}\n", b.account, b.name, b.balance);
    }
  }
  return out;
}

class Damage : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string script = dir_.file("game.jsonl");
    write_file(script, RandomDriver::script(EDITIONS_DIR, 5, 3, 80, true));
    auto ledger = Ledger::open(options_for(dir_.file("good.db"), dir_.file("backups")));
    ASSERT_TRUE(ledger.has_value());
    ASSERT_TRUE(ScriptReplay::run(*ledger, script, false).has_value());
    ASSERT_TRUE(ledger->backup_now().has_value());
    original_content_ = content_of(*ledger);
    ledger = std::unexpected(LedgerError{});  // closes the file: the WAL is folded in and removed
    original_ = read_file(dir_.file("good.db"));
    // A copy goes with its anchor (a copy without it is reported: see test_adversarial.cpp).
    original_anchor_ = read_file(Anchor::path_for(dir_.file("good.db")));
    ASSERT_FALSE(std::filesystem::exists(dir_.file("good.db-wal")));
  }

  // Flips the byte at `offset` in a fresh copy; true when opening it was refused as damaged.
  bool flipped_is_detected(std::size_t offset) {
    std::string bytes = original_;
    bytes[offset] = static_cast<char>(bytes[offset] ^ 0x5a);
    std::string path = dir_.file("copy.db");
    std::error_code ec;
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix, ec);
    write_file(path, bytes);
    write_file(Anchor::path_for(path), original_anchor_);
    auto ledger = Ledger::open(options_for(path, dir_.file("backups")));
    if (!ledger) {
      EXPECT_EQ(ledger.error().kind, LedgerError::Kind::damaged) << ledger.error().message;
      EXPECT_NE(ledger.error().message.find("boardbank ledger restore"), std::string::npos)
          << "a damaged file must come with the newest backup offered: " << ledger.error().message;
      EXPECT_EQ(read_file(path), bytes) << "a damaged file must never be written to";
      return true;
    }
    EXPECT_EQ(content_of(*ledger), original_content_) << "byte " << offset << " was damaged silently";
    return false;
  }

  std::vector<std::size_t> offsets_of(const std::string& needle) {
    std::vector<std::size_t> found;
    for (auto at = original_.find(needle); at != std::string::npos; at = original_.find(needle, at + 1)) {
      found.push_back(at + needle.size() / 2);
    }
    return found;
  }

  TempDir dir_;
  std::string original_;
  std::string original_anchor_;
  std::string original_content_;
};

TEST_F(Damage, AnUndamagedCopyOpensAndReadsTheSame) {
  write_file(dir_.file("copy.db"), original_);
  write_file(Anchor::path_for(dir_.file("copy.db")), original_anchor_);
  auto ledger = Ledger::open(options_for(dir_.file("copy.db")));
  ASSERT_TRUE(ledger.has_value()) << ledger.error().message;
  EXPECT_EQ(content_of(*ledger), original_content_);
}

TEST_F(Damage, AFlippedHeaderIsDetected) {
  EXPECT_TRUE(flipped_is_detected(0));   // "SQLite format 3"
  EXPECT_TRUE(flipped_is_detected(16));  // page size
}

TEST_F(Damage, FlipsInsideStoredRowsAreDetected) {
  int checked = 0;
  for (const char* needle : {"\"t\":\"roll\"", "start_cash", "\"Ann\"", "touch", "script"}) {
    for (std::size_t offset : offsets_of(needle)) {
      EXPECT_TRUE(flipped_is_detected(offset))
          << needle << " at byte " << offset << " (page " << offset / 4096 + 1
          << "): " << ::testing::PrintToString(original_.substr(offset - 40, 80));
      ++checked;
    }
  }
  EXPECT_GT(checked, 10);
}

TEST_F(Damage, AFlipAnywhereIsDetectedOrHarmless) {
  const std::size_t page = 4096;
  ASSERT_EQ(original_.size() % page, 0u);
  int detected = 0;
  for (std::size_t p = 0; p < original_.size() / page; ++p) {
    for (std::size_t at : {0, 3, 7, 9, 64, 700, 1500, 2300, 3100, 3900, 4090}) {
      detected += flipped_is_detected(p * page + at);
      if (HasFailure()) return;
    }
  }
  EXPECT_GT(detected, 0);
  EXPECT_LT(detected, static_cast<int>(original_.size() / page) * 11) << "an unused byte cannot be noticed";
}

TEST_F(Damage, CheckReportsTheDamageWithoutWriting) {
  std::string bytes = original_;
  std::size_t at = offsets_of("start_cash").at(0);
  bytes[at] ^= 1;
  std::string path = dir_.file("copy.db");
  write_file(path, bytes);
  auto problems = Ledger::inspect(path, options_for(path), true);
  ASSERT_TRUE(problems.has_value());
  EXPECT_FALSE(problems->empty());
  EXPECT_EQ(read_file(path), bytes);
}

}  // namespace
}  // namespace bb::ledger
