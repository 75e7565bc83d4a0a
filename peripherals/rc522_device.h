#pragma once
#include <expected>
#include <memory>
#include <string>

#include "peripherals/device.h"
#include "peripherals/gpio.h"
#include "peripherals/mfrc522.h"
#include "peripherals/spi_transport.h"
#include "peripherals/tap_deduplicator.h"

namespace bb::peripherals {

// An RC522 reader as a Device: its fd is a timer that fires every poll interval; each read_events()
// moves the look for a card on without waiting (a few SPI transfers) and reports a tap per new card. While
// a REQA is in the air the timer fires again after kAnswerCheck instead, until the card answers or the
// chip's timer says nobody did. Thread: the loop's.
class Rc522Device final : public Device {
 public:
  // spi: spidev (real), FakeMfrc522 (simulated) or a trace (replay); reset: the RST line, optional.
  // clock: what stamps taps and ids and ages the tap deduplicator (CLOCK_MONOTONIC by default; a replay
  // passes the trace's time so it gives the same events every time).
  static std::expected<std::unique_ptr<Rc522Device>, std::string> create(
      std::string name, std::unique_ptr<SpiTransport> spi, std::unique_ptr<GpioOutput> reset = nullptr,
      Nanoseconds poll_interval = 100 * kMillisecond, CardRegistryCheck is_registered = {},
      Mfrc522::Sleep sleep = {}, Clock clock = {});
  ~Rc522Device() override;
  Rc522Device(const Rc522Device&) = delete;
  Rc522Device& operator=(const Rc522Device&) = delete;

  const std::string& name() const override { return name_; }
  int fd() const override { return timer_fd_; }
  std::vector<PeripheralEvent> read_events() override;
  std::vector<std::string> invariant_violations() const override;
  std::uint8_t chip_version() const { return reader_.version(); }
  // How soon the device looks again while the chip waits for an answer.
  static constexpr Nanoseconds kAnswerCheck = kMillisecond;
  SpiTransport& spi() { return *spi_; }

 private:
  Rc522Device(std::string name, std::unique_ptr<SpiTransport> spi, std::unique_ptr<GpioOutput> reset,
              CardRegistryCheck is_registered, Mfrc522::Sleep sleep, Clock clock);

  std::string name_;
  std::unique_ptr<SpiTransport> spi_;
  std::unique_ptr<GpioOutput> reset_;
  Mfrc522 reader_;
  CardRegistryCheck is_registered_;
  Clock clock_;
  TapDeduplicator dedup_;
  void arm(Nanoseconds first, Nanoseconds period);
  int timer_fd_ = -1;
  Nanoseconds poll_interval_ = 0;
  bool checking_ = false;   // the timer is set to kAnswerCheck
  std::string last_error_;  // a failing reader is reported once, not at every poll
};

}  // namespace bb::peripherals
