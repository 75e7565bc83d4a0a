// The classic rules, one test per rule of the rule book, each driven by game-script lines.
#include "test_support.h"

namespace bb::rules::testing {
namespace {

TEST(Start, EachPlayerGetsStartingCashAsPostingsFromTheBank) {
  ScriptedGame g(kTwoPlayers);
  EXPECT_EQ(g.cash("Ann"), 1500);
  EXPECT_EQ(g.cash("Bob"), 1500);
  auto postings = g.dump()["postings"];
  ASSERT_EQ(postings.size(), 2u);
  EXPECT_EQ(postings[0]["from"], "bank");
  EXPECT_EQ(postings[0]["memo"], "starting cash");
  EXPECT_EQ(g.dump()["current"], "Ann");
  EXPECT_EQ(g.dump()["bank"]["houses"], 32);
  EXPECT_EQ(g.dump()["bank"]["hotels"], 12);
}

TEST(Moves, RollMovesTokenAndOffersPurchaseAtPrintedPrice) {
  ScriptedGame g(kTwoPlayers);
  g.ok(R"({"t": "roll", "dice": [1, 2]})");
  EXPECT_EQ(g.position("Ann"), 3);
  auto q = g.pending();
  ASSERT_EQ(q.size(), 1u);
  EXPECT_EQ(q[0]["question"], "buy");
  EXPECT_EQ(q[0]["amount"], 60);
  EXPECT_EQ(q[0]["options"], nlohmann::json({"buy", "auction"}));
  g.ok(R"({"t": "choose", "player": "Ann", "option": "buy"})");
  EXPECT_EQ(g.cash("Ann"), 1440);
  EXPECT_EQ(g.space(3)["owner"], "Ann");
  EXPECT_EQ(g.dump()["current"], "Bob");
}

TEST(Moves, IllegalInputsAreRefusedWithAReasonAndChangeNothing) {
  ScriptedGame g(kTwoPlayers);
  EXPECT_NE(g.send(R"({"t": "roll", "dice": [0, 7]})"), "");
  g.ok(R"({"t": "roll", "dice": [1, 2]})");
  std::string why = g.send(R"({"t": "roll", "dice": [3, 4]})");
  EXPECT_NE(why.find("Ann must answer the buy question"), std::string::npos) << why;
  EXPECT_NE(g.send(R"({"t": "choose", "player": "Ann", "option": "steal"})"), "");
  EXPECT_NE(g.send(R"({"t": "choose", "player": "Zed", "option": "buy"})"), "");
  EXPECT_NE(g.send(R"({"t": "bid", "player": "Bob", "amount": 10})"), "");
  EXPECT_NE(g.send(R"({"t": "build", "player": "Ann", "space": 3})"), "");
  EXPECT_NE(g.send(R"({"t": "build", "player": "Ann", "space": 99})"), "");
}

TEST(Doubles, DoublesGiveAnotherThrowAndThreeInARowSendToJail) {
  ScriptedGame g(kTwoPlayers);
  g.ok(R"({"t": "roll", "dice": [1, 1]})");  // Community Chest
  g.ok(R"({"t": "draw", "deck": "chest", "card": "income_tax_refund"})");
  EXPECT_EQ(g.dump()["current"], "Ann");
  g.ok(R"({"t": "roll", "dice": [2, 2]})");  // Oriental Avenue
  g.ok(R"({"t": "choose", "player": "Ann", "option": "auction"})");
  g.ok(R"({"t": "close"})");
  EXPECT_EQ(g.space(6)["owner"], nullptr);
  EXPECT_EQ(g.dump()["current"], "Ann");
  g.ok(R"({"t": "roll", "dice": [3, 3]})");
  EXPECT_TRUE(g.player("Ann")["in_jail"]);
  EXPECT_EQ(g.position("Ann"), 10);
  EXPECT_EQ(g.dump()["current"], "Bob");
  EXPECT_EQ(g.cash("Ann"), 1520);
}

TEST(Salary, PassingAndLandingOnGoPayOnce) {
  ScriptedGame g(kTwoPlayers);
  g.ok(R"({"t": "adopt", "player": "Ann", "position": 38})");
  g.ok(R"({"t": "roll", "dice": [1, 2]})");  // to Mediterranean, passing GO
  EXPECT_EQ(g.cash("Ann"), 1700);
  g.ok(R"({"t": "choose", "player": "Ann", "option": "auction"})");
  g.ok(R"({"t": "close"})");
  g.ok(R"({"t": "adopt", "player": "Bob", "position": 36})");
  g.ok(R"({"t": "roll", "dice": [1, 3]})");  // lands exactly on GO
  EXPECT_EQ(g.position("Bob"), 0);
  EXPECT_EQ(g.cash("Bob"), 1700);
}

TEST(Salary, AdvanceToGoAfterPassingGoPaysTwice) {
  ScriptedGame g(kTwoPlayers);
  g.ok(R"({"t": "adopt", "player": "Ann", "position": 35})");
  g.ok(R"({"t": "roll", "dice": [6, 6]})");  // 35 + 12 = Chance at 7, passing GO
  EXPECT_EQ(g.cash("Ann"), 1700);
  g.ok(R"({"t": "draw", "deck": "chance", "card": "advance_to_go"})");
  EXPECT_EQ(g.position("Ann"), 0);
  EXPECT_EQ(g.cash("Ann"), 1900);
  EXPECT_EQ(g.dump()["current"], "Ann");  // the double still gives another throw
}

TEST(Buying, AuctionIsOpenToEveryoneIncludingTheDecliner) {
  ScriptedGame g(kThreePlayers);
  g.ok(R"({"t": "roll", "dice": [1, 2]})");
  g.ok(R"({"t": "choose", "player": "Ann", "option": "auction"})");
  EXPECT_NE(g.send(R"({"t": "roll", "dice": [1, 2]})"), "");
  g.ok(R"({"t": "bid", "player": "Bob", "amount": 5})");
  g.ok(R"({"t": "bid", "player": "Ann", "amount": 20})");
  EXPECT_NE(g.send(R"({"t": "bid", "player": "Cleo", "amount": 20})"), "");    // must beat the high bid
  EXPECT_NE(g.send(R"({"t": "bid", "player": "Cleo", "amount": 5000})"), "");  // more than she holds
  g.ok(R"({"t": "bid", "player": "Cleo", "amount": 21})");
  g.ok(R"({"t": "close"})");
  EXPECT_EQ(g.space(3)["owner"], "Cleo");
  EXPECT_EQ(g.cash("Cleo"), 1479);
  EXPECT_EQ(g.dump()["current"], "Bob");
}

TEST(Buying, CannotBuyWithoutTheCash) {
  ScriptedGame g(kTwoPlayers);
  g.ok(R"({"t": "adopt", "player": "Ann", "cash": 50})");
  g.ok(R"({"t": "roll", "dice": [1, 2]})");
  std::string why = g.send(R"({"t": "choose", "player": "Ann", "option": "buy"})");
  EXPECT_NE(why.find("raise money first"), std::string::npos) << why;
}

TEST(Rent, DoubleOnCompleteGroupStillDoubleWhenAnotherLotIsMortgagedAndNothingOnMortgaged) {
  ScriptedGame g(kTwoPlayers);
  g.ok(
      R"({"t": "adopt", "player": "Bob", "spaces": [{"space": 6}, {"space": 8}, {"space": 9, "mortgaged": true}]})");
  g.ok(R"({"t": "roll", "dice": [3, 3]})");  // Oriental: 6 doubled
  EXPECT_EQ(g.cash("Ann"), 1488);
  EXPECT_EQ(g.cash("Bob"), 1512);
  g.ok(R"({"t": "roll", "dice": [1, 2]})");  // Connecticut, mortgaged: nothing
  EXPECT_EQ(g.cash("Ann"), 1488);
  EXPECT_TRUE(g.pending().empty());
}

TEST(Rent, HousesHotelsRailroadsByCountUtilitiesByDice) {
  ScriptedGame g(kTwoPlayers);
  g.ok(R"({"t": "adopt", "player": "Bob", "spaces": [{"space": 1, "houses": 3}, {"space": 3, "houses": 3},
          {"space": 5}, {"space": 15}, {"space": 12}, {"space": 37, "houses": 4}, {"space": 39, "hotel": true}]})");
  g.ok(R"({"t": "adopt", "player": "Ann", "position": 0})");
  g.ok(R"({"t": "roll", "dice": [1, 2]})");  // Baltic with 3 houses: 180
  EXPECT_EQ(g.cash("Ann"), 1500 - 180);
  g.ok(R"({"t": "adopt", "player": "Bob", "position": 20})");
  g.ok(R"({"t": "roll", "dice": [6, 5]})");  // Bob's own turn to move: 31, Pacific (unowned)
  g.ok(R"({"t": "choose", "player": "Bob", "option": "auction"})");
  g.ok(R"({"t": "close"})");
  g.ok(R"({"t": "roll", "dice": [1, 1]})");  // Ann 3 -> 5, Reading: Bob has 2 railroads -> 50
  EXPECT_EQ(g.cash("Ann"), 1500 - 180 - 50);
  g.ok(R"({"t": "roll", "dice": [3, 4]})");  // Ann 5 -> 12, Electric Company, one utility: 4 x 7
  EXPECT_EQ(g.cash("Ann"), 1500 - 180 - 50 - 28);
  g.ok(R"({"t": "adopt", "player": "Bob", "spaces": [{"space": 28}]})");
  g.ok(R"({"t": "roll", "dice": [1, 1]})");  // Bob 31 -> 33 chest
  g.ok(R"({"t": "draw", "deck": "chest", "card": "beauty_contest"})");
  g.ok(R"({"t": "roll", "dice": [1, 2]})");  // Bob -> 36 chance
  g.ok(R"({"t": "draw", "deck": "chance", "card": "bank_dividend"})");
  g.ok(R"({"t": "adopt", "player": "Ann", "position": 23})");
  g.ok(R"({"t": "roll", "dice": [2, 3]})");  // Ann -> 28 Water Works; both utilities: 10 x 5
  EXPECT_EQ(g.cash("Ann"), 1500 - 180 - 50 - 28 - 50);
  g.ok(R"({"t": "adopt", "player": "Ann", "position": 30, "in_jail": false})");
  g.ok(R"({"t": "adopt", "player": "Bob", "position": 0})");
  g.ok(R"({"t": "roll", "dice": [1, 1]})");  // Bob -> 2 chest
  g.ok(R"({"t": "draw", "deck": "chest", "card": "beauty_contest"})");
  g.ok(R"({"t": "roll", "dice": [1, 2]})");  // Bob -> 5, his own railroad
  g.ok(R"({"t": "roll", "dice": [3, 6]})");  // Ann 30 -> 39, Boardwalk with a hotel: 2000
  auto q = g.pending();
  ASSERT_EQ(q.size(), 1u);
  EXPECT_EQ(q[0]["question"], "debt");
  EXPECT_EQ(q[0]["amount"], 2000);
}

