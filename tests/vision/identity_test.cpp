// Telling tokens apart beyond their colour: tokens of one colour by their outline, tokens of one look by a
// cap stuck on them, and several tokens on one space of which one leaves.
#include <gtest/gtest.h>

#include <map>

#include "vision_test_support.h"

using namespace bb::vision;
using namespace bb::vision::testing;

namespace {

// A renderer per set of looks, built once (drawing the board texture is the slow part).
const TableRenderer& renderer_for(const std::string& key, const std::vector<TokenLook>& looks) {
  static std::map<std::string, std::unique_ptr<TableRenderer>> cache;
  auto& r = cache[key];
  if (!r) {
    cv::setNumThreads(1);
    const BoardLayout layout = classic_layout();
    r = std::make_unique<TableRenderer>(layout, SpaceMap(layout.spaces_per_side), looks, test_width,
                                        test_height);
  }
  return *r;
}

// Two red tokens and two blue ones, each pair of different shapes.
const TableRenderer& twins() {
  return renderer_for("twins", {{0xE01010, TokenShape::circle},
                                {0xE01010, TokenShape::triangle},
                                {0x1040F0, TokenShape::square},
                                {0x1040F0, TokenShape::star}});
}

// Three red discs told apart only by a cap (blue, yellow, none), and a green triangle.
const TableRenderer& capped() {
  return renderer_for("capped", {{0xE01010, TokenShape::circle, 0x1040F0},
                                 {0xE01010, TokenShape::circle, 0xF0E020},
                                 {0xE01010, TokenShape::circle},
                                 {0x10C040, TokenShape::triangle}});
}

TableScene scene_of(const TableRenderer& r, Condition c, uint64_t seed) {
  std::mt19937_64 rng(seed);
  return scene_for(c, r, rng);
}

TEST(Identity, TokensOfOneColourAreToldApartByShape) {
  const TableRenderer& r = twins();
  TrackingScore total;
  for (uint64_t seed : {3u, 4u}) {
    const auto moves = random_moves(4, 40, 8, seed);
    const TrackingScore score =
        evaluate_game(r, scene_of(r, Condition::clean, 40 + seed), 4, moves, seed, TokenTracker::Settings{});
    ASSERT_TRUE(score.learned);
    total.add(score);
  }
  // Minimum accuracy at the tests' small frames (tokens about 11 pixels across): at most one question in
  // sixteen moves, and never a wrong name.
  EXPECT_GE(total.moves_correct, total.moves - 1) << total.summary();
  EXPECT_EQ(total.moves_wrong, 0) << total.summary();
  EXPECT_EQ(total.false_moves, 0) << total.summary();
}

TEST(Identity, TokensOfOneColourUnderBlurAreQuestionsNeverWrongMoves) {
  // A soft view rounds a triangle towards a disc: the tracker may have to ask, but never names the wrong
  // one of the pair.
  const TableRenderer& r = twins();
  const auto moves = random_moves(4, 40, 8, 6);
  const TrackingScore score =
      evaluate_game(r, scene_of(r, Condition::blur, 46), 4, moves, 6, TokenTracker::Settings{});
  ASSERT_TRUE(score.learned);
  EXPECT_EQ(score.moves_wrong, 0) << score.summary();
  EXPECT_EQ(score.false_moves, 0) << score.summary();
}

TEST(Identity, TokensOfOneColourInASoftPictureKeepTheSizeLearnedOnGo) {
  // A soft picture makes a token's blob about twice the strict mask it is first found by, and the blue
  // square and star touch on GO. Each must still be learned at the size it is seen alone later: a blob of
  // one token must never be taken for two tokens of its look sharing a space.
  cv::setNumThreads(1);
  const BoardLayout layout = classic_layout();
  const SpaceMap map(layout.spaces_per_side);
  const TableRenderer r(layout, map,
                        {{0xE01010, TokenShape::circle},
                         {0xE01010, TokenShape::triangle},
                         {0x1040F0, TokenShape::square},
                         {0x1040F0, TokenShape::star}},
                        1280, 720);
  for (uint64_t seed : {2008u, 2009u}) {
    const TableScene base = scene_of(r, Condition::blur, seed);
    TableScene start = base;
    for (int t = 0; t < 4; ++t) start.tokens.push_back({t, r.slot_position(0, t), 30.0 * t});
    cv::Mat image, top;
    RenderTruth truth;
    r.render(start, image, &truth);
    Calibration calibration;
    calibration.board_to_image = truth.board_to_image;
    calibration.image_to_board = *truth.board_to_image.inverse();
    TokenLocator locator(map, {});
    locator.top_view(image, calibration, top);
    const auto tokens = locator.learn(top, 0);
    ASSERT_EQ(tokens.size(), 4u);
    TableScene apart = base;
    const std::array<int, 4> spaces{6, 13, 24, 33};
    for (int t = 0; t < 4; ++t)
      apart.tokens.push_back({t, r.slot_position(spaces[static_cast<size_t>(t)], 0), 50.0 * t});
    r.render(apart, image);
    locator.top_view(image, calibration, top);
    for (const auto& o : locator.locate(top, tokens)) {
      SCOPED_TRACE(tokens[static_cast<size_t>(o.token)].name);
      ASSERT_TRUE(o.visible);
      EXPECT_FALSE(o.shared);
      EXPECT_GT(o.visible_fraction, 0.7);
      EXPECT_LT(o.visible_fraction, 1.3);
      EXPECT_NE(std::find(spaces.begin(), spaces.end(), o.space), spaces.end());
    }
  }
}

// The twins at the bench's frame size (their outlines differ by a few pixels there, as on a 720p webcam).
const TableRenderer& twins_720p() {
  static std::unique_ptr<TableRenderer> r;
  if (!r) {
    cv::setNumThreads(1);
    const BoardLayout layout = classic_layout();
    r = std::make_unique<TableRenderer>(layout, SpaceMap(layout.spaces_per_side),
                                        std::vector<TokenLook>{{0xE01010, TokenShape::circle},
                                                               {0xE01010, TokenShape::triangle},
                                                               {0x1040F0, TokenShape::square},
                                                               {0x1040F0, TokenShape::star}},
                                        1280, 720);
  }
  return *r;
}

// The board's top view, as the locator warps it, with four tokens on `spaces` (token t on spaces[t]; on GO
// each in its own slot), each turned `degrees_per_token` times its number.
cv::Mat top_with_tokens(const TableRenderer& r, const TableScene& base, const std::array<int, 4>& spaces,
                        double degrees_per_token, TokenLocator& locator) {
  TableScene scene = base;
  for (int t = 0; t < 4; ++t) {
    const int space = spaces[static_cast<size_t>(t)];
    scene.tokens.push_back({t, r.slot_position(space, space == 0 ? t : 0), degrees_per_token * t});
  }
  cv::Mat image, top;
  RenderTruth truth;
  r.render(scene, image, &truth);
  Calibration calibration;
  calibration.board_to_image = truth.board_to_image;
  calibration.image_to_board = *truth.board_to_image.inverse();
  locator.top_view(image, calibration, top);
  return top;
}

TEST(Identity, AnUntouchedLookAlikeTellsWhichOneMoved) {
  // JPEG at quality 30-50 smears a 12-pixel square and star alike: by outline alone two of these twelve
  // moves were questions (the bench's pairs/jpeg game). A hand moves one token at a time: the look-alike
  // still on its blob, unchanged since every token was last decided, is not the one that moved, so the
  // new blob is the other's. Every move is reported, none wrong.
  const TableRenderer& r = twins_720p();
  const int c = static_cast<int>(Condition::jpeg);
  std::mt19937_64 rng(static_cast<uint64_t>(2000 + c));
  const TableScene base = scene_for(Condition::jpeg, r, rng);
  const uint64_t seed = static_cast<uint64_t>(2000 / 13 + 77 * c);
  const auto moves = random_moves(4, r.space_map().space_count(), 12, seed);
  const TrackingScore score = evaluate_game(r, base, 4, moves, seed, TokenTracker::Settings{});
  ASSERT_TRUE(score.learned);
  EXPECT_EQ(score.moves_correct, score.moves) << score.summary();
  EXPECT_EQ(score.moves_wrong, 0) << score.summary();
  EXPECT_EQ(score.false_moves, 0) << score.summary();
}

TEST(Identity, TwoLookAlikesTouchingOnGoAreHeldByTheirPiecesUntilOneLeaves) {
  // The bench's pairs/blur game: the two blue tokens stand touching on GO, learned as one blob divided
  // between them. Neither was held (a shared blob), and the first move of either was a question by
  // outline, a square and a star alike in a soft view. Each is held by its piece of the blob as learned:
  // the one left behind is its piece, unchanged, and the one that moved is told by elimination. The
  // first ten moves are all reported.
  const TableRenderer& r = twins_720p();
  const int c = static_cast<int>(Condition::blur);
  std::mt19937_64 rng(static_cast<uint64_t>(2000 + c));
  const TableScene base = scene_for(Condition::blur, r, rng);
  const uint64_t seed = static_cast<uint64_t>(2000 / 13 + 77 * c);
  auto moves = random_moves(4, r.space_map().space_count(), 12, seed);
  moves.resize(10);
  const TrackingScore score = evaluate_game(r, base, 4, moves, seed, TokenTracker::Settings{});
  ASSERT_TRUE(score.learned);
  EXPECT_EQ(score.moves_correct, score.moves) << score.summary();
  EXPECT_EQ(score.moves_wrong, 0) << score.summary();
  EXPECT_EQ(score.false_moves, 0) << score.summary();
}

// The bench's pairs row for condition `c`: its scene and its first `move_count` moves of 12.
TrackingScore pairs_row(Condition c, size_t move_count) {
  const TableRenderer& r = twins_720p();
  std::mt19937_64 rng(static_cast<uint64_t>(2000 + static_cast<int>(c)));
  const TableScene base = scene_for(c, r, rng);
  const uint64_t seed = static_cast<uint64_t>(2000 / 13 + 77 * static_cast<int>(c));
  auto moves = random_moves(4, r.space_map().space_count(), 12, seed);
  moves.resize(move_count);
  return evaluate_game(r, base, 4, moves, seed, TokenTracker::Settings{});
}

TEST(Identity, LookAlikesSharingABlobAreHeldByTheirPieces) {
  // Two tokens of one look in one blob were held by neither, and the next move of either was a question
  // by outline, which blur and JPEG make alike. The one held before the other came (or before a soft view
  // joined them) is held by its blob then, the other by the rest of the shared blob: when one leaves, the
  // blob left is the other's piece, unchanged, and the one that moved is told by elimination. pairs/blur:
  // the blue square joins the star on space 11, then the star leaves (the eleventh move, a question
  // before); pairs/mixed: the two blue tokens, apart on GO when learned, one blob at the first decision,
  // then one leaves (the third move, a question before).
  for (const auto& [condition, move_count] :
       {std::pair{Condition::blur, size_t{12}}, std::pair{Condition::mixed, size_t{3}}}) {
    SCOPED_TRACE(condition_name(condition));
    const TrackingScore score = pairs_row(condition, move_count);
    ASSERT_TRUE(score.learned);
    EXPECT_EQ(score.moves_correct, score.moves) << score.summary();
    EXPECT_EQ(score.moves_wrong, 0) << score.summary();
    EXPECT_EQ(score.false_moves, 0) << score.summary();
  }
}

TEST(Identity, ALookAlikeComingToTouchAHeldOneSharesItsBlob) {
  // pairs/mixed's fourth move: the blue star put down on the square's space, touching it, one blob of 248
  // pixels, under the 1.6 token areas that make a blob two tokens by its size alone: neither took it, both
  // were said hidden (a miss). A blob on which a look-alike stood held, grown by a third of a token or more
  // and partly new, holds two: both are on its space.
  const TrackingScore score = pairs_row(Condition::mixed, 6);
  ASSERT_TRUE(score.learned);
  EXPECT_EQ(score.moves_correct, score.moves) << score.summary();
  EXPECT_EQ(score.moves_wrong, 0) << score.summary();
  EXPECT_EQ(score.false_moves, 0) << score.summary();
}

// The blue square and star of twins_720p() learned on GO, then seen apart with the others (spaces 6, 13, 24
// and 33; the square on 24, the star on 33): the start of the tests of a look-alike that keeps its blob.
struct SquareAndStarApart {
  const TableRenderer& r = twins_720p();
  const TableScene base = scene_of(r, Condition::clean, 2101);
  TokenLocator locator{r.space_map(), {}};
  std::vector<TokenAppearance> tokens;
  cv::Mat apart;
  std::vector<TokenObservation> before;  // as located in `apart`
  std::vector<int> last = std::vector<int>(4, -1);
  int square = -1, star = -1;

