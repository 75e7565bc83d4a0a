#include <fmt/format.h>
#include <gtest/gtest.h>

#include "vision/token_names.h"
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
  // A token name with more after the number was once read as that number ("T1x" as T1): refused now.
  for (const char* name : {"T1x", "T 1", "T01", "T+1", "t1"})
    EXPECT_FALSE(parse_moves(fmt::format("{{\"token\": \"{}\", \"to\": 7}}\n", name), 2, 40).has_value())
        << name;
}

TEST(TokenNames, LearnedTokensAreNamedTOneUpAndTheNamesReadBack) {
  EXPECT_EQ(learned_token_name(0), "T1");
  EXPECT_EQ(learned_token_name(11), "T12");
  for (int index = 0; index < 200; ++index) EXPECT_EQ(learned_token_index(learned_token_name(index)), index);
  for (const char* name :
       {"", "T", "T0", "T01", "t1", "X1", "1", "T1b", "T 1", "T+1", "T-1", "car", "T99999"})
    EXPECT_EQ(learned_token_index(name), std::nullopt) << '"' << name << '"';
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