TEST(Cards, NearestUtilityChargesTenTimesAFreshThrow) {
  ScriptedGame g(kTwoPlayers);
  g.ok(R"({"t": "adopt", "player": "Bob", "spaces": [{"space": 12}]})");
  g.ok(R"({"t": "adopt", "player": "Ann", "position": 5})");
  g.ok(R"({"t": "roll", "dice": [1, 1]})");  // Chance at 7
  g.ok(R"({"t": "draw", "deck": "chance", "card": "advance_to_nearest_utility"})");
  EXPECT_EQ(g.position("Ann"), 12);
  EXPECT_NE(g.send(R"({"t": "build", "player": "Ann", "space": 99})"), "");
  g.ok(R"({"t": "roll", "dice": [3, 4]})");  // the fresh throw: 7 x 10
  EXPECT_EQ(g.cash("Ann"), 1430);
  EXPECT_EQ(g.cash("Bob"), 1570);
  EXPECT_EQ(g.position("Ann"), 12);       // the throw moves nothing
  EXPECT_EQ(g.dump()["current"], "Ann");  // the first throw was a double
}

TEST(Cards, NearestRailroadPaysTwiceTheRental) {
  ScriptedGame g(kTwoPlayers);
  g.ok(R"({"t": "adopt", "player": "Bob", "spaces": [{"space": 25}, {"space": 5}]})");
  g.ok(R"({"t": "adopt", "player": "Ann", "position": 20})");
  g.ok(R"({"t": "roll", "dice": [1, 1]})");  // Chance at 22
  g.ok(R"({"t": "draw", "deck": "chance", "card": "advance_to_nearest_railroad"})");
  EXPECT_EQ(g.position("Ann"), 25);
  EXPECT_EQ(g.cash("Ann"), 1400);  // 2 x 50
}

