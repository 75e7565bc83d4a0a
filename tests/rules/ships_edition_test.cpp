// The ships edition (seeds/ships-edition-rules.txt), built on classic.toml with `extends`, and its own Short
// Game (option short_game). Each test names the sentence of the rule text it checks; most rules are checked
// by the game scripts scripts/ships_*.jsonl.
#include <gtest/gtest.h>

#include "rules/bot.h"
#include "test_support.h"

namespace bb::rules::testing {
namespace {

// "EQUIPMENT… 2 dice, tokens, 32 first class decks and 12 suites"; "Each player is given $1500"; "the Banker
// pays him/her a $200 salary"; the rest of the full game is the classic rule book, so the board's amounts are
// classic.toml's, not a copy.
TEST(Ships, TheClassicGameUnderShipsWords) {
  Edition classic = load_shipped("classic");
  Edition ships = load_shipped("ships");
  EXPECT_EQ(ships.id, "ships");
  ASSERT_EQ(ships.spaces.size(), classic.spaces.size());
  for (std::size_t s = 0; s < classic.spaces.size(); ++s) {
    EXPECT_EQ(ships.spaces[s].price, classic.spaces[s].price) << s;
    EXPECT_EQ(ships.spaces[s].rent.amounts, classic.spaces[s].rent.amounts) << s;
    EXPECT_EQ(ships.spaces[s].house_cost, classic.spaces[s].house_cost) << s;
    EXPECT_EQ(ships.spaces[s].mortgage, classic.spaces[s].mortgage) << s;
  }
  EXPECT_EQ(ships.rules.houses, 32);
  EXPECT_EQ(ships.rules.hotels, 12);
  EXPECT_EQ(ships.rules.start_cash, 1500);
  EXPECT_EQ(ships.rules.salary, 200);
  EXPECT_EQ(ships.rules.jail_fine, 50);                  // "paying a fine of $50"
  EXPECT_EQ(ships.rules.mortgage_interest_percent, 10);  // "the amount of the mortgage plus 10% interest"
}

// "Place your token on the corner marked "WEIGH ANCHOR""; "the space marked "IN GRAVING DOCK""; "Go to
// Graving Dock"; ""FREE MOORING""; ""HARBOUR DUTIES" ... estimate your duty at $200 ... or ... 10% of your
// total worth"; "Title Deeds (Cunard and United States Lines)"; "vessels, tankers and tugs".
TEST(Ships, TheNamesTheTextGives) {
  Edition ed = load_shipped("ships");
  EXPECT_EQ(ed.spaces[ed.start_space].name, "Weigh Anchor");
  EXPECT_EQ(ed.spaces[*ed.jail_space].name, "Graving Dock");
  EXPECT_EQ(ed.spaces[30].name, "Go to Graving Dock");
  EXPECT_EQ(ed.spaces[20].name, "Free Mooring");
  const Space& duties = ed.spaces[4];
  EXPECT_EQ(duties.name, "Harbour Duties");
  ASSERT_EQ(duties.on_land.size(), 1u);
  EXPECT_EQ(duties.on_land[0].kind, Effect::Kind::tax_choice);
  EXPECT_EQ(duties.on_land[0].amount, 200);
  EXPECT_EQ(duties.on_land[0].percent, 10);
  EXPECT_EQ(ed.group("dark_blue")->name, "Cunard");
  EXPECT_EQ(ed.group("green")->name, "United States Lines");
  EXPECT_EQ(ed.group("railroad")->name, "Tankers");
  EXPECT_EQ(ed.group("utility")->name, "Tugs");
  EXPECT_EQ(ed.group_members("railroad").size(), 4u);
  EXPECT_EQ(ed.group_members("utility").size(), 2u);
  // "Advance to WEIGH ANCHOR" and the Graving Dock cards, and a card sending a token to a renamed vessel.
  const Deck* chance = ed.deck("chance");
  ASSERT_NE(chance, nullptr);
  int named = 0;
  for (const auto& card : chance->cards) {
    if (card.id == "advance_to_go") named += card.text.starts_with("Advance to WEIGH ANCHOR");
    if (card.id == "get_out_of_jail") named += card.text.starts_with("Get Out of Graving Dock Free");
    if (card.id == "advance_to_boardwalk") {
      named += card.text == "Advance to the Queen Mary.";
      EXPECT_EQ(ed.spaces[card.effects[0].space].name, "Queen Mary");
    }
  }
  EXPECT_EQ(named, 3);
  // No vessel keeps a classic street name.
  for (const auto& sp : ed.spaces) {
    EXPECT_EQ(sp.name.find("Avenue"), std::string::npos) << sp.name;
    EXPECT_EQ(sp.name.find("Railroad"), std::string::npos) << sp.name;
  }
}

// "If you buy one first class deck, you may put it on any one of those vessels": the sentences the screens
// say, in the edition's words.
TEST(Ships, TheScreensSayFirstClassDecksSuitesAndTheGravingDock) {
  ScriptedGame g(R"({"setup": {"edition": "ships", "players": ["Ann", "Bob"], "seed": 1}})");
  g.ok(
      R"({"t": "adopt", "player": "Ann", "spaces": [{"space": 37, "houses": 4}, {"space": 39, "houses": 4}]})");
  auto out = g.game().apply(Build{PlayerId{0}, SpaceId{39}, true});
  ASSERT_TRUE(out) << out.error();
  ASSERT_FALSE(out->events.empty());
  EXPECT_EQ(g.game().describe(out->events.back()), "Ann builds a suite on Queen Mary");
  EXPECT_EQ(g.game().edition().words.count_houses(3), "3 first class decks");
  EXPECT_EQ(g.game().describe(Event{Event::Kind::jailed, PlayerId{1}}), "Bob goes to Graving Dock");
}

// "Unimproved vessels can be mortgaged ...In order to lift the mortgage, the owner must pay the Bank the
// amount of the mortgage plus 10% interest": the Queen Mary is mortgaged for $200 and lifted for $220.
TEST(Ships, AMortgageIsLiftedWithTenPercent) {
  ScriptedGame g(R"({"setup": {"edition": "ships", "players": ["Ann", "Bob"], "seed": 1}})");
  g.ok(R"({"t": "adopt", "player": "Ann", "spaces": [{"space": 39}]})");
  g.ok(R"({"t": "mortgage", "player": "Ann", "space": 39})");
  EXPECT_EQ(g.cash("Ann"), 1700);
  g.ok(R"({"t": "unmortgage", "player": "Ann", "space": 39})");
  EXPECT_EQ(g.cash("Ann"), 1480);
}

const char* kShort = R"({"setup": {"edition": "ships", "players": ["Ann", "Bob", "Cleo"], "seed": 3,
                          "options": {"short_game": true}}})";

