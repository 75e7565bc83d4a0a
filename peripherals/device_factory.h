#pragma once
#include <expected>
#include <memory>
#include <string>
#include <vector>

#include "peripherals/decoder_factory.h"
#include "peripherals/device.h"
#include "peripherals/dice_roller.h"

namespace bb::peripherals {

// How the daemon (or `boardbank probe`) asks for a device.
struct DeviceConfig {
  std::string kind;              // wiegand, dice, button or rc522
  std::string name;              // in events and ids; defaults to kind
  std::string backend = "real";  // real, simulated or replay
  std::string chip = "gpiochip0";
  std::vector<std::string> lines;             // in role order; empty = the defaults of docs/hardware.md
  std::string trace_path;                     // replay
  int input_fd = -1;                          // simulated: commands typed at a terminal or piped in
  std::string spi_device = "/dev/spidev0.0";  // rc522
  std::string reset_line = "GPIO22";          // rc522, on chip; empty = no reset line
  int poll_ms = 100;                          // rc522 (real): how often it looks for a card
  int wiegand_bits = 0;  // wiegand: the one frame length the reader sends (26, 34), ends frames early; 0: any
  WiegandTaps wiegand_taps;  // wiegand: one frame per presentation or repeated frames; report repeats or drop
};

std::expected<std::unique_ptr<Device>, std::string> open_device(const DeviceConfig& config,
                                                                CardRegistryCheck is_registered = {},
                                                                DiceRoller roller = DiceRoller{});

// The wiring of docs/hardware.md, in role order.
std::vector<std::string> default_lines(const std::string& kind);
// "d0=GPIO5,d1=GPIO6" (any order) or "GPIO5,GPIO6" (role order) -> names in role order.
std::expected<std::vector<std::string>, std::string> parse_line_list(const std::string& kind,
                                                                     const std::string& text);

}  // namespace bb::peripherals