TEST(Cards, GoBackThreeOntoIncomeTaxAsksTheTaxQuestion) {
  ScriptedGame g(kTwoPlayers);
  g.ok(R"({"t": "adopt", "player": "Ann", "position": 2})");
  g.ok(R"({"t": "roll", "dice": [2, 3]})");  // Chance at 7
  g.ok(R"({"t": "draw", "deck": "chance", "card": "go_back_3"})");
  EXPECT_EQ(g.position("Ann"), 4);
  auto q = g.pending();
  ASSERT_EQ(q.size(), 1u);
  EXPECT_EQ(q[0]["question"], "tax");
  g.ok(R"({"t": "choose", "player": "Ann", "option": "pay_fixed"})");
  EXPECT_EQ(g.cash("Ann"), 1300);
}

TEST(Tax, TenPercentCountsMortgagedPropertyAtPrintedPriceAndBuildingsAtCost) {
  ScriptedGame g(kTwoPlayers);
  g.ok(
      R"({"t": "adopt", "player": "Ann", "cash": 1000, "spaces": [{"space": 1, "houses": 2}, {"space": 3, "houses": 2},
          {"space": 5, "mortgaged": true}, {"space": 39, "mortgaged": true}]})");
  g.ok(R"({"t": "roll", "dice": [1, 3]})");  // Income Tax
  g.ok(R"({"t": "choose", "player": "Ann", "option": "pay_percent"})");
  // worth: 1000 cash + 60 + 60 + 200 + 400 printed prices + 4 houses x 50 = 1920 -> 192
  EXPECT_EQ(g.cash("Ann"), 1000 - 192);
}

TEST(Tax, LuxuryTaxIsFlat) {
  ScriptedGame g(kTwoPlayers);
  g.ok(R"({"t": "adopt", "player": "Ann", "position": 35})");
  g.ok(R"({"t": "roll", "dice": [1, 2]})");
  EXPECT_EQ(g.cash("Ann"), 1425);
}

TEST(Jail, GoToJailSpaceCardAndNoSalary) {
  ScriptedGame g(kTwoPlayers);
  g.ok(R"({"t": "adopt", "player": "Ann", "position": 25})");
  g.ok(R"({"t": "roll", "dice": [2, 3]})");
  EXPECT_TRUE(g.player("Ann")["in_jail"]);
  EXPECT_EQ(g.position("Ann"), 10);
  EXPECT_EQ(g.cash("Ann"), 1500);
  g.ok(R"({"t": "adopt", "player": "Bob", "position": 35})");
  g.ok(R"({"t": "roll", "dice": [1, 6]})");  // wait: 35 + 7 = 2 Community Chest, passing GO
  g.ok(R"({"t": "draw", "deck": "chest", "card": "go_to_jail"})");
  EXPECT_TRUE(g.player("Bob")["in_jail"]);
  EXPECT_EQ(g.cash("Bob"), 1700);  // the salary for passing GO on the throw stays
}

TEST(Jail, DoublesLeaveJailMovingByThatThrowWithNoExtraThrow) {
  ScriptedGame g(kTwoPlayers);
  g.ok(R"({"t": "adopt", "player": "Ann", "in_jail": true})");
  auto q = g.pending();
  ASSERT_EQ(q.size(), 1u);
  EXPECT_EQ(q[0]["question"], "jail");
  g.ok(R"({"t": "roll", "dice": [4, 4]})");
  EXPECT_FALSE(g.player("Ann")["in_jail"]);
  EXPECT_EQ(g.position("Ann"), 18);
  g.ok(R"({"t": "choose", "player": "Ann", "option": "auction"})");
  g.ok(R"({"t": "close"})");
  EXPECT_EQ(g.dump()["current"], "Bob");
}

TEST(Jail, ChoosingRollThenRollingIsTheSameAsRolling) {
  ScriptedGame g(kTwoPlayers);
  g.ok(R"({"t": "adopt", "player": "Ann", "in_jail": true})");
  g.ok(R"({"t": "choose", "player": "Ann", "option": "roll"})");
  EXPECT_TRUE(g.pending().empty());
  EXPECT_NE(g.send(R"({"t": "build", "player": "Ann", "space": 77})"), "");
  g.ok(R"({"t": "roll", "dice": [2, 2]})");
  EXPECT_FALSE(g.player("Ann")["in_jail"]);
  EXPECT_EQ(g.position("Ann"), 14);
}

TEST(Jail, ThirdFailedThrowForcesTheFineThenMoves) {
  ScriptedGame g(kTwoPlayers);
  g.ok(R"({"t": "adopt", "player": "Ann", "in_jail": true})");
  for (int turn = 0; turn < 2; ++turn) {
    g.ok(R"({"t": "roll", "dice": [1, 2]})");  // Ann fails
    EXPECT_TRUE(g.player("Ann")["in_jail"]);
    g.ok(R"({"t": "roll", "dice": [1, 2]})");  // Bob moves on to Baltic, then Oriental
    if (!g.pending().empty() && g.pending()[0]["question"] == "buy") {
      g.ok(R"({"t": "choose", "player": "Bob", "option": "auction"})");
      g.ok(R"({"t": "close"})");
    }
  }
  auto q = g.pending();
  ASSERT_EQ(q[0]["question"], "jail");
  EXPECT_EQ(q[0]["options"], nlohmann::json({"roll"}));  // no fine before the third throw
  g.ok(R"({"t": "roll", "dice": [1, 2]})");
  EXPECT_FALSE(g.player("Ann")["in_jail"]);
  EXPECT_EQ(g.position("Ann"), 13);
  EXPECT_EQ(g.cash("Ann"), 1450);
}