// Short Game rule 1's draft, answered with sets away from where a test plays: each chooser in turn takes the
// next set of `sets`.
void draft(ScriptedGame& g, const std::vector<std::string>& sets) {
  for (const auto& set : sets) {
    auto pending = g.pending();
    ASSERT_FALSE(pending.empty());
    ASSERT_EQ(pending[0]["question"], "draft");
    g.ok(fmt::format(R"({{"t": "choose", "player": "{}", "option": "{}"}})",
                     pending[0]["player"].get<std::string>(), set));
  }
  ASSERT_FALSE(g.dump().contains("draft"));
}
const std::vector<std::string> kThreeDraft = {"orange", "red", "yellow", "green", "railroad", "utility"};
const std::vector<std::string> kTwoDraft = {"orange", "red", "yellow", "green"};

// Short Game rule 1: "the players throw dice, the highest score chooses the first set of title deeds, the
// second highest the second set etc. until each has one set. If there are four players or less, they then
// choose a second set but in reverse order, lowest score to highest ... These are free".
TEST(ShipsShortGame, Rule1TheSetsAreChosenInThrowOrderThenBackAndAreFree) {
  ScriptedGame g(kShort);
  EXPECT_EQ(g.dump()["draft"], nlohmann::json({"Ann", "Bob", "Cleo", "Cleo", "Bob", "Ann"}));
  auto pending = g.pending();
  ASSERT_EQ(pending.size(), 1u);
  EXPECT_EQ(pending[0]["player"], "Ann");
  EXPECT_EQ(pending[0]["question"], "draft");
  EXPECT_EQ(pending[0]["options"].size(), 10u);  // eight shipping lines, the tankers and the tugs
  EXPECT_NE(g.send(R"({"t": "roll", "dice": [1, 2]})"), "");  // no throw before the draft is over
  g.ok(R"({"t": "choose", "player": "Ann", "option": "dark_blue"})");
  EXPECT_EQ(g.space(37)["owner"], "Ann");
  EXPECT_EQ(g.space(39)["owner"], "Ann");
  EXPECT_EQ(g.cash("Ann"), 1500);
  std::string why = g.send(R"({"t": "choose", "player": "Bob", "option": "dark_blue"})");
  EXPECT_NE(why.find("is not an answer"), std::string::npos) << why;
  EXPECT_NE(g.send(R"({"t": "choose", "player": "Cleo", "option": "green"})"), "");  // not Cleo's choice yet
  g.ok(R"({"t": "choose", "player": "Bob", "option": "green"})");
  g.ok(R"({"t": "choose", "player": "Cleo", "option": "railroad"})");
  g.ok(R"({"t": "choose", "player": "Cleo", "option": "yellow"})");
  g.ok(R"({"t": "choose", "player": "Bob", "option": "red"})");
  EXPECT_EQ(g.pending()[0]["player"], "Ann");
  g.ok(R"({"t": "choose", "player": "Ann", "option": "orange"})");
  EXPECT_FALSE(g.dump().contains("draft"));
  EXPECT_TRUE(g.pending().empty());
  EXPECT_EQ(g.space(5)["owner"], "Cleo");
  EXPECT_EQ(g.space(16)["owner"], "Ann");
  for (const char* who : {"Ann", "Bob", "Cleo"}) EXPECT_EQ(g.cash(who), 1500) << who;
  EXPECT_EQ(g.dump()["current"], "Ann");
  g.ok(R"({"t": "roll", "dice": [1, 2]})");
}

