// The service end to end on this machine: a real ledger file, simulated devices fed through pipes as the demo
// feeds them, a device that is configured but missing, the screen offscreen, and a participant (as the demo's
// bots are) that reads the table's view and acts through the devices and the screen. Here: a game played,
// resumed, refused a second service, its configuration reloaded, its history and its odds; the faults (a
// camera gone or quiet, a dice unit or card reader unplugged, a disk full, a SIGTERM in a commit) are in
// test_service_faults.cpp.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <opencv2/core.hpp>
#include <optional>

#include "daemon/service.h"
#include "daemon/virtual_table.h"
#include "display/game_history.h"
#include "fault_vfs.h"
#include "ledger/ledger.h"
#include "service_test_players.h"
#include "service_test_support.h"
#include "table/table.h"
#include "vision/frame_source.h"

using namespace bb;
using namespace bb::daemon;
using bb::daemon::service_test::dice_setup;
using bb::daemon::service_test::DicePlayer;
using bb::daemon::service_test::start_two_player_game;
using bb::daemon::service_test::TempFolder;
using bb::daemon::service_test::test_config;
using bb::daemon::service_test::wake_limit;
using bb::daemon::service_test::Watcher;
using namespace std::chrono_literals;

namespace {

// Plays like the demo's bots do: starts a game on the screen, throws the simulated dice through its command
// pipe, and stops the service once the throw is in the ledger.
class ScriptedPlayer final : public Participant {
 public:
  explicit ScriptedPlayer(int dice_pipe) : dice_pipe_(dice_pipe) {}
  std::string name() const override { return "scripted player"; }
  Wake wake() const override { return Wake{-1, 10ms}; }
  void on_wake(ParticipantContext& context) override {
    ++wakes;
    const auto& view = context.table().view();
    for (const auto& device : view.devices)
      if (device.state != display::DeviceStatus::State::ok) missing_seen.insert(device.name);
    using K = table::Awaiting::Kind;
    if (view.awaiting.kind == K::setup && !started) {
      rules::Setup setup;
      setup.edition = "classic";
      setup.players = {{"Ann", "car", "", {}}, {"Bob", "dog", "", {}}};
      context.touch(display::StartGame{setup, {0, 1}});
      started = true;
    } else if (view.awaiting.kind == K::throw_dice && view.game && !thrown) {
      ASSERT_EQ(write(dice_pipe_, "roll 3 4\n", 9), 9);
      thrown = true;
    } else if (thrown && view.game && view.game->input_count() >= 1) {
      context.stop(7);
    }
    if (wakes > wake_limit(3000)) context.stop(99);  // the test failed; do not hang
  }
  int wakes = 0;
  bool started = false;
  bool thrown = false;
  std::set<std::string> missing_seen;

 private:
  int dice_pipe_;
};

}  // namespace

TEST(Service, PlaysAThrowFromSimulatedDiceIntoTheLedgerAndGoesOnWithoutAMissingReader) {
  TempFolder dir;
  int dice_pipe[2];
  ASSERT_EQ(pipe(dice_pipe), 0);
  ServiceSetup setup;
  setup.config = test_config(dir);
  setup.headless = true;
  std::vector<std::string> lines;
  setup.log = [&lines](const std::string& line) { lines.push_back(line); };
  peripherals::DeviceConfig dice;
  dice.kind = "dice";
  dice.backend = "simulated";
  dice.input_fd = dice_pipe[0];
  peripherals::DeviceConfig reader;  // configured, but there is no such chip here
  reader.kind = "wiegand";
  reader.name = "door";
  reader.chip = "gpiochip99";
  setup.devices = {dice, reader};
  auto player = std::make_unique<ScriptedPlayer>(dice_pipe[1]);
  ScriptedPlayer* scripted = player.get();
  setup.participants.push_back(std::move(player));

  auto service = Service::create(std::move(setup));
  ASSERT_TRUE(service.has_value()) << service.error();
  EXPECT_EQ((*service)->run(), 7) << ::testing::PrintToString(lines);
  EXPECT_TRUE(scripted->started);
  EXPECT_TRUE(scripted->thrown);
  EXPECT_TRUE(scripted->missing_seen.contains("Card reader (door)"));
  service->reset();

  // The throw is in the ledger file, under the dice unit's id.
  ledger::LedgerOptions options;
  options.path = dir.file("state/ledger.db");
  options.edition_dirs = {std::string(SOURCE_DIR) + "/editions"};
  auto stored = ledger::Ledger::open(options);
  ASSERT_TRUE(stored.has_value()) << stored.error().message;
  auto game = stored->newest_unfinished_game();
  ASSERT_TRUE(game.has_value());
  auto script = stored->export_script(*game);
  ASSERT_TRUE(script.has_value());
  EXPECT_NE(script->find("dice:dice:"), std::string::npos) << *script;
  close(dice_pipe[0]);
  close(dice_pipe[1]);
}