TEST(Jail, PayTheFineOrUseTheCardBeforeRolling) {
  ScriptedGame g(kTwoPlayers);
  g.ok(R"({"t": "adopt", "player": "Ann", "in_jail": true, "cards": 1})");
  EXPECT_EQ(g.pending()[0]["options"], nlohmann::json({"pay_fine", "use_card", "roll"}));
  g.ok(R"({"t": "choose", "player": "Ann", "option": "use_card"})");
  EXPECT_FALSE(g.player("Ann")["in_jail"]);
  EXPECT_EQ(g.player("Ann")["cards"], 0);
  g.ok(R"({"t": "roll", "dice": [2, 2]})");  // a normal turn: doubles give another throw
  EXPECT_EQ(g.position("Ann"), 14);
  g.ok(R"({"t": "choose", "player": "Ann", "option": "auction"})");
  g.ok(R"({"t": "close"})");
  EXPECT_EQ(g.dump()["current"], "Ann");
  g.ok(R"({"t": "adopt", "player": "Bob", "in_jail": true})");
  g.ok(R"({"t": "roll", "dice": [2, 3]})");
  g.ok(R"({"t": "choose", "player": "Ann", "option": "auction"})");
  g.ok(R"({"t": "close"})");
  g.ok(R"({"t": "choose", "player": "Bob", "option": "pay_fine"})");
  EXPECT_EQ(g.cash("Bob"), 1450);
  EXPECT_FALSE(g.player("Bob")["in_jail"]);
}

TEST(Cards, GetOutOfJailCardIsKeptAndCanBeSold) {
  ScriptedGame g(kTwoPlayers);
  g.ok(R"({"t": "roll", "dice": [1, 1]})");
  g.ok(R"({"t": "draw", "deck": "chest", "card": "get_out_of_jail"})");
  EXPECT_EQ(g.player("Ann")["cards"], 1);
  EXPECT_NE(g.send(R"({"t": "draw", "deck": "chest", "card": "get_out_of_jail"})"), "");
  g.ok(R"({"t": "trade", "from": "Ann", "to": "Bob", "give": {"cards": 1}, "get": {"cash": 30}})");
  EXPECT_EQ(g.player("Bob")["cards"], 1);
  EXPECT_EQ(g.cash("Ann"), 1530);
}

TEST(Cards, AUsedGetOutOfJailCardGoesBackToItsDeck) {
  ScriptedGame g(kTwoPlayers);
  g.ok(R"({"t": "roll", "dice": [1, 1]})");
  g.ok(R"({"t": "draw", "deck": "chest", "card": "get_out_of_jail"})");
  g.ok(R"({"t": "roll", "dice": [3, 4]})");  // Ann's extra throw: 2 -> 9 Connecticut Avenue
  g.ok(R"({"t": "choose", "player": "Ann", "option": "auction"})");
  g.ok(R"({"t": "close"})");
  g.ok(R"({"t": "adopt", "player": "Ann", "in_jail": true})");  // she is sent to jail while Bob plays
  g.ok(R"({"t": "roll", "dice": [1, 2]})");                     // Bob 0 -> 3 Baltic Avenue
  g.ok(R"({"t": "choose", "player": "Bob", "option": "auction"})");
  g.ok(R"({"t": "close"})");
  g.ok(R"({"t": "choose", "player": "Ann", "option": "use_card"})");
  EXPECT_EQ(g.player("Ann")["cards"], 0);
  g.ok(R"({"t": "roll", "dice": [3, 4]})");                              // Ann 10 -> 17 Community Chest
  g.ok(R"({"t": "draw", "deck": "chest", "card": "get_out_of_jail"})");  // the card is back in the deck
  EXPECT_EQ(g.player("Ann")["cards"], 1);
}

TEST(Spaces, FreeParkingPaysNothing) {
  ScriptedGame g(kTwoPlayers);
  g.ok(R"({"t": "adopt", "player": "Ann", "position": 15})");
  g.ok(R"({"t": "roll", "dice": [2, 3]})");
  EXPECT_EQ(g.position("Ann"), 20);
  EXPECT_EQ(g.cash("Ann"), 1500);
  EXPECT_TRUE(g.pending().empty());
  EXPECT_EQ(g.dump()["current"], "Bob");
}

TEST(Cards, BirthdayAndChairmanMoveMoneyBetweenPlayers) {
  ScriptedGame g(kThreePlayers);
  g.ok(R"({"t": "roll", "dice": [1, 1]})");
  g.ok(R"({"t": "draw", "deck": "chest", "card": "birthday"})");
  EXPECT_EQ(g.cash("Ann"), 1600);
  EXPECT_EQ(g.cash("Bob"), 1450);
  g.ok(R"({"t": "roll", "dice": [2, 3]})");  // Chance at 7
  g.ok(R"({"t": "draw", "deck": "chance", "card": "chairman_of_the_board"})");
  EXPECT_EQ(g.cash("Ann"), 1500);
  EXPECT_EQ(g.cash("Cleo"), 1500);
}

TEST(Debt, RaisingMoneyPaysTheDebtAutomatically) {
  ScriptedGame g(kTwoPlayers);
  g.ok(
      R"({"t": "adopt", "player": "Bob", "spaces": [{"space": 39, "hotel": true}, {"space": 37, "houses": 4}]})");
  g.ok(
      R"({"t": "adopt", "player": "Ann", "cash": 100, "position": 30, "spaces": [{"space": 5}, {"space": 15}]})");
  g.ok(R"({"t": "roll", "dice": [4, 5]})");
  ASSERT_EQ(g.pending()[0]["question"], "debt");
  EXPECT_NE(g.send(R"({"t": "roll", "dice": [1, 2]})"), "");
  g.ok(R"({"t": "mortgage", "player": "Ann", "space": 5})");
  EXPECT_EQ(g.cash("Ann"), 200);
  EXPECT_EQ(g.pending()[0]["question"], "debt");
  EXPECT_NE(g.send(R"({"t": "bankrupt", "player": "Bob"})"), "");
  g.ok(R"({"t": "bankrupt", "player": "Ann"})");
  EXPECT_TRUE(g.player("Ann")["bankrupt"]);
  EXPECT_TRUE(g.dump()["ended"]);
  EXPECT_EQ(g.dump()["winner"], "Bob");
}

