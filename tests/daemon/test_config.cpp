#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "daemon/config.h"
#include "daemon/config_report.h"

using namespace bb::daemon;

namespace {

std::string example_file() { return std::string(SOURCE_DIR) + "/etc/boardbank.toml"; }

// Lines of the problems, for asserting that each was placed where it is.
std::vector<int> lines_of(const std::vector<ConfigProblem>& problems) {
  std::vector<int> lines;
  for (const auto& p : problems) lines.push_back(p.line);
  return lines;
}

bool mentions(const std::vector<ConfigProblem>& problems, const std::string& text) {
  for (const auto& p : problems)
    if (p.message.find(text) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST(Config, TheShippedExampleIsGoodAndSaysWhatItConfigures) {
  auto config = load_config(example_file());
  ASSERT_TRUE(config.has_value()) << (config ? "" : config.error().front().to_string());
  EXPECT_EQ(config->screen.width, 800);
  EXPECT_EQ(config->screen.height, 480);
  EXPECT_EQ(config->dice.backend, Backend::real);
  ASSERT_EQ(config->wiegand.size(), 1u);
  EXPECT_EQ(config->wiegand[0].name, "reader");
  EXPECT_EQ(config->rc522.backend, Backend::off);
  EXPECT_EQ(config->ledger.path, "/var/lib/boardbank/ledger.db");
  EXPECT_EQ(config->ledger.backup_every_minutes, 30);
  EXPECT_EQ(config->editions_dir, "/usr/share/boardbank/editions");
  // dice, button and one Wiegand reader are opened; the RC522 is off.
  const auto devices = config->device_configs();
  ASSERT_EQ(devices.size(), 3u);
  EXPECT_EQ(devices[0].kind, "dice");
  EXPECT_EQ(devices[2].kind, "wiegand");
  EXPECT_EQ(devices[2].backend, "real");
}

TEST(Config, AnEmptyFileGivesTheDefaults) {
  auto config = parse_config("", "empty.toml");
  ASSERT_TRUE(config.has_value());
  EXPECT_TRUE(config->device_configs().empty());
  EXPECT_EQ(config->ledger.keep_backups, 20);
  EXPECT_TRUE(config->screen.fullscreen);
}

TEST(Config, ReadsEveryKindOfDeviceWithItsLines) {
  auto config = parse_config(R"(
[dice]
backend = "simulated"
[button]
backend = "replay"
trace = "button.trace"
lines = "GPIO4"
[[wiegand]]
name = "left"
backend = "real"
lines = ["GPIO23", "GPIO24"]
[[wiegand]]
name = "right"
backend = "real"
lines = "d1=GPIO8,d0=GPIO7"
[rc522]
backend = "real"
spi_device = "/dev/spidev0.1"
reset_line = ""
poll_ms = 50
)",
                             "devices.toml");
  ASSERT_TRUE(config.has_value()) << config.error().front().to_string();
  EXPECT_EQ(config->button.lines, std::vector<std::string>{"GPIO4"});
  EXPECT_EQ(config->wiegand[1].lines, (std::vector<std::string>{"GPIO7", "GPIO8"}));
  const auto devices = config->device_configs();
  ASSERT_EQ(devices.size(), 5u);
  EXPECT_EQ(devices[0].backend, "simulated");
  EXPECT_EQ(devices[1].trace_path, "button.trace");
  EXPECT_EQ(devices[4].kind, "rc522");
  EXPECT_EQ(devices[4].spi_device, "/dev/spidev0.1");
  EXPECT_EQ(devices[4].reset_line, "");
  EXPECT_EQ(devices[4].poll_ms, 50);
}

TEST(Config, EveryProblemIsReportedAtOnceWithItsLine) {
  const std::string text = R"([screen]
width = "wide"
rotation = 45
fullscreen = "yes"
[dice]
backend = "usb"
lines = ["GPIO1"]
[ledger]
keep_backups = 0
colour = "blue"
[banker]
pin_hash = "1234"
card = "not hex"
[cameras]
source = "0"
)";
  auto config = parse_config(text, "bad.toml");
  ASSERT_FALSE(config.has_value());
  const auto& problems = config.error();
  EXPECT_EQ(lines_of(problems), (std::vector<int>{2, 3, 4, 6, 7, 9, 10, 12, 13, 14}));
  EXPECT_TRUE(mentions(problems, "[screen] width must be a whole number"));
  EXPECT_TRUE(mentions(problems, "rotation must be 0, 90, 180 or 270"));
  EXPECT_TRUE(mentions(problems, "fullscreen must be true or false"));
  EXPECT_TRUE(mentions(problems, "backend must be \"real\", \"simulated\", \"replay\" or \"off\""));
  EXPECT_TRUE(mentions(problems, "a dice needs 8 lines"));
  EXPECT_TRUE(mentions(problems, "keep_backups must be a whole number from 1"));
  EXPECT_TRUE(mentions(problems, "has no key 'colour'"));
  EXPECT_TRUE(mentions(problems, "boardbank hash-pin"));
  EXPECT_TRUE(mentions(problems, "card must be the card's UID in hex"));
  EXPECT_TRUE(mentions(problems, "unknown section 'cameras'"));
  EXPECT_EQ(problems.front().to_string(),
            "bad.toml:2: [screen] width must be a whole number from 320 to 7680");
}

TEST(Config, TheScreenTurnsOnlyByQuarterTurns) {
  auto upside_down = parse_config("[screen]\nrotation = 180\n", "r.toml");
  ASSERT_TRUE(upside_down.has_value());
  EXPECT_EQ(upside_down->screen.rotation, bb::display::Rotation::upside_down);
  auto portrait = parse_config("[screen]\nrotation = 270\n", "r.toml");
  ASSERT_TRUE(portrait.has_value());
  EXPECT_EQ(portrait->screen.rotation, bb::display::Rotation::clockwise_270);
  EXPECT_EQ(parse_config("", "r.toml")->screen.rotation, bb::display::Rotation::upright);
  for (const char* angle : {"91", "360", "-90", "90.0", "\"90\""}) {
    auto config = parse_config(fmt::format("[screen]\nrotation = {}\n", angle), "r.toml");
    ASSERT_FALSE(config.has_value()) << angle;
    ASSERT_EQ(config.error().size(), 1u) << angle;
    EXPECT_EQ(config.error()[0].line, 2) << angle;
    EXPECT_NE(config.error()[0].message.find("[screen] rotation must be"), std::string::npos)
        << config.error()[0].message;
  }
}

TEST(Config, ASyntaxErrorNamesItsLineAndStops) {
  auto config = parse_config("[screen]\nwidth = 800\nheight = \n", "broken.toml");
  ASSERT_FALSE(config.has_value());
  ASSERT_EQ(config.error().size(), 1u);
  EXPECT_EQ(config.error()[0].line, 3);
  EXPECT_NE(config.error()[0].message.find("not valid TOML"), std::string::npos);
}

TEST(Config, ReplayWithoutATraceAndDuplicateReaderNamesAreRefused) {
  auto config = parse_config(R"([rc522]
backend = "replay"
[[wiegand]]
backend = "real"
[[wiegand]]
backend = "real"
)",
                             "r.toml");
  ASSERT_FALSE(config.has_value());
  EXPECT_TRUE(mentions(config.error(), "needs trace"));
  EXPECT_TRUE(mentions(config.error(), "two Wiegand readers are named 'wiegand'"));
}