// "If there are more than four players each receives only one set."
TEST(ShipsShortGame, Rule1FiveOrMorePlayersChooseOneSetEach) {
  ScriptedGame g(R"({"setup": {"edition": "ships", "players": ["Ann", "Bob", "Cleo", "Dan", "Eve"], "seed": 3,
                     "options": {"short_game": true}}})");
  EXPECT_EQ(g.dump()["draft"], nlohmann::json({"Ann", "Bob", "Cleo", "Dan", "Eve"}));
  draft(g, {"brown", "light_blue", "pink", "orange", "red"});
  EXPECT_EQ(g.space(1)["owner"], "Ann");
  EXPECT_EQ(g.space(24)["owner"], "Eve");
  EXPECT_TRUE(g.space(39)["owner"].is_null());
}

// The draft is game state like any other: a snapshot taken in the middle of it restores to the same game, and
// the full game has no draft.
TEST(ShipsShortGame, Rule1ADraftInProgressSurvivesASnapshot) {
  ScriptedGame g(kShort);
  g.ok(R"({"t": "choose", "player": "Ann", "option": "dark_blue"})");
  const Game& game = g.game();
  auto restored = Game::restore(game.edition_ptr(), game.setup(), game.snapshot(), game.state().postings);
  ASSERT_TRUE(restored) << restored.error();
  EXPECT_EQ(restored->signature(), game.signature());
  EXPECT_EQ(restored->state().draft_picks, game.state().draft_picks);
  ASSERT_EQ(restored->state().pending.size(), 1u);
  EXPECT_EQ(restored->state().pending[0].kind, QuestionKind::draft);
  ScriptedGame full(R"({"setup": {"edition": "ships", "players": ["Ann", "Bob"], "seed": 3}})");
  EXPECT_TRUE(full.pending().empty());
}

// Short Game rule 2: "The turn-in value is still one-half the purchase price, which in this game is one first
// class deck less than in the regular game." A Cunard suite sold back brings half of four decks' price when
// the whole colour-group's suites go at once.
TEST(ShipsShortGame, ASuiteTurnsInForOneDeckLess) {
  ScriptedGame g(kShort);
  draft(g, kThreeDraft);
  g.ok(
      R"({"t": "adopt", "player": "Ann", "spaces": [{"space": 37, "hotel": true}, {"space": 39, "hotel": true}]})");
  Money before = g.cash("Ann");
  // With the bank's decks, selling a suite is selling one deck's worth: the three decks come back on the lot.
  g.ok(R"({"t": "sell", "player": "Ann", "space": 39})");
  EXPECT_EQ(g.cash("Ann"), before + 100);
  EXPECT_EQ(g.space(39)["houses"], 3);
  EXPECT_FALSE(g.space(39)["hotel"]);
  // The full turn-in: the game's worth of a suite is four decks at cost ($800), half of it $400.
  // Ann drafted the orange set and the tugs (free, worth their printed prices: $560 and $300).
  EXPECT_EQ(g.game().worth(PlayerId{0}), g.cash("Ann") + 350 + 400 + 4 * 200 + 3 * 200 + 560 + 300);
}