TEST(Service, ResumesTheUnfinishedGameAtStart) {
  TempFolder dir;
  {
    ServiceSetup setup;
    setup.config = test_config(dir);
    setup.headless = true;
    setup.log = [](const std::string&) {};
    setup.devices_from_config = false;
    struct Starter final : Participant {
      std::string name() const override { return "starter"; }
      Wake wake() const override { return Wake{-1, 5ms}; }
      void on_wake(ParticipantContext& c) override {
        if (c.table().view().game) return c.stop(0);
        rules::Setup s;
        s.edition = "classic";
        s.players = {{"Ann", "car", "", {}}, {"Bob", "dog", "", {}}, {"Cleo", "hat", "", {}}};
        if (!sent) c.touch(display::StartGame{s, {0, 1, 2}});
        sent = true;
      }
      bool sent = false;
    };
    setup.participants.push_back(std::make_unique<Starter>());
    auto service = Service::create(std::move(setup));
    ASSERT_TRUE(service.has_value()) << service.error();
    ASSERT_EQ((*service)->run(), 0);
  }
  ServiceSetup setup;
  setup.config = test_config(dir);
  setup.headless = true;
  std::vector<std::string> lines;
  setup.log = [&lines](const std::string& line) { lines.push_back(line); };
  setup.devices_from_config = false;
  struct Checker final : Participant {
    std::string name() const override { return "checker"; }
    Wake wake() const override { return Wake{-1, 5ms}; }
    void on_wake(ParticipantContext& c) override {
      players = c.table().view().game ? static_cast<int>(c.table().view().game->state().players.size()) : 0;
      c.stop(0);
    }
    int players = -1;
  };
  auto checker = std::make_unique<Checker>();
  Checker* seen = checker.get();
  setup.participants.push_back(std::move(checker));
  auto service = Service::create(std::move(setup));
  ASSERT_TRUE(service.has_value()) << service.error();
  ASSERT_EQ((*service)->run(), 0);
  EXPECT_EQ(seen->players, 3) << ::testing::PrintToString(lines);
  bool said_ready = false;
  for (const auto& line : lines)
    said_ready = said_ready || line.find("table ready, game 1") != std::string::npos;
  EXPECT_TRUE(said_ready) << ::testing::PrintToString(lines);
}

// Two services on one database each number their inputs from what they last read: the second one's inputs
// collided with the first one's (UNIQUE constraint failed: inputs.game, inputs.seq). The second is refused.
TEST(Service, ASecondServiceOnTheSameDatabaseIsRefusedUntilTheFirstEnds) {
  TempFolder dir;
  auto make = [&dir] {
    ServiceSetup setup;
    setup.config = test_config(dir);
    setup.headless = true;
    setup.log = [](const std::string&) {};
    setup.devices_from_config = false;
    return Service::create(std::move(setup));
  };
  {
    auto first = make();
    ASSERT_TRUE(first.has_value()) << first.error();
    auto second = make();
    ASSERT_FALSE(second.has_value());
    EXPECT_NE(second.error().find("in use by another boardbank"), std::string::npos) << second.error();
  }
  auto after = make();
  EXPECT_TRUE(after.has_value()) << (after ? std::string() : after.error());
}

// A BOARDBANK_EDITIONS that is no folder refuses the start before anything is made: the ledger's folders
// were created and its lock taken (the lock file left behind) before the variable was looked at.
TEST(Service, ABadBoardbankEditionsIsRefusedBeforeAnyFolderIsMadeOrTheLockTaken) {
  TempFolder dir;
  std::optional<std::string> was;
  if (const char* value = std::getenv("BOARDBANK_EDITIONS")) was = value;
  setenv("BOARDBANK_EDITIONS", dir.file("no-editions").c_str(), 1);
  auto start = [](Config config) {
    ServiceSetup setup;
    setup.config = std::move(config);
    setup.headless = true;
    setup.log = [](const std::string&) {};
    setup.devices_from_config = false;
    return Service::create(std::move(setup));
  };
  // The ledger and its backups under a folder that does not exist yet (state/).
  auto under_new_folder = start(test_config(dir));
  // The ledger in a folder that exists: no lock file beside it.
  Config in_place = test_config(dir);
  in_place.ledger.path = dir.file("ledger.db");
  in_place.ledger.backup_dir = dir.file("backups");
  auto in_existing_folder = start(in_place);
  if (was)
    setenv("BOARDBANK_EDITIONS", was->c_str(), 1);
  else
    unsetenv("BOARDBANK_EDITIONS");
  for (const auto* refused : {&under_new_folder, &in_existing_folder}) {
    ASSERT_FALSE(refused->has_value());
    EXPECT_NE(refused->error().find("BOARDBANK_EDITIONS is set to " + dir.file("no-editions") +
                                    ", which is not a folder"),
              std::string::npos)
        << refused->error();
  }
  EXPECT_FALSE(std::filesystem::exists(dir.file("state"))) << "the ledger's folder was created";
  EXPECT_FALSE(std::filesystem::exists(dir.file("ledger.db.lock"))) << "the ledger's lock was taken";
  EXPECT_FALSE(std::filesystem::exists(dir.file("backups"))) << "the backups' folder was created";
  EXPECT_FALSE(std::filesystem::exists(dir.file("ledger.db"))) << "the ledger was created";
}

