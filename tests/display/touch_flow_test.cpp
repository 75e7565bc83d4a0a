#include <SDL.h>
#include <gtest/gtest.h>

#include <thread>

#include "display/font_set.h"
#include "display/sound_player.h"
#include "display/ui.h"
#include "display_test_support.h"

// Touch flows on the real screens: touches are injected as SDL finger events, the screen's intents are
// applied to a real rules::Game as the daemon would, and the next snapshot is shown.
namespace bb::display {
namespace {

// Four players at the start of a classic game.
SampleTable flow_table() { return testing::started_table("flow", {"Ann", "Bob", "Cleo", "Dev"}); }

using testing::Harness;

void adopt(SampleTable& t, rules::Adopt a) {
  auto r = t.apply(a);
  ASSERT_TRUE(r.has_value()) << r.error();
}

// Enters a throw by hand on the dice dialog.
void roll(Harness& h, int d1, int d2) {
  h.tap("home.roll");
  h.tap("dice.1." + std::to_string(d1));
  h.tap("dice.2." + std::to_string(d2));
  h.tap("dice.ok");
}

TEST(TouchFlow, BuyAPropertyConfirmedByTheBuyersCard) {
  Harness h(flow_table());
  roll(h, 1, 2);
  ASSERT_EQ(h.table().game().state().players[0].position, rules::SpaceId{3});
  EXPECT_TRUE(h.frame().shows("buy Baltic Avenue for $60?"));
  h.tap("home.option.buy");
  EXPECT_TRUE(h.frame().shows("Ann, tap your card to confirm"));
  EXPECT_EQ(h.frame().find("confirm.ok"), nullptr) << "with a working reader only the card confirms";
  h.card(1);  // Bob's card: not his purchase
  EXPECT_EQ(h.table().game().state().spaces[3].owner, std::nullopt);
  EXPECT_TRUE(h.frame().shows("That is Bob's card"));
  h.card(0);
  EXPECT_EQ(h.table().game().state().spaces[3].owner, rules::PlayerId{0});
  EXPECT_EQ(h.table().game().state().players[0].cash, 1440);
  EXPECT_TRUE(h.frame().shows("Ann bought Baltic Avenue for $60"));
  EXPECT_TRUE(h.refusals.empty());
}

TEST(TouchFlow, WithoutACardReaderTheScreenConfirms) {
  auto t = flow_table();
  t.devices[1] = {DeviceStatus::Kind::card_reader, "Card reader", DeviceStatus::State::missing,
                  "No answer on the SPI bus", "Check its cable"};
  Harness h(std::move(t));
  roll(h, 1, 2);
  h.tap("home.option.buy");
  ASSERT_TRUE(h.can_see("confirm.ok"));
  h.tap("confirm.ok");
  EXPECT_EQ(h.table().game().state().spaces[3].owner, rules::PlayerId{0});
}

// The service names its readers after their configuration ("Card reader (door)", "Card reader (RC522)"):
// the screen asks for a card while any reader works, and offers the screen's own button once all are down.
TEST(TouchFlow, ANamedReaderConfirmsByCardWhileAnyReaderWorks) {
  auto t = flow_table();
  t.devices[1] = {DeviceStatus::Kind::card_reader, "Card reader (door)", DeviceStatus::State::missing, "",
                  ""};
  t.devices.push_back(
      {DeviceStatus::Kind::card_reader, "Card reader (RC522)", DeviceStatus::State::ok, "", ""});
  Harness h(std::move(t));
  roll(h, 1, 2);
  h.tap("home.option.buy");
  EXPECT_TRUE(h.frame().shows("Ann, tap your card to confirm"));
  EXPECT_EQ(h.frame().find("confirm.ok"), nullptr);
}

TEST(TouchFlow, PayRentByTap) {
  auto t = flow_table();
  adopt(
      t,
      rules::Adopt{
          rules::PlayerId{1}, std::nullopt, std::nullopt, std::nullopt, std::nullopt, {{rules::SpaceId{3}}}});
  Harness h(std::move(t));
  roll(h, 1, 2);  // Ann lands on Bob's Baltic Avenue
  EXPECT_EQ(h.table().game().state().players[0].cash, 1496);
  EXPECT_EQ(h.table().game().state().players[1].cash, 1504);
  EXPECT_TRUE(h.frame().shows("Ann paid Bob $4 rent for Baltic Avenue"));
}

TEST(TouchFlow, RentAnnCannotPayIsRaisedByMortgagingOnScreen) {
  auto t = flow_table();
  adopt(t, rules::Adopt{rules::PlayerId{1},
                        std::nullopt,
                        std::nullopt,
                        std::nullopt,
                        std::nullopt,
                        {{rules::SpaceId{1}, 0, true}, {rules::SpaceId{3}, 0, true}}});
  adopt(t, rules::Adopt{rules::PlayerId{0},
                        100,
                        std::nullopt,
                        std::nullopt,
                        std::nullopt,
                        {{rules::SpaceId{37}}, {rules::SpaceId{39}}}});
  Harness h(std::move(t));
  roll(h, 1, 2);  // $450 rent for a hotel on Baltic: more than Ann holds
  ASSERT_FALSE(h.table().game().state().pending.empty());
  EXPECT_TRUE(h.frame().shows("Ann owes Bob $450"));
  h.tap("home.debt.properties");
  h.tap("props.space.37");
  h.tap("props.mortgage");
  h.card(0);
  h.tap("props.space.39");
  h.tap("props.mortgage");
  h.card(0);
  EXPECT_TRUE(h.table().game().state().pending.empty()) << "the debt is paid once cash covers it";
  EXPECT_TRUE(h.refusals.empty()) << h.refusals.front();
}

TEST(TouchFlow, BuildThreeHousesEvenly) {
  auto t = flow_table();
  adopt(t, rules::Adopt{rules::PlayerId{0},
                        std::nullopt,
                        std::nullopt,
                        std::nullopt,
                        std::nullopt,
                        {{rules::SpaceId{1}}, {rules::SpaceId{3}}}});
  Harness h(std::move(t));
  h.tap("nav.properties");
  h.tap("props.space.1");
  h.tap("props.build");
  h.card(0);
  EXPECT_EQ(h.table().game().state().spaces[1].houses, 1);
  // A second house on Mediterranean first would break even building: the rules say so on the screen.
  h.tap("props.build");
  EXPECT_FALSE(h.frame().find("props.build")->enabled);
  EXPECT_TRUE(h.frame().shows("build evenly: Baltic Avenue has fewer houses"));
  EXPECT_FALSE(h.can_see("confirm.cancel"));
  h.tap("props.space.3");
  h.tap("props.build");
  h.card(0);
  h.tap("props.space.1");
  h.tap("props.build");
  h.card(0);
  const auto& st = h.table().game().state();
  EXPECT_EQ(st.spaces[1].houses, 2);
  EXPECT_EQ(st.spaces[3].houses, 1);
  EXPECT_EQ(st.players[0].cash, 1500 - 3 * 50);
  EXPECT_TRUE(h.refusals.empty());
}

TEST(TouchFlow, MortgageAndLift) {
  auto t = flow_table();
  adopt(
      t,
      rules::Adopt{
          rules::PlayerId{0}, std::nullopt, std::nullopt, std::nullopt, std::nullopt, {{rules::SpaceId{3}}}});
  Harness h(std::move(t));
  h.tap("home.player.0");  // a player's card on home opens their property
  h.tap("props.space.3");
  h.tap("props.mortgage");
  h.tap("confirm.cancel");
  EXPECT_FALSE(h.table().game().state().spaces[3].mortgaged) << "cancel moves no money";
  h.tap("props.mortgage");
  h.card(0);
  EXPECT_TRUE(h.table().game().state().spaces[3].mortgaged);
  EXPECT_EQ(h.table().game().state().players[0].cash, 1530);
  EXPECT_TRUE(h.frame().shows("mortgaged"));
  h.tap("props.lift");
  h.card(0);
  EXPECT_FALSE(h.table().game().state().spaces[3].mortgaged);
  EXPECT_EQ(h.table().game().state().players[0].cash, 1530 - 33);
}

// Issue 16: selling a hotel when the bank has no houses. The question lists what is sold on every lot and for
// how much; nothing is posted until Ann's card confirms the whole sale.
TEST(TouchFlow, AHotelSaleWithNoHousesInTheBankListsEveryLotBeforeItIsPosted) {
  Harness h(testing::sample("shortage"));
  const auto postings = h.table().game().state().postings.size();
  h.tap("home.player.0");
  h.tap("props.space.9");
  h.tap("props.sell");
  EXPECT_TRUE(h.frame().shows("Sell the Light Blue hotels at once, for $325?"));
  EXPECT_TRUE(h.frame().shows("Connecticut Avenue: hotel \u2192 no houses, $125"));
  EXPECT_TRUE(h.frame().shows("Oriental Avenue: 4 houses \u2192 1 house, $75"));
  EXPECT_TRUE(h.frame().shows("Vermont Avenue: hotel \u2192 no houses, $125"));
  EXPECT_TRUE(h.frame().shows("Ann receives $325 in all"));
  EXPECT_EQ(h.table().game().state().postings.size(), postings) << "nothing is posted before the card";
  h.card(0);
  const auto& st = h.table().game().state();
  EXPECT_TRUE(h.refusals.empty()) << h.refusals.front();
  EXPECT_EQ(st.spaces[6].houses, 1);
  EXPECT_FALSE(st.spaces[8].hotel);
  EXPECT_FALSE(st.spaces[9].hotel);
  EXPECT_EQ(st.players[0].cash, 860 + 325);
  EXPECT_EQ(st.postings.size(), postings + 3) << "one posting per lot";
}

// A hotel sold for its houses is still one lot: the question says what it comes down to.
TEST(TouchFlow, AHotelSaleWithHousesInTheBankSaysWhatItComesDownTo) {
  auto t = flow_table();
  adopt(t, rules::Adopt{rules::PlayerId{0},
                        std::nullopt,
                        std::nullopt,
                        std::nullopt,
                        std::nullopt,
                        {{rules::SpaceId{37}, 0, true}, {rules::SpaceId{39}, 0, true}}});
  Harness h(std::move(t));
  h.tap("home.player.0");
  h.tap("props.space.39");
  h.tap("props.sell");
  EXPECT_TRUE(
      h.frame().shows("sell the hotel on Boardwalk to the bank for $100? It comes down to 4 houses."));
  h.card(0);
  EXPECT_EQ(h.table().game().state().spaces[39].houses, 4);
}

TEST(TouchFlow, RunAnAuctionByTapsCardsAndKeypad) {
  Harness h(flow_table());
  roll(h, 1, 2);
  h.tap("home.option.auction");
  ASSERT_EQ(h.screen().ui().screen(), ScreenId::auction);
  h.tap("auction.raise.0");  // nobody chosen yet: refused with a reason
  EXPECT_TRUE(h.frame().shows("First tap who bids"));
  h.tap("auction.bidder.1");
  h.tap("auction.raise.1");  // Bob: $10
  EXPECT_EQ(h.table().game().state().auction->high_bid, 10);
  h.card(2);  // Cleo taps her card: ten over
  EXPECT_EQ(h.table().game().state().auction->high_bidder, rules::PlayerId{2});
  EXPECT_EQ(h.table().game().state().auction->high_bid, 20);
  h.tap("auction.bidder.1");
  h.tap("auction.keypad");
  h.tap("keypad.4");
  h.tap("keypad.5");
  h.tap("keypad.ok");
  EXPECT_EQ(h.table().game().state().auction->high_bidder, rules::PlayerId{1});
  EXPECT_EQ(h.table().game().state().auction->high_bid, 45);
  EXPECT_TRUE(h.frame().shows("Bob is highest"));
  h.tap("auction.close");
  h.card(1);
  EXPECT_FALSE(h.table().game().state().auction.has_value());
  EXPECT_EQ(h.table().game().state().spaces[3].owner, rules::PlayerId{1});
  EXPECT_EQ(h.table().game().state().players[1].cash, 1455);
  EXPECT_EQ(h.screen().ui().screen(), ScreenId::home) << "the table goes home when the auction closes";
}

TEST(TouchFlow, MakeATradeBothConfirm) {
  auto t = flow_table();
  adopt(
      t,
      rules::Adopt{
          rules::PlayerId{0}, std::nullopt, std::nullopt, std::nullopt, std::nullopt, {{rules::SpaceId{3}}}});
  Harness h(std::move(t));
  h.tap("nav.trade");
  h.tap("trade.0.space.3");
  h.tap("trade.1.cash");
  h.tap("keypad.1");
  h.tap("keypad.2");
  h.tap("keypad.0");
  h.tap("keypad.ok");
  EXPECT_TRUE(h.frame().shows("Cash $120"));
  h.tap("trade.0.agree");
  EXPECT_EQ(h.table().game().state().spaces[3].owner, rules::PlayerId{0}) << "one agreement is not a trade";
  h.card(1);  // Bob agrees with his card
  EXPECT_EQ(h.table().game().state().spaces[3].owner, rules::PlayerId{1});
  EXPECT_EQ(h.table().game().state().players[0].cash, 1620);
  EXPECT_EQ(h.table().game().state().players[1].cash, 1380);
  EXPECT_TRUE(h.refusals.empty()) << h.refusals.front();
}

// A player put out of the game has nothing to trade and no card that may agree: the trade screen starts with
// two players still in, and its player buttons step over the bankrupt ones.
TEST(TouchFlow, TheTradeScreenOffersOnlyPlayersStillInTheGame) {
  auto t = SampleTable::start("out", EDITIONS_DIR, {"Ann", "Bob", "Cleo", "Dev"}, 23);
  ASSERT_TRUE(t) << t.error();
  t->play(400, 23);
  std::vector<std::string> out;
  int still_in = 0;
  for (const auto& p : t->game().state().players) {
    if (p.bankrupt)
      out.push_back(p.name);
    else
      ++still_in;
  }
  ASSERT_FALSE(out.empty()) << "the long game puts someone out";
  ASSERT_GE(still_in, 2) << "and leaves two to trade";
  Harness h(std::move(*t));
  h.tap("nav.trade");
  for (int round = 0; round < 8; ++round) {
    for (const auto& name : out)
      EXPECT_FALSE(h.frame().shows(name + " gives")) << name << ", round " << round;
    h.tap(round % 2 ? "trade.0.player" : "trade.1.player");
  }
}

// The family agrees to stop: the Ledger screen's End button, confirmed on the screen, ends the game and the
// richest wins; the button is greyed once the game is over.
TEST(TouchFlow, TheFamilyEndsTheGameOnTheLedgerScreen) {
  Harness h(flow_table(), 800, 480, UiSettings{true, "2468", "", 0});
  roll(h, 1, 2);
  h.tap("home.option.buy");
  h.card(0);
  h.tap("nav.ledger");
  h.tap("ledger.end");
  ASSERT_TRUE(h.can_see("confirm.ok"));
  EXPECT_TRUE(h.frame().shows("End the game now?"));
  EXPECT_FALSE(h.table().game().state().ended) << "nothing ends before it is confirmed";
  h.tap("confirm.ok");
  const auto& st = h.table().game().state();
  ASSERT_TRUE(st.ended);
  EXPECT_FALSE(st.winners.empty());
  EXPECT_TRUE(h.refusals.empty()) << h.refusals.front();
  h.tap("nav.ledger");
  bool end_enabled = true;
  for (const auto& t : h.frame().targets)
    if (t.id == "ledger.end") end_enabled = t.enabled;
  EXPECT_FALSE(end_enabled) << "the game is over: nothing to end";
}

TEST(TouchFlow, UndoNeedsTheBankersPinAndAReason) {
  Harness h(flow_table(), 800, 480, UiSettings{true, "2468", "", 0});
  roll(h, 1, 2);
  h.tap("home.option.buy");
  h.card(0);
  ASSERT_EQ(h.table().game().state().spaces[3].owner, rules::PlayerId{0});
  const auto postings = h.table().game().state().postings.size();
  h.tap("nav.ledger");
  h.tap("ledger.undo");
  for (const char* k : {"keypad.1", "keypad.2", "keypad.3", "keypad.4", "keypad.ok"}) h.tap(k);
  EXPECT_TRUE(h.frame().shows("Wrong PIN"));
  EXPECT_EQ(h.table().game().state().spaces[3].owner, rules::PlayerId{0});
  for (const char* k : {"keypad.2", "keypad.4", "keypad.6", "keypad.8", "keypad.ok"}) h.tap(k);
  ASSERT_TRUE(h.can_see("choice.1"));
  h.tap("choice.1");
  const auto& st = h.table().game().state();
  EXPECT_EQ(st.spaces[3].owner, std::nullopt);
  EXPECT_EQ(st.players[0].cash, 1500);
  EXPECT_GT(st.postings.size(), postings) << "an undo is a new entry, never a deletion";
  EXPECT_EQ(st.postings.back().memo, rules::Memo::undo);
  bool reason = false;
  for (const auto& i : h.intents)
    if (const auto* a = std::get_if<ApplyInput>(&i); a && std::holds_alternative<rules::Undo>(a->input))
      reason = a->reason == "Wrong button pressed";
  EXPECT_TRUE(reason);
  EXPECT_TRUE(h.frame().shows("Undo:"));
  EXPECT_TRUE(h.frame().shows("Wrong button pressed")) << "the ledger shows the banker's reason";
}

TEST(TouchFlow, SetupRegistersAnUnknownCard) {
  auto t = flow_table();
  Harness h(std::move(t));
  h.tap("nav.setup");
  h.card_uid("DEADBEEF");
  for (const char* k : {"name.key.Z", "name.key.O", "name.key.E", "name.next"}) h.tap(k);
  h.tap("player.colour.2");
  h.tap("player.token.dog");
  h.tap("player.done");
  h.tap("setup.add");
  for (const char* k : {"name.key.M", "name.key.A", "name.key.X", "name.next", "player.done"}) h.tap(k);
  h.tap("setup.start");
  const StartGame* start = nullptr;
  for (const auto& i : h.intents)
    if (const auto* s = std::get_if<StartGame>(&i)) start = s;
  ASSERT_NE(start, nullptr);
  ASSERT_EQ(start->setup.players.size(), 2u);
  EXPECT_EQ(start->setup.players[0].name, "Zoe");
  EXPECT_EQ(start->setup.players[0].card, "DEADBEEF");
  EXPECT_EQ(start->setup.players[0].token, "dog");
  EXPECT_EQ(start->colours[0], 2);
  EXPECT_EQ(start->setup.players[1].name, "Max");
}

TEST(TouchFlow, SoundsAreQuietWithoutADeviceAndOffBySetting) {
  // SDL_AUDIODRIVER=dummy in the tests: a device that plays into nothing.
  SoundPlayer on(true);
  if (on.available()) {
    EXPECT_TRUE(on.play(Cue::tap));
    EXPECT_TRUE(on.play(Cue::payment));
  } else {
    EXPECT_FALSE(on.problem().empty());
  }
  SoundPlayer off(false);
  EXPECT_FALSE(off.play(Cue::payment));
  EXPECT_EQ(off.played(), 0);
}

TEST(TouchFlow, NothingIsDrawnWhileNothingChanges) {
  Harness h(flow_table());
  const int frames = h.screen().frames_drawn();
  for (int i = 0; i < 50; ++i) {
    h.screen().pump();
    EXPECT_FALSE(h.screen().draw_if_needed());
  }
  EXPECT_EQ(h.screen().frames_drawn(), frames);
  h.tap("nav.board");
  EXPECT_GT(h.screen().frames_drawn(), frames);
}

}  // namespace
}  // namespace bb::display