TEST(Buildings, BuildEvenlyOnlyOnCompleteUnmortgagedGroups) {
  ScriptedGame g(kTwoPlayers);
  g.ok(R"({"t": "adopt", "player": "Ann", "spaces": [{"space": 1}]})");
  std::string why = g.send(R"({"t": "build", "player": "Ann", "space": 1})");
  EXPECT_NE(why.find("needs the whole Brown group"), std::string::npos) << why;
  g.ok(R"({"t": "adopt", "player": "Ann", "spaces": [{"space": 3, "mortgaged": true}]})");
  EXPECT_NE(g.send(R"({"t": "build", "player": "Ann", "space": 1})"), "");
  g.ok(R"({"t": "unmortgage", "player": "Ann", "space": 3})");
  EXPECT_EQ(g.cash("Ann"), 1500 - 33);
  g.ok(R"({"t": "build", "player": "Ann", "space": 1})");
  why = g.send(R"({"t": "build", "player": "Ann", "space": 1})");
  EXPECT_NE(why.find("build evenly: Baltic Avenue has fewer houses"), std::string::npos) << why;
  g.ok(R"({"t": "build", "player": "Ann", "space": 3})");
  g.ok(R"({"t": "build", "player": "Ann", "space": 3})");
  EXPECT_EQ(g.space(3)["houses"], 2);
  EXPECT_EQ(g.cash("Ann"), 1500 - 33 - 150);
  EXPECT_EQ(g.dump()["bank"]["houses"], 29);
  why = g.send(R"({"t": "mortgage", "player": "Ann", "space": 1})");
  EXPECT_NE(why.find("sell the buildings"), std::string::npos) << why;
}

TEST(Buildings, HotelAfterFourHousesReturnsThemToTheBank) {
  ScriptedGame g(kTwoPlayers);
  g.ok(
      R"({"t": "adopt", "player": "Ann", "spaces": [{"space": 37, "houses": 4}, {"space": 39, "houses": 4}]})");
  EXPECT_EQ(g.dump()["bank"]["houses"], 24);
  g.ok(R"({"t": "build", "player": "Ann", "space": 39})");
  EXPECT_TRUE(g.space(39)["hotel"]);
  EXPECT_EQ(g.space(39)["houses"], 0);
  EXPECT_EQ(g.dump()["bank"]["houses"], 28);
  EXPECT_EQ(g.dump()["bank"]["hotels"], 11);
  EXPECT_EQ(g.cash("Ann"), 1300);
  EXPECT_NE(g.send(R"({"t": "build", "player": "Ann", "space": 39})"), "");
}

TEST(Buildings, ShortageStopsBuildingAndAuctionsTheLastHouses) {
  ScriptedGame g(kThreePlayers);
  // 28 houses on the board leave 4 in the bank.
  g.ok(R"({"t": "adopt", "player": "Bob", "spaces": [{"space": 31, "houses": 4}, {"space": 32, "houses": 4},
          {"space": 34, "houses": 4}, {"space": 26, "houses": 4}, {"space": 27, "houses": 4}, {"space": 29, "houses": 4},
          {"space": 37, "houses": 2}, {"space": 39, "houses": 2}]})");
  g.ok(R"({"t": "adopt", "player": "Ann", "spaces": [{"space": 1}, {"space": 3}]})");
  g.ok(R"({"t": "adopt", "player": "Cleo", "spaces": [{"space": 6}, {"space": 8}, {"space": 9}]})");
  EXPECT_EQ(g.dump()["bank"]["houses"], 4);
  g.ok(R"({"t": "auction", "item": "house"})");
  g.ok(R"({"t": "bid", "player": "Ann", "amount": 60})");
  g.ok(R"({"t": "bid", "player": "Cleo", "amount": 80})");
  g.ok(R"({"t": "close"})");
  EXPECT_EQ(g.cash("Cleo"), 1420);
  EXPECT_EQ(g.dump()["bank"]["houses"], 3);
  g.ok(R"({"t": "build", "player": "Cleo", "space": 6})");  // already paid at the auction
  EXPECT_EQ(g.cash("Cleo"), 1420);
  g.ok(R"({"t": "build", "player": "Ann", "space": 1})");
  g.ok(R"({"t": "build", "player": "Ann", "space": 3})");
  g.ok(R"({"t": "build", "player": "Ann", "space": 1})");
  std::string why = g.send(R"({"t": "build", "player": "Ann", "space": 3})");
  EXPECT_NE(why.find("no houses left"), std::string::npos) << why;
}

TEST(Buildings, SellBackAtHalfPriceEvenlyAndAHotelAsFiveHouses) {
  ScriptedGame g(kTwoPlayers);
  g.ok(
      R"({"t": "adopt", "player": "Ann", "spaces": [{"space": 1, "houses": 2}, {"space": 3, "houses": 1}]})");
  std::string why = g.send(R"({"t": "sell", "player": "Ann", "space": 3})");
  EXPECT_NE(why.find("sell evenly"), std::string::npos) << why;
  g.ok(R"({"t": "sell", "player": "Ann", "space": 1})");
  EXPECT_EQ(g.cash("Ann"), 1525);
  g.ok(
      R"({"t": "adopt", "player": "Ann", "spaces": [{"space": 37, "hotel": true}, {"space": 39, "hotel": true}]})");
  g.ok(R"({"t": "sell", "player": "Ann", "space": 39})");
  EXPECT_EQ(g.space(39)["houses"], 4);
  EXPECT_FALSE(g.space(39)["hotel"]);
  EXPECT_EQ(g.cash("Ann"), 1625);
}

