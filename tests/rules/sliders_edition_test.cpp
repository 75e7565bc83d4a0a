// The Sliders edition (seeds/sliders-classic-rules.txt), built on classic.toml with `extends`, and the
// loader's extends rules. Each test names the sentence of the rule text it checks; most rules are checked by
// the game scripts scripts/sliders_*.jsonl.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "test_support.h"

namespace bb::rules::testing {
namespace {

namespace fs = std::filesystem;

// "The Rules" of Sliders are the classic rules under other names: the board, prices, rents, decks and rule
// switches are classic.toml's, not a copy.
TEST(Sliders, ReusesTheClassicBoardUnderItsOwnNames) {
  Edition classic = load_shipped("classic");
  Edition sliders = load_shipped("sliders");
  EXPECT_EQ(sliders.id, "sliders");
  ASSERT_EQ(sliders.spaces.size(), classic.spaces.size());
  for (std::size_t s = 0; s < classic.spaces.size(); ++s) {
    EXPECT_EQ(sliders.spaces[s].price, classic.spaces[s].price) << s;
    EXPECT_EQ(sliders.spaces[s].rent.amounts, classic.spaces[s].rent.amounts) << s;
    EXPECT_EQ(sliders.spaces[s].group, classic.spaces[s].group) << s;
  }
  EXPECT_EQ(sliders.rules.start_cash, 1500);  // "Each player is given $1500"
  EXPECT_EQ(sliders.rules.houses, 32);        // "32 Quinn's houses and 12 Chandler hotels"
  EXPECT_EQ(sliders.rules.hotels, 12);
  EXPECT_EQ(sliders.options.size(), classic.options.size());  // Short Game, Time Limit Game, ...
  EXPECT_EQ(sliders.decks[0].cards.size(), classic.decks[0].cards.size());
}

// "(i.e.: Earth Prime and Kromagg Prime, - or Desert World, Water World and Ice World)"; "Slidecage";
// "FREE SLIDING"; "Sliders Sliding Tax".
TEST(Sliders, TheNamesTheTextGives) {
  Edition ed = load_shipped("sliders");
  EXPECT_EQ(ed.spaces[*ed.jail_space].name, "Slidecage");
  EXPECT_EQ(ed.spaces[20].name, "Free Sliding");
  EXPECT_EQ(ed.spaces[30].name, "Go to the Slidecage");
  EXPECT_EQ(ed.spaces[4].name, "Sliders Sliding Tax");
  EXPECT_EQ(ed.spaces[39].name, "Earth Prime");
  EXPECT_EQ(ed.spaces[37].name, "Kromagg Prime");
  EXPECT_EQ(ed.spaces[37].group, ed.spaces[39].group);
  EXPECT_EQ(ed.spaces[9].name, "Desert World");
  EXPECT_EQ(ed.spaces[8].name, "Water World");
  EXPECT_EQ(ed.spaces[6].name, "Ice World");
  EXPECT_EQ(ed.group_members(ed.spaces[6].group), (std::vector<SpaceId>{SpaceId{6}, SpaceId{8}, SpaceId{9}}));
  EXPECT_EQ(ed.words.houses, "Quinn's houses");
  EXPECT_EQ(ed.words.hotel, "Chandler hotel");
  // A card that sent a token to a renamed space still does: the name is changed in its effect too.
  const Deck* chance = ed.deck("chance");
  ASSERT_NE(chance, nullptr);
  for (const auto& card : chance->cards)
    if (card.id == "advance_to_boardwalk") {
      EXPECT_EQ(card.effects[0].space, 39);
    }
}

// "If he buys one house, he may put it on any one of those properties": the sentence the screens say, in the
// edition's words.
TEST(Sliders, TheScreensSayQuinnsHousesAndTheSlidecage) {
  ScriptedGame g(R"({"setup": {"edition": "sliders", "players": ["Ann", "Bob"], "seed": 1}})");
  g.ok(R"({"t": "adopt", "player": "Ann", "spaces": [{"space": 6}, {"space": 8}, {"space": 9}]})");
  auto out = g.game().apply(Build{PlayerId{0}, SpaceId{6}});
  ASSERT_TRUE(out) << out.error();
  ASSERT_FALSE(out->events.empty());
  EXPECT_EQ(g.game().describe(out->events.back()), "Ann builds a Quinn's house on Ice World");
  EXPECT_EQ(g.game().describe(Event{Event::Kind::jailed, PlayerId{1}}), "Bob goes to Slidecage");
}

// "A player gets out of the Slidecage by ... (4.) paying a fine of $50 before he rolls the dice on either of
// his next two turns"
TEST(Sliders, TheFineBeforeRollingFreesFromTheSlidecage) {
  ScriptedGame g(R"({"setup": {"edition": "sliders", "players": ["Ann", "Bob"], "seed": 1}})");
  g.ok(R"({"t": "adopt", "player": "Ann", "in_jail": true})");
  ASSERT_EQ(g.pending().size(), 1u);
  EXPECT_EQ(g.pending()[0]["question"], "jail");
  EXPECT_EQ(g.pending()[0]["options"][0], "pay_fine");
  g.ok(R"({"t": "choose", "player": "Ann", "option": "pay_fine"})");
  EXPECT_FALSE(g.player("Ann")["in_jail"]);
  EXPECT_EQ(g.cash("Ann"), 1450);
  g.ok(R"({"t": "roll", "dice": [2, 3]})");
  EXPECT_EQ(g.position("Ann"), 15);
}

class ExtendsFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / fmt::format("bb-extends-{}", ::getpid());
    fs::create_directories(dir_);
    fs::copy_file(fs::path(EDITIONS_DIR) / "classic.toml", dir_ / "classic.toml");
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
    return (dir_ / name).string();
  }
  fs::path dir_;
};