namespace bb::display {
namespace {

TEST(TouchFlow, LedgerFiltersByPlayerAndByProperty) {
  auto t = flow_table();
  adopt(
      t,
      rules::Adopt{
          rules::PlayerId{1}, std::nullopt, std::nullopt, std::nullopt, std::nullopt, {{rules::SpaceId{3}}}});
  Harness h(std::move(t));
  roll(h, 1, 2);  // Ann pays Bob rent for Baltic Avenue
  h.tap("nav.ledger");
  h.tap("ledger.where");
  // The property list starts with "Anywhere", then the spaces that can cost or earn money, in board order.
  const auto& frame = h.frame();
  std::string baltic_id;
  for (const auto& target : frame.targets)
    for (const auto& op : frame.ops)
      if (op.kind == DrawOp::Kind::text && op.text == "Baltic Avenue" &&
          target.rect.contains(op.rect.cx(), op.rect.cy()) && target.id.rfind("choice.", 0) == 0)
        baltic_id = target.id;
  ASSERT_FALSE(baltic_id.empty());
  h.tap(baltic_id);
  EXPECT_TRUE(h.frame().shows("Ann paid Bob $4 rent for Baltic Avenue"));
  EXPECT_FALSE(h.frame().shows("got $1,500 to start"));
  EXPECT_TRUE(h.frame().shows("1 postings"));
  h.tap("ledger.where");
  h.tap("choice.0");  // anywhere
  h.tap("ledger.who");
  h.tap("choice.4");  // Dev
  EXPECT_TRUE(h.frame().shows("Dev got $1,500 to start"));
  EXPECT_FALSE(h.frame().shows("Ann got $1,500 to start"));
}

TEST(TouchFlow, TheAuctionCountdownTicksAndStopsAtZero) {
  auto t = flow_table();
  ASSERT_TRUE(t.apply(rules::Roll{1, 2}).has_value());
  ASSERT_TRUE(t.apply(rules::Choose{rules::PlayerId{0}, {rules::Answer::auction}}).has_value());
  auto fonts = FontSet::open();
  ASSERT_TRUE(fonts.has_value());
  Ui ui(UiSettings{true, "1234", "", 30});
  const auto layout = Layout::for_window(800, 480);
  const auto snap = t.snapshot();
  EXPECT_TRUE(ui.build(snap, layout, **fonts, 1'000).shows("0:30"));
  EXPECT_FALSE(ui.needs_redraw(1'500, snap.version)) << "same second: nothing to draw";
  EXPECT_TRUE(ui.needs_redraw(2'000, snap.version)) << "the next second is drawn";
  EXPECT_TRUE(ui.build(snap, layout, **fonts, 13'000).shows("0:18"));
  EXPECT_TRUE(ui.build(snap, layout, **fonts, 40'000).shows("Time! Close it"));
  EXPECT_FALSE(ui.needs_redraw(45'000, snap.version)) << "once time is up the screen stops ticking";
  EXPECT_TRUE(ui.take_intents().empty()) << "the auctioneer closes, not the clock";
}

TEST(TouchFlow, AWindowOnTheDummyVideoDriverDrawsAndTakesClicks) {
  TouchScreen::Options o;
  o.window = true;
  auto screen = TouchScreen::open(o);
  if (!screen) GTEST_SKIP() << "no SDL video driver here: " << screen.error();
  auto t = flow_table();
  (*screen)->show(t.snapshot());
  EXPECT_TRUE((*screen)->draw_if_needed());
  const Target* ledger = (*screen)->frame().find("nav.ledger");
  ASSERT_NE(ledger, nullptr);
  SDL_Event e{};
  e.type = SDL_MOUSEBUTTONUP;
  e.button.button = SDL_BUTTON_LEFT;
  e.button.which = 0;
  e.button.x = ledger->rect.cx();
  e.button.y = ledger->rect.cy();
  ASSERT_EQ(SDL_PushEvent(&e), 1);
  (*screen)->pump();
  EXPECT_EQ((*screen)->ui().screen(), ScreenId::ledger);
  EXPECT_TRUE((*screen)->draw_if_needed());
}

// A fullscreen table is touched, never pointed at: the pointer the KMS/DRM driver would draw is hidden. A
// window on a desktop keeps it.
TEST(TouchFlow, FullscreenHidesThePointerAndAWindowKeepsIt) {
  TouchScreen::Options o;
  o.window = true;
  {
    auto windowed = TouchScreen::open(o);
    if (!windowed) GTEST_SKIP() << "no SDL video driver here: " << windowed.error();
    EXPECT_EQ(SDL_ShowCursor(SDL_QUERY), SDL_ENABLE);
  }
  o.fullscreen = true;
  auto screen = TouchScreen::open(o);
  ASSERT_TRUE(screen) << screen.error();
  EXPECT_EQ(SDL_ShowCursor(SDL_QUERY), SDL_DISABLE);
  SDL_ShowCursor(SDL_ENABLE);  // leave the process as the other tests expect it
}

}  // namespace
}  // namespace bb::display

namespace bb::display {
namespace {

// The loop blocker that was: a thread in wait() could not be woken by anything but SDL. wake() from
// another thread ends the wait at once (a broken wake would hold this test for a minute and then fail).
TEST(TouchScreenWake, AnotherThreadEndsAWaitInProgress) {
  TouchScreen::Options o;
  auto screen = TouchScreen::open(o);
  ASSERT_TRUE(screen) << screen.error();
  (*screen)->pump();  // an empty queue
  std::thread other([&] { (*screen)->wake(); });
  EXPECT_TRUE((*screen)->wait(60'000));
  other.join();
  EXPECT_TRUE((*screen)->pump().empty()) << "the wake-up is no touch";
  EXPECT_FALSE((*screen)->quit_requested());
}

}  // namespace
}  // namespace bb::display