// "All hotels on one color-group may be sold at once." The bank holds only 2 houses: the hotels come down
// to the houses the bank already has, one each; the sale is shown lot by lot and must be confirmed.
TEST(Buildings, HotelSoldWhenTheBankHasTooFewHousesIsAConfirmedGroupSale) {
  ScriptedGame g(kTwoPlayers);
  // 30 houses on the board and two hotels on the dark blues: the bank holds only 2 houses.
  g.ok(R"({"t": "adopt", "player": "Bob", "spaces": [{"space": 31, "houses": 4}, {"space": 32, "houses": 4},
          {"space": 34, "houses": 4}, {"space": 26, "houses": 4}, {"space": 27, "houses": 4}, {"space": 29, "houses": 4},
          {"space": 21, "houses": 2}, {"space": 23, "houses": 2}, {"space": 24, "houses": 2}]})");
  g.ok(
      R"({"t": "adopt", "player": "Ann", "spaces": [{"space": 37, "hotel": true}, {"space": 39, "hotel": true}]})");
  EXPECT_EQ(g.dump()["bank"]["houses"], 2);
  auto plan = g.game().sale_plan(rules::PlayerId{0}, SpaceId{39});
  ASSERT_TRUE(plan) << plan.error();
  ASSERT_EQ(plan->lots.size(), 2u);
  EXPECT_TRUE(plan->changes_other_lots());
  EXPECT_EQ(plan->lots[0].space, rules::SpaceId{39});  // the chosen lot first
  EXPECT_TRUE(plan->lots[0].hotel_before);
  EXPECT_EQ(plan->lots[0].houses_after, 1);
  EXPECT_EQ(plan->lots[0].refund, 4 * 100);
  EXPECT_EQ(plan->lots[1].space, rules::SpaceId{37});
  EXPECT_EQ(plan->lots[1].houses_after, 1);
  EXPECT_EQ(plan->total, 800);
  EXPECT_EQ(plan->bank_houses_after, 0);
  // One tap on Boardwalk must not change Park Place unseen.
  std::string why = g.send(R"({"t": "sell", "player": "Ann", "space": 39})");
  EXPECT_NE(why.find("changes Park Place too ($800 in all)"), std::string::npos) << why;
  auto out = g.game().apply(Sell{rules::PlayerId{0}, SpaceId{39}, true});
  ASSERT_TRUE(out) << out.error();
  EXPECT_FALSE(g.space(39)["hotel"]);
  EXPECT_FALSE(g.space(37)["hotel"]);
  EXPECT_EQ(g.space(39)["houses"], 1);
  EXPECT_EQ(g.space(37)["houses"], 1);
  EXPECT_EQ(g.dump()["bank"]["houses"], 0);
  EXPECT_EQ(g.dump()["bank"]["hotels"], 12);
  EXPECT_EQ(g.cash("Ann"), 1500 + 2 * 4 * 100);
  // Exactly what the plan said, one posting and one event per lot.
  ASSERT_EQ(out->events.size(), 2u);
  EXPECT_EQ(g.game().describe(out->events[0]), "Ann sells the hotel on Boardwalk: 1 house left");
  EXPECT_EQ(g.game().state().postings.size() - out->first_posting, 2u);
}

TEST(Buildings, AHotelSoldWithHousesInTheBankTouchesOnlyItsLot) {
  ScriptedGame g(kTwoPlayers);
  g.ok(
      R"({"t": "adopt", "player": "Ann", "spaces": [{"space": 37, "hotel": true}, {"space": 39, "hotel": true}]})");
  auto plan = g.game().sale_plan(rules::PlayerId{0}, SpaceId{39});
  ASSERT_TRUE(plan);
  ASSERT_EQ(plan->lots.size(), 1u);
  EXPECT_FALSE(plan->changes_other_lots());
  EXPECT_EQ(plan->lots[0].houses_after, 4);
  EXPECT_EQ(plan->total, 100);
  EXPECT_EQ(g.send(R"({"t": "sell", "player": "Ann", "space": 39})"), "");
}

// The stricter reading as an edition switch: the sale waits until the bank has the houses.
TEST(Buildings, StrictHotelSaleWaitsForTheBanksHouses) {
  ScriptedGame g(
      R"({"setup": {"edition": "classic", "players": ["Ann", "Bob"], "options": {"strict_hotel_sale": true}, "seed": 7}})");
  g.ok(R"({"t": "adopt", "player": "Bob", "spaces": [{"space": 31, "houses": 4}, {"space": 32, "houses": 4},
          {"space": 34, "houses": 4}, {"space": 26, "houses": 4}, {"space": 27, "houses": 4}, {"space": 29, "houses": 4},
          {"space": 21, "houses": 2}, {"space": 23, "houses": 2}, {"space": 24, "houses": 2}]})");
  g.ok(
      R"({"t": "adopt", "player": "Ann", "spaces": [{"space": 37, "hotel": true}, {"space": 39, "hotel": true}]})");
  auto why = g.game().why_not_sell(rules::PlayerId{0}, SpaceId{39});
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("the bank has 2 houses"), std::string::npos) << *why;
  EXPECT_NE(g.send(R"({"t": "sell", "player": "Ann", "space": 39, "group": true})"), "");
  g.ok(R"({"t": "sell", "player": "Bob", "space": 31})");
  g.ok(R"({"t": "sell", "player": "Bob", "space": 32})");
  g.ok(R"({"t": "sell", "player": "Ann", "space": 39})");
  EXPECT_EQ(g.space(39)["houses"], 4);
  EXPECT_TRUE(g.space(37)["hotel"]);
}

TEST(Mortgages, MortgageForTheValueLiftForValuePlusTenPercent) {
  ScriptedGame g(kTwoPlayers);
  g.ok(R"({"t": "adopt", "player": "Ann", "spaces": [{"space": 37}]})");
  g.ok(R"({"t": "mortgage", "player": "Ann", "space": 37})");
  EXPECT_EQ(g.cash("Ann"), 1675);
  EXPECT_NE(g.send(R"({"t": "mortgage", "player": "Ann", "space": 37})"), "");
  g.ok(R"({"t": "unmortgage", "player": "Ann", "space": 37})");
  EXPECT_EQ(g.cash("Ann"), 1675 - 175 - 18);  // 17.50 interest, rounded up
}

TEST(Trades, NoSaleWhileTheGroupHasBuildingsAndNoLoans) {
  ScriptedGame g(kTwoPlayers);
  g.ok(
      R"({"t": "adopt", "player": "Ann", "spaces": [{"space": 1, "houses": 1}, {"space": 3}, {"space": 5}]})");
  std::string why =
      g.send(R"({"t": "trade", "from": "Ann", "to": "Bob", "give": {"spaces": [3]}, "get": {"cash": 100}})");
  EXPECT_NE(why.find("sell them to the bank first"), std::string::npos) << why;
  why = g.send(R"({"t": "trade", "from": "Ann", "to": "Bob", "give": {"cash": 100}, "get": {}})");
  EXPECT_NE(why.find("no loans"), std::string::npos) << why;
  g.ok(R"({"t": "trade", "from": "Ann", "to": "Bob", "give": {"spaces": [5]}, "get": {"cash": 250}})");
  EXPECT_EQ(g.space(5)["owner"], "Bob");
  EXPECT_EQ(g.cash("Ann"), 1750);
}

