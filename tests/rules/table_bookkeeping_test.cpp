// The table's bookkeeping inputs: a card registered during a game (`card`) and a payment its payer confirmed
// (`confirm`). They move no money and answer no question; the state keeps them, a snapshot too.
#include <gtest/gtest.h>

#include "test_support.h"

namespace bb::rules::testing {
namespace {

TEST(TableBookkeeping, ACardRegisteredMidGameIsKeptAndMovesNothing) {
  ScriptedGame g(kTwoPlayers);
  const auto before = g.game().signature();
  g.ok(R"({"t": "card", "uid": "0DDC0FFE", "player": "Bob"})");
  g.ok(R"({"t": "card", "uid": "BA0BA0BB"})");
  g.ok(R"({"t": "card", "uid": "DEC0DE02", "deck": "chance", "card": "bank_dividend"})");
  const auto& cards = g.game().state().table_cards;
  ASSERT_EQ(cards.size(), 3u);
  EXPECT_EQ(cards[0].player, PlayerId{1});
  EXPECT_EQ(cards[1].player, std::nullopt);
  EXPECT_EQ(cards[2].card, "bank_dividend");
  EXPECT_EQ(g.cash("Ann"), 1500);
  EXPECT_EQ(g.game().state().current, PlayerId{0});
  EXPECT_EQ(g.game().signature(), before);  // the game itself is as it was
}

TEST(TableBookkeeping, RefusalsSayWhy) {
  ScriptedGame g(kTwoPlayers);
  g.ok(R"({"t": "card", "uid": "0DDC0FFE", "player": "Bob"})");
  EXPECT_NE(g.send(R"({"t": "card", "uid": "0DDC0FFE"})").find("registered already"), std::string::npos);
  EXPECT_NE(g.send(R"({"t": "card", "uid": "nothex"})").find("not a card number"), std::string::npos);
  EXPECT_NE(g.send(R"({"t": "card", "uid": "AB", "deck": "tarot", "card": "x"})").find("no deck"),
            std::string::npos);
  EXPECT_NE(g.send(R"({"t": "card", "uid": "AB", "deck": "chance", "card": "x"})").find("no card"),
            std::string::npos);
  EXPECT_NE(g.send(R"({"t": "card", "uid": "AB", "player": "Zed"})").find("Zed"), std::string::npos);
  EXPECT_NE(g.send(R"({"t": "confirm", "posting": 99})").find("no posting 99"), std::string::npos);
}

TEST(TableBookkeeping, AConfirmationIsKeptOnceAndSurvivesASnapshot) {
  ScriptedGame g(kTwoPlayers);
  g.ok(R"({"t": "house", "from": "Ann", "to": "Bob", "amount": 20, "reason": "lost a bet"})");
  const auto seq = g.game().state().postings.back().seq;
  g.ok(fmt::format(R"({{"t": "confirm", "posting": {}}})", seq));
  EXPECT_NE(g.send(fmt::format(R"({{"t": "confirm", "posting": {}}})", seq)).find("confirmed already"),
            std::string::npos);
  g.ok(R"({"t": "card", "uid": "0DDC0FFE", "player": "Bob"})");
  const auto restored =
      Game::restore(g.game().edition_ptr(), g.game().setup(), g.game().snapshot(), g.game().state().postings);
  ASSERT_TRUE(restored) << restored.error();
  EXPECT_EQ(restored->state().confirmed_postings, std::vector<std::int64_t>{seq});
  ASSERT_EQ(restored->state().table_cards.size(), 1u);
  EXPECT_EQ(restored->state().table_cards[0].uid, "0DDC0FFE");
}

TEST(TableBookkeeping, TheirScriptLinesReadBackTheSame) {
  ScriptedGame g(kTwoPlayers);
  const std::vector<std::string> names{"Ann", "Bob"};
  for (const Input& in : std::vector<Input>{
           RegisterCard{"0DDC0FFE", PlayerId{1}, {}, {}}, RegisterCard{"BA0BA0BB", std::nullopt, {}, {}},
           RegisterCard{"DEC0DE02", std::nullopt, "chance", "bank_dividend"}, ConfirmPayment{7}}) {
    const auto line = input_to_json(in, names, g.game().edition());
    const auto back = parse_input(line, names, g.game().edition());
    ASSERT_TRUE(back) << back.error();
    EXPECT_EQ(input_to_json(*back, names, g.game().edition()), line);
  }
}

}  // namespace
}  // namespace bb::rules::testing
