#pragma once
#include <cstdint>
#include <expected>
#include <span>
#include <string>
#include <vector>

namespace bb::peripherals {

// A full-duplex SPI link: every byte sent clocks one byte back. Real: spidev; simulated: a fake chip.
class SpiTransport {
 public:
  virtual ~SpiTransport() = default;
  virtual std::expected<std::vector<std::uint8_t>, std::string> transfer(
      std::span<const std::uint8_t> tx) = 0;
};

}  // namespace bb::peripherals
