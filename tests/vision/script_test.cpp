#include <gtest/gtest.h>

#include "vision_test_support.h"

using namespace bb::vision;
using namespace bb::vision::testing;

TEST(TableScript, MovesFileIsParsedWithClearErrors) {
  auto moves =
      parse_moves("{\"token\": \"T1\", \"to\": 7}\n\n# comment\n{\"token\": \"T2\", \"to\": 39}\n", 2, 40);
  ASSERT_TRUE(moves.has_value()) << moves.error();
  ASSERT_EQ(moves->size(), 2u);
  EXPECT_EQ((*moves)[1].token, 1);
  EXPECT_EQ((*moves)[1].to, 39);
  auto bad_token = parse_moves("{\"token\": \"T3\", \"to\": 7}\n", 2, 40);
  ASSERT_FALSE(bad_token.has_value());
  EXPECT_NE(bad_token.error().find("line 1"), std::string::npos);
  EXPECT_FALSE(parse_moves("{\"token\": \"T1\", \"to\": 40}\n", 2, 40).has_value());
  EXPECT_FALSE(parse_moves("{token: T1}\n", 2, 40).has_value());
}

TEST(TableScript, RandomGameIsReproducibleAndStaysOnTheBoard) {
  const auto a = random_moves(3, 40, 50, 9), b = random_moves(3, 40, 50, 9);
  ASSERT_EQ(a.size(), 50u);
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].token, b[i].token);
    EXPECT_EQ(a[i].to, b[i].to);
    EXPECT_GE(a[i].to, 0);
    EXPECT_LT(a[i].to, 40);
  }
}

TEST(TableRenderer, TruthNamesTheSpaceUnderEachToken) {
  TableScript script(renderer(), scene(Condition::clean, 3), 4, 3);
  const auto frames = script.play({2, 27}, 0);
  const auto& last = frames.back();
  EXPECT_TRUE(last.still);
  EXPECT_EQ(last.truth[2], 27);
  RenderTruth truth;
  cv::Mat image;
  renderer().render(last.scene, image, &truth);
  EXPECT_EQ(image.cols, test_width);
  EXPECT_EQ(image.rows, test_height);
  ASSERT_EQ(truth.token_spaces.size(), 4u);
  EXPECT_EQ(truth.token_spaces[2], 27);
  // Hands hide the token they carry: the truth says so.
  bool carried = false;
  for (const auto& f : frames) carried |= f.truth[2] == -1;
  EXPECT_TRUE(carried);
}

TEST(TableRenderer, SameSceneRendersTheSameFrame) {
  const TableScene s = scene(Condition::mixed, 8);
  cv::Mat a, b;
  renderer().render(s, a);
  renderer().render(s, b);
  EXPECT_EQ(cv::norm(a, b, cv::NORM_INF), 0);
}