TEST_F(ExtendsFiles, AFamilysEditionPatchesOnlyWhatItNames) {
  auto path = write("ours.toml", R"(extends = "classic"
id = "ours"
[rules]
salary = 250
[[space]]
index = 39
name = "The Boardwalk"
price = 450
)");
  auto ed = load_edition(path, {});
  ASSERT_TRUE(ed) << ed.error().what();
  EXPECT_EQ(ed->rules.salary, 250);
  EXPECT_EQ(ed->rules.start_cash, 1500);
  EXPECT_EQ(ed->spaces[39].name, "The Boardwalk");
  EXPECT_EQ(ed->spaces[39].price, 450);
  EXPECT_EQ(ed->spaces[39].rent.amounts.back(), 2000);
  EXPECT_EQ(ed->deck("chance")->cards[0].effects[0].space, 39);
}

TEST_F(ExtendsFiles, MistakesNameTheFileTheLineAndWhatToDo) {
  auto unknown = write("a.toml", "extends = \"nope\"\nid = \"a\"\n");
  auto ed = load_edition(unknown, {});
  ASSERT_FALSE(ed);
  EXPECT_NE(ed.error().what().find("a.toml:1: key 'extends': no edition 'nope' to extend"), std::string::npos)
      << ed.error().what();

  auto far = write("b.toml", "extends = \"classic\"\nid = \"b\"\n[[space]]\nindex = 40\nname = \"X\"\n");
  ed = load_edition(far, {});
  ASSERT_FALSE(ed);
  EXPECT_NE(ed.error().what().find("b.toml:4: key 'index': the edition this one extends has spaces 0 to 39"),
            std::string::npos)
      << ed.error().what();

  auto self = write("c.toml", "extends = \"c\"\nid = \"c\"\n");
  ed = load_edition(self, {});
  ASSERT_FALSE(ed);
  EXPECT_NE(ed.error().what().find("cannot extend itself"), std::string::npos) << ed.error().what();

  // A mistake the patch causes in the base's data is reported in the file that holds that data.
  auto rent = write("d.toml", "extends = \"classic\"\nid = \"d\"\n[rules]\nmax_houses = 5\n");
  ed = load_edition(rent, {});
  ASSERT_FALSE(ed);
  EXPECT_NE(ed.error().what().find("classic.toml:"), std::string::npos) << ed.error().what();
  EXPECT_NE(ed.error().what().find("expected 7 amounts"), std::string::npos) << ed.error().what();

  // Text given to parse_edition cannot find what it extends.
  auto parsed = parse_edition("extends = \"classic\"\nid = \"e\"\n", "e.toml");
  ASSERT_FALSE(parsed);
  EXPECT_NE(parsed.error().what().find("read from its file"), std::string::npos);
}

}  // namespace
}  // namespace bb::rules::testing