TEST(Config, AMissingFileSaysWhatToCheck) {
  auto config = load_config("/nonexistent/boardbank.toml");
  ASSERT_FALSE(config.has_value());
  EXPECT_EQ(config.error()[0].line, 0);
  EXPECT_NE(config.error()[0].message.find("does not exist: check the path to the configuration file"),
            std::string::npos);
}

TEST(Config, HouseRuleOptionsAreNamedSwitches) {
  auto config = parse_config(R"([house_rules]
automatic_bank_payments = false
auction_countdown_s = 10
[house_rules.options]
free_parking_jackpot = true
short_game = false
)",
                             "h.toml");
  ASSERT_TRUE(config.has_value()) << config.error().front().to_string();
  EXPECT_FALSE(config->house_rules.automatic_bank_payments);
  EXPECT_EQ(config->house_rules.auction_countdown_s, 10);
  EXPECT_EQ(config->house_rules.options.at("free_parking_jackpot"), true);
  EXPECT_EQ(config->house_rules.options.at("short_game"), false);
  auto bad = parse_config("[house_rules.options]\njackpot = 1\n", "h.toml");
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error()[0].line, 2);
}

TEST(PinHash, MatchesOnlyItsPinAndIsSalted) {
  const PinHash first = hash_pin("4711", 1000);
  const PinHash second = hash_pin("4711", 1000);
  EXPECT_NE(first.text, second.text);  // a fresh salt each time
  EXPECT_TRUE(pin_matches(first, "4711"));
  EXPECT_TRUE(pin_matches(second, "4711"));
  EXPECT_FALSE(pin_matches(first, "4712"));
  EXPECT_FALSE(pin_matches(first, ""));
  EXPECT_FALSE(pin_hash_problem(first.text).has_value());
  EXPECT_EQ(first.text.rfind("pbkdf2-sha256$1000$", 0), 0u);
}

TEST(PinHash, AMangledHashIsAProblemAndMatchesNothing) {
  for (const std::string text :
       {"4711", "pbkdf2-sha256$10$00$00", "pbkdf2-sha256$100000$zz$00", "md5$1$2$3"}) {
    EXPECT_TRUE(pin_hash_problem(text).has_value()) << text;
    EXPECT_FALSE(pin_matches(PinHash{text}, "4711")) << text;
  }
  auto config = parse_config("[banker]\npin_hash = \"" + hash_pin("2468", 1000).text + "\"\n", "p.toml");
  ASSERT_TRUE(config.has_value());
  EXPECT_TRUE(pin_matches(config->banker_pin, "2468"));
}