// Short Game rule 4 against the full game: the full game asks (Harbour Duties scripts), the Short Game never
// does, even for a player whose 10% would be less.
TEST(ShipsShortGame, HarbourDutiesAreAFlat200EvenWhenTenPercentIsLess) {
  ScriptedGame g(kShort);
  draft(g, kThreeDraft);
  g.ok(R"({"t": "adopt", "player": "Ann", "cash": 500})");
  g.ok(R"({"t": "roll", "dice": [1, 3]})");
  EXPECT_EQ(g.cash("Ann"), 300);
  EXPECT_TRUE(g.pending().empty());
}

// Short Game rule 3, 1): "using a "Get Out of Graving Dock Free" card if you have one".
TEST(ShipsShortGame, TheCardFreesOnTheNextTurn) {
  ScriptedGame g(kShort);
  draft(g, kThreeDraft);
  g.ok(R"({"t": "adopt", "player": "Ann", "in_jail": true, "cards": 1})");
  ASSERT_EQ(g.pending().size(), 1u);
  EXPECT_EQ(g.pending()[0]["options"], nlohmann::json({"pay_fine", "use_card", "roll"}));
  g.ok(R"({"t": "choose", "player": "Ann", "option": "use_card"})");
  EXPECT_FALSE(g.player("Ann")["in_jail"]);
  EXPECT_EQ(g.cash("Ann"), 1500);
  g.ok(R"({"t": "roll", "dice": [1, 2]})");
  EXPECT_EQ(g.position("Ann"), 13);
}

// Short Game rule 3, 2): "rolling doubles": out and moved by the doubles, with no further throw (the full
// rules' "even though you had thrown doubles, you do not take another turn").
TEST(ShipsShortGame, DoublesFreeWithoutAnotherThrow) {
  ScriptedGame g(kShort);
  draft(g, kThreeDraft);
  g.ok(R"({"t": "adopt", "player": "Ann", "in_jail": true})");
  g.ok(R"({"t": "roll", "dice": [2, 2]})");
  EXPECT_FALSE(g.player("Ann")["in_jail"]);
  EXPECT_EQ(g.position("Ann"), 14);
  EXPECT_EQ(g.cash("Ann"), 1500);
  g.ok(R"({"t": "choose", "player": "Ann", "option": "auction"})");
  g.ok(R"({"t": "close"})");
  EXPECT_EQ(g.dump()["current"], "Bob");
}

// Short Game rule 3, "You lose one turn", the other reading (option graving_dock_loses_turn): paying the $50
// or doubles free the token, but it moves only on the following turn.
TEST(ShipsShortGame, TheLostTurnReadingFreesWithoutMoving) {
  ScriptedGame g(R"({"setup": {"edition": "ships", "players": ["Ann", "Bob"], "seed": 1,
                     "options": {"short_game": true, "graving_dock_loses_turn": true}}})");
  draft(g, kTwoDraft);
  g.ok(R"({"t": "adopt", "player": "Ann", "in_jail": true})");
  g.ok(R"({"t": "choose", "player": "Ann", "option": "pay_fine"})");
  EXPECT_FALSE(g.player("Ann")["in_jail"]);
  EXPECT_EQ(g.cash("Ann"), 1450);
  EXPECT_EQ(g.position("Ann"), 10);
  EXPECT_EQ(g.dump()["current"], "Bob");
  g.ok(R"({"t": "adopt", "player": "Bob", "in_jail": true})");
  g.ok(R"({"t": "roll", "dice": [4, 4]})");
  EXPECT_FALSE(g.player("Bob")["in_jail"]);
  EXPECT_EQ(g.position("Bob"), 10);
  EXPECT_EQ(g.cash("Bob"), 1500);
  EXPECT_EQ(g.dump()["current"], "Ann");
  g.ok(R"({"t": "roll", "dice": [1, 2]})");  // Ann moves on her next turn, as from Just Visiting
  EXPECT_EQ(g.position("Ann"), 13);
}

