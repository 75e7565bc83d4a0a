// Resume snapshots: a long game resumes from the newest stored snapshot plus the inputs after it, and the
// result is exactly the game a full replay (and a plain engine) gives. A snapshot is a cache: a damaged or
// wrong one is never trusted, a finished game keeps none, and `ledger check` compares each with the replay.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <optional>

#include "fault_vfs.h"
#include "ledger/chain_hash.h"
#include "ledger/database.h"
#include "ledger/ledger.h"
#include "ledger_test_support.h"
#include "random_driver.h"
#include "rules/script.h"
#include "temp_dir.h"

namespace bb::ledger {
namespace {

using namespace testing;

class SnapshotTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // Syncs are skipped: this is about what is stored; the crash tests cover durability with snapshots too.
    FaultVfs::install(false);
    FaultVfs::skip_syncs(true);
    auto edition = rules::load_edition("classic", {EDITIONS_DIR});
    ASSERT_TRUE(edition.has_value());
    edition_ = std::make_shared<const rules::Edition>(std::move(*edition));
  }
  void TearDown() override { FaultVfs::skip_syncs(false); }

  LedgerOptions options(int every, double budget_ms = 100) const {
    LedgerOptions o = options_for(dir_.file("games.db"));
    o.vfs = FaultVfs::kName;
    o.snapshot_every_inputs = every;
    o.resume_budget_ms = budget_ms;
    return o;
  }

  Ledger open(const LedgerOptions& o) {
    auto opened = Ledger::open(o);
    if (!opened) throw std::runtime_error(opened.error().message);
    return std::move(*opened);
  }

  // Plays `inputs` accepted inputs of a seeded random game (undos included) into the ledger and into a plain
  // engine beside it, continuing game `id` if given. Returns the game id.
  GameId play(Ledger& ledger, std::optional<GameId> id, int inputs, std::uint64_t seed) {
    if (!id) {
      rules::Setup setup = RandomDriver::setup(seed, 3);
      auto started = ledger.start_game(setup);
      EXPECT_TRUE(started.has_value());
      id = *started;
      shadow_.emplace(std::move(*rules::Game::start(edition_, setup)));
      driver_.emplace(seed, true);
    }
    for (int n = 0; n < inputs && !shadow_->state().ended; ++n) {
      bool accepted = false;
      for (int attempt = 0; attempt <= 8 && !accepted; ++attempt) {
        rules::Input input = driver_->propose(*shadow_, attempt);
        auto recorded =
            ledger.record(*id, input, {fmt::format("touch:{}", next_id_), "touch", "pin", "test"});
        auto applied = shadow_->apply(input);
        EXPECT_EQ(recorded.has_value(), applied.has_value()) << (recorded ? "" : recorded.error().message);
        if (recorded && !recorded->duplicate) ++next_id_;
        accepted = applied.has_value();
      }
      if (!accepted) ADD_FAILURE() << "the driver is stuck";
    }
    return *id;
  }

  // The first seed from `from` whose random game is still going after `inputs` inputs (engine only, quick),
  // so that the tests below resume unfinished games.
  std::uint64_t lasting_seed(int inputs, std::uint64_t from) const {
    for (std::uint64_t seed = from;; ++seed) {
      auto game = rules::Game::start(edition_, RandomDriver::setup(seed, 3));
      RandomDriver driver(seed, true);
      int n = 0;
      for (; n < inputs + 50 && !game->state().ended; ++n) {
        bool accepted = false;
        for (int attempt = 0; attempt <= 8 && !accepted; ++attempt)
          accepted = game->apply(driver.propose(*game, attempt)).has_value();
        if (!accepted) break;
      }
      if (n == inputs + 50 && !game->state().ended) return seed;
    }
  }

  std::int64_t query(const std::string& sql) {
    Database db(dir_.file("games.db"), Database::Mode::read_only);
    return db.query_int64(sql);
  }

  TempDir dir_;
  std::shared_ptr<const rules::Edition> edition_;
  std::optional<rules::Game> shadow_;
  std::optional<RandomDriver> driver_;
  int next_id_ = 0;
};

