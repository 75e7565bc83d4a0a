#pragma once
#include <cstdint>
#include <expected>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "display/rotation.h"
#include "ledger/ledger_config.h"
#include "peripherals/device_factory.h"

namespace bb::daemon {

// How a configured device is driven. `off` means the table does without it (and says so on the Devices
// screen); the others are peripherals' backends.
enum class Backend { real, simulated, replay, off };
const char* backend_name(Backend backend);

// One GPIO device of the table: the dice unit, the roll button or a Wiegand reader.
struct GpioDeviceConfig {
  std::string name;  // in events and on the Devices screen
  Backend backend = Backend::off;
  std::string chip = "gpiochip0";
  std::vector<std::string> lines{};  // in role order; empty: the wiring of docs/hardware.md
  std::string trace{};               // replay: a recorded trace (boardbank record-gpio)
  // Wiegand only: the one frame length the reader sends (26 or 34), so a frame ends at its last bit when
  // its parities check out; 0 ("any"): a frame ends after the 25 ms silence that follows it.
  int frame_bits = 0;
  // Wiegand only: the reader sends one frame per presentation of a card (`frames = "once"`), so every frame
  // is a tap; false (`frames = "repeated"`, the default): it may repeat its frame while the card lies there,
  // so the same card within 1.5 s of its last frame is judged by the table (a new tap only when something new
  // waits for that card; otherwise "already counted" is said).
  bool one_frame_per_tap = false;
};

struct Rc522Config {
  std::string name = "rc522";
  Backend backend = Backend::off;
  std::string spi_device = "/dev/spidev0.0";
  std::string chip = "gpiochip0";
  std::string reset_line = "GPIO22";  // empty: no reset line wired
  std::string trace;                  // replay: a recorded SPI trace
  int poll_ms = 100;                  // how often the reader looks for a card
};

struct CameraConfig {
  std::string source;  // "" (no camera), a number or /dev/videoN, "libcamera", "gst:...", a folder or a file
  // Where the tokens learned at the table are kept across restarts (the tracker's set-up, as `boardbank track
  // --save-setup` writes it); "" = beside the ledger, "<database>.tokens.json".
  std::string setup;
  int width = 1280;
  int height = 720;
};

struct ScreenConfig {
  int width = 800;
  int height = 480;
  display::Rotation rotation = display::Rotation::upright;  // the picture turned clockwise on the panel
  bool fullscreen = true;
  bool window = true;  // false: draw offscreen (no display attached)
  bool sound = true;
  std::string font_dir;  // "" = the fonts the package installs
};

// The banker's PIN, stored as a salted hash (make one with `boardbank hash-pin`).
struct PinHash {
  std::string text;  // "pbkdf2-sha256$<iterations>$<salt hex>$<hash hex>"
  bool empty() const { return text.empty(); }
};

struct HouseRules {
  bool automatic_bank_payments = true;  // salary and payments from the bank need no card tap
  bool virtual_decks = true;            // no NFC stickers on Chance/Community Chest: the table shuffles
  int auction_countdown_s = 0;          // "going, going" for editions without a deal timer; 0: none
  std::map<std::string, bool> options;  // the edition's variant switches, by name (rules' Setup::options)
};

// Each player's chance of winning, worked out on threads beside the table (odds/).
struct OddsConfig {
  bool enabled = true;
  int threads = 0;      // 0: one per hardware thread (they run at the lowest priority)
  int playouts = 2000;  // per position; the screen shows the first answer long before
};

// Everything /etc/boardbank/boardbank.toml says, typed and checked.
struct Config {
  static constexpr const char* kDefaultFile = "/etc/boardbank/boardbank.toml";

  GpioDeviceConfig dice{.name = "dice"};
  GpioDeviceConfig button{.name = "button"};
  std::vector<GpioDeviceConfig> wiegand;  // one per reader
  Rc522Config rc522;
  CameraConfig camera;
  ScreenConfig screen;
  ledger::LedgerConfig ledger;
  std::string editions_dir = "/usr/share/boardbank/editions";
  PinHash banker_pin;
  std::string banker_card;  // the banker's card UID (upper-case hex); "" = PIN only
  HouseRules house_rules;
  OddsConfig odds;
  std::string file;  // where it was read from ("" for the defaults)

  // The devices as peripherals opens them (the ones not `off`), in a fixed order: dice, button, wiegand...,
  // rc522.
  std::vector<peripherals::DeviceConfig> device_configs() const;
};

// One thing wrong with a configuration file: where, what, and what to do.
struct ConfigProblem {
  std::string file;
  int line = 0;  // 0: the file as a whole
  std::string message;
  std::string to_string() const;
};

// Reads and checks `file`. Every problem is gathered, not just the first: the error holds them all, in the
// order of the file. A missing file is one problem (the caller decides whether the defaults will do).
std::expected<Config, std::vector<ConfigProblem>> load_config(const std::string& file);
// The same from text (tests; `name` stands for the file in messages).
std::expected<Config, std::vector<ConfigProblem>> parse_config(const std::string& text,
                                                               const std::string& name);

// The PIN hash: PBKDF2-HMAC-SHA256 with a random 16-byte salt. `iterations` is stored in the hash.
PinHash hash_pin(const std::string& pin, std::uint32_t iterations = 100000);
bool pin_matches(const PinHash& hash, const std::string& pin);
// Why a stored hash text cannot be used, or nullopt when it is well formed.
std::optional<std::string> pin_hash_problem(const std::string& text);

}  // namespace bb::daemon