// The Short Game's switches are the option's, and the full game keeps the full rules.
TEST(ShipsShortGame, IsAnOptionOverTheFullGame) {
  Edition ed = load_shipped("ships");
  auto full = ed.rules_with({});
  auto short_game = ed.rules_with({{"short_game", true}});
  ASSERT_TRUE(full && short_game);
  EXPECT_EQ(full->houses_for_hotel, 4);
  EXPECT_EQ(short_game->houses_for_hotel, 3);
  EXPECT_FALSE(full->leave_jail_next_turn);
  EXPECT_TRUE(short_game->leave_jail_next_turn);
  EXPECT_FALSE(full->flat_income_tax);
  EXPECT_TRUE(short_game->flat_income_tax);
  EXPECT_EQ(full->end_after_bankruptcies, 0);
  EXPECT_EQ(short_game->end_after_bankruptcies, 1);
  // Rule 1's deeds are chosen in a draft, not dealt at random.
  EXPECT_EQ(short_game->deal_deeds, 0);
  EXPECT_TRUE(short_game->draft_sets);
  EXPECT_FALSE(full->draft_sets);
  EXPECT_FALSE(ed.rules_with({{"time_limit", true}}));  // the ships text has no Time Limit Game
}

struct ShortGamesPlayed {
  std::uint64_t signature = 0xcbf29ce484222325ULL;
  int finished = 0;
  int ended_by_one_bankruptcy = 0;
};

// Bot games of the Short Game with every invariant checked after every input.
ShortGamesPlayed play_short_games(int games, std::uint64_t seed, int players, bool loses_turn = false) {
  auto ed = load_edition("ships", editions());
  EXPECT_TRUE(ed);
  auto shared = std::make_shared<const Edition>(std::move(*ed));
  ShortGamesPlayed out;
  for (int gi = 0; gi < games; ++gi) {
    Setup setup;
    setup.edition = "ships";
    setup.seed = seed + static_cast<std::uint64_t>(gi);
    setup.options["short_game"] = true;
    if (loses_turn) setup.options["graving_dock_loses_turn"] = true;
    for (int p = 0; p < players; ++p) setup.players.push_back({"P" + std::to_string(p), "", "", {}});
    auto game = testing::play_bot_game(shared, setup, [](const Outcome&) {});
    if (!game) return out;
    out.finished += game->state().ended;
    int bankrupt = 0;
    for (const auto& p : game->state().players) bankrupt += p.bankrupt;
    EXPECT_LE(bankrupt, 1) << "seed " << setup.seed << ": the Short Game ends at the first bankruptcy";
    out.ended_by_one_bankruptcy += bankrupt == 1;
    out.signature = (out.signature ^ game->signature()) * 0x100000001b3ULL;
  }
  return out;
}

// Short Game rule 5 in play: no game ever sees a second bankruptcy, and every invariant holds after every
// input, in 10,000 games (1,000 under the sanitizers, which make each game ~20x slower).
TEST(ShipsShortGame, TenThousandSimulatedGamesKeepEveryInvariant) {
#if defined(__SANITIZE_ADDRESS__)
  constexpr int kGames = 1000;
#else
  constexpr int kGames = 10000;
#endif
  ShortGamesPlayed p = play_short_games(kGames, 1, 4);
  EXPECT_EQ(p.finished, kGames);
  EXPECT_GT(p.ended_by_one_bankruptcy, kGames * 9 / 10);
}

// The same with the other reading of "You lose one turn" switched on.
TEST(ShipsShortGame, SimulatedGamesWithTheLostTurnKeepEveryInvariant) {
  ShortGamesPlayed p = play_short_games(1000, 1, 4, true);
  EXPECT_EQ(p.finished, 1000);
}

// Pins the Short Game's games: any change to a rule it uses changes this number (update it in the same
// commit, saying why).
TEST(ShipsShortGame, SignatureOfAFixedSetOfGamesIsPinned) {
  ShortGamesPlayed p = play_short_games(200, 42, 4);
  EXPECT_EQ(p.finished, 200);
  // 0x21e541c7ab04d6ff before rule 1's draft: now every game starts with the players' chosen sets.
  EXPECT_EQ(p.signature, 0x765c962bca579ca1ULL) << std::hex << p.signature;
}

}  // namespace
}  // namespace bb::rules::testing