// A font folder without the two DejaVu faces refuses the start in the screen's words, before the ledger's
// folders are made or its lock taken (the screen opens after them).
TEST(Service, AFontFolderWithoutTheFontsIsRefusedBeforeAnyFolderIsMadeOrTheLockTaken) {
  TempFolder dir;
  std::filesystem::create_directories(dir.file("fonts"));
  Config config = test_config(dir);
  config.screen.font_dir = dir.file("fonts");
  ServiceSetup setup;
  setup.config = std::move(config);
  setup.headless = true;
  setup.log = [](const std::string&) {};
  setup.devices_from_config = false;
  auto refused = Service::create(std::move(setup));
  ASSERT_FALSE(refused.has_value());
  EXPECT_NE(refused.error().find("DejaVuSans"), std::string::npos) << refused.error();
  // The ledger, its backups and its lock all live under state/.
  EXPECT_FALSE(std::filesystem::exists(dir.file("state"))) << "the ledger's folder was created";
}

TEST(Service, SighupReloadsAGoodFileAndKeepsTheOldConfigurationForABadOne) {
  TempFolder dir;
  const std::string file = dir.file("boardbank.toml");
  std::ofstream(file) << "[screen]\nwindow = false\n";
  auto loaded = load_config(file);
  ASSERT_TRUE(loaded.has_value());
  ServiceSetup setup;
  setup.config = test_config(dir);
  setup.config.file = file;
  setup.headless = true;
  std::vector<std::string> lines;
  setup.log = [&lines](const std::string& line) { lines.push_back(line); };
  setup.devices_from_config = false;
  auto watcher = std::make_unique<Watcher>();
  int step = 0;
  watcher->done = [&](ParticipantContext&) {
    auto said = [&](const std::string& text) {
      for (const auto& line : lines)
        if (line.find(text) != std::string::npos) return true;
      return false;
    };
    if (step == 0) {
      std::ofstream(file) << "[screen]\nwidth = \"wide\"\n";
      raise(SIGHUP);
      step = 1;
    } else if (step == 1 && said("was not reloaded")) {
      std::ofstream(file) << "[screen]\nwindow = false\n[ledger]\npath = \"" << dir.file("state/ledger.db")
                          << "\"\n";
      raise(SIGHUP);
      step = 2;
    }
    return step == 2 && said("configuration reloaded");
  };
  Watcher* w = watcher.get();
  setup.participants.push_back(std::move(watcher));
  auto service = Service::create(std::move(setup));
  ASSERT_TRUE(service.has_value()) << service.error();
  EXPECT_EQ((*service)->run(), 0) << ::testing::PrintToString(lines);
  EXPECT_TRUE(w->reached);
  bool named_the_line = false;
  for (const auto& line : lines)
    named_the_line = named_the_line || line.find("boardbank.toml:2:") != std::string::npos;
  EXPECT_TRUE(named_the_line) << ::testing::PrintToString(lines);
}