TEST(ConfigReport, WarnsAboutWhatIsMissingOnThisMachine) {
  auto config = parse_config(
      "[editions]\ndir = \"/nonexistent/editions\"\n[dice]\nbackend = \"replay\"\n"
      "trace = \"/nonexistent/dice.trace\"\n",
      "w.toml");
  ASSERT_TRUE(config.has_value());
  const auto report = describe_config(*config);
  auto warned = [&](const std::string& text) {
    for (const auto& w : report.warnings)
      if (w.find(text) != std::string::npos) return true;
    return false;
  };
  EXPECT_TRUE(warned("holds no edition"));
  EXPECT_TRUE(warned("trace /nonexistent/dice.trace does not exist"));
  EXPECT_TRUE(warned("no card reader is configured"));
}

// A Wiegand reader's frame length: 26 or 34 ends a frame at its last bit (the reader's device config carries
// it), "any" (the default) waits for the silence after it; anything else is a problem on its line, and
// check-config says which each reader does.
TEST(Config, AWiegandReadersFrameLengthIs26Or34OrAny) {
  auto config = parse_config(R"([[wiegand]]
name = "door"
backend = "real"
bits = 26
[[wiegand]]
name = "desk"
backend = "real"
bits = "any"
[[wiegand]]
name = "hall"
backend = "real"
)",
                             "w.toml");
  ASSERT_TRUE(config.has_value());
  ASSERT_EQ(config->wiegand.size(), 3u);
  EXPECT_EQ(config->wiegand[0].frame_bits, 26);
  EXPECT_EQ(config->wiegand[1].frame_bits, 0);
  EXPECT_EQ(config->wiegand[2].frame_bits, 0);
  const auto devices = config->device_configs();
  ASSERT_EQ(devices.size(), 3u);
  EXPECT_EQ(devices[0].wiegand_bits, 26);
  EXPECT_EQ(devices[1].wiegand_bits, 0);
  const auto report = describe_config(*config);
  auto said = [&](const std::string& text) {
    for (const auto& line : report.lines)
      if (line.find(text) != std::string::npos) return true;
    return false;
  };
  EXPECT_TRUE(
      said("'door': real on gpiochip0 (the wiring of docs/hardware.md), 26-bit frames: a card counts at "
           "its last bit"));
  EXPECT_TRUE(said("'desk': real on gpiochip0 (the wiring of docs/hardware.md), frames of any length"));

  auto wrong = parse_config(
      "[[wiegand]]\nname = \"door\"\nbackend = \"real\"\nbits = 32\n[dice]\n"
      "backend = \"off\"\n[[wiegand]]\nname = \"desk\"\nbits = \"26\"\n",
      "w.toml");
  ASSERT_FALSE(wrong.has_value());
  EXPECT_EQ(lines_of(wrong.error()), (std::vector<int>{4, 9}));
  EXPECT_TRUE(mentions(wrong.error(), "[[wiegand]] bits must be 26, 34 or \"any\""));

  // Only Wiegand readers have a frame length.
  auto dice = parse_config("[dice]\nbackend = \"real\"\nbits = 26\n", "d.toml");
  ASSERT_FALSE(dice.has_value());
  EXPECT_TRUE(mentions(dice.error(), "has no key 'bits'"));
}

// A Wiegand reader that sends one frame per presentation says so (`frames = "once"`): every frame is a tap.
// The default, "repeated", lets the table judge the same card within 1.5 s. Anything else is a problem.
TEST(Config, AWiegandReadersFramesAreRepeatedOrOnce) {
  auto config = parse_config(R"([[wiegand]]
name = "door"
backend = "real"
frames = "once"
[[wiegand]]
name = "desk"
backend = "real"
)",
                             "w.toml");
  ASSERT_TRUE(config.has_value());
  EXPECT_TRUE(config->wiegand[0].one_frame_per_tap);
  EXPECT_FALSE(config->wiegand[1].one_frame_per_tap);
  const auto devices = config->device_configs();
  ASSERT_EQ(devices.size(), 2u);
  EXPECT_TRUE(devices[0].wiegand_taps.one_frame_per_tap);
  EXPECT_FALSE(devices[1].wiegand_taps.one_frame_per_tap);
  const auto report = describe_config(*config);
  bool said_once = false;
  for (const auto& line : report.lines) said_once |= line.find("one frame per tap") != std::string::npos;
  EXPECT_TRUE(said_once);

  auto wrong =
      parse_config("[[wiegand]]\nname = \"door\"\nbackend = \"real\"\nframes = \"twice\"\n", "w.toml");
  ASSERT_FALSE(wrong.has_value());
  EXPECT_EQ(lines_of(wrong.error()), (std::vector<int>{4}));
  EXPECT_TRUE(mentions(wrong.error(), "frames must be \"repeated\" or \"once\""));
}
