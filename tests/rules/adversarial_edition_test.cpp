// Adversarial edition files, by category: integers at every boundary, negative money, mortgages above the
// price, move chains that never end, duplicate names and ids, card copies, sizes and encodings. Each asserts
// the exact refusal, the key blamed, and that every problem of a file is reported at once.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "rules/edition.h"
#include "rules/input_limits.h"
#include "tiny_edition.h"

namespace bb::rules {
namespace {

using testing::kMinimal;
using testing::refused;
using testing::with;

TEST(EditionIntegers, StartCashAtEveryBoundary) {
  EXPECT_TRUE(parse_edition(with(kMinimal, "start_cash = 100", "start_cash = 0"), "e.toml"));
  EXPECT_TRUE(parse_edition(with(kMinimal, "start_cash = 100", "start_cash = 1000000000000"), "e.toml"));
  auto e = refused(with(kMinimal, "start_cash = 100", "start_cash = -1"));
  EXPECT_EQ(e.what(),
            "editions/tiny.toml:3: key 'start_cash': field 'start_cash': -1 is out of range (money: 0 to "
            "1000000000000)");
  e = refused(with(kMinimal, "start_cash = 100", "start_cash = 9223372036854775807"));
  EXPECT_EQ(e.key, "start_cash");
  EXPECT_EQ(e.message, "field 'start_cash': 9223372036854775807 is out of range (money: 0 to 1000000000000)");
}

TEST(EditionIntegers, RuleSwitchesDoNotWrapInto32Bits) {
  auto e = refused(with(kMinimal, "start_cash = 100", "start_cash = 100\nhouses = 4294967328"));
  EXPECT_EQ(e.key, "houses");
  EXPECT_EQ(e.line, 4);
  EXPECT_EQ(e.message, "field 'houses': 4294967328 is out of range (houses in the bank: 0 to 1000)");
  e = refused(
      with(kMinimal, "start_cash = 100", "start_cash = 100\nsalary = -200\nmortgage_interest_percent = 101"));
  EXPECT_EQ(e.key, "salary");
  ASSERT_EQ(e.more.size(), 1u);
  EXPECT_EQ(e.more[0].key, "mortgage_interest_percent");
  EXPECT_EQ(e.more[0].line, 5);
}

TEST(EditionIntegers, MaxHousesIsBlamedOnItselfNotOnRent) {
  auto e = refused(with(kMinimal, "start_cash = 100", "start_cash = 100\nmax_houses = -1"));
  EXPECT_EQ(e.key, "max_houses");
  EXPECT_EQ(e.line, 4);
  EXPECT_EQ(e.message, "field 'max_houses': -1 is out of range (houses on one lot: 0 to 20)");
  EXPECT_TRUE(e.more.empty());
}

TEST(EditionIntegers, OptionOverridesAreCheckedAndTyped) {
  auto e = refused(std::string(kMinimal) + "[option.big]\nset = { houses_for_hotel = 5 }\n");
  EXPECT_EQ(e.key, "houses_for_hotel");
  EXPECT_EQ(e.message,
            "with option 'big': a hotel needs 5 houses on each lot, but a lot holds at most 4 (max_houses)");
  e = refused(std::string(kMinimal) + "[option.rich]\nset = { start_cash = 1000000000001 }\n");
  EXPECT_EQ(e.key, "start_cash");
  EXPECT_EQ(e.message, "field 'start_cash': 1000000000001 is out of range (money: 0 to 1000000000000)");
  e = refused(std::string(kMinimal) + "[option.odd]\nset = { even_building = 5 }\n");
  EXPECT_EQ(e.key, "even_building");
  EXPECT_EQ(e.message, "expected true or false");
  e = refused(std::string(kMinimal) + "[option.odd]\nset = { houses = true }\n");
  EXPECT_EQ(e.message, "expected a whole number");
}

TEST(EditionMoney, MortgageAbovePriceAndNegativeMoney) {
  auto e = refused(with(kMinimal, "house_cost = 5", "house_cost = 5\nmortgage = 11"));
  EXPECT_EQ(e.key, "mortgage");
  EXPECT_EQ(e.line, 16);
  EXPECT_EQ(e.message, "the mortgage value 11 must be 0 to the price (10)");
  EXPECT_TRUE(parse_edition(with(kMinimal, "house_cost = 5", "house_cost = 5\nmortgage = 10"), "e.toml"));
  e = refused(with(kMinimal, "house_cost = 5", "house_cost = -5"));
  EXPECT_EQ(e.key, "house_cost");
  e = refused(with(kMinimal, "price = 10", "price = 1000000000001"));
  EXPECT_EQ(e.key, "price");
  EXPECT_EQ(e.message, "field 'price': 1000000000001 is out of range (money: 0 to 1000000000000)");
  e = refused(with(kMinimal, "rent = [1, 2, 3, 4, 5, 6]", "rent = [1, 2, 3, 4, 5, 9223372036854775807]"));
  EXPECT_EQ(e.key, "rent");
  e = refused(
      with(kMinimal, "{ effect = \"draw\", deck = \"chance\" }", "{ effect = \"pay\", amount = -50 }"));
  EXPECT_EQ(e.key, "amount");
  EXPECT_EQ(e.line, 22);
  EXPECT_EQ(e.message, "field 'amount': -50 is out of range (money: 0 to 1000000000000)");
}

TEST(EditionAllAtOnce, EveryProblemIsReportedInOneAnswer) {
  std::string text = with(kMinimal, "house_cost = 5", "house_cost = 5\nmortgage = 99");
  text = with(text, "name = \"Jail\"", "name = \"lot\"");
  text = with(text, "id = \"home\"", "id = \"home\"\ncopies = 0");
  text = with(text, "start_cash = 100", "start_cash = -1");
  auto e = refused(text);
  std::vector<std::string> keys = {e.key};
  for (const auto& m : e.more) keys.push_back(m.key);
  EXPECT_EQ(keys, (std::vector<std::string>{"start_cash", "mortgage", "name", "copies"})) << e.what();
  const std::string all = e.what();
  EXPECT_EQ(std::count(all.begin(), all.end(), '\n'), 3) << all;
}

TEST(EditionCycles, AMoveToItselfIsRefusedNamingTheSpace) {
  auto e = refused(with(kMinimal, "{ effect = \"draw\", deck = \"chance\" }",
                        "{ effect = \"move_to\", space = \"Chance\" }"));
  EXPECT_EQ(e.key, "on_land");
  EXPECT_EQ(e.line, 22);
  EXPECT_EQ(
      e.message,
      "landing here moves the token on forever: 'Chance' -> 'Chance'; end the chain on a space that does "
      "not move it");
}

TEST(EditionCycles, TwoSpacesSendingToEachOtherAreRefused) {
  std::string text = with(kMinimal, "{ effect = \"draw\", deck = \"chance\" }",
                          "{ effect = \"advance_to\", space = \"Start\" }");
  text = with(text, "type = \"start\"", "type = \"start\"\non_land = [{ effect = \"move_by\", steps = 3 }]");
  auto e = refused(text);
  EXPECT_EQ(e.key, "on_land");
  EXPECT_NE(e.message.find("'Start' -> 'Chance' -> 'Start'"), std::string::npos) << e.what();
}

TEST(EditionCycles, AChainThatEndsIsAccepted) {
  auto ed = parse_edition(
      with(kMinimal, "{ effect = \"draw\", deck = \"chance\" }", "{ effect = \"move_to\", space = \"Lot\" }"),
      "e.toml");
  EXPECT_TRUE(ed) << ed.error().what();
}

TEST(EditionUnique, DuplicateSpaceNamesCardIdsGroupIdsAndDeckIds) {
  auto e = refused(with(kMinimal, "name = \"Jail\"", "name = \"LOT\""));
  EXPECT_EQ(e.key, "name");
  EXPECT_EQ(e.line, 17);
  EXPECT_EQ(
      e.message,
      "space 2 is named 'LOT' like space 1: scripts and trades find a property by its name, so each needs "
      "its own");
  // Action spaces may share a name, but an effect may not name a shared one.
  std::string twice =
      with(kMinimal, "name = \"Jail\"\ntype = \"jail\"",
           "name = \"Jail\"\ntype = \"jail\"\n[[space]]\nname = \"Chance\"\ntype = \"action\"");
  EXPECT_TRUE(parse_edition(twice, "e.toml"));
  e = refused(with(twice, "space = \"Start\"", "space = \"chance\""));
  EXPECT_EQ(e.key, "space");
  EXPECT_EQ(e.message, "spaces 3 and 4 are both named 'Chance': give the space by its number");
  e = refused(std::string(kMinimal) +
              "[[deck.card]]\nid = \"home\"\neffects = [{ effect = \"collect\", amount = 5 }]\n");
  EXPECT_EQ(e.key, "id");
  EXPECT_EQ(e.line, 29);
  EXPECT_EQ(
      e.message,
      "deck 'chance' has two cards with id 'home': a drawn card is named by its id, so each needs its own");
  e = refused(
      with(kMinimal, "[[space]]\nname = \"Start\"", "[[group]]\nid = \"red\"\n[[space]]\nname = \"Start\""));
  EXPECT_EQ(e.key, "id");
  EXPECT_EQ(e.line, 7);
  EXPECT_EQ(e.message, "two [[group]] tables have id 'red': each group needs an id of its own");
}

TEST(EditionCounts, CardCopiesAtTheirBoundaries) {
  EXPECT_TRUE(parse_edition(with(kMinimal, "id = \"home\"", "id = \"home\"\ncopies = 100"), "e.toml"));
  auto e = refused(with(kMinimal, "id = \"home\"", "id = \"home\"\ncopies = 101"));
  EXPECT_EQ(e.key, "copies");
  EXPECT_EQ(e.message, "field 'copies': 101 is out of range (copies of one card: 1 to 100)");
  e = refused(with(kMinimal, "id = \"home\"", "id = \"home\"\ncopies = 2000000000"));
  EXPECT_EQ(e.key, "copies");
  e = refused(with(kMinimal, "id = \"home\"", "id = \"home\"\ncopies = 4294967297"));
  EXPECT_EQ(e.key, "copies");
  EXPECT_EQ(e.message, "field 'copies': 4294967297 is out of range (a count: -1000000000 to 1000000000)");
  e = refused(with(kMinimal, "id = \"home\"", "id = \"home\"\ncopies = -1"));
  EXPECT_EQ(e.key, "copies");
}

TEST(EditionCounts, EffectNumbersAreBounded) {
  auto e = refused(
      with(kMinimal, "{ effect = \"draw\", deck = \"chance\" }", "{ effect = \"move_by\", steps = 4 }"));
  EXPECT_EQ(e.key, "steps");
  EXPECT_EQ(e.message, "field 'steps': 4 is out of range (spaces to move, negative to go back: -3 to 3)");
  e = refused(with(kMinimal, "{ effect = \"draw\", deck = \"chance\" }",
                   "{ effect = \"tax_choice\", amount = 10, percent = 4294967306 }"));
  EXPECT_EQ(e.key, "percent");
}

class EditionFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("bb_adversarial_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& bytes) {
    auto path = dir_ / name;
    std::ofstream(path, std::ios::binary) << bytes;
    return path.string();
  }
  std::filesystem::path dir_;
};

TEST_F(EditionFiles, AFileLargerThanTheLimitIsRefused) {
  std::string text = std::string(kMinimal) + "notes = \"" + std::string(kMaxEditionFileBytes, 'x') + "\"\n";
  auto path = write("big.toml", text);
  auto ed = load_edition(path, {});
  ASSERT_FALSE(ed);
  EXPECT_EQ(ed.error().what(), path +
                                   ": this file is larger than 1048576 bytes, the most an edition file may "
                                   "be: is it an edition file?");
}

TEST_F(EditionFiles, ANulByteIsRefused) {
  auto path = write("nul.toml", std::string(kMinimal) + '\0' + "\n");
  auto ed = load_edition(path, {});
  ASSERT_FALSE(ed);
  EXPECT_NE(ed.error().what().find("holds a NUL byte"), std::string::npos) << ed.error().what();
}

// A file that opens but fails part-way through reading is refused, never read as the part that was read:
// reading /proc/self/mem from its start fails with an I/O error (nothing is mapped at address zero).
TEST_F(EditionFiles, AReadThatFailsIsRefused) {
  if (!std::ifstream("/proc/self/mem", std::ios::binary)) GTEST_SKIP() << "no /proc/self/mem here";
  auto ed = load_edition("/proc/self/mem", {});
  ASSERT_FALSE(ed);
  EXPECT_NE(ed.error().what().find("could not be read to its end"), std::string::npos) << ed.error().what();
}

TEST_F(EditionFiles, InvalidUtf8IsRefused) {
  auto path = write("utf8.toml", with(kMinimal, "id = \"tiny\"", "id = \"ti\xff\xfeny\""));
  auto ed = load_edition(path, {});
  ASSERT_FALSE(ed);
  EXPECT_NE(ed.error().what().find("not valid TOML"), std::string::npos) << ed.error().what();
}

TEST_F(EditionFiles, AMissingPathSaysToCheckIt) {
  auto ed = load_edition((dir_ / "gone.toml").string(), {});
  ASSERT_FALSE(ed);
  EXPECT_EQ(ed.error().what(), "edition: no edition file at '" + (dir_ / "gone.toml").string() +
                                   "': check the path (or give an edition id)");
}

TEST(EditionTruncation, AFileCutShortIsRefused) {
  std::string text(kMinimal);
  auto e = refused(text.substr(0, text.find("rent = [1, 2") + 9));
  EXPECT_NE(e.message.find("not valid TOML"), std::string::npos) << e.what();
}

TEST(ShippedEditions, AllLoadUnderTheChecks) {
  for (const char* id : {"classic", "ships", "sliders", "world"}) {
    auto ed = load_edition(id, {EDITIONS_DIR});
    EXPECT_TRUE(ed) << id << ": " << ed.error().what();
  }
}

}  // namespace
}  // namespace bb::rules