TEST(Trades, MortgagedPropertyCostsInterestAtOnceAndAgainWhenLiftedLater) {
  ScriptedGame g(kTwoPlayers);
  g.ok(
      R"({"t": "adopt", "player": "Ann", "spaces": [{"space": 5, "mortgaged": true}, {"space": 15, "mortgaged": true}]})");
  g.ok(R"({"t": "trade", "from": "Ann", "to": "Bob", "give": {"spaces": [5, 15]}, "get": {"cash": 100}})");
  auto q = g.pending();
  ASSERT_EQ(q.size(), 2u);
  EXPECT_EQ(q[0]["question"], "mortgaged_transfer");
  EXPECT_EQ(q[0]["options"], nlohmann::json({"lift", "keep"}));
  g.ok(R"({"t": "choose", "player": "Bob", "option": "lift"})");
  EXPECT_EQ(g.cash("Bob"), 1400 - 110);
  EXPECT_FALSE(g.space(5)["mortgaged"]);
  g.ok(R"({"t": "choose", "player": "Bob", "option": "keep"})");
  EXPECT_EQ(g.cash("Bob"), 1400 - 110 - 10);
  EXPECT_TRUE(g.space(15)["mortgaged"]);
  g.ok(R"({"t": "unmortgage", "player": "Bob", "space": 15})");
  EXPECT_EQ(g.cash("Bob"), 1400 - 110 - 10 - 110);
}

TEST(Bankruptcy, ToAPlayerBuildingsSoldAtHalfAndMortgagedPropertyPassesWithInterest) {
  ScriptedGame g(kThreePlayers);
  g.ok(
      R"({"t": "adopt", "player": "Bob", "spaces": [{"space": 39, "hotel": true}, {"space": 37, "hotel": true}]})");
  g.ok(R"({"t": "adopt", "player": "Ann", "cash": 100, "position": 30, "cards": 1,
          "spaces": [{"space": 1, "houses": 1}, {"space": 3, "houses": 1}, {"space": 12, "mortgaged": true}]})");
  g.ok(R"({"t": "roll", "dice": [4, 5]})");
  g.ok(R"({"t": "bankrupt", "player": "Ann"})");
  // Ann's 2 houses go back at half (50) and her 100 cash go to Bob, with her properties and her card.
  EXPECT_EQ(g.cash("Bob"), 1500 + 150);
  EXPECT_EQ(g.player("Bob")["cards"], 1);
  EXPECT_EQ(g.space(1)["owner"], "Bob");
  EXPECT_EQ(g.space(1)["houses"], 0);
  EXPECT_EQ(g.space(12)["owner"], "Bob");
  auto q = g.pending();
  ASSERT_EQ(q.size(), 1u);
  EXPECT_EQ(q[0]["player"], "Bob");
  EXPECT_EQ(q[0]["question"], "mortgaged_transfer");
  g.ok(R"({"t": "choose", "player": "Bob", "option": "keep"})");
  EXPECT_EQ(g.cash("Bob"), 1650 - 8);
  EXPECT_FALSE(g.dump()["ended"]);
  EXPECT_EQ(g.dump()["current"], "Bob");
}

TEST(Bankruptcy, ToTheBankPropertiesAreAuctionedWithoutBuildings) {
  ScriptedGame g(kThreePlayers);
  g.ok(R"({"t": "adopt", "player": "Ann", "cash": 10, "position": 35, "spaces": [{"space": 1, "houses": 1},
          {"space": 3, "houses": 1}, {"space": 5}]})");
  g.ok(R"({"t": "roll", "dice": [1, 2]})");  // Luxury Tax 75
  ASSERT_EQ(g.pending()[0]["question"], "debt");
  g.ok(R"({"t": "bankrupt", "player": "Ann"})");
  EXPECT_EQ(g.dump()["bank"]["houses"], 32);
  auto auction = g.dump()["auction"];
  ASSERT_FALSE(auction.is_null());
  EXPECT_EQ(auction["space"], 1);
  g.ok(R"({"t": "bid", "player": "Cleo", "amount": 40})");
  g.ok(R"({"t": "close"})");
  EXPECT_EQ(g.space(1)["owner"], "Cleo");
  EXPECT_EQ(g.dump()["auction"]["space"], 3);
  g.ok(R"({"t": "close"})");
  EXPECT_EQ(g.dump()["auction"]["space"], 5);
  g.ok(R"({"t": "close"})");
  EXPECT_TRUE(g.dump()["auction"].is_null());
  EXPECT_EQ(g.dump()["current"], "Bob");
}

TEST(Undo, TakesBackTheLastInputWithCompensatingPostings) {
  ScriptedGame g(kTwoPlayers);
  g.ok(R"({"t": "roll", "dice": [1, 2]})");
  g.ok(R"({"t": "choose", "player": "Ann", "option": "buy"})");
  auto before = g.dump()["postings"].size();
  g.ok(R"({"t": "undo"})");
  EXPECT_EQ(g.cash("Ann"), 1500);
  EXPECT_EQ(g.space(3)["owner"], nullptr);
  EXPECT_EQ(g.pending()[0]["question"], "buy");
  auto postings = g.dump()["postings"];
  ASSERT_EQ(postings.size(), before + 1);
  EXPECT_EQ(postings.back()["from"], "bank");
  EXPECT_EQ(postings.back()["to"], "Ann");
  EXPECT_EQ(postings.back()["memo"], "undo");
  g.ok(R"({"t": "choose", "player": "Ann", "option": "auction"})");
  g.ok(R"({"t": "undo"})");
  g.ok(R"({"t": "undo"})");
  EXPECT_EQ(g.position("Ann"), 0);
  EXPECT_NE(g.send(R"({"t": "undo"})"), "");
}

