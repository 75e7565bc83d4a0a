// The house-rule payment input: a payment outside the rules, with its reason, as a script line of its own.
#include <gtest/gtest.h>

#include "test_support.h"

namespace bb::rules::testing {
namespace {

TEST(HousePayment, MovesMoneyWithItsReasonBetweenAPlayerAndTheBankOrTwoPlayers) {
  ScriptedGame g(kTwoPlayers);
  g.ok(R"({"t": "house", "from": "Ann", "to": "bank", "amount": 50, "reason": "Free Parking jackpot"})");
  EXPECT_EQ(g.cash("Ann"), 1450);
  g.ok(R"({"t": "house", "from": "bank", "to": "Bob", "amount": 120, "reason": "Free Parking jackpot"})");
  EXPECT_EQ(g.cash("Bob"), 1620);
  g.ok(R"({"t": "house", "from": "Bob", "to": "Ann", "amount": 20, "reason": "lost a bet"})");
  EXPECT_EQ(g.cash("Ann"), 1470);
  const auto& last = g.game().state().postings.back();
  EXPECT_EQ(last.memo, Memo::house_rule);
  EXPECT_EQ(g.game().memo_text(last), "house rule: lost a bet");
  // Not a turn: Ann still throws first.
  EXPECT_EQ(g.game().state().current, PlayerId{0});
}

TEST(HousePayment, RefusalsSayWhatIsMissing) {
  ScriptedGame g(kTwoPlayers);
  EXPECT_NE(g.send(R"({"t": "house", "from": "Ann", "to": "bank", "amount": 50})").find("reason"),
            std::string::npos);
  EXPECT_NE(g.send(R"({"t": "house", "from": "Ann", "to": "Ann", "amount": 5, "reason": "x"})")
                .find("two different"),
            std::string::npos);
  EXPECT_NE(
      g.send(R"({"t": "house", "from": "Ann", "to": "bank", "amount": 0, "reason": "x"})").find("above zero"),
      std::string::npos);
  EXPECT_NE(g.send(R"({"t": "house", "from": "Ann", "to": "bank", "amount": 5000, "reason": "x"})")
                .find("holds only"),
            std::string::npos);
  EXPECT_NE(g.send(R"({"t": "house", "from": "Zed", "to": "bank", "amount": 5, "reason": "x"})").find("Zed"),
            std::string::npos);
}

TEST(HousePayment, ItsScriptLineReadsBackTheSame) {
  ScriptedGame g(kTwoPlayers);
  const std::vector<std::string> names{"Ann", "Bob"};
  const HousePayment paid{Account::bank(), PlayerId{1}, 120, "Free Parking jackpot"};
  const auto line = input_to_json(paid, names, g.game().edition());
  const auto back = parse_input(line, names, g.game().edition());
  ASSERT_TRUE(back) << back.error();
  const auto* h = std::get_if<HousePayment>(&*back);
  ASSERT_NE(h, nullptr) << line;
  EXPECT_EQ(h->from, Account::bank());
  EXPECT_EQ(h->to, Account{PlayerId{1}});
  EXPECT_EQ(h->amount, 120);
  EXPECT_EQ(h->reason, "Free Parking jackpot");
}

TEST(HousePayment, SurvivesASnapshotAndAnUndo) {
  ScriptedGame g(kTwoPlayers);
  g.ok(R"({"t": "house", "from": "Ann", "to": "bank", "amount": 50, "reason": "Free Parking jackpot"})");
  const auto restored = Game::restore(g.game().edition_ptr(), g.game().setup(), g.game().snapshot(),
                                      g.game().state().postings, g.game().inputs());
  ASSERT_TRUE(restored) << restored.error();
  EXPECT_EQ(restored->signature(), g.game().signature());
  g.ok(R"({"t": "undo"})");
  EXPECT_EQ(g.cash("Ann"), 1500);
}

}  // namespace
}  // namespace bb::rules::testing