TEST_F(SnapshotTest, AResumeStartsFromTheNewestSnapshotAndIsTheGameAFullReplayGives) {
  GameId id;
  {
    Ledger ledger = open(options(200));
    id = play(ledger, std::nullopt, 1250, lasting_seed(1250, 41));
  }
  ASSERT_FALSE(shadow_->state().ended) << "pick a seed whose game lasts";
  const std::int64_t stored = query("SELECT count(*) FROM inputs");
  EXPECT_EQ(query("SELECT count(*) FROM snapshots"), 1) << "older snapshots are dropped";
  const std::int64_t last = query("SELECT last_seq FROM snapshots");
  EXPECT_EQ((last + 1) % 200, 0);
  EXPECT_GT(last, stored - 201);

  std::string resumed_state;
  {
    Ledger ledger = open(options(200));
    auto report = ledger.resume(id);
    ASSERT_TRUE(report.has_value()) << report.error().message;
    EXPECT_TRUE(report->differences.empty()) << report->differences[0];
    EXPECT_TRUE(report->snapshot_note.empty()) << report->snapshot_note;
    EXPECT_EQ(report->from_snapshot, last + 1);
    EXPECT_EQ(report->replayed, stored - (last + 1));
    EXPECT_EQ(report->inputs, stored);
    resumed_state = rules::state_to_json(*ledger.game(id));
    EXPECT_TRUE(resumed_state == rules::state_to_json(*shadow_));
    EXPECT_EQ(ledger.game(id)->signature(), shadow_->signature());
    EXPECT_EQ(ledger.game(id)->input_count(), shadow_->input_count());
    EXPECT_TRUE(ledger.invariant_violations().empty());
  }
  {
    Ledger ledger = open(options(200, 0));  // snapshots off: the whole log replayed
    auto report = ledger.resume(id);
    ASSERT_TRUE(report.has_value());
    EXPECT_EQ(report->from_snapshot, 0);
    EXPECT_EQ(report->replayed, stored);
    EXPECT_TRUE(rules::state_to_json(*ledger.game(id)) == resumed_state);
  }
  auto problems = Ledger::inspect(dir_.file("games.db"), options(200), true);
  ASSERT_TRUE(problems.has_value());
  EXPECT_TRUE(problems->empty()) << (*problems)[0];
}

TEST_F(SnapshotTest, AfterAResumeFromASnapshotTheGamePlaysOnAndUndoesAsIfNeverStopped) {
  GameId id;
  {
    Ledger ledger = open(options(100));
    id = play(ledger, std::nullopt, 700, lasting_seed(700, 43));
  }
  ASSERT_FALSE(shadow_->state().ended);
  Ledger ledger = open(options(100));
  auto report = ledger.resume(id);
  ASSERT_TRUE(report.has_value());
  ASSERT_GT(report->from_snapshot, 0);
  // Nothing after the snapshot: restored without reading or parsing a single input. The first undo makes the
  // ledger replay the whole log once, since the engine undoes by replaying the game without its last input.
  EXPECT_EQ(report->replayed, 0);
  EXPECT_FALSE(ledger.game(id)->has_history());
  // Straight after the restore: undo twice (the engine rebuilds without the last input), then play on.
  for (int k = 0; k < 2; ++k) {
    auto undone = ledger.record(id, rules::Undo{}, {fmt::format("undo:{}", k), "touch", "pin", "wrong dice"});
    ASSERT_TRUE(undone.has_value()) << undone.error().message;
    ASSERT_TRUE(shadow_->apply(rules::Undo{}));
    EXPECT_TRUE(ledger.game(id)->has_history());
    ASSERT_TRUE(rules::state_to_json(*ledger.game(id)) == rules::state_to_json(*shadow_));
  }
  play(ledger, id, 600, 43);
  EXPECT_TRUE(rules::state_to_json(*ledger.game(id)) == rules::state_to_json(*shadow_));
  EXPECT_TRUE(ledger.invariant_violations().empty());
  auto again = ledger.resume(id);
  ASSERT_TRUE(again.has_value());
  EXPECT_TRUE(again->differences.empty()) << again->differences[0];
  EXPECT_EQ(ledger.game(id)->signature(), shadow_->signature());
}

TEST_F(SnapshotTest, ADamagedSnapshotIsNotTrustedTheLogIsReplayedAndAFreshOneWritten) {
  GameId id;
  {
    Ledger ledger = open(options(150));
    id = play(ledger, std::nullopt, 500, lasting_seed(500, 47));
  }
  ASSERT_FALSE(shadow_->state().ended);
  {
    Database db(dir_.file("games.db"), Database::Mode::read_write);
    db.exec(R"(UPDATE snapshots SET body = replace(body, '"turns":', '"turns": '))");
  }
  auto problems = Ledger::inspect(dir_.file("games.db"), options(150), true);
  ASSERT_TRUE(problems.has_value());
  ASSERT_EQ(problems->size(), 1u);
  EXPECT_NE((*problems)[0].find("is damaged"), std::string::npos) << (*problems)[0];

  const std::int64_t stored = query("SELECT count(*) FROM inputs");
  {
    Ledger ledger = open(options(150));
    auto report = ledger.resume(id);
    ASSERT_TRUE(report.has_value());
    EXPECT_TRUE(report->differences.empty()) << report->differences[0];
    EXPECT_EQ(report->from_snapshot, 0);
    EXPECT_NE(report->snapshot_note.find("hash does not match"), std::string::npos) << report->snapshot_note;
    EXPECT_TRUE(rules::state_to_json(*ledger.game(id)) == rules::state_to_json(*shadow_));
  }
  // The resume left a good snapshot of where the game stands.
  EXPECT_EQ(query("SELECT count(*) FROM snapshots"), 1);
  EXPECT_EQ(query("SELECT last_seq FROM snapshots"), stored - 1);
  Ledger ledger = open(options(150));
  auto report = ledger.resume(id);
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->from_snapshot, stored);
  EXPECT_EQ(report->replayed, 0);
  EXPECT_TRUE(rules::state_to_json(*ledger.game(id)) == rules::state_to_json(*shadow_));
}