// The charts' history (worth over time, landings) is in the service's snapshot while a game is played, and
// comes back from the ledger after a restart.
TEST(Service, TheSnapshotsGameHistoryFollowsThePlayAndComesBackAfterAResume) {
  TempFolder dir;
  int dice_pipe[2];
  ASSERT_EQ(pipe(dice_pipe), 0);
  std::vector<std::string> lines;
  std::size_t samples_while_playing = 0, inputs_while_playing = 0;
  int landed_while_playing = -1;
  {
    ServiceSetup setup = dice_setup(dir, dice_pipe[0], lines);
    setup.ledger_vfs.clear();
    auto player = std::make_unique<DicePlayer>(dice_pipe[1]);
    DicePlayer* p = player.get();
    bool thrown = false;
    p->step = [&](ParticipantContext& c, const table::TableView& view) -> bool {
      if (!thrown && view.awaiting.kind == table::Awaiting::Kind::throw_dice) {
        p->roll(1, 2);  // Ann to Baltic Avenue
        thrown = true;
      } else if (thrown && view.game->state().players[0].position == rules::SpaceId{3}) {
        const auto* shown = c.screen_snapshot();
        if (!shown || !shown->history) return false;
        samples_while_playing = shown->history->worth().size();
        inputs_while_playing = view.game->input_count();
        landed_while_playing = shown->history->landings().at(3);
        return true;
      }
      return false;
    };
    setup.participants.push_back(std::move(player));
    auto service = Service::create(std::move(setup));
    ASSERT_TRUE(service.has_value()) << service.error();
    ASSERT_EQ((*service)->run(), 0) << ::testing::PrintToString(lines);
  }
  EXPECT_EQ(samples_while_playing, inputs_while_playing + 1);
  EXPECT_EQ(landed_while_playing, 1);

  ServiceSetup setup = dice_setup(dir, dice_pipe[0], lines);
  setup.ledger_vfs.clear();
  setup.devices.clear();
  auto watcher = std::make_unique<Watcher>();
  std::size_t samples = 0, inputs = 0;
  int landed = -1;
  std::vector<rules::Money> worth_now;
  watcher->done = [&](ParticipantContext& c) {
    const auto* shown = c.screen_snapshot();
    const auto* game = c.table().view().game;
    if (!shown || !shown->history || !game) return false;
    samples = shown->history->worth().size();
    inputs = game->input_count();
    landed = shown->history->landings().at(3);
    worth_now = shown->history->worth().back();
    return true;
  };
  Watcher* w = watcher.get();
  setup.participants.push_back(std::move(watcher));
  auto service = Service::create(std::move(setup));
  ASSERT_TRUE(service.has_value()) << service.error();
  ASSERT_EQ((*service)->run(), 0) << ::testing::PrintToString(lines);
  ASSERT_TRUE(w->reached);
  EXPECT_EQ(inputs, inputs_while_playing);
  EXPECT_EQ(samples, inputs + 1);
  EXPECT_EQ(landed, 1);
  ASSERT_EQ(worth_now.size(), 2u);
  EXPECT_GT(worth_now[0], 0);
  close(dice_pipe[0]);
  close(dice_pipe[1]);
}

// SIGHUP reloads the table's settings as well: automatic bank payments off, stickered decks, a new banker's
// card reach the table without a restart.
TEST(Service, SighupReloadsTheTablesSettingsToo) {
  TempFolder dir;
  const std::string file = dir.file("boardbank.toml");
  auto write_config = [&](bool automatic, bool virtual_decks, const std::string& banker) {
    std::ofstream(file) << "[screen]\nwindow = false\n[ledger]\npath = \"" << dir.file("state/ledger.db")
                        << "\"\n[banker]\ncard = \"" << banker
                        << "\"\n[house_rules]\nautomatic_bank_payments = " << (automatic ? "true" : "false")
                        << "\nvirtual_decks = " << (virtual_decks ? "true" : "false") << "\n";
  };
  write_config(true, true, "04AA0001");
  auto loaded = load_config(file);
  ASSERT_TRUE(loaded.has_value());
  ServiceSetup setup;
  setup.config = *loaded;
  setup.config.ledger = test_config(dir).ledger;
  setup.config.editions_dir = test_config(dir).editions_dir;
  setup.headless = true;
  std::vector<std::string> lines;
  setup.log = [&lines](const std::string& line) { lines.push_back(line); };
  setup.devices_from_config = false;
  auto watcher = std::make_unique<Watcher>();
  int step = 0;
  bool automatic_before = false, old_banker_before = false;
  watcher->done = [&](ParticipantContext& c) {
    const auto& settings = c.table().settings();
    if (step == 0) {
      automatic_before = settings.automatic_bank_payments;
      old_banker_before = c.table().cards().find("04AA0001").has_value();
      write_config(false, false, "04BB0002");
      raise(SIGHUP);
      step = 1;
      return false;
    }
    return !settings.automatic_bank_payments && settings.draw_mode == table::DrawMode::stickers &&
           c.table().cards().find("04BB0002").has_value() && !c.table().cards().find("04AA0001");
  };
  Watcher* w = watcher.get();
  setup.participants.push_back(std::move(watcher));
  auto service = Service::create(std::move(setup));
  ASSERT_TRUE(service.has_value()) << service.error();
  EXPECT_EQ((*service)->run(), 0) << ::testing::PrintToString(lines);
  EXPECT_TRUE(automatic_before);
  EXPECT_TRUE(old_banker_before);
  EXPECT_TRUE(w->reached) << ::testing::PrintToString(lines);
}