TEST(ShortGame, DealsTwoPaidDeedsHotelAfterThreeHousesEndsAtSecondBankruptcy) {
  ScriptedGame g(R"({"setup": {"edition": "classic", "players": [{"name": "Ann", "deeds": [1, 3]},
      {"name": "Bob", "deeds": [37, 39]}, {"name": "Cleo"}], "options": {"short_game": true}, "seed": 3}})");
  EXPECT_EQ(g.space(1)["owner"], "Ann");
  EXPECT_EQ(g.cash("Ann"), 1380);
  EXPECT_EQ(g.cash("Bob"), 750);
  int cleo_deeds = 0;
  auto state = g.dump();
  for (const auto& s : state["spaces"]) cleo_deeds += s["owner"] == "Cleo";
  EXPECT_EQ(cleo_deeds, 2);
  for (int i = 0; i < 3; ++i) {
    g.ok(R"({"t": "build", "player": "Ann", "space": 1})");
    g.ok(R"({"t": "build", "player": "Ann", "space": 3})");
  }
  g.ok(R"({"t": "build", "player": "Ann", "space": 1, "hotel": true})");
  EXPECT_TRUE(g.space(1)["hotel"]);
  g.ok(R"({"t": "adopt", "player": "Ann", "cash": 0})");
  g.ok(R"({"t": "adopt", "player": "Cleo", "cash": 0})");
  g.ok(R"({"t": "adopt", "player": "Ann", "position": 32})");
  g.ok(R"({"t": "roll", "dice": [2, 3]})");  // Ann -> 37, Bob's Park Place: 70 doubled
  g.ok(R"({"t": "bankrupt", "player": "Ann"})");
  EXPECT_FALSE(g.dump()["ended"]);
  g.ok(R"({"t": "adopt", "player": "Bob", "position": 0})");
  g.ok(R"({"t": "adopt", "player": "Cleo", "position": 35})");
  g.ok(R"({"t": "roll", "dice": [1, 2]})");  // Bob -> Baltic, now his, with buildings
  g.ok(R"({"t": "roll", "dice": [1, 2]})");  // Cleo -> Luxury Tax with no cash
  g.ok(R"({"t": "bankrupt", "player": "Cleo"})");
  EXPECT_TRUE(g.dump()["ended"]);
  EXPECT_EQ(g.dump()["winner"], "Bob");
}

TEST(TimeLimit, EndNamesTheRichestPlayer) {
  ScriptedGame g(
      R"({"setup": {"edition": "classic", "players": ["Ann", "Bob"], "options": {"time_limit": true}, "seed": 9}})");
  g.ok(R"({"t": "adopt", "player": "Bob", "cash": 5000})");
  g.ok(R"({"t": "end"})");
  EXPECT_TRUE(g.dump()["ended"]);
  EXPECT_EQ(g.dump()["winner"], "Bob");
  EXPECT_NE(g.send(R"({"t": "roll", "dice": [1, 2]})"), "");
}

// "THE RICHEST SLIDER WINS!": when the richest are equal, they share the win. Each winner has a game_over
// event (the ledger keeps them), and the words say it is a tie.
TEST(TimeLimit, EqualRichestPlayersShareTheWin) {
  ScriptedGame g(
      R"({"setup": {"edition": "classic", "players": ["Ann", "Bob", "Cleo"], "options": {"time_limit": true}, "seed": 9}})");
  g.ok(R"({"t": "adopt", "player": "Ann", "cash": 4000, "spaces": []})");
  Money ann = g.game().worth(rules::PlayerId{0});
  Money bob_cash = ann - (g.game().worth(rules::PlayerId{1}) - g.cash("Bob"));
  g.ok(fmt::format(R"({{"t": "adopt", "player": "Bob", "cash": {}}})", bob_cash));
  ASSERT_EQ(g.game().worth(rules::PlayerId{1}), ann);
  auto out = g.game().apply(End{});
  ASSERT_TRUE(out);
  EXPECT_EQ(g.dump()["winner"], nullptr);
  EXPECT_EQ(g.dump()["winners"], nlohmann::json::array({"Ann", "Bob"}));
  ASSERT_EQ(out->events.size(), 2u);
  EXPECT_EQ(out->events[0].kind, Event::Kind::game_over);
  EXPECT_EQ(out->events[0].player, PlayerId{0});
  EXPECT_EQ(out->events[0].winners, 2);
  EXPECT_EQ(out->events[0].amount, ann);
  EXPECT_EQ(out->events[1].player, PlayerId{1});
  EXPECT_EQ(g.game().describe(out->events[0]), "The game is over: a tie, Ann shares the win with Bob");
  EXPECT_NE(state_summary(g.game()).find("WINNER (tie)"), std::string::npos);
  // A snapshot keeps the shared win.
  auto restored =
      Game::restore(g.game().edition_ptr(), g.game().setup(), g.game().snapshot(), g.game().state().postings);
  ASSERT_TRUE(restored) << restored.error();
  EXPECT_EQ(restored->state().winners, (std::vector<PlayerId>{PlayerId{0}, PlayerId{1}}));
  EXPECT_EQ(restored->signature(), g.game().signature());
}

TEST(Setup, UnknownOptionIsAnError) {
  auto setup = parse_setup(
      R"({"setup": {"edition": "classic", "players": ["Ann", "Bob"], "options": {"free_parking_jackpot": true}}})");
  ASSERT_TRUE(setup);
  auto game = start_game(*setup, editions());
  ASSERT_FALSE(game);
  EXPECT_NE(game.error().find("unknown option 'free_parking_jackpot'"), std::string::npos) << game.error();
}

TEST(Determinism, SameSeedAndInputsGiveTheSameStateAndEngineDrawsFollowTheSeed) {
  auto play = [](std::uint64_t seed) {
    ScriptedGame g(
        fmt::format(R"({{"setup": {{"edition": "classic", "players": ["Ann", "Bob"], "seed": {}}}}})", seed));
    g.ok(R"({"t": "roll", "dice": [1, 1]})");
    g.ok(R"({"t": "draw", "deck": "chest"})");
    return g.game().signature();
  };
  EXPECT_EQ(play(11), play(11));
}

}  // namespace
}  // namespace bb::rules::testing
