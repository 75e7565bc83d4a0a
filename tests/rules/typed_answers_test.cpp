// Typed question options and refusals (issue 15): the spec's strings are parsed once, the engine compares
// values, and a refusal is worded only when a screen asks.
#include "test_support.h"

namespace bb::rules::testing {
namespace {

TEST(Answers, EveryFixedAnswerIsSpelledAndParsedTheSameWay) {
  for (auto a :
       {Answer::buy, Answer::auction, Answer::pay_fixed, Answer::pay_percent, Answer::pay_fine,
        Answer::use_card, Answer::roll, Answer::use_throw, Answer::throw_again, Answer::lift, Answer::keep})
    EXPECT_EQ(parse_answer(answer_name(a)), a) << answer_name(a);
  EXPECT_FALSE(parse_answer("take_set"));  // a draft's option is its group id, never this word
  EXPECT_FALSE(parse_answer("Buy"));
  EXPECT_FALSE(parse_answer(""));
}

TEST(Answers, PaymentsAreTheAnswersThatMoveMoney) {
  for (auto a :
       {Answer::buy, Answer::pay_fixed, Answer::pay_percent, Answer::pay_fine, Answer::lift, Answer::keep}) {
    EXPECT_TRUE(moves_money(a)) << answer_name(a);
    EXPECT_TRUE(needs_players_card(a)) << answer_name(a);
  }
  for (auto a : {Answer::auction, Answer::use_card, Answer::roll, Answer::use_throw, Answer::throw_again})
    EXPECT_FALSE(moves_money(a)) << answer_name(a);
  EXPECT_FALSE(moves_money(Answer::take_set));
  EXPECT_TRUE(needs_players_card(Answer::take_set));
  EXPECT_TRUE(is_throw(Answer::roll));
}

TEST(Answers, QuestionOptionsKeepTheirOrderInPlaceAndPastTheInlineOnes) {
  QuestionOptions jail{{Answer::pay_fine}, {Answer::use_card}};
  jail.push_back({Answer::roll});
  ASSERT_EQ(jail.size(), 3u);
  EXPECT_EQ(jail.front().answer, Answer::pay_fine);
  EXPECT_EQ(jail[1].answer, Answer::use_card);
  EXPECT_EQ(jail.back().answer, Answer::roll);
  // A draft offers a set per group: past kInline they all move to the heap, in the same order.
  QuestionOptions draft;
  for (int group = 0; group < 10; ++group) draft.push_back({Answer::take_set, group});
  ASSERT_EQ(draft.size(), 10u);
  int expected = 0;
  for (const QuestionOption& o : draft) EXPECT_EQ(o.group, expected++);
  const QuestionOptions copy = draft;
  EXPECT_EQ(copy, draft);
  QuestionOptions moved = std::move(draft);
  EXPECT_EQ(moved, copy);
  EXPECT_TRUE(draft.empty());  // NOLINT(bugprone-use-after-move): a moved-from list is empty
  EXPECT_FALSE(moved == jail);
  moved = {{Answer::lift}, {Answer::keep}};
  EXPECT_EQ(moved, (QuestionOptions{{Answer::lift}, {Answer::keep}}));
  moved.clear();
  EXPECT_TRUE(moved.empty());
  EXPECT_EQ(moved.begin(), moved.end());
}

TEST(Answers, TheBuyQuestionOffersTypedOptionsAndRefusesAnUnknownOne) {
  ScriptedGame g(kTwoPlayers);
  g.ok(R"({"t": "roll", "dice": [1, 2]})");
  const Question& q = g.game().state().pending.front();
  ASSERT_EQ(q.options.size(), 2u);
  EXPECT_EQ(q.options[0].answer, Answer::buy);
  EXPECT_EQ(q.options[1].answer, Answer::auction);
  EXPECT_EQ(g.game().option_names(q), (std::vector<std::string>{"buy", "auction"}));
  EXPECT_EQ(g.game().parse_option(q, "auction"), QuestionOption{Answer::auction});
  EXPECT_FALSE(g.game().parse_option(q, "pay_fine"));
  const std::string refused = g.send(R"({"t": "choose", "player": "Ann", "option": "pay_fine"})");
  EXPECT_NE(refused.find("'pay_fine' is not an answer"), std::string::npos) << refused;
  EXPECT_NE(refused.find("options: buy, auction"), std::string::npos) << refused;
  g.ok(R"({"t": "choose", "player": "Ann", "option": "buy"})");
  EXPECT_EQ(g.cash("Ann"), 1440);
}

// A script's option is read once, against the edition: a fixed answer by its name, a draft's set by its
// group id; any other word is refused by the reader, naming the answers, before it reaches the game.
TEST(Answers, AChooseLineIsReadIntoTheTypedOption) {
  const Edition classic_edition = load_shipped("classic");
  const Edition* classic = &classic_edition;
  const std::vector<std::string> names{"Ann", "Bob"};
  auto buy = parse_input(R"({"t": "choose", "player": "Bob", "option": "buy"})", names, *classic);
  ASSERT_TRUE(buy) << buy.error();
  const auto* choose = std::get_if<Choose>(&*buy);
  ASSERT_NE(choose, nullptr);
  EXPECT_EQ(choose->player, PlayerId{1});
  EXPECT_EQ(choose->option, QuestionOption{Answer::buy});
  auto set = parse_input(R"({"t": "choose", "player": "Ann", "option": "dark_blue"})", names, *classic);
  ASSERT_TRUE(set) << set.error();
  const QuestionOption dark_blue = std::get<Choose>(*set).option;
  EXPECT_EQ(dark_blue.answer, Answer::take_set);
  ASSERT_GE(dark_blue.group, 0);
  EXPECT_EQ(classic->groups[static_cast<std::size_t>(dark_blue.group)].id, "dark_blue");
  // Written back the same way.
  EXPECT_NE(input_to_json(*set, names, *classic).find(R"("option":"dark_blue")"), std::string::npos);
  EXPECT_NE(input_to_json(*buy, names, *classic).find(R"("option":"buy")"), std::string::npos);
  for (const char* word : {"sell_everything", "Buy", "take_set", ""}) {
    auto refused = parse_input(fmt::format(R"({{"t": "choose", "player": "Ann", "option": "{}"}})", word),
                               names, *classic);
    ASSERT_FALSE(refused) << word;
    EXPECT_NE(refused.error().find(fmt::format("'{}' is not an answer", word)), std::string::npos)
        << refused.error();
    EXPECT_NE(refused.error().find("pay_fine"), std::string::npos) << refused.error();
  }
}

TEST(Refusals, TheValueAndTheSentenceSayTheSame) {
  ScriptedGame g(kTwoPlayers);
  g.ok(R"({"t": "roll", "dice": [1, 2]})");
  g.ok(R"({"t": "choose", "player": "Ann", "option": "buy"})");
  const Game& game = g.game();
  // Ann owns Baltic Avenue (3) but not Mediterranean Avenue (1): no building; Bob owns neither.
  auto no_group = game.refusal_to_build(PlayerId{0}, SpaceId{3});
  ASSERT_TRUE(no_group);
  EXPECT_EQ(no_group->kind, Refusal::Kind::needs_whole_group);
  EXPECT_EQ(game.explain(*no_group), *game.why_not_build(PlayerId{0}, SpaceId{3}));
  auto not_owner = game.refusal_to_mortgage(PlayerId{1}, SpaceId{3});
  ASSERT_TRUE(not_owner);
  EXPECT_EQ(not_owner->kind, Refusal::Kind::not_owner);
  EXPECT_EQ(game.explain(*not_owner), *game.why_not_mortgage(PlayerId{1}, SpaceId{3}));
  auto nothing = game.refusal_to_sell(PlayerId{0}, SpaceId{3});
  ASSERT_TRUE(nothing);
  EXPECT_EQ(nothing->kind, Refusal::Kind::nothing_to_sell);
  EXPECT_EQ(game.explain(*nothing), *game.why_not_sell(PlayerId{0}, SpaceId{3}));
  auto not_mortgaged = game.refusal_to_unmortgage(PlayerId{0}, SpaceId{3});
  ASSERT_TRUE(not_mortgaged);
  EXPECT_EQ(not_mortgaged->kind, Refusal::Kind::not_mortgaged);
  auto off_board = game.refusal_to_build(PlayerId{0}, SpaceId{400});
  ASSERT_TRUE(off_board);
  EXPECT_EQ(off_board->kind, Refusal::Kind::no_such_space);
  EXPECT_EQ(game.explain(*off_board), *game.why_not_build(PlayerId{0}, SpaceId{400}));
  EXPECT_FALSE(game.refusal_to_mortgage(PlayerId{0}, SpaceId{3}));
  EXPECT_FALSE(game.why_not_mortgage(PlayerId{0}, SpaceId{3}));
}

TEST(History, AGameThatForgetsItsHistoryPlaysOnButRefusesUndo) {
  ScriptedGame g(kTwoPlayers);
  g.ok(R"({"t": "roll", "dice": [1, 2]})");
  Game copy = g.game();
  copy.forget_history();
  EXPECT_FALSE(copy.has_history());
  EXPECT_TRUE(copy.inputs().empty());
  EXPECT_EQ(copy.input_count(), 1u);
  ASSERT_TRUE(copy.apply(Choose{PlayerId{0}, {Answer::buy}}));
  EXPECT_EQ(copy.input_count(), 2u);
  EXPECT_TRUE(copy.inputs().empty());
  EXPECT_EQ(copy.state().players[0].cash, 1440);
  auto undo = copy.apply(Undo{});
  ASSERT_FALSE(undo);
  EXPECT_NE(undo.error().find("replay it from its log"), std::string::npos) << undo.error();
  // The original still has its history and undoes.
  g.ok(R"({"t": "choose", "player": "Ann", "option": "buy"})");
  g.ok(R"({"t": "undo"})");
  EXPECT_EQ(g.cash("Ann"), 1500);
}

}  // namespace
}  // namespace bb::rules::testing