// A snapshot whose hash is right but whose contents are wrong (a bug, or a hand-edited file). Where the
// engine can tell (money, positions: the signature and invariants), it refuses it; where it cannot (the order
// of a card deck), `ledger check` compares every snapshot with the replay and says so.
TEST_F(SnapshotTest, ASnapshotThatIsNotTheReplaysStateIsRefusedOrReported) {
  GameId id;
  {
    Ledger ledger = open(options(150));
    id = play(ledger, std::nullopt, 400, lasting_seed(400, 53));
  }
  ASSERT_FALSE(shadow_->state().ended);
  auto rewrite = [&](auto change) {
    Database db(dir_.file("games.db"), Database::Mode::read_write);
    Statement q = db.prepare(
        "SELECT s.last_seq, s.body, i.chain FROM snapshots s JOIN inputs i ON i.game = s.game AND i.seq = "
        "s.last_seq");
    ASSERT_TRUE(q.step());
    std::int64_t last = q.column_int64(0);
    auto body = nlohmann::json::parse(q.column_text(1));
    std::string chain = q.column_text(2);
    q.reset();
    change(body);
    std::string text = body.dump();
    Statement u = db.prepare("UPDATE snapshots SET body = ?1, hash = ?2 WHERE last_seq = ?3");
    u.bind(1, text).bind(2, ChainHash(chain).add(text).hex()).bind(3, last).run();
  };
  rewrite([](nlohmann::json& body) { body["state"]["players"][1]["position"] = 5; });
  {
    Ledger ledger = open(options(150));
    auto report = ledger.resume(id);
    ASSERT_TRUE(report.has_value());
    EXPECT_EQ(report->from_snapshot, 0);
    EXPECT_NE(report->snapshot_note.find("signature"), std::string::npos) << report->snapshot_note;
    EXPECT_TRUE(rules::state_to_json(*ledger.game(id)) == rules::state_to_json(*shadow_));
  }
  rewrite([](nlohmann::json& body) {
    auto& deck = body["decks"][0];
    std::swap(deck[0], deck[1]);
  });
  auto problems = Ledger::inspect(dir_.file("games.db"), options(150), true);
  ASSERT_TRUE(problems.has_value());
  ASSERT_EQ(problems->size(), 1u);
  EXPECT_NE((*problems)[0].find("not the state the replay reaches"), std::string::npos) << (*problems)[0];
}

TEST_F(SnapshotTest, AFinishedGameKeepsNoSnapshot) {
  Ledger ledger = open(options(50));
  GameId id = play(ledger, std::nullopt, 300, lasting_seed(300, 59));
  ASSERT_FALSE(shadow_->state().ended);
  EXPECT_EQ(query("SELECT count(*) FROM snapshots"), 1);
  auto ended = ledger.record(id, rules::End{}, {"end", "touch", "", ""});
  ASSERT_TRUE(ended.has_value()) << ended.error().message;
  ASSERT_TRUE(ended->game_over);
  EXPECT_EQ(query("SELECT count(*) FROM snapshots"), 0);
}

TEST_F(SnapshotTest, ABudgetOfZeroWritesNoSnapshots) {
  Ledger ledger = open(options(0, 0));
  GameId id = play(ledger, std::nullopt, 400, lasting_seed(400, 61));
  auto report = ledger.resume(id);
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->from_snapshot, 0);
  EXPECT_EQ(query("SELECT count(*) FROM snapshots"), 0);
}

// Without a fixed cadence, a resume slower than the budget leaves a snapshot behind, so the next is quick.
TEST_F(SnapshotTest, AResumeSlowerThanTheBudgetLeavesASnapshot) {
  GameId id;
  {
    Ledger ledger = open(options(0, 1e9));  // a huge budget: no snapshot while playing
    id = play(ledger, std::nullopt, 400, lasting_seed(400, 67));
  }
  ASSERT_FALSE(shadow_->state().ended);
  EXPECT_EQ(query("SELECT count(*) FROM snapshots"), 0);
  const std::int64_t stored = query("SELECT count(*) FROM inputs");
  {
    Ledger ledger = open(options(0, 1e-6));  // any replay is slower than this
    auto report = ledger.resume(id);
    ASSERT_TRUE(report.has_value());
    EXPECT_EQ(report->from_snapshot, 0);
  }
  EXPECT_EQ(query("SELECT last_seq FROM snapshots"), stored - 1);
  Ledger ledger = open(options(0, 1e-6));
  auto report = ledger.resume(id);
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->from_snapshot, stored);
  EXPECT_TRUE(rules::state_to_json(*ledger.game(id)) == rules::state_to_json(*shadow_));
}

}  // namespace
}  // namespace bb::ledger
