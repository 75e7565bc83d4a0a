#include "peripherals/replay_rc522_device.h"

#include <fmt/format.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace bb::peripherals {

std::expected<std::unique_ptr<ReplayRc522Device>, std::string> ReplayRc522Device::create(
    std::string name, const Trace& trace, CardRegistryCheck is_registered) {
  if (!is_spi_device(trace.device)) {
    return std::unexpected(fmt::format(
        "a {} trace holds GPIO edges; the rc522 replay needs a trace of SPI transfers", trace.device));
  }
  std::unique_ptr<ReplayRc522Device> device(new ReplayRc522Device());
  auto transport = std::make_unique<ReplaySpiTransport>(trace.spi_transfers);
  device->transport_ = transport.get();
  ReplayRc522Device* self = device.get();
  // The replay's time is the trace's: the next recorded transfer's, or the last one's once it has run out.
  Clock trace_time = [self] {
    if (const auto next = self->transport_->next_timestamp()) self->last_time_ = *next;
    return self->last_time_;
  };
  // No reset line: RST is GPIO, not SPI, so it left nothing in the trace and the driver's transfers after
  // it are the same. No sleeping: the trace's time does not pass by waiting.
  auto reader = Rc522Device::create(
      std::move(name), std::move(transport), nullptr, 100 * kMillisecond, std::move(is_registered),
      [](Nanoseconds) {}, std::move(trace_time));
  if (!reader) {
    return std::unexpected(fmt::format("replaying the rc522's initialisation: {}", reader.error()));
  }
  device->reader_ = std::move(*reader);
  device->event_fd_ = eventfd(1, EFD_NONBLOCK | EFD_CLOEXEC);
  if (device->event_fd_ < 0)
    return std::unexpected(fmt::format("cannot create the replay's eventfd: {}", std::strerror(errno)));
  if (device->transport_->exhausted()) device->finish();
  return device;
}

ReplayRc522Device::~ReplayRc522Device() {
  if (event_fd_ >= 0) close(event_fd_);
}

void ReplayRc522Device::finish() {
  finished_ = true;
  std::uint64_t count = 0;
  [[maybe_unused]] const auto drained = read(event_fd_, &count, sizeof count);
}

std::vector<PeripheralEvent> ReplayRc522Device::read_events() {
  if (finished_) return {};
  auto events = reader_->read_events();
  if (transport_->divergence() || transport_->exhausted()) finish();
  return events;
}

std::vector<std::string> ReplayRc522Device::invariant_violations() const {
  auto problems = reader_->invariant_violations();
  if (event_fd_ < 0) problems.push_back("the replay's eventfd is not open");
  return problems;
}

}  // namespace bb::peripherals
