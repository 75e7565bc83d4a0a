#pragma once
#include <expected>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "peripherals/device.h"
#include "peripherals/fake_mfrc522.h"
#include "peripherals/rc522_device.h"

namespace bb::peripherals {

// The RC522's simulated backend: the real driver and device code talking to FakeMfrc522, with cards put in
// and out of its field by script (command()) or by commands typed at a terminal or piped in:
//   card 04A1B2C3D4E5F6   a card (4, 7 or 10 bytes in hex) enters the field and stays
//   tap 04A1B2C3          a card is held to the reader until it has been read
//   remove 04A1B2C3 | clear
class SimulatedRc522Device final : public Device {
 public:
  static std::expected<std::unique_ptr<SimulatedRc522Device>, std::string> create(
      std::string name, int input_fd = -1, CardRegistryCheck is_registered = {});
  ~SimulatedRc522Device() override;
  SimulatedRc522Device(const SimulatedRc522Device&) = delete;
  SimulatedRc522Device& operator=(const SimulatedRc522Device&) = delete;

  const std::string& name() const override { return reader_->name(); }
  int fd() const override { return epoll_fd_; }
  std::vector<PeripheralEvent> read_events() override;
  std::vector<std::string> invariant_violations() const override { return reader_->invariant_violations(); }

  std::expected<void, std::string> command(std::string_view text);
  bool input_closed() const { return input_closed_; }

 private:
  SimulatedRc522Device() = default;

  std::unique_ptr<Rc522Device> reader_;
  FakeMfrc522* chip_ = nullptr;                    // owned by reader_
  std::vector<std::vector<std::uint8_t>> tapped_;  // leave the field once a poll finds nothing new
  int epoll_fd_ = -1;
  int input_fd_ = -1;
  bool input_closed_ = false;
  std::string partial_line_;
};

}  // namespace bb::peripherals
