// FINANCE (1932), seeds/finance-1932-rules.txt. Each test names the sentence of the rule text it checks; most
// rules are checked by the game scripts scripts/finance_*.jsonl.
#include <gtest/gtest.h>

#include <algorithm>

#include "rules/bot.h"
#include "rules/script.h"
#include "test_support.h"

namespace bb::rules::testing {
namespace {

Edition load_finance() {
  auto ed = load_edition("finance-1932", editions());
  EXPECT_TRUE(ed) << (ed ? "" : ed.error().what());
  return ed ? *ed : Edition{};
}

// "Each player take $1,000"; "Take $250 every time around the board"; "Bids are always raised by a minimum of
// $5"; "No player can build more than five houses on one space"; the lease values as house costs and
// mortgages; "A player having one lease gets $15 per ride; two leases bring $30; three leases bring $70; four
// leases bring $150"; "One lease pays 4 times. Both leases pay 10 times."
TEST(Finance1932, TheAmountsTheTextStates) {
  Edition ed = load_finance();
  EXPECT_EQ(ed.rules.start_cash, 1000);
  EXPECT_EQ(ed.rules.salary, 250);
  EXPECT_EQ(ed.rules.bid_increment, 5);
  EXPECT_FALSE(ed.rules.buy_at_price);
  EXPECT_EQ(ed.rules.max_houses, 5);
  EXPECT_FALSE(ed.rules.hotels_enabled);
  EXPECT_EQ(ed.rules.jail_insurance, 25);
  EXPECT_EQ(ed.rules.jail_insurance_card, 5);
  EXPECT_TRUE(ed.rules.paupers);
  EXPECT_EQ(ed.rules.pauper_cash_below, 100);
  ASSERT_EQ(ed.spaces.size(), 40u);
  const Space& wayback = ed.spaces[1];
  EXPECT_EQ(wayback.name, "Wayback");
  EXPECT_EQ(wayback.rent.amounts, (std::vector<Money>{2, 10, 30, 80, 160, 200}));
  for (const Space& sp : ed.spaces) {
    if (sp.kind == Space::Kind::property) {
      EXPECT_EQ(sp.house_cost, sp.price) << sp.name << ": a house costs the property's value";
      EXPECT_EQ(sp.mortgage, sp.price) << sp.name << ": the mortgage is the value";
      EXPECT_EQ(sp.rent.amounts.size(), 6u) << sp.name << ": bare, then one to five houses";
    }
    if (sp.kind == Space::Kind::railroad) {
      EXPECT_EQ(sp.rent.amounts, (std::vector<Money>{15, 30, 70, 150}));
    }
    if (sp.kind == Space::Kind::utility) {
      EXPECT_EQ(sp.rent.amounts, (std::vector<Money>{4, 10}));
    }
  }
}

// "the Auctioneer ... arranges [the leases] in numbered order with No. 1 on top": series 1 to 8 in board
// order. "A COMPLETE SERIES of properties consists of all the spaces having the same cash value."
TEST(Finance1932, EverySeriesHasOneValue) {
  Edition ed = load_finance();
  int previous_value = 0;
  for (std::size_t g = 0; g < 8; ++g) {
    const auto& members = ed.members_of(static_cast<int>(g));
    ASSERT_FALSE(members.empty());
    for (SpaceId s : members) EXPECT_EQ(ed.spaces[s].price, ed.spaces[members[0]].price) << ed.spaces[s].name;
    EXPECT_GT(ed.spaces[members[0]].price, previous_value) << "series " << g + 1;
    previous_value = ed.spaces[members[0]].price;
  }
}

// "When man stops on Community Chest, cut green cards and pay Bank."
TEST(Finance1932, EveryCommunityChestCardOnlyPaysTheBank) {
  Edition ed = load_finance();
  const Deck* chest = ed.deck("chest");
  ASSERT_NE(chest, nullptr);
  for (const Card& c : chest->cards)
    for (const Effect& e : c.effects) EXPECT_EQ(e.kind, Effect::Kind::pay) << c.id;
}

// The switches families play either way are options: doubles, forgetters, sometimes, double rent.
TEST(Finance1932, TheCustomsAreOptions) {
  Edition ed = load_finance();
  auto plain = ed.rules_with({});
  ASSERT_TRUE(plain);
  EXPECT_FALSE(plain->doubles_roll_again);
  EXPECT_FALSE(plain->salary_must_be_claimed);
  auto doubles = ed.rules_with({{"doubles_throw_again", true}});
  ASSERT_TRUE(doubles);
  EXPECT_TRUE(doubles->doubles_roll_again);
  EXPECT_TRUE(doubles->three_doubles_to_jail);
  auto forgetters = ed.rules_with({{"forgetters", true}});
  ASSERT_TRUE(forgetters);
  EXPECT_TRUE(forgetters->salary_must_be_claimed);
  auto sometimes = ed.rules_with({{"sometimes", true}});
  ASSERT_TRUE(sometimes);
  EXPECT_TRUE(sometimes->withdraw_only_complete_series);
  // The customs of the text that are played as written (each a switch an edited file may turn off).
  EXPECT_TRUE(plain->double_rent_needs_clear_series);
  EXPECT_TRUE(plain->jail_house_owner_three_throws);
  EXPECT_EQ(plain->early_lease_sale_max, 4);
  EXPECT_TRUE(plain->announce_series_piece);
}

// Applies script lines to a fresh two-player game (Ann, Bob), every invariant checked after each.
std::optional<Game> play_lines(const std::shared_ptr<const Edition>& ed,
                               std::initializer_list<const char*> lines) {
  rules::Setup setup;
  setup.edition = "finance-1932";
  setup.seed = 1;
  for (const char* n : {"Ann", "Bob"}) setup.players.push_back({n, "", "", {}});
  auto game = Game::start(ed, setup);
  EXPECT_TRUE(game) << game.error();
  if (!game) return std::nullopt;
  std::vector<std::string> names{"Ann", "Bob"};
  for (const char* line : lines) {
    auto in = parse_input(line, names, *ed);
    EXPECT_TRUE(in) << in.error();
    if (!in) return std::nullopt;
    auto ok = game->apply(*in);
    EXPECT_TRUE(ok) << line << ": " << ok.error();
    if (!ok) return std::nullopt;
    EXPECT_TRUE(game->is_consistent()) << game->invariant_violations().front();
  }
  return std::move(*game);
}

// "When any piece of property is put up for sale, the Auctioneer must announce whether it is the 1st, 2nd or
// 3rd piece in that series to be auctioned."
TEST(Finance1932, TheAuctioneerAnnouncesThePieceOfTheSeries) {
  auto ed = std::make_shared<const Edition>(load_finance());
  // Nobody owns Series 2: Sylvan Dell is its 1st piece.
  auto first = play_lines(ed, {R"({"t": "roll", "dice": [2, 4]})"});
  ASSERT_TRUE(first);
  ASSERT_TRUE(first->state().auction);
  EXPECT_EQ(first->series_piece(SpaceId{6}), 1);
  // Venetian Lagoon sold to Bob: Ye Olde Manor is the 2nd piece, and the auction's event says so.
  auto second = play_lines(ed, {R"({"t": "adopt", "player": "Bob", "spaces": [{"space": 8}]})"});
  ASSERT_TRUE(second);
  EXPECT_EQ(second->series_piece(SpaceId{9}), 2);
  auto out = second->apply(Roll{4, 5});
  ASSERT_TRUE(out) << out.error();
  auto started = std::find_if(out->events.begin(), out->events.end(),
                              [](const Event& e) { return e.kind == Event::Kind::auction_started; });
  ASSERT_NE(started, out->events.end());
  EXPECT_EQ(second->describe(*started), "Auction: Ye Olde Manor, the 2nd piece in Series 2 (red)");
  // Editions that do not announce it say nothing.
  auto classic = std::make_shared<const Edition>(load_shipped("classic"));
  rules::Setup setup;
  setup.edition = "classic";
  for (const char* n : {"Ann", "Bob"}) setup.players.push_back({n, "", "", {}});
  auto plain = Game::start(classic, setup);
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->series_piece(SpaceId{1}), std::nullopt);
}

// "Players may insure against going to Jail by paying $25 to the Bank on approaching the "Go to Jail" corner.
// The $25 must be paid before throwing the dice." "A house owner cannot insure against Jail." The screens ask
// the rules before they offer the button.
TEST(Finance1932, TheScreensAskWhetherInsuranceIsAllowed) {
  auto ed = std::make_shared<const Edition>(load_finance());
  auto game = play_lines(ed, {});
  ASSERT_TRUE(game);
  EXPECT_EQ(game->why_not_insure(PlayerId{0}, false), std::nullopt);
  EXPECT_EQ(game->why_not_insure(PlayerId{0}, true), std::nullopt);
  EXPECT_NE(game->why_not_insure(PlayerId{1}, false), std::nullopt) << "only the player about to throw";
  auto owner = play_lines(
      ed, {R"({"t": "adopt", "player": "Ann", "spaces": [{"space": 1, "houses": 1}, {"space": 3}]})"});
  ASSERT_TRUE(owner);
  EXPECT_EQ(owner->why_not_insure(PlayerId{0}, false).value_or(""),
            "Ann owns houses, and a house owner cannot insure against jail");
  EXPECT_NE(owner->why_not_partner(Partner{PlayerId{0}, PlayerId{1}, ed->spaces[5].group_index, 50}),
            std::nullopt);
}

// A game holding a partnership and a withdrawn lease comes back from its snapshot as it was, and its dump
// names both.
TEST(Finance1932, PartnershipsAndWithdrawnLeasesSurviveASnapshot) {
  auto ed = std::make_shared<const Edition>(load_finance());
  rules::Setup setup;
  setup.edition = "finance-1932";
  setup.seed = 3;
  for (const char* n : {"Ann", "Bob", "Cleo"}) setup.players.push_back({n, "", "", {}});
  auto game = Game::start(ed, setup);
  ASSERT_TRUE(game) << game.error();
  std::vector<std::string> names{"Ann", "Bob", "Cleo"};
  for (
      const char* line : {
          R"({"t": "adopt", "player": "Ann", "cash": 10, "spaces": [{"space": 5}, {"space": 39}]})",
          R"({"t": "adopt", "player": "Bob", "spaces": [{"space": 15}, {"space": 1, "houses": 5}, {"space": 3, "houses": 5}]})",
          R"({"t": "adopt", "player": "Cleo", "spaces": [{"space": 25}]})",
          R"({"t": "partner", "holder": "Bob", "partner": "Cleo", "group": "railroad", "share": 40})",
          R"({"t": "roll", "dice": [1, 2]})",
          R"({"t": "mortgage", "player": "Ann", "space": 5})",
          R"({"t": "mortgage", "player": "Ann", "space": 39})",
          R"({"t": "bankrupt", "player": "Ann"})",
      }) {
    auto in = parse_input(line, names, *ed);
    ASSERT_TRUE(in) << in.error();
    auto ok = game->apply(*in);
    ASSERT_TRUE(ok) << line << ": " << ok.error();
    EXPECT_TRUE(game->is_consistent()) << game->invariant_violations().front();
  }
  // Ann's leases left the game with her; Cleo's Southern Pacific is held by Bob.
  EXPECT_TRUE(game->state().spaces[39].withdrawn);
  EXPECT_TRUE(game->state().spaces[5].withdrawn);
  EXPECT_EQ(game->state().spaces[25].owner, PlayerId{1});
  ASSERT_EQ(game->state().partnerships.size(), 1u);
  auto restored = Game::restore(ed, setup, game->snapshot(), game->state().postings, game->inputs());
  ASSERT_TRUE(restored) << restored.error();
  EXPECT_EQ(restored->snapshot(), game->snapshot());
  EXPECT_EQ(restored->signature(), game->signature());
  EXPECT_EQ(state_to_json(*restored), state_to_json(*game));
  EXPECT_NE(state_to_json(*game).find("\"withdrawn\":true"), std::string::npos);
  EXPECT_NE(state_to_json(*game).find("\"partnerships\""), std::string::npos);
}

struct Played {
  std::uint64_t signature = 0xcbf29ce484222325ULL;
  int finished = 0;
  int partnerships = 0;  // games in which a partnership was made
  int withdrawn = 0;     // games in which a lease left the game
  int insured = 0;       // games in which jail insurance saved a player
};

// Bot games with every invariant checked after every input.
Played play(int games, std::uint64_t seed, int players, const std::map<std::string, bool>& options = {}) {
  auto ed = load_edition("finance-1932", editions());
  EXPECT_TRUE(ed);
  auto shared = std::make_shared<const Edition>(std::move(*ed));
  Played out;
  for (int gi = 0; gi < games; ++gi) {
    rules::Setup setup;
    setup.edition = "finance-1932";
    setup.seed = seed + static_cast<std::uint64_t>(gi);
    setup.options = options;
    for (int p = 0; p < players; ++p) setup.players.push_back({"P" + std::to_string(p), "", "", {}});
    bool partnered = false, withdrawn = false, insured = false;
    auto game = testing::play_bot_game(shared, setup, [&](const Outcome& o) {
      for (const Event& e : o.events) {
        partnered = partnered || e.kind == Event::Kind::partnership;
        withdrawn = withdrawn || e.kind == Event::Kind::withdrawn;
        insured = insured || e.kind == Event::Kind::insured;
      }
    });
    if (!game) return out;
    out.finished += game->state().ended;
    out.partnerships += partnered;
    out.withdrawn += withdrawn;
    out.insured += insured;
    out.signature = (out.signature ^ game->signature()) * 0x100000001b3ULL;
  }
  return out;
}

// 10,000 games (300 under the sanitizers, where its games are the longest of all editions' at about 60 ms
// each: a minute of CI for 1,000) with every invariant checked after every input; the bots make partnerships,
// insure, and put players out, so the new rules are played, not only loaded.
TEST(Finance1932, TenThousandSimulatedGamesKeepEveryInvariant) {
#if defined(__SANITIZE_ADDRESS__)
  constexpr int kGames = 300;
#else
  constexpr int kGames = 10000;
#endif
  Played p = play(kGames, 1, 4);
  EXPECT_EQ(p.finished, kGames);
  EXPECT_GT(p.partnerships, kGames / 10);
  EXPECT_GT(p.withdrawn, kGames / 2);
  EXPECT_GT(p.insured, kGames / 10);
}

// 300 games with each option on (100 under the sanitizers).
TEST(Finance1932, SimulatedGamesWithEachOptionKeepEveryInvariant) {
#if defined(__SANITIZE_ADDRESS__)
  constexpr int kGames = 100;
#else
  constexpr int kGames = 300;
#endif
  for (const char* option : {"doubles_throw_again", "forgetters", "sometimes", "no_double_rent"}) {
    SCOPED_TRACE(option);
    Played p = play(kGames, 1, 3, {{option, true}});
    EXPECT_EQ(p.finished, kGames);
  }
}

// Pins FINANCE (1932)'s games: any change to a rule it uses changes this number (update it in the same
// commit, saying why).
TEST(Finance1932, SignatureOfAFixedSetOfGamesIsPinned) {
  Played p = play(200, 42, 4);
  EXPECT_EQ(p.finished, 200);
  EXPECT_EQ(p.signature, 0xf2b9bec798370ec3ULL) << std::hex << p.signature;
}

}  // namespace
}  // namespace bb::rules::testing
