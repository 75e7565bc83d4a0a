#pragma once
#include <memory>

#include "peripherals/spi_transport.h"

namespace bb::peripherals {

// /dev/spidevB.C through the kernel's spidev driver (mode 0, 8 bits, 1 MHz: the RC522 allows up to 10 MHz,
// but a breadboard's wires do not).
class SpidevTransport final : public SpiTransport {
 public:
  static std::expected<std::unique_ptr<SpidevTransport>, std::string> open(
      const std::string& path, std::uint32_t speed_hz = 1'000'000);
  ~SpidevTransport() override;
  SpidevTransport(const SpidevTransport&) = delete;
  SpidevTransport& operator=(const SpidevTransport&) = delete;
  std::expected<std::vector<std::uint8_t>, std::string> transfer(std::span<const std::uint8_t> tx) override;

 private:
  SpidevTransport(int fd, std::uint32_t speed_hz) : fd_(fd), speed_hz_(speed_hz) {}
  int fd_;
  std::uint32_t speed_hz_;
};

// What to do when a spidev node cannot be opened (tested without hardware).
std::string spidev_open_error(const std::string& path, int error_number);

}  // namespace bb::peripherals
