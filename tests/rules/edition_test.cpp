// Editions are data: the classic file loads whole, and a bad file is refused naming file, line and key.
#include "rules/edition.h"

#include <gtest/gtest.h>

#include "tiny_edition.h"

namespace bb::rules {
namespace {

TEST(ClassicEdition, LoadsTheWholeBoardAndDecks) {
  auto ed = load_edition("classic", {EDITIONS_DIR});
  ASSERT_TRUE(ed) << ed.error().what();
  ASSERT_EQ(ed->spaces.size(), 40u);
  EXPECT_EQ(ed->spaces[39].name, "Boardwalk");
  EXPECT_EQ(ed->spaces[39].price, 400);
  EXPECT_EQ(ed->spaces[39].rent.amounts, (std::vector<Money>{50, 200, 600, 1400, 1700, 2000}));
  EXPECT_EQ(ed->jail_space, SpaceId{10});
  EXPECT_EQ(ed->group_members("railroad"),
            (std::vector<SpaceId>{SpaceId{5}, SpaceId{15}, SpaceId{25}, SpaceId{35}}));
  EXPECT_EQ(ed->group_members("utility"), (std::vector<SpaceId>{SpaceId{12}, SpaceId{28}}));
  EXPECT_EQ(ed->rules.start_cash, 1500);
  EXPECT_EQ(ed->rules.houses, 32);
  EXPECT_EQ(ed->rules.hotels, 12);
  int chance = 0, chest = 0;
  for (const auto& c : ed->deck("chance")->cards) chance += c.copies;
  for (const auto& c : ed->deck("chest")->cards) chest += c.copies;
  EXPECT_EQ(chance, 16);
  EXPECT_EQ(chest, 16);
  int ownable = 0;
  for (const auto& s : ed->spaces) ownable += s.price > 0;
  EXPECT_EQ(ownable, 28);
  EXPECT_EQ(ed->format_money(1500), "$1,500");
}

TEST(ClassicEdition, ShortGameOptionOverridesRules) {
  auto ed = load_edition("classic", {EDITIONS_DIR});
  ASSERT_TRUE(ed);
  auto rules = ed->rules_with({{"short_game", true}});
  ASSERT_TRUE(rules);
  EXPECT_EQ(rules->houses_for_hotel, 3);
  EXPECT_EQ(rules->end_after_bankruptcies, 2);
  EXPECT_FALSE(ed->rules_with({{"no_such", true}}));
}

using testing::kMinimal;
using testing::refused;
using testing::with;

TEST(EditionErrors, MinimalEditionIsAccepted) {
  auto ed = parse_edition(kMinimal, "editions/tiny.toml");
  ASSERT_TRUE(ed) << ed.error().what();
  EXPECT_EQ(ed->spaces.size(), 4u);
  EXPECT_EQ(ed->rules.start_cash, 100);
}

TEST(EditionErrors, WrongTypeNamesFileLineAndKey) {
  auto e = refused(with(kMinimal, "start_cash = 100", "start_cash = \"lots\""));
  EXPECT_EQ(e.file, "editions/tiny.toml");
  EXPECT_EQ(e.line, 3);
  EXPECT_EQ(e.key, "start_cash");
  EXPECT_EQ(e.what(), "editions/tiny.toml:3: key 'start_cash': expected a whole number");
}

TEST(EditionErrors, UnknownSpaceType) {
  auto e = refused(with(kMinimal, "type = \"jail\"", "type = \"prison\""));
  EXPECT_EQ(e.key, "type");
  EXPECT_EQ(e.line, 18);
  EXPECT_NE(e.message.find("unknown space type 'prison'"), std::string::npos) << e.what();
}

TEST(EditionErrors, GroupThatDoesNotExist) {
  auto e = refused(with(kMinimal, "group = \"red\"", "group = \"blue\""));
  EXPECT_EQ(e.key, "group");
  EXPECT_EQ(e.line, 12);
  EXPECT_NE(e.message.find("group 'blue' does not exist"), std::string::npos) << e.what();
}

TEST(EditionErrors, RentTableOfTheWrongLength) {
  auto e = refused(with(kMinimal, "rent = [1, 2, 3, 4, 5, 6]", "rent = [1, 2, 3]"));
  EXPECT_EQ(e.key, "rent");
  EXPECT_EQ(e.line, 14);
  EXPECT_NE(e.message.find("expected 6 amounts"), std::string::npos) << e.what();
}

TEST(EditionErrors, CardMovingToASpaceThatDoesNotExist) {
  auto e = refused(with(kMinimal, "space = \"Start\"", "space = \"Boardwalk\""));
  EXPECT_EQ(e.key, "space");
  EXPECT_EQ(e.line, 27);
  EXPECT_NE(e.message.find("no space is named 'Boardwalk'"), std::string::npos) << e.what();
  e = refused(with(kMinimal, "space = \"Start\"", "space = 40"));
  EXPECT_NE(e.message.find("space 40 does not exist"), std::string::npos) << e.what();
}

TEST(EditionErrors, BrokenTomlAndUnknownRuleAndMissingFile) {
  auto e = refused(with(kMinimal, "[rules]", "[rules"));
  EXPECT_EQ(e.line, 2);
  EXPECT_NE(e.message.find("not valid TOML"), std::string::npos);
  e = refused(with(kMinimal, "start_cash = 100", "start_money = 100"));
  EXPECT_EQ(e.key, "start_money");
  auto missing = load_edition("no-such-edition", {EDITIONS_DIR});
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().what().find("no such edition"), std::string::npos);
}

TEST(Money, MAndKUnits) {
  Edition ed;
  ed.currency.symbol = "";
  ed.currency.unit = 10000;
  ed.currency.mk = true;
  EXPECT_EQ(ed.format_money(1500), "15M");
  EXPECT_EQ(ed.format_money(200), "2M");
  EXPECT_EQ(ed.format_money(26), "260K");
  EXPECT_EQ(ed.format_money(125), "1.25M");
}

}  // namespace
}  // namespace bb::rules
