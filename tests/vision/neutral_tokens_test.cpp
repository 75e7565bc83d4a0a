// A metal grey and a black token beside red and blue ones, in the accuracy bench's own games (its hard and
// hard1 rows at 1280x720): the causes of their questions and misses, one test each.
#include <gtest/gtest.h>

#include "vision_test_support.h"

using namespace bb::vision;
using namespace bb::vision::testing;

namespace {

// Red, blue, metal grey, black, as the bench's hard rows draw them.
const TableRenderer& hard_720p() {
  static std::unique_ptr<TableRenderer> r;
  if (!r) {
    cv::setNumThreads(1);
    const BoardLayout layout = classic_layout();
    auto looks = hard_token_looks();
    looks.resize(4);
    r = std::make_unique<TableRenderer>(layout, SpaceMap(layout.spaces_per_side), looks, 1280, 720);
  }
  return *r;
}

// The bench's row: its scene and moves for condition `c` (the first `move_count` of its 12), learned on GO
// (hard, seeds from 5000) or one at a time (hard1, from 6000), the table expecting four tokens.
TrackingScore bench_row(Condition c, bool one_at_a_time, size_t move_count = 12) {
  const TableRenderer& r = hard_720p();
  const int seed_base = one_at_a_time ? 6000 : 5000;
  std::mt19937_64 rng(static_cast<uint64_t>(seed_base + static_cast<int>(c)));
  const TableScene base = scene_for(c, r, rng);
  const auto seed = static_cast<uint64_t>(seed_base / 13 + 77 * static_cast<int>(c));
  auto moves = random_moves(4, r.space_map().space_count(), 12, seed);
  moves.resize(move_count);
  TokenTracker::Settings settings;
  settings.expected_tokens = 4;
  if (one_at_a_time) settings.learning = TokenTracker::Settings::Learning::one_at_a_time;
  return evaluate_game(r, base, 4, moves, seed, settings);
}

void expect_every_move_right(const TrackingScore& score) {
  ASSERT_TRUE(score.learned) << score.summary();
  EXPECT_EQ(score.moves_correct, score.moves) << score.summary();
  EXPECT_EQ(score.moves_wrong, 0) << score.summary();
  EXPECT_EQ(score.false_moves, 0) << score.summary();
}

}  // namespace

// hard/tilt's last move puts the black token onto the grey one's space: their blobs touch, one blob holding
// a token's worth of each one's pixels. Grey and black were asked about as a pair that might have swapped
// (a question for the black token's move); swapped, both are still on that one space, so nothing to ask.
TEST(NeutralTokens, TheBlackTokenMovedOntoTheGreyOnesSpaceIsReportedNotAsked) {
  expect_every_move_right(bench_row(Condition::tilt, false));
}

// hard/shadow: a shadow over most of the board, GO in the light. Three causes, each a question or a miss
// in this game: (1) learned on GO, the tokens were painted out of the empty board's look with the board's
// median paper, which the shadow darkens: once they left, GO showed a token-sized dark place of the grey
// token's look, taken for it at every move; the paper is now painted at the level around each token.
// (2) In the shadow the grey token matches the black one's look: moved near it, its larger blob was taken
// for the black token, untouched on its own blob (now its own blob is kept). (3) And the grey token, all
// of whose pixels went to the black one, was said hidden; while the black one is untouched, the one blob
// of its look that came since, of the grey token's size, is the grey token.
TEST(NeutralTokens, InAShadowOverTheBoardTheGreyAndBlackTokensAreNeverAskedAbout) {
  expect_every_move_right(bench_row(Condition::shadow, false));
}

// hard1/blur's eleventh move: the grey token's blob in a soft view is two pieces on one space (its sheen
// between them), each under half its size. The second piece was taken for a second place that looks like
// it, a question naming one space; pieces on one space within the token's reach, no larger than it
// together, are the token.
TEST(NeutralTokens, AGreyTokenSeenInTwoPiecesOnOneSpaceIsReportedNotAsked) {
  expect_every_move_right(bench_row(Condition::blur, true, 11));
}

// hard/mixed: blur, JPEG, noise and dim light together. (1) The metal grey token moved away from the black
// one showed 0.64 of its size: its outline cost more than "covered", and by elimination a blob had to be
// 0.7 of the token's size, so it was said hidden while the black token stood untouched on its own blob.
// With every other token of its look untouched, a blob new since the last decision may be 0.6 of its
// size. (2) Reported so, the grey token was not held (a token was held from 0.7 of its size), and the
// black token's next move was a question ("might the grey one be covered?"); it is held from 0.6.
TEST(NeutralTokens, ASoftViewOfTheGreyTokenBesideAnUntouchedBlackOneIsReportedAndHeld) {
  expect_every_move_right(bench_row(Condition::mixed, false));
}

// hard1/blur's last move: the metal grey token, seen in two pieces on its space and held so (the pieces
// joined), was not found held at the next look, which checked each piece alone against the joined blob
// it was held by. The black token moved to a space where part of its blurred rim matched the grey look,
// and the two were asked about as a pair that might have swapped. The pieces, joined, are found untouched.
TEST(NeutralTokens, AGreyTokenHeldInTwoPiecesIsFoundUntouchedInThem) {
  expect_every_move_right(bench_row(Condition::blur, true));
}

// hard1/shadow's eleventh move: in the shadow the grey token's shaded side matched the black token's look,
// its lit side its own, one blob shared out between the two looks; of its own look 0.44 of its size, it
// was reported at a confidence under the threshold, a question. While the black token stands untouched
// elsewhere, the pixels of its look new in the grey token's blob are the grey token's.
TEST(NeutralTokens, AGreyTokenInAShadowTakesItsShadedSideFromTheBlackLook) {
  expect_every_move_right(bench_row(Condition::shadow, true));
}
