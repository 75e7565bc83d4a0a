// The other rule books' mechanics, composed as data in tests/rules/editions/composed.toml, run on the same
// engine as the classic game: no edition-specific code.
#include "test_support.h"

namespace bb::rules::testing {
namespace {

const char* kSetup =
    R"({"setup": {"edition": ")" COMPOSED_EDITION R"(", "players": ["Ann", "Bob", "Cleo"], "seed": 5}})";

TEST(Composed, EveryFirstLandingIsAuctionedAndTheLotComesWithAHouse) {
  ScriptedGame g(kSetup);
  g.ok(R"({"t": "adopt", "player": "Ann", "position": 19})");
  g.ok(R"({"t": "roll", "dice": [1, 1]})");  // 19 -> 1, passing Cash Here
  EXPECT_TRUE(g.pending().empty());
  auto auction = g.dump()["auction"];
  ASSERT_FALSE(auction.is_null());
  EXPECT_EQ(auction["space"], 1);
  g.ok(R"({"t": "bid", "player": "Bob", "amount": 12})");
  g.ok(R"({"t": "close"})");
  EXPECT_EQ(g.space(1)["owner"], "Bob");
  EXPECT_EQ(g.space(1)["houses"], 1);
  EXPECT_EQ(g.dump()["bank"]["houses"], 31);
  EXPECT_EQ(g.game().edition().format_money(g.cash("Bob")), "1.88M");
}

TEST(Composed, SalaryMustBeClaimedWithinTheTurnOrIsForfeit) {
  ScriptedGame g(kSetup);
  g.ok(R"({"t": "adopt", "player": "Ann", "position": 18, "in_jail": false})");
  g.ok(R"({"t": "roll", "dice": [1, 2]})");  // 18 -> 1: auction
  EXPECT_EQ(g.player("Ann")["unclaimed_salary"], 25);
  g.ok(R"({"t": "claim", "player": "Ann"})");
  EXPECT_EQ(g.cash("Ann"), 225);
  EXPECT_NE(g.send(R"({"t": "claim", "player": "Ann"})"), "");
  g.ok(R"({"t": "close"})");
  g.ok(R"({"t": "adopt", "player": "Bob", "position": 19})");
  g.ok(R"({"t": "roll", "dice": [2, 1]})");  // 19 -> 2: passes start, the railroad fare then another throw
  EXPECT_EQ(g.player("Bob")["unclaimed_salary"], 25);
  g.ok(R"({"t": "roll", "dice": [1, 1]})");  // the fare's throw: 2 -> 4 Tariff; Bob forgets to claim
  EXPECT_EQ(g.dump()["current"], "Bob");     // the fare's throw was a double: another throw
  g.ok(R"({"t": "roll", "dice": [1, 2]})");  // 4 -> 7 Sweepstakes
  g.ok(R"({"t": "roll", "dice": [1, 2]})");  // the sweepstakes throw; then Bob's turn ends
  EXPECT_EQ(g.player("Bob")["unclaimed_salary"], 0);
  EXPECT_EQ(g.cash("Bob"),
            200 - 1 - 19 + 6);  // fare, 10% of 199 (rounded down), 3 from each of two: no salary
  EXPECT_EQ(g.dump()["current"], "Cleo");
}

TEST(Composed, RailroadChargesAFareAndGivesAnotherThrow) {
  ScriptedGame g(kSetup);
  g.ok(R"({"t": "roll", "dice": [1, 1]})");  // 0 -> 2: the fare
  EXPECT_EQ(g.cash("Ann"), 199);
  EXPECT_EQ(g.dump()["current"], "Ann");
  g.ok(R"({"t": "roll", "dice": [3, 5]})");  // the fare's throw: 2 -> 10, Missed the Train
  // The Surprise Move: straight to the Rowboat (no salary), pay, on to Carnival, throw: odd goes back.
  EXPECT_EQ(g.position("Ann"), 17);
  EXPECT_EQ(g.cash("Ann"), 198);
  g.ok(R"({"t": "roll", "dice": [1, 2]})");  // odd: 17 -> 14, Gayety Theater: a seat for each other player
  EXPECT_EQ(g.position("Ann"), 14);
  EXPECT_EQ(g.cash("Ann"), 196);
  // Ann's first double earned an extra throw, but the fare's throw replaced it and was no double.
  EXPECT_EQ(g.dump()["current"], "Bob");
}

TEST(Composed, CarnivalGoesForwardOnAnEvenThrow) {
  ScriptedGame g(kSetup);
  g.ok(R"({"t": "adopt", "player": "Ann", "position": 13})");
  g.ok(R"({"t": "roll", "dice": [1, 3]})");  // 13 -> 17 Carnival
  g.ok(R"({"t": "roll", "dice": [2, 4]})");  // even: 17 -> 3, passing Cash Here
  EXPECT_EQ(g.position("Ann"), 3);
  EXPECT_EQ(g.player("Ann")["unclaimed_salary"], 25);
  EXPECT_FALSE(g.dump()["auction"].is_null());
}

TEST(Composed, SweepstakesCollectsFromEveryOtherPlayerByAThrow) {
  ScriptedGame g(kSetup);
  g.ok(R"({"t": "adopt", "player": "Ann", "position": 4})");
  g.ok(R"({"t": "roll", "dice": [1, 2]})");  // 4 -> 7
  g.ok(R"({"t": "roll", "dice": [4, 5]})");  // 9 x 1 from each
  EXPECT_EQ(g.cash("Ann"), 218);
  EXPECT_EQ(g.cash("Bob"), 191);
  EXPECT_EQ(g.position("Ann"), 7);  // the throw moves nothing
}

TEST(Composed, ForcedMoveSendsTheRivalBackFiveAndRentDoublesPerHouse) {
  ScriptedGame g(kSetup);
  g.ok(R"({"t": "adopt", "player": "Cleo", "spaces": [{"space": 1, "houses": 3}]})");
  g.ok(R"({"t": "adopt", "player": "Bob", "position": 6})");
  g.ok(R"({"t": "adopt", "player": "Ann", "position": 2})");
  g.ok(R"({"t": "roll", "dice": [1, 3]})");  // Ann 2 -> 6, where Bob stands: auction first, then Bob moves
                                             // back
  g.ok(R"({"t": "close"})");
  EXPECT_EQ(g.position("Bob"), 1);
  EXPECT_EQ(g.cash("Bob"), 200 - 12);  // Goat Alley: 3 with one house, doubled twice for three houses
  EXPECT_EQ(g.cash("Cleo"), 212);
}

TEST(Composed, TariffIsTenPercentOfCashAndPaupersHaveTheirPenaltiesReversed) {
  ScriptedGame g(kSetup);
  g.ok(R"({"t": "roll", "dice": [1, 3]})");  // 0 -> 4 Tariff: 10% of 200
  EXPECT_EQ(g.cash("Ann"), 180);
  g.ok(R"({"t": "adopt", "player": "Bob", "cash": 5, "position": 3})");
  g.ok(R"({"t": "roll", "dice": [1, 5]})");  // Bob 3 -> 9 Chance
  g.ok(R"({"t": "draw", "deck": "chance", "card": "fine"})");
  EXPECT_EQ(g.cash("Bob"), 10);  // a pauper: the 5 fine is paid to him instead
}

TEST(Composed, JailInsuranceAndNoInsuranceForHouseOwners) {
  ScriptedGame g(kSetup);
  g.ok(R"({"t": "adopt", "player": "Ann", "position": 15})");
  EXPECT_NE(g.send(R"({"t": "insure", "player": "Bob"})"), "");  // not Bob's throw
  g.ok(R"({"t": "insure", "player": "Ann"})");
  EXPECT_EQ(g.cash("Ann"), 197);
  g.ok(R"({"t": "roll", "dice": [1, 2]})");  // 15 -> 18 Go to Jail: insured
  EXPECT_FALSE(g.player("Ann")["in_jail"]);
  EXPECT_EQ(g.position("Ann"), 18);
  g.ok(R"({"t": "adopt", "player": "Bob", "spaces": [{"space": 3, "houses": 1}]})");
  std::string why = g.send(R"({"t": "insure", "player": "Bob"})");
  EXPECT_NE(why.find("house owner cannot insure"), std::string::npos) << why;
}

TEST(Composed, OwnershipCapAndBuildingOnlyAfterACircuit) {
  ScriptedGame g(kSetup);
  g.ok(
      R"({"t": "adopt", "player": "Ann", "spaces": [{"space": 1, "houses": 1}, {"space": 3, "houses": 1}, {"space": 6, "houses": 1}]})");
  std::string why = g.send(R"({"t": "build", "player": "Ann", "space": 1})");
  EXPECT_NE(why.find("once round the board"), std::string::npos) << why;
  g.ok(R"({"t": "roll", "dice": [4, 4]})");  // 0 -> 8 Broadway: auctioned; Ann holds the most allowed
  why = g.send(R"({"t": "bid", "player": "Ann", "amount": 10})");
  EXPECT_NE(why.find("the most allowed"), std::string::npos) << why;
  g.ok(R"({"t": "close"})");
  EXPECT_NE(g.send(R"({"t": "mortgage", "player": "Ann", "space": 1})"), "");  // no mortgages in this edition
}

TEST(Composed, FreeRidesAreGrantedInATradeAndUsedUp) {
  ScriptedGame g(kSetup);
  g.ok(
      R"({"t": "adopt", "player": "Bob", "spaces": [{"space": 11, "houses": 1}, {"space": 13, "houses": 1}]})");
  g.ok(R"({"t": "adopt", "player": "Ann", "spaces": [{"space": 1, "houses": 1}]})");
  g.ok(
      R"({"t": "trade", "from": "Ann", "to": "Bob", "give": {"spaces": [1]}, "get": {"cash": 5, "free_rides": [{"group": "green", "rides": 1}]}})");
  EXPECT_EQ(g.space(1)["owner"], "Bob");
  EXPECT_EQ(g.dump()["free_rides"][0]["rides"], 1);
  g.ok(R"({"t": "adopt", "player": "Ann", "position": 9})");
  g.ok(R"({"t": "roll", "dice": [1, 1]})");  // 9 -> 11 Wall Street, Bob's: a free ride
  EXPECT_EQ(g.cash("Ann"), 205);
  EXPECT_FALSE(g.dump().contains("free_rides"));
  g.ok(R"({"t": "roll", "dice": [1, 1]})");  // 11 -> 13 LaSalle Street: the ride is used up, rent 8
  EXPECT_EQ(g.cash("Ann"), 197);
}

}  // namespace
}  // namespace bb::rules::testing
