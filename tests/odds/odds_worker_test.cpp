// The worker: the same numbers as the single-threaded estimate, refined batch by batch, cancelled at once.
#include "odds/odds_worker.h"

#include <gtest/gtest.h>

#include <condition_variable>
#include <mutex>

#include "odds_test_support.h"

namespace bb::odds {
namespace {

using testing::start;

// Counts the worker's reports so a test can wait for the next one (no timed waits: the worker always
// reports after each batch, or a job is done).
struct Reports {
  std::mutex mutex;
  std::condition_variable cv;
  int count = 0;
  void report() {
    {
      std::lock_guard lock(mutex);
      ++count;
    }
    cv.notify_all();
  }
  template <class Done>
  void wait_until(OddsWorker& worker, Done&& done) {
    std::unique_lock lock(mutex);
    cv.wait(lock, [&] { return done(worker.progress()); });
  }
};

TEST(OddsWorker, GivesTheSameChancesAsTheSingleThreadedEstimate) {
  const rules::Game game = start(3);
  const PlayoutSettings settings{.playouts = 90, .seed = 8, .turn_cap = 300};
  Reports reports;
  OddsWorker worker(3, [&] { reports.report(); });
  auto id = worker.start({game, std::nullopt, settings});
  ASSERT_TRUE(id);
  reports.wait_until(worker, [&](const OddsProgress& p) { return p.job == *id && p.done; });
  const OddsProgress p = worker.progress();
  const Chances single = estimate_chances(game, settings);
  ASSERT_EQ(p.without_trade.playouts, 90);
  for (std::size_t i = 0; i < single.players.size(); ++i)
    EXPECT_EQ(p.without_trade.players[i].win_units, single.players[i].win_units);
  EXPECT_GE(reports.count, 90 / OddsWorker::kBatch);  // refined batch by batch
  EXPECT_FALSE(p.with_trade);
}

TEST(OddsWorker, ANewJobCancelsTheOldOneAndCancelStopsIt) {
  const rules::Game game = start(4);
  Reports reports;
  OddsWorker worker(2, [&] { reports.report(); });
  auto first = worker.start({game, std::nullopt, {.playouts = 1'000'000, .seed = 1, .turn_cap = 400}});
  ASSERT_TRUE(first);
  reports.wait_until(worker, [](const OddsProgress& p) { return p.without_trade.playouts > 0; });
  auto second = worker.start({game, std::nullopt, {.playouts = 1'000'000, .seed = 2, .turn_cap = 400}});
  ASSERT_TRUE(second);
  EXPECT_NE(*first, *second);
  OddsProgress fresh = worker.progress();
  EXPECT_EQ(fresh.job, *second);
  EXPECT_LT(fresh.without_trade.playouts, 1'000'000);
  reports.wait_until(worker, [](const OddsProgress& p) { return p.without_trade.playouts > 0; });
  worker.cancel();
  const OddsProgress stopped = worker.progress();
  EXPECT_TRUE(stopped.cancelled);
  EXPECT_FALSE(stopped.done);
  // Nothing is counted after the cancel returns (a batch finishing now finds its job gone).
  const int counted = stopped.without_trade.playouts;
  EXPECT_EQ(worker.progress().without_trade.playouts, counted);
  auto third = worker.start({game, std::nullopt, {.playouts = 32, .seed = 3, .turn_cap = 300}});
  ASSERT_TRUE(third);
  reports.wait_until(worker, [&](const OddsProgress& p) { return p.job == *third && p.done; });
  EXPECT_EQ(worker.progress().without_trade.playouts, 32);
  EXPECT_GT(counted, 0);
}

TEST(OddsWorker, WeighsATradeWithTheSameDiceAndRefusesAnIllegalOne) {
  rules::Game game = start(2, 13);
  const auto orange = testing::group("orange");
  testing::apply(game, testing::holding(rules::PlayerId{0}, 900, {orange[0], orange[1]}));
  testing::apply(game, testing::holding(rules::PlayerId{1}, 900, {orange[2]}));
  rules::Trade trade;
  trade.from = rules::PlayerId{1};
  trade.to = rules::PlayerId{0};
  trade.give.spaces = {orange[2]};
  const PlayoutSettings settings{.playouts = 48, .seed = 4, .turn_cap = 300};
  Reports reports;
  OddsWorker worker(2, [&] { reports.report(); });
  auto id = worker.start({game, trade, settings});
  ASSERT_TRUE(id);
  reports.wait_until(worker, [&](const OddsProgress& p) { return p.job == *id && p.done; });
  const OddsProgress p = worker.progress();
  ASSERT_TRUE(p.with_trade);
  auto single = estimate_trade(game, trade, settings);
  ASSERT_TRUE(single);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(p.without_trade.players[i].win_units, single->without_trade.players[i].win_units);
    EXPECT_EQ(p.with_trade->players[i].win_units, single->with_trade.players[i].win_units);
  }
  rules::Trade illegal = trade;
  illegal.give.spaces = {orange[0]};
  EXPECT_FALSE(worker.start({game, illegal, settings}));
}

}  // namespace
}  // namespace bb::odds
