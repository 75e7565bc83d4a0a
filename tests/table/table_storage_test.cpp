// Storage failing under the table: the game pauses with what to do, nothing is half-written, and the same
// event goes in once the space is back.
#include <gtest/gtest.h>

#include "fault_vfs.h"
#include "table_test_support.h"

namespace bb::table::testing {
namespace {

using ledger::testing::FaultVfs;

class StorageTest : public TableTest {
 protected:
  void SetUp() override {
    FaultVfs::install(false);
    FaultVfs::skip_syncs(true);
    vfs = FaultVfs::kName;
    open(settings);
  }
  void TearDown() override {
    FaultVfs::disarm();
    FaultVfs::fail_with_disk_full(false);
    FaultVfs::skip_syncs(false);
  }
};

TEST_F(StorageTest, ADiskFullDuringACommitPausesTheGameUntilTheThrowGoesInOnce) {
  start();
  const auto count = inputs();
  FaultVfs::fail_with_disk_full(true);
  FaultVfs::arm(FaultVfs::Mode::fail, 1);
  auto r = dice(1, 2, "dice:unit:5");
  ASSERT_TRUE(r.paused);
  EXPECT_TRUE(r.recorded.empty());
  EXPECT_EQ(table->view().awaiting.kind, Awaiting::Kind::paused);
  EXPECT_EQ(inputs(), count);
  EXPECT_EQ(game().state().players[0].position, rules::SpaceId{0});
  // The owner frees space; the dice unit's event is delivered again.
  FaultVfs::disarm();
  r = dice(1, 2, "dice:unit:5");
  EXPECT_FALSE(r.paused);
  ASSERT_EQ(r.recorded.size(), 1u);
  EXPECT_EQ(inputs(), count + 1);
  EXPECT_EQ(table->view().awaiting.kind, Awaiting::Kind::rules_question);
  // And once more (the loop had not acknowledged it): nothing doubled.
  r = dice(1, 2, "dice:unit:5");
  EXPECT_TRUE(r.recorded.empty());
  EXPECT_EQ(inputs(), count + 1);
}

}  // namespace
}  // namespace bb::table::testing
