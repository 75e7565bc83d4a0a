#include "vision/space_map.h"

#include <gtest/gtest.h>

#include "vision/board_layout.h"

using namespace bb::vision;

TEST(SpaceMap, EverySpaceCentreMapsBackToItsSpace) {
  for (int n : {5, 9, 10, 12}) {
    SpaceMap map(n);
    EXPECT_EQ(map.space_count(), 4 * n);
    EXPECT_EQ(map.invariant_problem(), "");
  }
}

TEST(SpaceMap, ClassicBoardRunsAntiClockwiseFromGoInTheBottomRightCorner) {
  SpaceMap map(10);
  EXPECT_EQ(map.space_at({0.97, 0.97}), 0);
  EXPECT_EQ(map.space_at({0.03, 0.97}), 10);
  EXPECT_EQ(map.space_at({0.03, 0.03}), 20);
  EXPECT_EQ(map.space_at({0.97, 0.03}), 30);
  EXPECT_LT(map.centre(1).x, map.centre(0).x);    // bottom row runs to the left
  EXPECT_LT(map.centre(11).y, map.centre(10).y);  // left column runs up
  EXPECT_EQ(map.space_at({0.5, 0.5}), -1);        // the board's centre is no space
  EXPECT_EQ(map.space_at({1.2, 0.5}), -1);
}

TEST(SpaceMap, CornerSquaresAreLargerThanOrdinarySpaces) {
  SpaceMap map(10);
  EXPECT_GT(map.corner_depth(), map.space_width() * 1.3);
  EXPECT_NEAR(2 * map.corner_depth() + 9 * map.space_width(), 1.0, 1e-12);
}

TEST(SpaceMap, AdjustedGridMovesEverySpaceAndSurvivesStorage) {
  SpaceMap map(10);
  map.set_grid({Point2{0.02, 0.02}, Point2{0.98, 0.02}, Point2{0.98, 0.98}, Point2{0.02, 0.98}});
  EXPECT_EQ(map.space_at({0.99, 0.99}), -1);  // now in the printed margin
  EXPECT_EQ(map.space_at({0.96, 0.96}), 0);
  auto stored = SpaceMap::from_json(map.to_json());
  ASSERT_TRUE(stored.has_value()) << stored.error();
  for (int s = 0; s < 40; ++s) {
    EXPECT_NEAR(stored->centre(s).x, map.centre(s).x, 1e-9);
    EXPECT_NEAR(stored->centre(s).y, map.centre(s).y, 1e-9);
  }
  EXPECT_EQ(stored->invariant_problem(), "");
}

TEST(SpaceMap, BrokenStoredMapIsAnErrorThatSaysWhatToDo) {
  auto bad = SpaceMap::from_json("{\"spaces_per_side\": 1, \"corner_ratio\": 1.6}");
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.error().find("calibration"), std::string::npos);
  EXPECT_FALSE(SpaceMap::from_json("not json").has_value());
}

TEST(BoardLayout, ClassicLayoutIsComplete) {
  const BoardLayout layout = classic_layout();
  EXPECT_EQ(layout.problem(), "");
  EXPECT_EQ(layout.space_count(), 40);
  BoardLayout broken = layout;
  broken.names.pop_back();
  EXPECT_NE(broken.problem(), "");
}
