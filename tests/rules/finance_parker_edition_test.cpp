// FINANCE, Parker Brothers 1936/52 (seeds/finance-parker-1936-rules.txt) as editions/finance-parker.toml.
// Each test names the sentence of the rule text it checks; the moves and payments are also checked by the
// game scripts scripts/finance_parker_*.jsonl.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "rules/bot.h"
#include "test_support.h"

namespace bb::rules::testing {
namespace {

const char* kSetup =
    R"({"setup": {"edition": "finance-parker", "players": ["Ann", "Bob", "Cleo"], "seed": 1}})";

Edition load() {
  auto ed = load_edition("finance-parker", editions());
  EXPECT_TRUE(ed) << (ed ? "" : ed.error().what());
  return ed ? *ed : Edition{};
}

int bank_houses(const ScriptedGame& g) { return g.dump()["bank"]["houses"].get<int>(); }

// "Lots are yellow squares from Goat Alley ($150) to Union Square ($300)" (the 1958 board); the corners the
// Surprise Move names; "Railroads cannot be bought or sold"; no jail in the text.
TEST(FinanceParker, TheBoardTheTextDescribes) {
  Edition ed = load();
  ASSERT_EQ(ed.spaces.size(), 40u);
  EXPECT_EQ(ed.spaces[0].name, "Cash Here");
  EXPECT_EQ(ed.spaces[1].name, "Goat Alley");
  EXPECT_EQ(ed.spaces[1].price, 150);
  EXPECT_EQ(ed.spaces[39].name, "Union Square");
  EXPECT_EQ(ed.spaces[39].price, 300);
  EXPECT_EQ(ed.jail_space, std::nullopt);
  int lots = 0;
  for (const auto& sp : ed.spaces) {
    EXPECT_NE(sp.kind, Space::Kind::railroad) << sp.name;
    EXPECT_NE(sp.kind, Space::Kind::utility) << sp.name;
    if (sp.kind == Space::Kind::property) {
      ++lots;
      EXPECT_EQ(sp.rent.kind, RentRule::Kind::doubling) << sp.name;
      EXPECT_EQ(sp.house_cost, sp.price) << "\"he must pay the price marked on the lot\": " << sp.name;
      EXPECT_GE(sp.price, 150);
      EXPECT_LE(sp.price, 300);
    }
  }
  EXPECT_EQ(lots, 22);
  for (int rr : {5, 15, 25, 35}) {
    ASSERT_EQ(ed.spaces[rr].on_land.size(), 1u) << rr;
    EXPECT_EQ(ed.spaces[rr].on_land[0].kind, Effect::Kind::fare) << rr;
  }
  EXPECT_EQ(ed.rules.start_cash, 1925);
  EXPECT_EQ(ed.rules.max_properties, 8);  // "all eight of his colored ownership markers"
  EXPECT_FALSE(ed.rules.hotels_enabled);
  EXPECT_FALSE(ed.rules.mortgages);
}

// "If he buys the lot he receives from the banker one house of any color and he places this on the lot."
TEST(FinanceParker, TheHouseAndLotAreBoughtTogether) {
  ScriptedGame g(kSetup);
  g.ok(R"({"t": "roll", "dice": [1, 2]})");  // 0 -> 3 Tin Can Alley, $150
  g.ok(R"({"t": "choose", "player": "Ann", "option": "buy"})");
  EXPECT_EQ(g.space(3)["owner"], "Ann");
  EXPECT_EQ(g.space(3)["houses"], 1);
  EXPECT_EQ(bank_houses(g), 79);
  EXPECT_EQ(g.cash("Ann"), 1925 - 150);
}

// "it must be put up at auction ... (If no one bids the property remains unowned.)"
TEST(FinanceParker, ADeclinedLotIsAuctionedAndStaysUnownedWithoutABid) {
  ScriptedGame g(kSetup);
  g.ok(R"({"t": "roll", "dice": [1, 2]})");
  g.ok(R"({"t": "choose", "player": "Ann", "option": "auction"})");
  ASSERT_FALSE(g.dump()["auction"].is_null());
  g.ok(R"({"t": "close"})");
  EXPECT_TRUE(g.space(3)["owner"].is_null());
  EXPECT_EQ(bank_houses(g), 80);
}

// "The player whose playing piece landed on the lot remains on the space without paying rent until his next
// turn to throw the dice and move. He is liable for rent should he land on that space on a later turn."
TEST(FinanceParker, TheLanderStaysRentFreeAfterTheAuctionButPaysOnALaterTurn) {
  ScriptedGame g(kSetup);
  g.ok(R"({"t": "roll", "dice": [1, 2]})");
  g.ok(R"({"t": "choose", "player": "Ann", "option": "auction"})");
  g.ok(R"({"t": "bid", "player": "Bob", "amount": 120})");
  g.ok(R"({"t": "close"})");
  EXPECT_EQ(g.space(3)["owner"], "Bob");
  EXPECT_EQ(g.space(3)["houses"], 1);
  EXPECT_EQ(g.cash("Ann"), 1925);
  EXPECT_EQ(g.position("Ann"), 3);
  EXPECT_EQ(g.dump()["current"], "Bob");
  g.ok(R"({"t": "roll", "dice": [3, 4]})");  // Bob 0 -> 7 Mud Lane
  g.ok(R"({"t": "choose", "player": "Bob", "option": "auction"})");
  g.ok(R"({"t": "close"})");
  g.ok(R"({"t": "roll", "dice": [3, 5]})");  // Cleo 0 -> 8 Cinder Path
  g.ok(R"({"t": "choose", "player": "Cleo", "option": "auction"})");
  g.ok(R"({"t": "close"})");
  g.ok(R"({"t": "adopt", "player": "Ann", "position": 1})");
  g.ok(R"({"t": "roll", "dice": [1, 1]})");  // a later turn: Ann lands on Tin Can Alley again
  EXPECT_EQ(g.cash("Ann"), 1925 - 25);
  EXPECT_EQ(g.cash("Bob"), 1925 - 120 + 25);
}

// "Only six houses may be on any one lot. The rent for the lot with one house on it is printed ... For each
// extra house on it the rent is doubled." Union Square: $150 with one house, $4,800 with six.
TEST(FinanceParker, RentDoublesForEachExtraHouseUpToSix) {
  ScriptedGame g(kSetup);
  g.ok(R"({"t": "adopt", "player": "Bob", "spaces": [{"space": 39, "houses": 3}]})");
  g.ok(R"({"t": "adopt", "player": "Ann", "position": 37})");
  g.ok(R"({"t": "roll", "dice": [1, 1]})");
  EXPECT_EQ(g.cash("Ann"), 1925 - 600);
  EXPECT_EQ(g.cash("Bob"), 1925 + 600);
  EXPECT_NE(g.send(R"({"t": "adopt", "player": "Bob", "spaces": [{"space": 39, "houses": 7}]})"), "");
}

// "Each player must make one full circuit of the board before he can erect extra houses ... For each house he
// buys he must pay the price marked on the lot ... he does not put more than a total of six houses on any
// one lot."
TEST(FinanceParker, ExtraHousesAfterACircuitAtTheLotsPriceAndNoMoreThanSix) {
  ScriptedGame g(kSetup);
  g.ok(R"({"t": "adopt", "player": "Ann", "spaces": [{"space": 3, "houses": 1}], "position": 38})");
  std::string why = g.send(R"({"t": "build", "player": "Ann", "space": 3})");
  EXPECT_NE(why.find("once round the board"), std::string::npos) << why;
  g.ok(R"({"t": "roll", "dice": [1, 2]})");  // 38 -> 1, passing Cash Here
  g.ok(R"({"t": "choose", "player": "Ann", "option": "auction"})");
  g.ok(R"({"t": "close"})");
  long long cash = g.cash("Ann");
  g.ok(R"({"t": "build", "player": "Ann", "space": 3})");
  EXPECT_EQ(g.cash("Ann"), cash - 150);
  EXPECT_EQ(g.space(3)["houses"], 2);
  for (int h = 3; h <= 6; ++h) g.ok(R"({"t": "build", "player": "Ann", "space": 3})");
  why = g.send(R"({"t": "build", "player": "Ann", "space": 3})");
  EXPECT_NE(why.find("the most houses allowed"), std::string::npos) << why;
}

// "The Bank will at any time buy back a house and lot and any other houses erected on the lot, for just
// one-half their value, reckoned from the printed price. A player may sell to the Bank (at half price), at
// any time, one or more houses."
TEST(FinanceParker, TheBankBuysHousesAndTheHouseAndLotBackAtHalfThePrintedPrice) {
  ScriptedGame g(kSetup);
  g.ok(R"({"t": "adopt", "player": "Bob", "spaces": [{"space": 39, "houses": 2}]})");
  g.ok(R"({"t": "sell", "player": "Bob", "space": 39})");  // one extra house: $150
  EXPECT_EQ(g.cash("Bob"), 1925 + 150);
  EXPECT_EQ(g.space(39)["houses"], 1);
  auto plan = g.game().sale_plan(PlayerId{1}, SpaceId{39});
  ASSERT_TRUE(plan);
  ASSERT_EQ(plan->lots.size(), 1u);
  EXPECT_TRUE(plan->lots[0].lot_to_bank);
  EXPECT_EQ(plan->total, 150);
  g.ok(R"({"t": "sell", "player": "Bob", "space": 39})");  // the house and lot: half of $300
  EXPECT_EQ(g.cash("Bob"), 1925 + 300);
  EXPECT_TRUE(g.space(39)["owner"].is_null());
  EXPECT_EQ(g.space(39)["houses"], 0);
  EXPECT_EQ(bank_houses(g), 80);
}

// "If a player has all eight of his colored ownership markers on lots which he owns, he is not shut out from
// bidding ... To qualify himself to bid, however, he must sell one of his lots back to the bank".
TEST(FinanceParker, EightMarkersThenSellALotBackBeforeBidding) {
  ScriptedGame g(kSetup);
  g.ok(
      R"({"t": "adopt", "player": "Ann", "spaces": [{"space": 1, "houses": 1}, {"space": 3, "houses": 1}, {"space": 6, "houses": 1}, {"space": 7, "houses": 1}, {"space": 8, "houses": 1}, {"space": 9, "houses": 1}, {"space": 11, "houses": 1}, {"space": 13, "houses": 1}]})");
  g.ok(R"({"t": "adopt", "player": "Ann", "position": 10})");
  g.ok(R"({"t": "adopt", "player": "Ann", "position": 12})");
  g.ok(R"({"t": "roll", "dice": [1, 1]})");  // 12 -> 14 Maple Avenue
  std::string why = g.send(R"({"t": "choose", "player": "Ann", "option": "buy"})");
  EXPECT_NE(why.find("the most allowed"), std::string::npos) << why;
  g.ok(R"({"t": "choose", "player": "Ann", "option": "auction"})");
  why = g.send(R"({"t": "bid", "player": "Ann", "amount": 100})");
  EXPECT_NE(why.find("sell one first"), std::string::npos) << why;
  g.ok(R"({"t": "sell", "player": "Ann", "space": 1})");  // Goat Alley back to the bank for $75
  g.ok(R"({"t": "bid", "player": "Ann", "amount": 100})");
  g.ok(R"({"t": "close"})");
  EXPECT_EQ(g.space(14)["owner"], "Ann");
  EXPECT_EQ(g.cash("Ann"), 1925 + 75 - 100);
}

// "he becomes bankrupt and must turn over all the property and houses he owns, and all of his cash, to his
// creditor ... A creditor may accept from a debtor only as many lots (with houses on them) as there are
// property ownership markers of the creditor's color still unused in the bank. Lots in excess of this number
// must be turned back to the bank at half-price ... Houses remain on the lot undisturbed."
TEST(FinanceParker, ACreditorTakesOnlyAsManyLotsAsHisUnusedMarkersTheRestGoBackAtHalfPrice) {
  ScriptedGame g(kSetup);
  g.ok(
      R"({"t": "adopt", "player": "Bob", "spaces": [{"space": 1, "houses": 1}, {"space": 3, "houses": 1}, {"space": 6, "houses": 1}, {"space": 7, "houses": 1}, {"space": 8, "houses": 1}, {"space": 9, "houses": 1}, {"space": 39, "houses": 6}]})");
  g.ok(
      R"({"t": "adopt", "player": "Ann", "cash": 10, "position": 37, "spaces": [{"space": 21, "houses": 2}, {"space": 23, "houses": 1}, {"space": 37, "houses": 1}]})");
  int houses_before = bank_houses(g);
  g.ok(R"({"t": "roll", "dice": [1, 1]})");  // Union Square with six houses: $4,800
  ASSERT_EQ(g.pending()[0]["question"], "debt");
  g.ok(R"({"t": "bankrupt", "player": "Ann"})");
  // Bob has one marker left: he takes Main Street ($210 with two houses, the most valuable) as it stands.
  EXPECT_EQ(g.space(21)["owner"], "Bob");
  EXPECT_EQ(g.space(21)["houses"], 2);
  EXPECT_TRUE(g.space(23)["owner"].is_null());
  EXPECT_TRUE(g.space(37)["owner"].is_null());
  EXPECT_EQ(bank_houses(g), houses_before + 2);
  // Ann's $10, and half of Lincoln Avenue ($220) and Wall Street ($290) from the bank.
  EXPECT_EQ(g.cash("Bob"), 1925 + 10 + 110 + 145);
  EXPECT_TRUE(g.player("Ann")["bankrupt"]);
  EXPECT_EQ(g.dump()["current"], "Bob");
}

// "If it is a penalty to the bank which he cannot pay, he must turn all his property back to the bank and
// retire from the game." Back to the bank, not auctioned: the lots wait unowned.
TEST(FinanceParker, BankruptToTheBankReturnsEveryLotUnowned) {
  ScriptedGame g(kSetup);
  g.ok(
      R"({"t": "adopt", "player": "Ann", "cash": 5, "position": 2, "spaces": [{"space": 23, "houses": 3}]})");
  g.ok(R"({"t": "roll", "dice": [1, 1]})");  // Account Overdrawn: pay $10
  ASSERT_EQ(g.pending()[0]["question"], "debt");
  g.ok(R"({"t": "bankrupt", "player": "Ann"})");
  EXPECT_TRUE(g.space(23)["owner"].is_null());
  EXPECT_EQ(g.space(23)["houses"], 0);
  EXPECT_TRUE(g.dump()["auction"].is_null());
  EXPECT_EQ(bank_houses(g), 80);
  EXPECT_EQ(g.dump()["current"], "Bob");
}

// "If desired, it may be agreed at the start of play to end the game at a certain hour -- the richest player
// at that time is the winner. In determining the richest player, property values are figured according to the
// printed amount on each space." A house and lot at its price, each extra house at the price again.
TEST(FinanceParker, TheGameEndsAtTheAgreedHourByPrintedValues) {
  ScriptedGame g(kSetup);
  g.ok(R"({"t": "adopt", "player": "Ann", "cash": 200, "spaces": [{"space": 39, "houses": 6}]})");
  EXPECT_EQ(g.player("Ann")["worth"], 200 + 6 * 300);
  g.ok(R"({"t": "end"})");
  EXPECT_EQ(g.dump()["winner"], "Ann");
}

// There is no jail in the text: nothing can put a token there.
TEST(FinanceParker, NoJail) {
  ScriptedGame g(kSetup);
  std::string why = g.send(R"({"t": "adopt", "player": "Ann", "in_jail": true})");
  EXPECT_EQ(why, "this board has no jail");
}

// A board without a jail is refused when something would send a token there.
TEST(FinanceParker, ABoardWithoutAJailMayNotSendAnyoneThere) {
  auto ed = load_edition("finance-parker", editions());
  ASSERT_TRUE(ed);
  std::ifstream in(std::string(EDITIONS_DIR) + "/finance-parker.toml");
  std::stringstream text;
  text << in.rdbuf();
  std::string s = text.str();
  auto at = s.find("three_doubles_to_jail = false");
  ASSERT_NE(at, std::string::npos);
  s.replace(at, 29, "three_doubles_to_jail = true ");
  auto refused = parse_edition(s, "editions/finance-parker.toml");
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("needs one space with type = \"jail\""), std::string::npos)
      << refused.error().what();
}

struct ParkerGamesPlayed {
  std::uint64_t signature = 0xcbf29ce484222325ULL;
  int finished = 0;
  int bankruptcies = 0;
  int lots_sold_back = 0;
};

// Bot games with every invariant checked after every input; the game is ended by the clock ("at a certain
// hour") after 1,000 turns if nobody has won by then.
ParkerGamesPlayed play_games(int games, std::uint64_t seed, int players) {
  auto ed = load_edition("finance-parker", editions());
  EXPECT_TRUE(ed);
  auto shared = std::make_shared<const Edition>(std::move(*ed));
  ParkerGamesPlayed out;
  for (int gi = 0; gi < games; ++gi) {
    Setup setup;
    setup.edition = "finance-parker";
    setup.seed = seed + static_cast<std::uint64_t>(gi);
    for (int p = 0; p < players; ++p) setup.players.push_back({"P" + std::to_string(p), "", "", {}});
    auto game = testing::play_bot_game(shared, setup, [&](const Outcome& o) {
      for (const auto& e : o.events)
        out.lots_sold_back += e.kind == Event::Kind::sold && e.piece == Event::Piece::lot_to_bank;
    });
    if (!game) return out;
    out.finished += game->state().ended;
    out.bankruptcies += game->state().bankruptcies;
    out.signature = (out.signature ^ game->signature()) * 0x100000001b3ULL;
  }
  return out;
}

// 10,000 games (1,000 under the sanitizers, which make each game ~20x slower), every invariant after every
// input; the bots use the house-and-lot sale to the bank and go bankrupt.
TEST(FinanceParker, TenThousandSimulatedGamesKeepEveryInvariant) {
#if defined(__SANITIZE_ADDRESS__)
  constexpr int kGames = 1000;
#else
  constexpr int kGames = 10000;
#endif
  ParkerGamesPlayed p = play_games(kGames, 1, 4);
  EXPECT_EQ(p.finished, kGames);
  EXPECT_GT(p.bankruptcies, kGames);
  EXPECT_GT(p.lots_sold_back, 0);
}

// Pins the edition's games: any change to a rule it uses changes this number (update it in the same commit,
// saying why).
TEST(FinanceParker, SignatureOfAFixedSetOfGamesIsPinned) {
  ParkerGamesPlayed p = play_games(200, 42, 4);
  EXPECT_EQ(p.finished, 200);
  EXPECT_EQ(p.signature, 0xdf378e9b9bfdc618ULL) << std::hex << p.signature;
}

}  // namespace
}  // namespace bb::rules::testing
