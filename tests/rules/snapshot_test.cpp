// Game::snapshot / Game::restore: a restored game is the same game. Checked by taking snapshots of bot games
// at many points (between turns, with questions pending, in the middle of card chains and auctions),
// restoring them and playing on in lockstep with the original to the end, and by refusing snapshots that do
// not fit.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>
#include <stdexcept>

#include "rules/bot.h"
#include "rules/script.h"

namespace bb::rules {
namespace {

std::shared_ptr<const Edition> edition(const std::string& id) {
  auto ed = load_edition(id, {EDITIONS_DIR});
  EXPECT_TRUE(ed);
  return std::make_shared<const Edition>(std::move(*ed));
}

rules::Setup setup_for(const std::string& edition_id, std::uint64_t seed, int players) {
  rules::Setup setup;
  setup.edition = edition_id;
  setup.seed = seed;
  for (int p = 0; p < players; ++p) setup.players.push_back({"P" + std::to_string(p), "", "", {}});
  return setup;
}

// A copy through snapshot and restore; `with_history`: given the inputs in effect too, so it can undo.
Game restored_copy(const Game& g, bool with_history = false) {
  auto r = with_history
               ? Game::restore(g.edition_ptr(), g.setup(), g.snapshot(), g.state().postings, g.inputs())
               : Game::restore(g.edition_ptr(), g.setup(), g.snapshot(), g.state().postings);
  if (!r) throw std::runtime_error("restore refused: " + r.error());
  return std::move(*r);
}

// Plays `original` and `copy` side by side with the same bot inputs until the game ends; every outcome and
// every state must agree.
void play_in_lockstep(Game& original, Game& copy, Bot& bot, const std::string& where) {
  for (int guard = 0; !original.state().ended && guard < 20000; ++guard) {
    Input in = original.state().turns >= 400 && original.state().pending.empty() && !original.state().auction
                   ? Input{End{}}
                   : bot.next(original);
    auto a = original.apply(in);
    auto b = copy.apply(in);
    ASSERT_TRUE(a) << where << ": " << a.error();
    ASSERT_TRUE(b) << where << ": the restored game refuses what the original accepts: " << b.error();
    ASSERT_EQ(a->events.size(), b->events.size()) << where;
    ASSERT_EQ(state_to_json(original), state_to_json(copy)) << where << " after input " << guard;
  }
  EXPECT_EQ(original.signature(), copy.signature()) << where;
  EXPECT_EQ(original.snapshot(), copy.snapshot()) << where;
}

TEST(Snapshot, RestoredGamesPlayOnExactlyAsTheOriginal) {
  auto classic = edition("classic");
  std::mt19937_64 pick(7);
  int with_steps = 0, with_questions = 0, checked = 0;
  for (std::uint64_t seed = 1; seed <= 24; ++seed) {
    rules::Setup setup = setup_for("classic", seed, 2 + static_cast<int>(seed % 4));
    auto game = Game::start(classic, setup);
    ASSERT_TRUE(game);
    Bot bot(seed);
    // Record the bot's game once, then restore at a few random points and replay the rest in lockstep.
    std::vector<Input> played;
    for (int guard = 0; !game->state().ended && guard < 20000; ++guard) {
      Input in = game->state().turns >= 400 && game->state().pending.empty() && !game->state().auction
                     ? Input{End{}}
                     : bot.next(*game);
      ASSERT_TRUE(game->apply(in));
      played.push_back(in);
    }
    for (int point = 0; point < 4; ++point) {
      std::size_t at = pick() % (played.size() + 1);
      auto original = Game::start(classic, setup);
      ASSERT_TRUE(original);
      for (std::size_t i = 0; i < at; ++i) ASSERT_TRUE(original->apply(played[i]));
      auto snap = nlohmann::json::parse(original->snapshot());
      with_steps += !snap["steps"].empty();
      with_questions += !original->state().pending.empty();
      Game copy = restored_copy(*original, point % 2 == 0);
      ASSERT_EQ(copy.snapshot(), original->snapshot()) << "seed " << seed << " at " << at;
      ASSERT_EQ(copy.input_count(), original->input_count());
      ASSERT_EQ(state_to_json(copy), state_to_json(*original));
      // Play the rest of the recorded game through both.
      for (std::size_t i = at; i < played.size(); ++i) {
        auto a = original->apply(played[i]);
        auto b = copy.apply(played[i]);
        ASSERT_TRUE(a && b) << "seed " << seed << " restored at " << at << ", input " << i;
        ASSERT_EQ(a->events.size(), b->events.size());
      }
      EXPECT_EQ(state_to_json(copy), state_to_json(*original)) << "seed " << seed << " at " << at;
      EXPECT_EQ(copy.signature(), game->signature());
      EXPECT_TRUE(copy.is_consistent());
      ++checked;
    }
  }
  EXPECT_EQ(checked, 96);
  // The sample must include snapshots taken with questions open and with steps still queued (a card chain or
  // a landing waiting on an answer), or the pointer round trip would be untested.
  EXPECT_GT(with_questions, 10);
  EXPECT_GT(with_steps, 0);
}

TEST(Snapshot, EveryPointOfOneGameWithBotsDecidingAfterTheRestore) {
  auto classic = edition("classic");
  rules::Setup setup = setup_for("classic", 99, 3);
  auto game = Game::start(classic, setup);
  ASSERT_TRUE(game);
  Bot bot(99);
  int restored = 0;
  while (!game->state().ended && restored < 300) {
    Game copy = restored_copy(*game);
    ASSERT_EQ(state_to_json(copy), state_to_json(*game));
    Input in = bot.next(*game);
    auto a = game->apply(in);
    auto b = copy.apply(in);
    ASSERT_TRUE(a && b);
    ASSERT_EQ(copy.snapshot(), game->snapshot()) << "input " << restored;
    ++restored;
  }
  // And from the last point to the end, with fresh bot decisions on both sides.
  Game copy = restored_copy(*game);
  Bot rest(1234);
  play_in_lockstep(*game, copy, rest, "seed 99 tail");
}

// With its history, a restored game undoes exactly as the original, also across undos made before the
// snapshot (the postings of each input are found again in the journal). Without it, it says what to do.
TEST(Snapshot, UndoAfterARestoreUndoesTheSameInput) {
  auto classic = edition("classic");
  rules::Setup setup = setup_for("classic", 5, 3);
  auto game = Game::start(classic, setup);
  ASSERT_TRUE(game);
  Bot bot(5);
  for (int i = 0; i < 80; ++i) {
    ASSERT_TRUE(game->apply(bot.next(*game)));
    if (i % 9 == 8) {
      ASSERT_TRUE(game->apply(Undo{}));  // corrections along the way
    }
    if (i % 23 == 22) {
      ASSERT_TRUE(game->apply(Undo{}));
      ASSERT_TRUE(game->apply(Undo{}));
    }
  }
  Game copy = restored_copy(*game, true);
  Game without = restored_copy(*game, false);
  auto refused = without.apply(Undo{});
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().find("replay it from its log"), std::string::npos) << refused.error();
  // Back to the very start, through inputs that were themselves made again after an undo.
  for (int k = 0; game->input_count() > 0; ++k) {
    auto a = game->apply(Undo{});
    auto b = copy.apply(Undo{});
    ASSERT_TRUE(a && b);
    ASSERT_EQ(state_to_json(copy), state_to_json(*game)) << "undo " << k;
    ASSERT_EQ(copy.snapshot(), game->snapshot());
  }
  // And it plays on in step after the undos.
  Bot rest(77);
  play_in_lockstep(*game, copy, rest, "after undos");
}

TEST(Snapshot, AComposedEditionWithFaresSweepstakesAndFreeRidesRoundTrips) {
  auto composed = edition(COMPOSED_EDITION);
  rules::Setup setup = setup_for(COMPOSED_EDITION, 11, 3);
  auto game = Game::start(composed, setup);
  ASSERT_TRUE(game) << game.error();
  Bot bot(11);
  int accepted = 0;
  for (int i = 0; i < 600 && !game->state().ended; ++i) {
    auto ok = game->apply(bot.next(*game));
    if (!ok) break;  // the simple bot does not know every question of this edition; what it played is enough
    ++accepted;
    Game copy = restored_copy(*game);
    ASSERT_EQ(copy.snapshot(), game->snapshot()) << "input " << i;
    ASSERT_EQ(state_to_json(copy), state_to_json(*game));
  }
  EXPECT_GT(accepted, 50);
}

// A card of two effects whose first stops at a question: the second is a queued step that points into the
// card. After a restore, its payment must still be posted as that card's.
TEST(Snapshot, AQueuedCardEffectStillPaysAsItsCardAfterARestore) {
  auto ed = load_edition("classic", {EDITIONS_DIR});
  ASSERT_TRUE(ed);
  for (auto& deck : ed->decks) {
    if (deck.id != "chance") continue;
    for (auto& card : deck.cards) {
      Effect advance;
      advance.kind = Effect::Kind::advance_to;
      advance.space = 39;
      Effect fee;
      fee.kind = Effect::Kind::pay;
      fee.amount = 15;
      card.effects = {advance, fee};
    }
  }
  auto shared = std::make_shared<const Edition>(std::move(*ed));
  rules::Setup setup = setup_for("classic", 8, 2);
  auto game = Game::start(shared, setup);
  ASSERT_TRUE(game);
  const std::vector<std::string> names = {"P0", "P1"};
  for (const char* line : {R"({"t": "roll", "dice": [3, 4]})", R"({"t": "draw", "deck": "chance"})"}) {
    auto in = parse_input(line, names, *shared);
    ASSERT_TRUE(in) << in.error();
    ASSERT_TRUE(game->apply(*in)) << line;
  }
  ASSERT_EQ(game->state().players[0].position, rules::SpaceId{39});
  ASSERT_FALSE(game->state().pending.empty());  // buy Boardwalk? The fee is still to come.
  auto snap = nlohmann::json::parse(game->snapshot());
  ASSERT_FALSE(snap["steps"].empty());
  Game copy = restored_copy(*game);
  auto buy = parse_input(R"({"t": "choose", "player": "P0", "option": "buy"})", names, *shared);
  ASSERT_TRUE(buy);
  ASSERT_TRUE(game->apply(*buy));
  ASSERT_TRUE(copy.apply(*buy));
  const Posting& fee = copy.state().postings.back();
  EXPECT_EQ(fee.amount, 15);
  EXPECT_EQ(fee.memo, Memo::card);
  EXPECT_FALSE(fee.card.empty());
  EXPECT_EQ(fee.card, game->state().postings.back().card);
  EXPECT_EQ(state_to_json(copy), state_to_json(*game));
}

TEST(Snapshot, ASnapshotThatDoesNotFitIsRefusedWithAReason) {
  auto classic = edition("classic");
  rules::Setup setup = setup_for("classic", 3, 2);
  auto game = Game::start(classic, setup);
  ASSERT_TRUE(game);
  Bot bot(3);
  for (int i = 0; i < 60; ++i) ASSERT_TRUE(game->apply(bot.next(*game)));
  const std::string good = game->snapshot();
  auto refuse = [&](const std::string& snap, std::vector<Input> inputs, std::vector<Posting> journal,
                    const std::string& expected) {
    auto r = Game::restore(game->edition_ptr(), setup, snap, std::move(journal), std::move(inputs));
    ASSERT_FALSE(r) << "accepted a snapshot that should be refused (" << expected << ")";
    EXPECT_NE(r.error().find(expected), std::string::npos) << r.error();
  };
  const auto& inputs = game->inputs();
  const auto& journal = game->state().postings;
  refuse("not json", inputs, journal, "not a JSON object");
  auto edit = [&](auto change) {
    auto j = nlohmann::json::parse(good);
    change(j);
    return j.dump();
  };
  refuse(edit([](auto& j) { j["format"] = 99; }), inputs, journal, "format 99");
  refuse(edit([](auto& j) { j["edition"] = "finance"; }), inputs, journal, "edition 'finance'");
  refuse(good, {inputs.begin(), inputs.end() - 1}, journal, "inputs");
  refuse(good, inputs, {journal.begin(), journal.end() - 1}, "postings");
  refuse(edit([](auto& j) { j["state"]["players"][0]["cash"] = 999999; }), inputs, journal, "inconsistent");
  refuse(edit([](auto& j) { j["decks"][0].push_back(77); }), inputs, journal, "not in the edition");
  refuse(edit([](auto& j) { j["state"].erase("turns"); }), inputs, journal, "malformed");
  refuse(edit([](auto& j) { j["state"]["turns"] = 12345; }), inputs, journal, "signature");
  refuse(edit([](auto& j) {
           j["steps"].push_back(nlohmann::json::array(
               {3, 0, 0, 0, 0, 0, 1, 0, true, false, 0, 0, nlohmann::json::array({"space", 4, 9})}));
         }),
         inputs, journal, "space effect 9");
  // And the good one restores.
  EXPECT_TRUE(Game::restore(game->edition_ptr(), setup, good, journal, inputs));
  EXPECT_TRUE(Game::restore(game->edition_ptr(), setup, good, journal));
}

}  // namespace
}  // namespace bb::rules
