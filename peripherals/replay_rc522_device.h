#pragma once
#include <expected>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "peripherals/device.h"
#include "peripherals/rc522_device.h"
#include "peripherals/spi_trace_transport.h"
#include "peripherals/trace.h"

namespace bb::peripherals {

// The RC522's replay backend: the real driver and device code answered, transfer by transfer, from a trace
// of SPI transfers (ReplaySpiTransport), on the trace's own time. Each read_events() is one poll, as fast
// as the reader takes them; a poll's events carry the time of its first recorded transfer.
class ReplayRc522Device final : public Device {
 public:
  // Fails when the trace is not an rc522 trace, or when the driver's initialisation does not match it.
  static std::expected<std::unique_ptr<ReplayRc522Device>, std::string> create(
      std::string name, const Trace& trace, CardRegistryCheck is_registered = {});
  ~ReplayRc522Device() override;
  ReplayRc522Device(const ReplayRc522Device&) = delete;
  ReplayRc522Device& operator=(const ReplayRc522Device&) = delete;

  const std::string& name() const override { return reader_->name(); }
  int fd() const override { return event_fd_; }
  // The divergence from the trace, when there is one, is reported once as a status event and ends the
  // replay: what the chip would have answered after it is unknown.
  std::vector<PeripheralEvent> read_events() override;
  bool finished() const override { return finished_; }
  std::vector<std::string> invariant_violations() const override;
  // Why the driver and the trace parted ways (names the trace line), if they did.
  const std::optional<std::string>& divergence() const { return transport_->divergence(); }

 private:
  ReplayRc522Device() = default;
  void finish();

  std::unique_ptr<Rc522Device> reader_;
  ReplaySpiTransport* transport_ = nullptr;  // owned by reader_
  Nanoseconds last_time_ = 0;                // the replay's clock once the trace has run out
  int event_fd_ = -1;                        // readable until the replay has finished
  bool finished_ = false;
};

}  // namespace bb::peripherals