  cv::Mat top_of(const std::array<int, 4>& spaces) { return top_with_tokens(r, base, spaces, 40.0, locator); }

  // Learns and locates; call with ASSERT_NO_FATAL_FAILURE.
  void set_up() {
    tokens = locator.learn(top_of({0, 0, 0, 0}), 0);
    ASSERT_EQ(tokens.size(), 4u);
    apart = top_of({6, 13, 24, 33});
    before = locator.locate(apart, tokens);
    for (const auto& o : before) {
      ASSERT_TRUE(o.visible);
      last[static_cast<size_t>(o.token)] = o.space;
      if (o.space == 24) square = o.token;
      if (o.space == 33) star = o.token;
    }
    ASSERT_GE(square, 0);
    ASSERT_GE(star, 0);
  }

  // The star moved to space 28, located with the square's and the star's outlines taken the wrong way
  // round (as a soft view at setup can leave them).
  std::vector<TokenObservation> star_moved_with_outlines_swapped() {
    std::swap(tokens[static_cast<size_t>(square)].shape, tokens[static_cast<size_t>(star)].shape);
    return locator.locate(top_of({6, 13, 24, 28}), tokens, last);
  }

  // The square kept its blob, untouched, and the star's move was told by elimination, sure.
  void expect_the_star_told_by_elimination(const std::vector<TokenObservation>& after) const {
    const TokenObservation& sq = after[static_cast<size_t>(square)];
    const TokenObservation& st = after[static_cast<size_t>(star)];
    EXPECT_TRUE(sq.untouched);
    EXPECT_EQ(sq.space, 24);
    EXPECT_GE(sq.confidence, 0.75);
    ASSERT_TRUE(st.visible);
    EXPECT_EQ(st.space, 28);
    EXPECT_GE(st.confidence, 0.75);
  }
};

TEST(Identity, AnUntouchedTokenKeepsItsBlobWhateverItsOutline) {
  // The outlines of the blue square and star taken the wrong way round (as a soft view at setup can leave
  // them): by outline, the star's move would be the square's. The square, untouched on its blob since
  // every token was last decided, keeps it; the star is the new blob, by elimination.
  SquareAndStarApart t;
  ASSERT_NO_FATAL_FAILURE(t.set_up());
  for (const auto& o : t.before) ASSERT_GE(o.confidence, 0.75) << t.tokens[static_cast<size_t>(o.token)].name;
  t.locator.remember_decided(t.apart, t.before, 0.75);
  t.expect_the_star_told_by_elimination(t.star_moved_with_outlines_swapped());
  // Without the decided look to compare with, the outlines decide: never the star's blob for the
  // square with confidence, at best a question.
  t.locator.forget_decided();
  const auto blind = t.locator.locate(t.top_of({6, 13, 24, 28}), t.tokens, t.last);
  EXPECT_FALSE(blind[static_cast<size_t>(t.square)].untouched);
}

TEST(Identity, ATokenTheFamilySettledKeepsItsBlob) {
  // The square was a question when every token was last decided (unsure on its blob on space 24), so its
  // blob was not remembered; with the outlines of the square and the star the wrong way round, the star's
  // later move is no better than a question. The family answered "24" and the table handed the answer
  // back (TokenTracker::settle): the square's blob there is remembered, untouched, and the star's move is
  // told by elimination, sure.
  for (const bool settled : {false, true}) {
    SquareAndStarApart t;
    ASSERT_NO_FATAL_FAILURE(t.set_up());
    t.before[static_cast<size_t>(t.square)].confidence = 0.5;  // asked about
    t.locator.remember_decided(t.apart, t.before, 0.75);
    if (settled) {
      EXPECT_FALSE(t.locator.remember_settled(static_cast<size_t>(t.square), 25));  // not where it was seen
      EXPECT_TRUE(t.locator.remember_settled(static_cast<size_t>(t.square), 24));
    }
    const auto after = t.star_moved_with_outlines_swapped();
    if (settled) {
      t.expect_the_star_told_by_elimination(after);
    } else {
      const TokenObservation& sq = after[static_cast<size_t>(t.square)];
      const TokenObservation& st = after[static_cast<size_t>(t.star)];
      EXPECT_FALSE(sq.untouched);
      EXPECT_FALSE(st.visible && st.space == 28 && st.confidence >= 0.75 && sq.space == 24 &&
                   sq.confidence >= 0.75)
          << "without the answer the swapped outlines should leave a doubt";
    }
  }
}

TEST(Identity, ATokenSettledOnTheOtherCandidateKeepsTheBlobItsLookAlikeWasGiven) {
  // A doubt may put a look-alike on the other's blob: the square seen on the star's blob (space 33) and
  // the star on the square's (24), both asked about. The family answered the square "24" and the star
  // "33": each one's blob is the one its look-alike was given there, remembered untouched, so that the
  // star's later move is told by elimination. Before, only a blob on the token's own reading was taken,
  // and neither was held.
  SquareAndStarApart t;
  ASSERT_NO_FATAL_FAILURE(t.set_up());
  auto& sq_before = t.before[static_cast<size_t>(t.square)];
  auto& st_before = t.before[static_cast<size_t>(t.star)];
  std::swap(sq_before, st_before);  // the doubt: each on the other's blob
  std::swap(sq_before.token, st_before.token);
  for (auto* o : {&sq_before, &st_before}) {
    o->confidence = 0.5;
    o->candidates = {24, 33};
  }
  t.locator.remember_decided(t.apart, t.before, 0.75);
  EXPECT_TRUE(t.locator.remember_settled(static_cast<size_t>(t.square), 24));
  EXPECT_TRUE(t.locator.remember_settled(static_cast<size_t>(t.star), 33));
  t.expect_the_star_told_by_elimination(t.star_moved_with_outlines_swapped());
}

TEST(Identity, ABlobUnchangedSinceTheTokenStoodElsewhereIsNotIt) {
  // Something of the red token's look lies on the board (a print, a shadow: here a piece of its own top
  // pasted onto space 20), unchanged from one decision to the next. While the token stood elsewhere at the
  // last decision, that blob cannot be it now: moved, it is reported on its new space, not asked about
  // between the two.
  const TableRenderer& r = renderer();
  const SpaceMap& map = r.space_map();
  const TableScene base = scene_of(r, Condition::clean, 2102);
  const int side = TokenLocator::Settings{}.top_side;
  auto top_of = [&](const std::array<int, 4>& spaces, TokenLocator& locator) {
    return top_with_tokens(r, base, spaces, 0.0, locator);
  };
  TokenLocator locator(map, {});
  const auto tokens = locator.learn(top_of({0, 0, 0, 0}, locator), 0);
  ASSERT_EQ(tokens.size(), 4u);
  cv::Mat before = top_of({6, 13, 24, 33}, locator);
  auto seen = locator.locate(before, tokens);
  int red = -1;
  for (const auto& o : seen)
    if (o.space == 6) red = o.token;
  ASSERT_GE(red, 0);
  const TokenObservation& mine = seen[static_cast<size_t>(red)];
  // A square from the middle of its top, about 0.7 of its area, pasted on space 20.
  const int half = std::max(2, static_cast<int>(0.42 * std::sqrt(tokens[static_cast<size_t>(red)].area_px)));
  const Point2 to = r.slot_position(20, 0);
  const cv::Rect from(static_cast<int>(mine.centre.x) - half, static_cast<int>(mine.centre.y) - half,
                      2 * half, 2 * half);
  const cv::Rect onto(static_cast<int>(to.x * side) - half, static_cast<int>(to.y * side) - half, 2 * half,
                      2 * half);
  const cv::Mat patch = before(from).clone();
  patch.copyTo(before(onto));
  seen = locator.locate(before, tokens);
  seen[static_cast<size_t>(red)].confidence = 1.0;  // decided there (the table answered, or it was sure)
  locator.remember_decided(before, seen, 0.75);
  cv::Mat after = top_of({28, 13, 24, 33}, locator);
  patch.copyTo(after(onto));
  const auto moved = locator.locate(after, tokens);
  EXPECT_EQ(moved[static_cast<size_t>(red)].space, 28);
  EXPECT_GE(moved[static_cast<size_t>(red)].confidence, 0.75);
  // Without the last decision the piece on space 20 is as much the token as its blob on 28 is: a question.
  locator.forget_decided();
  const auto blind = locator.locate(after, tokens);
  EXPECT_LT(blind[static_cast<size_t>(red)].confidence, 0.75);
}

TEST(Identity, ACapTellsTokensOfOneLookApart) {
  const TableRenderer& r = capped();
  const auto moves = random_moves(4, 40, 8, 7);
  const TrackingScore score =
      evaluate_game(r, scene_of(r, Condition::clean, 47), 4, moves, 7, TokenTracker::Settings{});
  ASSERT_TRUE(score.learned);
  // Every move named right here; Debian 13's OpenCV 4.10 draws the caps a few pixels differently and one
  // of the eight moves is a question there (7 right, 1 unsure). Never a wrong name, on any platform.
  EXPECT_GE(score.moves_correct, score.moves - 1) << score.summary();
  EXPECT_EQ(score.moves_wrong, 0) << score.summary();
  EXPECT_EQ(score.false_moves, 0) << score.summary();
}

TEST(Identity, SixTokensOfOneColourAreNeverMisnamed) {
  // Beyond five look-alikes the tracker no longer weighs every way of naming them: it asks.
  const TableRenderer& r = renderer_for("six", {{0x10C040, TokenShape::circle},
                                                {0x10C040, TokenShape::square},
                                                {0x10C040, TokenShape::triangle},
                                                {0x10C040, TokenShape::star},
                                                {0x10C040, TokenShape::hexagon},
                                                {0x10C040, TokenShape::cross}});
  const auto moves = random_moves(6, 40, 4, 8);
  const TrackingScore score =
      evaluate_game(r, scene_of(r, Condition::clean, 48), 6, moves, 8, TokenTracker::Settings{});
  EXPECT_EQ(score.moves_wrong, 0) << score.summary();
  EXPECT_EQ(score.false_moves, 0) << score.summary();
}

TEST(Identity, CapsAreStoredWithTheTokens) {
  TokenAppearance t;
  t.name = "T1";
  t.spread = {0.02, 0.02, 0.08};
  t.area_px = 100;
  t.shape = {0.17, 0.9, 0.6};
  t.cap = {0.3, 0.2, 0.2};
  t.outline_cut = true;
  const auto back = tokens_from_json(tokens_to_json({t}));
  ASSERT_TRUE(back.has_value()) << back.error();
  EXPECT_DOUBLE_EQ((*back)[0].cap.share, 0.3);
  EXPECT_TRUE((*back)[0].outline_cut);
  EXPECT_DOUBLE_EQ((*back)[0].shape.fill, 0.6);
  EXPECT_GT(cap_distance(t.cap, CapFeatures{}), 1.0);
  EXPECT_EQ(cap_distance(CapFeatures{}, CapFeatures{}), 0.0);
}

struct Game {
  const TableRenderer& r;
  TableScript script;
  TokenTracker tracker;
  Feeder feed;
  Game(const TableRenderer& used, uint64_t seed)
      : r(used),
        script(used, scene_of(used, Condition::clean, seed), 4, seed),
        tracker(used.space_map(), {}),
        feed{used, tracker} {
    EXPECT_EQ(count(feed.run(script.opening()), TrackerEvent::Kind::learned), 4);
  }
  int index(int script_token) { return tracker_index(tracker, r, script_token); }
  int at(int script_token) { return tracker.positions()[static_cast<size_t>(index(script_token))]; }
};

TEST(Identity, ThreeTokensOnOneSpaceAndOneLeaves) {
  Game game(renderer(), 31);
  for (int t = 0; t < 3; ++t) {
    const auto events = game.feed.run(game.script.play({t, 6}, t));
    ASSERT_EQ(count(events, TrackerEvent::Kind::moved), 1) << "token " << t;
  }
  for (int t = 0; t < 3; ++t) EXPECT_EQ(game.at(t), 6) << "token " << t;
  const auto events = game.feed.run(game.script.play({1, 11}, 3));
  ASSERT_EQ(count(events, TrackerEvent::Kind::moved), 1);
  for (const auto& e : events)
    if (e.kind == TrackerEvent::Kind::moved) {
      EXPECT_EQ(e.token, game.tracker.tokens()[static_cast<size_t>(game.index(1))].name);
      EXPECT_EQ(e.from, 6);
      EXPECT_EQ(e.to, 11);
    }
  EXPECT_EQ(game.at(0), 6);
  EXPECT_EQ(game.at(2), 6);
  EXPECT_EQ(game.at(3), 0);
}

TEST(Identity, TwoTokensOfOneColourShareASpaceAndTheRightOneLeaves) {
  // The triangle joining the disc on one space makes one blob of their colour: it is reported there, or,
  // where the two outlines blend too much to tell, asked about with that space among the candidates (seed
  // 28 on amd64; seed 33 was seen not to end on space 9 on arm64, whose OpenCV draws a few pixels
  // differently, most likely the same near tie). Never a wrong answer, and when it leaves, the one that
  // left is named.
  for (uint64_t seed : {33u, 28u}) {
    SCOPED_TRACE(seed);
    Game game(twins(), seed);
    game.feed.run(game.script.play({0, 9}, 0));                      // the red disc
    const auto joined = game.feed.run(game.script.play({1, 9}, 1));  // the red triangle
    EXPECT_EQ(game.at(0), 9);
    const std::string triangle = game.tracker.tokens()[static_cast<size_t>(game.index(1))].name;
    bool asked = false;
    for (const auto& e : joined) {
      if (e.kind == TrackerEvent::Kind::moved) {
        EXPECT_EQ(e.token, triangle);  // only the triangle moved: never another token
        EXPECT_EQ(e.to, 9);
      }
      asked |= e.kind == TrackerEvent::Kind::unsure && e.token == triangle &&
               std::find(e.candidates.begin(), e.candidates.end(), 9) != e.candidates.end();
    }
    EXPECT_TRUE(game.at(1) == 9 || asked);
    const auto events = game.feed.run(game.script.play({1, 14}, 2));
    ASSERT_EQ(count(events, TrackerEvent::Kind::moved), 1);
    for (const auto& e : events)
      if (e.kind == TrackerEvent::Kind::moved) {
        EXPECT_EQ(e.token, triangle);
        EXPECT_EQ(e.to, 14);
      }
    EXPECT_EQ(game.at(0), 9);
    EXPECT_EQ(game.at(1), 14);
  }
}

}  // namespace