// The odds worker beside the table: once a game is settled, the snapshot carries every player's chance
// (summing to one) from playouts on the worker's threads; a trade on the trade screen is weighed on both
// sides, and one the rules would refuse says why. No timing: the watcher gives up after a number of wakes.
TEST(Service, TheSnapshotCarriesEachPlayersChanceAndTheTradeAdvisersAnswer) {
  TempFolder dir;
  ServiceSetup setup;
  setup.config = test_config(dir);
  setup.config.odds.threads = 2;
  setup.config.odds.playouts = 200;
  setup.headless = true;
  std::vector<std::string> lines;
  setup.log = [&lines](const std::string& line) { lines.push_back(line); };
  setup.devices_from_config = false;
  auto watcher = std::make_unique<Watcher>();
  watcher->limit = 6000;  // 30 s of wakes
  enum class Step { start, adopt, chances, refused, advice } step = Step::start;
  double sum = 0;
  int playouts = 0;
  std::string refused, advice;
  rules::Trade loan;  // cash alone: the rules refuse it
  loan.from = rules::PlayerId{0};
  loan.to = rules::PlayerId{1};
  loan.give.cash = 500;
  rules::Trade sale;  // Ann sells Bob Baltic Avenue for $100
  sale.from = rules::PlayerId{0};
  sale.to = rules::PlayerId{1};
  sale.give.spaces = {rules::SpaceId{3}};
  sale.get.cash = 100;
  watcher->done = [&](ParticipantContext& c) {
    const auto* game = c.table().view().game;
    const auto* shown = c.screen_snapshot();
    switch (step) {
      case Step::start: {
        rules::Setup s;
        s.edition = "classic";
        s.seed = 5;
        s.players = {{"Ann", "car", "", {}}, {"Bob", "dog", "", {}}};
        c.touch(display::StartGame{s, {0, 1}});
        step = Step::adopt;
        return false;
      }
      case Step::adopt: {
        if (!game) return false;
        rules::Adopt ann;
        ann.player = rules::PlayerId{0};
        rules::AdoptSpace baltic;
        baltic.space = rules::SpaceId{3};
        ann.spaces = {baltic};
        c.touch(display::ApplyInput{ann, "a position for the odds test", std::nullopt, "pin"});
        step = Step::chances;
        return false;
      }
      case Step::chances:
        if (!game || game->state().spaces[3].owner != rules::PlayerId{0} || !shown || !shown->chances)
          return false;
        if (shown->chances->now.size() != 2 || shown->chances->refining) return false;
        sum = shown->chances->now[0].estimate + shown->chances->now[1].estimate;
        playouts = shown->chances->playouts;
        c.touch(display::WeighTrade{loan});
        step = Step::refused;
        return false;
      case Step::refused:
        if (!shown->chances->trade || shown->chances->trade->refused.empty()) return false;
        refused = shown->chances->trade->refused;
        c.touch(display::WeighTrade{sale});
        step = Step::advice;
        return false;
      case Step::advice: {
        const auto& trade = shown->chances->trade;
        if (!trade || !display::same_trade(trade->trade, sale) || trade->refining || trade->summary.empty())
          return false;
        advice = trade->summary;
        // The chances as the Charts screen draws them, kept where BB_SCREENS_OUT says (for a look).
        if (const char* out = std::getenv("BB_SCREENS_OUT")) {
          EXPECT_TRUE(c.press("nav.charts"));
          EXPECT_TRUE(c.press("charts.chances"));
          EXPECT_TRUE(c.save_screen(std::string(out) + "/service-charts-chances.png"));
        }
        return true;
      }
    }
    return false;
  };
  Watcher* w = watcher.get();
  setup.participants.push_back(std::move(watcher));
  auto service = Service::create(std::move(setup));
  ASSERT_TRUE(service.has_value()) << service.error();
  ASSERT_EQ((*service)->run(), 0) << ::testing::PrintToString(lines);
  ASSERT_TRUE(w->reached);
  EXPECT_NEAR(sum, 1.0, 1e-9);
  EXPECT_EQ(playouts, 200);
  EXPECT_NE(refused.find("no loans between players"), std::string::npos) << refused;
  EXPECT_NE(advice.find("Ann "), std::string::npos) << advice;
  EXPECT_NE(advice.find("Bob "), std::string::npos) << advice;
  EXPECT_NE(advice.find(" -> "), std::string::npos) << advice;
}
