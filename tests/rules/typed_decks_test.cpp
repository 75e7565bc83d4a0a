// Typed decks (issue 15): a script's deck word is read once against the edition into a DeckId and written
// back from it; the Get Out of Jail cards a player holds are counted by the edition's decks, whatever the
// edition file calls them.
#include "test_support.h"
#include "tiny_edition.h"

namespace bb::rules::testing {
namespace {

TEST(Decks, ADrawLineIsReadIntoTheTypedDeckAndWrittenBackUnchanged) {
  const Edition classic = load_shipped("classic");
  const std::vector<std::string> names{"Ann", "Bob"};
  ASSERT_EQ(classic.deck_named("chest"), DeckId{1});
  for (const std::string line :
       {R"({"deck":"chest","t":"draw"})", R"({"card":"birthday","deck":"chest","t":"draw"})",
        R"({"card":"go_back_3","deck":"chance","t":"draw"})"}) {
    auto input = parse_input(line, names, classic);
    ASSERT_TRUE(input) << input.error();
    const auto* draw = std::get_if<Draw>(&*input);
    ASSERT_NE(draw, nullptr);
    EXPECT_EQ(classic.decks[draw->deck].id, line.find("chest") != std::string::npos ? "chest" : "chance");
    EXPECT_EQ(input_to_json(*input, names, classic), line);
  }
}

TEST(Decks, AnUnknownDeckWordIsRefusedNamingTheEditionsDecks) {
  const Edition classic = load_shipped("classic");
  const Edition parker = load_shipped("finance-parker");
  const std::vector<std::string> names{"Ann", "Bob"};
  for (const char* word : {"Chance", "community_chest", "bonus", ""}) {
    auto refused = parse_input(fmt::format(R"({{"t": "draw", "deck": "{}"}})", word), names, classic);
    ASSERT_FALSE(refused) << word;
    EXPECT_NE(refused.error().find(fmt::format("'{}' is not a deck", word)), std::string::npos)
        << refused.error();
    EXPECT_NE(refused.error().find("chance, chest"), std::string::npos) << refused.error();
  }
  // An edition with one deck names that one.
  auto refused = parse_input(R"({"t": "draw", "deck": "chest"})", names, parker);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().find("this edition's decks are chance"), std::string::npos) << refused.error();
  EXPECT_FALSE(parse_input(R"({"t": "draw"})", names, classic));
}

// A board whose decks are not called "chance" or "chest" (kMinimal with its deck renamed "luck" and a second
// deck, "fate", drawn on the action space and holding a Get Out of Jail card): the card kept from "fate" is
// held by that deck, goes back to it, and the snapshot spells it by the deck's id.
std::string own_decks() {
  std::string text = with(kMinimal, R"(id = "tiny")", R"(id = "own_decks")");
  text = with(text, R"(name = "Chance")", R"(name = "Fate")");
  text = with(text, R"(deck = "chance")", R"(deck = "fate")");
  text = with(text, "[[deck]]\nid = \"chance\"", "[[deck]]\nid = \"luck\"");
  return text + R"([[deck]]
id = "fate"
[[deck.card]]
id = "free"
effects = [{ effect = "get_out_of_jail" }]
)";
}

TEST(Decks, JailCardsAreHeldByTheEditionsOwnDecks) {
  auto edition = parse_edition(own_decks(), "editions/own_decks.toml");
  ASSERT_TRUE(edition) << edition.error().what();
  const auto ed = std::make_shared<const Edition>(std::move(*edition));
  const DeckId fate = *ed->deck_named("fate");
  rules::Setup setup;
  setup.edition = "own_decks";
  setup.players = {{"Ann", "", "", {}}, {"Bob", "", "", {}}};
  auto game = Game::start(ed, setup);
  ASSERT_TRUE(game) << game.error();
  const std::vector<std::string> names{"Ann", "Bob"};
  auto send = [&](const std::string& line) {
    auto input = parse_input(line, names, *ed);
    ASSERT_TRUE(input) << input.error();
    ASSERT_TRUE(game->apply(*input)) << line;
    EXPECT_EQ(game->invariant_violations(), std::vector<std::string>{}) << line;
  };
  send(R"({"t": "roll", "dice": [1, 2]})");  // Ann to Fate
  ASSERT_EQ(game->state().pending.size(), 1u);
  EXPECT_EQ(game->state().pending.front().deck, fate);
  EXPECT_NE(state_to_json(*game).find(R"("deck":"fate")"), std::string::npos);
  send(R"({"t": "draw", "deck": "fate"})");
  EXPECT_EQ(game->state().players[PlayerId{0}].jail_cards[fate], 1);
  EXPECT_EQ(game->state().players[PlayerId{0}].cards(), 1);
  const std::string snapshot = game->snapshot();
  EXPECT_NE(snapshot.find(R"("fate_cards":1)"), std::string::npos);
  EXPECT_NE(snapshot.find(R"("luck_cards":0)"), std::string::npos);
  auto restored = Game::restore(ed, setup, snapshot, game->state().postings);
  ASSERT_TRUE(restored) << restored.error();
  EXPECT_EQ(restored->state().players[PlayerId{0}].jail_cards[fate], 1);
  // Handed back (a position adopted without cards): the card is in the fate deck again.
  send(R"({"t": "adopt", "player": "Ann", "cards": 0})");
  EXPECT_EQ(game->state().players[PlayerId{0}].cards(), 0);
}

TEST(Decks, AnEditionHasAtMostKMaxDecks) {
  std::string text = kMinimal;
  for (int d = 0; d < kMaxDecks; ++d)
    text += fmt::format(
        "[[deck]]\nid = \"extra{}\"\n[[deck.card]]\nid = \"gift\"\neffects = [{{ effect = \"collect\", "
        "amount = 1 }}]\n",
        d);
  const EditionError error = refused(text);
  EXPECT_NE(error.what().find(fmt::format("an edition has at most {}", kMaxDecks)), std::string::npos)
      << error.what();
}

}  // namespace
}  // namespace bb::rules::testing
