// Adversarial game-script lines, by category: integers at every boundary (beyond 32 and 64 bits, negative,
// decimals), types, sizes, encodings (NUL, invalid UTF-8), truncation and repeated setups. Each asserts the
// exact refusal and that nothing was silently read as something else.
#include <gtest/gtest.h>

#include <string>

#include "rules/input_limits.h"
#include "rules/replay.h"
#include "test_support.h"

namespace bb::rules {
namespace {

using testing::ScriptedGame;

constexpr const char* kSetup = R"({"setup": {"edition": "classic", "players": ["Ann", "Bob"], "seed": 1}})";

std::string refusal(const std::string& line) {
  ScriptedGame g(kSetup);
  return g.send(line);
}

std::string setup_refusal(const std::string& line) {
  auto setup = parse_setup(line);
  EXPECT_FALSE(setup) << line;
  return setup ? std::string() : setup.error();
}

// --- integers at every boundary

TEST(ScriptIntegers, DiceBeyond32BitsAreRefusedNotTruncated) {
  EXPECT_EQ(refusal(R"({"t": "roll", "dice": [4294967299, 4294967297]})"),
            "field 'dice': 4294967299 is out of range (a die shows: 1 to 6)");
  EXPECT_EQ(refusal(R"({"t": "roll", "dice": [3, 4294967297]})"),
            "field 'dice': 4294967297 is out of range (a die shows: 1 to 6)");
}

TEST(ScriptIntegers, DiceAtTheirBoundaries) {
  EXPECT_EQ(refusal(R"({"t": "roll", "dice": [0, 1]})"),
            "field 'dice': 0 is out of range (a die shows: 1 to 6)");
  EXPECT_EQ(refusal(R"({"t": "roll", "dice": [1, 7]})"),
            "field 'dice': 7 is out of range (a die shows: 1 to 6)");
  EXPECT_EQ(refusal(R"({"t": "roll", "dice": [-1, 1]})"),
            "field 'dice': -1 is out of range (a die shows: 1 to 6)");
  EXPECT_EQ(refusal(R"({"t": "roll", "dice": [18446744073709551615, 1]})"),
            "field 'dice': 18446744073709551615 is out of range (a die shows: 1 to 6)");
  EXPECT_EQ(refusal(R"({"t": "roll", "dice": [-9223372036854775808, 1]})"),
            "field 'dice': -9223372036854775808 is out of range (a die shows: 1 to 6)");
  EXPECT_EQ(refusal(R"({"t": "roll", "dice": [1, 6]})"), "");
  EXPECT_EQ(refusal(R"({"t": "roll", "dice": [6, 1]})"), "");
}

TEST(ScriptIntegers, NumbersBeyond64BitsAreRefused) {
  // JSON parses these as decimals: they are not whole numbers the script may use.
  EXPECT_EQ(refusal(R"({"t": "roll", "dice": [18446744073709551616, 1]})"),
            "a roll needs \"dice\": [d1, d2]");
  EXPECT_EQ(
      refusal(R"({"t": "bid", "player": "Ann", "amount": 1e3})"),
      "field 'amount' must be a whole number (an amount: -1000000000000 to 1000000000000), found 1000.0");
}

TEST(ScriptIntegers, SpaceBeyond32BitsDoesNotMortgageIllinois) {
  ScriptedGame g(kSetup);
  g.ok(R"({"t": "adopt", "player": "Ann", "spaces": [{"space": 24}]})");
  EXPECT_EQ(g.send(R"({"t": "mortgage", "player": "Ann", "space": 4294967320})"),
            "field 'space': 4294967320 is out of range (the board's spaces: 0 to 39)");
  EXPECT_FALSE(g.space(24)["mortgaged"].get<bool>());
  EXPECT_EQ(g.send(R"({"t": "mortgage", "player": "Ann", "space": 40})"),
            "field 'space': 40 is out of range (the board's spaces: 0 to 39)");
  EXPECT_EQ(g.send(R"({"t": "mortgage", "player": "Ann", "space": -1})"),
            "field 'space': -1 is out of range (the board's spaces: 0 to 39)");
  EXPECT_EQ(g.send(R"({"t": "trade", "from": "Ann", "to": "Bob", "give": {"spaces": [4294967320]}})"),
            "field 'give.spaces': 4294967320 is out of range (the board's spaces: 0 to 39)");
}

TEST(ScriptIntegers, AdoptPositionDoesNotWrap) {
  ScriptedGame g(kSetup);
  EXPECT_EQ(g.send(R"({"t": "adopt", "player": "Ann", "position": 4294967301})"),
            "field 'position': 4294967301 is out of range (the board's spaces: 0 to 39)");
  EXPECT_EQ(g.position("Ann"), 0);
}

TEST(ScriptIntegers, MoneyIsBoundedAndInt64MaxCashIsRefused) {
  ScriptedGame g(kSetup);
  EXPECT_EQ(g.send(R"({"t": "adopt", "player": "Ann", "cash": 9223372036854775807})"),
            "field 'cash': 9223372036854775807 is out of range (an amount: -1000000000000 to 1000000000000)");
  EXPECT_EQ(g.send(R"({"t": "adopt", "player": "Ann", "cash": 1000000000001})"),
            "field 'cash': 1000000000001 is out of range (an amount: -1000000000000 to 1000000000000)");
  EXPECT_EQ(g.cash("Ann"), 1500);
  g.ok(R"({"t": "adopt", "player": "Ann", "cash": 1000000000000})");
  EXPECT_EQ(g.cash("Ann"), kMaxMoney);
  // A house-rule payment may not take an account past the bound either.
  EXPECT_EQ(g.send(R"({"t": "house", "from": "bank", "to": "Ann", "amount": 1, "reason": "jackpot"})"),
            "Ann would hold more than $1,000,000,000,000, the most any account may hold");
  EXPECT_EQ(g.send(R"({"t": "bid", "player": "Ann", "amount": -9223372036854775809})"),
            "field 'amount' must be a whole number (an amount: -1000000000000 to 1000000000000), found "
            "-9.223372036854776e+18");
}

TEST(ScriptIntegers, CountsAreBounded) {
  ScriptedGame g(kSetup);
  EXPECT_EQ(g.send(R"({"t": "adopt", "player": "Ann", "cards": 4294967297})"),
            "field 'cards': 4294967297 is out of range (Get Out of Jail cards: 0 to 100)");
  EXPECT_EQ(g.send(R"({"t": "adopt", "player": "Ann", "spaces": [{"space": 1, "houses": 4294967297}]})"),
            "field 'spaces.houses': 4294967297 is out of range (houses on a lot: 0 to 20)");
  EXPECT_EQ(g.send(R"({"t": "trade", "from": "Ann", "to": "Bob", "give": {"cards": -1}})"),
            "field 'give.cards': -1 is out of range (Get Out of Jail cards: 0 to 100)");
}

TEST(ScriptIntegers, SetupNumbers) {
  EXPECT_EQ(setup_refusal(R"({"setup": {"edition": "classic", "players": ["Ann", "Bob"], "seed": -1}})"),
            "field 'seed': -1 is not a seed (a whole number, 0 to 18446744073709551615)");
  EXPECT_EQ(setup_refusal(R"({"setup": {"edition": "classic", "players": ["Ann", "Bob"], "seed": 1.5}})"),
            "field 'seed': 1.5 is not a seed (a whole number, 0 to 18446744073709551615)");
  EXPECT_EQ(
      setup_refusal(
          R"({"setup": {"edition": "classic", "players": [{"name": "Ann", "deeds": [4294967297]}, "Bob"]}})"),
      "player 'Ann': field 'deeds': 4294967297 is out of range (a space number: 0 to 199)");
  auto seed = parse_setup(
      R"({"setup": {"edition": "classic", "players": ["Ann", "Bob"], "seed": 18446744073709551615}})");
  ASSERT_TRUE(seed) << seed.error();
  EXPECT_EQ(seed->seed, 18446744073709551615ULL);
}

// --- types

TEST(ScriptTypes, WrongTypesAreRefusedNotThrown) {
  EXPECT_EQ(refusal(R"({"t": "build", "player": "Ann", "space": 1, "hotel": "yes"})"),
            "field 'hotel' must be true or false");
  EXPECT_EQ(refusal(R"({"t": "insure", "player": "Ann", "against": 3})"),
            "field 'against' must be text in quotes");
  EXPECT_EQ(refusal(R"({"t": "auction", "item": ["house"]})"), "field 'item' must be text in quotes");
  EXPECT_EQ(refusal(R"({"t": "adopt", "player": "Ann", "spaces": [{"space": 1, "mortgaged": 1}]})"),
            "field 'mortgaged' must be true or false");
  EXPECT_EQ(refusal(R"({"t": "roll", "dice": ["3", 4]})"), "a roll needs \"dice\": [d1, d2]");
  EXPECT_EQ(refusal(R"({"t": "mortgage", "player": "Ann", "space": true})"),
            "a space is given by its number (or its name)");
  EXPECT_EQ(
      setup_refusal(R"({"setup": {"edition": "classic", "players": [{"name": "Ann", "card": 17}, "Bob"]}})"),
      "player 'Ann': field 'card' must be text in quotes");
  EXPECT_EQ(setup_refusal(
                R"({"setup": {"edition": "classic", "players": [{"name": "Ann", "token": null}, "Bob"]}})"),
            "player 'Ann': field 'token' must be text in quotes");
}

// --- sizes

TEST(ScriptSizes, ALineLongerThanTheLimitIsRefused) {
  std::string reason(kMaxScriptLineBytes, 'x');
  std::string line =
      R"({"t": "house", "from": "bank", "to": "Ann", "amount": 1, "reason": ")" + reason + "\"}";
  EXPECT_EQ(refusal(line),
            fmt::format("the line is {} bytes long: a script line holds at most 65536 bytes (one "
                        "input as one JSON object)",
                        line.size()));
}

TEST(ScriptSizes, TooManyPlayers) {
  EXPECT_EQ(
      setup_refusal(R"({"setup": {"edition": "classic", "players": ["a","b","c","d","e","f","g","h","i"]}})"),
      "\"players\" lists more than 8: a game has at most 8 players");
}

// --- encodings

TEST(ScriptEncodings, NulByteAfterAValidObjectIsRefused) {
  std::string line = std::string(R"({"t": "roll", "dice": [3, 4]})") + '\0';
  EXPECT_EQ(refusal(line),
            "the line holds a NUL byte at column 30: a script is text, one JSON object per line");
  std::string inside = std::string(R"({"t": "ro)") + '\0' + R"(ll", "dice": [3, 4]})";
  EXPECT_EQ(refusal(inside),
            "the line holds a NUL byte at column 10: a script is text, one JSON object per line");
}

TEST(ScriptEncodings, TrailingBytesAndInvalidUtf8AreRefused) {
  EXPECT_NE(refusal(R"({"t": "roll", "dice": [3, 4]} x)").find("not valid JSON"), std::string::npos);
  EXPECT_NE(refusal(R"({"t": "roll", "dice": [3, 4]}{"t": "end"})").find("not valid JSON"),
            std::string::npos);
  std::string bad_utf8 = "{\"t\": \"choose\", \"player\": \"Ann\", \"option\": \"b\xff\xfe\"}";
  EXPECT_NE(refusal(bad_utf8).find("not valid JSON"), std::string::npos);
  std::string overlong = "{\"t\": \"choose\", \"player\": \"Ann\", \"option\": \"\xc0\xaf\"}";
  EXPECT_NE(refusal(overlong).find("not valid JSON"), std::string::npos);
}

// --- truncation

TEST(ScriptTruncation, ACutLineIsRefused) {
  EXPECT_NE(refusal(R"({"t": "roll", "dice": [3,)").find("not valid JSON"), std::string::npos);
  EXPECT_NE(refusal(R"({"t": "ro)").find("not valid JSON"), std::string::npos);
  EXPECT_EQ(refusal(R"({"t": "roll", "dice": [3]})"), "a roll needs \"dice\": [d1, d2]");
}

// --- structure

TEST(ScriptStructure, ARepeatedSetupLineSaysSo) {
  auto result =
      replay_script(std::string(kSetup) + "\n" + kSetup + "\n", "game.jsonl", testing::editions(), false);
  ASSERT_EQ(result.errors.size(), 1u);
  EXPECT_EQ(
      result.errors[0],
      "game.jsonl:2: a second setup line: a script has one setup, on its first line (start a new script "
      "for a new game)");
}

TEST(ScriptStructure, AnUnknownEditionSaysItsNameAndWhereEditionsAreLooked) {
  auto result = replay_script(R"({"setup": {"edition": "nosuch", "players": ["Ann", "Bob"]}})", "game.jsonl",
                              {"some/editions"}, false);
  ASSERT_EQ(result.errors.size(), 1u);
  EXPECT_EQ(
      result.errors[0],
      "game.jsonl:1: edition: no such edition 'nosuch': looked for nosuch.toml in some/editions; give the "
      "id of an edition there or the path of an edition file");
}

TEST(ScriptStructure, TwoPlayersWithOneCardAreRefusedWithBothNames) {
  auto setup = parse_setup(
      R"({"setup": {"edition": "classic", "players": [{"name": "Ann", "card": "0a:1b:2c"}, {"name": "Bob", "card": "0A1B2C"}]}})");
  ASSERT_TRUE(setup);
  auto game = start_game(*setup, testing::editions());
  ASSERT_FALSE(game);
  EXPECT_EQ(game.error(), "Ann and Bob are both given card 0A1B2C: each player needs a card of their own");
}

// --- fields a line does not have: refused, never passed over (a misspelt optional field would otherwise be
// accepted and the line do something else)

TEST(ScriptFields, AMisspeltOptionalFieldIsRefusedNotPassedOver) {
  ScriptedGame g(kSetup);
  g.ok(R"({"t": "roll", "dice": [3, 4]})");  // Ann on Chance: a draw is asked
  // "crad" for "card": passed over, the engine would have drawn its own top card instead of the one named.
  EXPECT_EQ(g.send(R"({"t": "draw", "deck": "chance", "crad": "go_to_jail"})"),
            "unknown field 'crad' in a draw line (its fields: t, id, deck, card): remove it or fix its "
            "spelling");
  EXPECT_EQ(g.dump()["pending"][0]["question"], "draw");  // nothing was drawn
  g.ok(R"({"t": "draw", "deck": "chance", "card": "go_to_jail", "id": "tap-7"})");
  EXPECT_TRUE(g.player("Ann")["in_jail"].get<bool>());
}

TEST(ScriptFields, EveryKindOfLineRefusesAFieldItDoesNotHave) {
  const char* lines[] = {
      R"({"t": "roll", "dice": [3, 4], "double": true})",
      R"({"t": "choose", "player": "Ann", "option": "buy", "price": 1})",
      R"({"t": "bid", "player": "Ann", "amount": 10, "max": 20})",
      R"({"t": "close", "winner": "Ann"})",
      R"({"t": "build", "player": "Ann", "space": 1, "hotels": true})",
      R"({"t": "sell", "player": "Ann", "space": 1, "whole_group": true})",
      R"({"t": "mortgage", "player": "Ann", "space": 1, "amount": 30})",
      R"({"t": "unmortgage", "player": "Ann", "space": 1, "interest": 3})",
      R"({"t": "trade", "from": "Ann", "to": "Bob", "give": {"cash": 1}, "get": {}, "note": "x"})",
      R"({"t": "bankrupt", "player": "Ann", "to": "Bob"})",
      R"({"t": "adopt", "player": "Ann", "in_jali": true})",
      R"({"t": "end", "winner": "Ann"})",
      R"({"t": "undo", "steps": 2})",
      R"({"t": "claim", "player": "Ann", "amount": 200})",
      R"({"t": "insure", "player": "Ann", "againts": "card"})",
      R"({"t": "house", "from": "bank", "to": "Ann", "amount": 5, "reason": "x", "memo": "y"})",
      R"({"t": "partner", "holder": "Ann", "partner": "Bob", "group": "railroads", "share": 10, "x": 1})",
      R"({"t": "card", "uid": "0A1B", "player": "Ann", "colour": 1})",
      R"({"t": "confirm", "posting": 1, "by": "Ann"})",
      R"({"t": "auction", "item": "house", "space": 1})",
  };
  for (const char* line : lines) {
    ScriptedGame g(kSetup);
    const std::string why = g.send(line);
    EXPECT_EQ(why.rfind("unknown field '", 0), 0u) << line << " -> " << why;
    EXPECT_NE(why.find("remove it or fix its spelling"), std::string::npos) << line;
  }
}

TEST(ScriptFields, NestedObjectsRefuseFieldsTheyDoNotHave) {
  ScriptedGame g(kSetup);
  EXPECT_EQ(
      g.send(R"({"t": "trade", "from": "Ann", "to": "Bob", "give": {"cash": 10, "space": [1]}})"),
      "unknown field 'space' in a trade's \"give\" (its fields: cash, spaces, cards, free_rides): remove "
      "it or fix its spelling");
  EXPECT_EQ(g.send(R"({"t": "adopt", "player": "Ann", "spaces": [{"space": 1, "house": 2}]})"),
            "unknown field 'house' in an adopted space (its fields: space, houses, hotel, mortgaged): remove "
            "it or fix its spelling");
  EXPECT_EQ(g.dump()["players"][0]["cash"], 1500);  // nothing was traded or adopted
}

TEST(ScriptFields, TheSetupRefusesFieldsItDoesNotHave) {
  EXPECT_EQ(setup_refusal(R"({"setup": {"edition": "classic", "players": ["Ann", "Bob"], "sead": 7}})"),
            "unknown field 'sead' in \"setup\" (its fields: edition, players, options, seed): remove it or "
            "fix its spelling");
  EXPECT_EQ(setup_refusal(
                R"({"setup": {"edition": "classic", "players": [{"name": "Ann", "tokne": "car"}, "Bob"]}})"),
            "unknown field 'tokne' in player 'Ann' (its fields: name, token, card, deeds, colour): remove it "
            "or fix "
            "its spelling");
  EXPECT_EQ(setup_refusal(R"({"setup": {"edition": "classic", "players": ["Ann", "Bob"]}, "seed": 7})"),
            "unknown field 'seed' in the setup line (its fields: setup): remove it or fix its spelling");
}

TEST(ScriptFields, TheLinesTheProjectWritesAreReadBack) {
  // Every field input_to_json and setup_to_json write, and the "id" the ledger's export adds, is known.
  ScriptedGame g(kSetup);
  g.ok(
      R"({"t": "adopt", "player": "Ann", "cash": 900, "position": 3, "in_jail": false, "cards": 0, "spaces": [{"space": 1, "houses": 0, "hotel": false, "mortgaged": false}], "id": "7"})");
  g.ok(
      R"({"t": "trade", "from": "Ann", "to": "Bob", "give": {"cash": 0, "spaces": [1], "cards": 0}, "get": {"cash": 10, "spaces": [], "cards": 0}})");
  EXPECT_TRUE(parse_setup(
      R"({"setup": {"edition": "classic", "players": [{"name": "Ann", "token": "car", "card": "0A", "deeds": [1], "colour": 2}, "Bob"], "options": {}, "seed": 3}})"));
}

}  // namespace
}  // namespace bb::rules
