#include "peripherals/probe.h"

#include <fmt/format.h>
#include <poll.h>

#include <cerrno>
#include <cstring>

#include "peripherals/decoder_factory.h"
#include "peripherals/edge_device.h"
#include "peripherals/rc522_device.h"
#include "peripherals/replay_edge_source.h"
#include "peripherals/replay_rc522_device.h"
#include "peripherals/spi_trace_transport.h"
#include "peripherals/spidev_transport.h"

namespace bb::peripherals {

namespace {
std::expected<std::vector<PeripheralEvent>, std::string> decode_spi_trace(const Trace& trace) {
  auto device = ReplayRc522Device::create(trace.device, trace);
  if (!device) return std::unexpected(device.error());
  std::vector<PeripheralEvent> events;
  while (!(*device)->finished()) {
    auto more = (*device)->read_events();
    events.insert(events.end(), more.begin(), more.end());
  }
  // A replay that left the recording has nothing trustworthy to say after that point: refuse it whole.
  if (const auto& divergence = (*device)->divergence()) return std::unexpected(*divergence);
  return events;
}
}  // namespace

std::expected<std::vector<PeripheralEvent>, std::string> decode_trace(const Trace& trace, DiceRoller roller) {
  if (is_spi_device(trace.device)) return decode_spi_trace(trace);
  auto decoder = make_decoder(trace.device, trace.device, std::move(roller));
  if (!decoder) return std::unexpected(decoder.error());
  auto device =
      EdgeDevice::create(trace.device, std::make_unique<ReplayEdgeSource>(trace), std::move(*decoder));
  if (!device) return std::unexpected(device.error());
  std::vector<PeripheralEvent> events;
  while (!(*device)->finished()) {
    auto more = (*device)->read_events();
    events.insert(events.end(), more.begin(), more.end());
  }
  return events;
}

std::expected<void, std::string> run_devices(const std::vector<Device*>& devices,
                                             const std::function<void(const PeripheralEvent&)>& on_event,
                                             const std::function<bool()>& keep_going) {
  std::vector<pollfd> fds;
  for (Device* device : devices) fds.push_back({device->fd(), POLLIN, 0});
  while (keep_going()) {
    bool all_finished = !devices.empty();
    for (Device* device : devices) all_finished = all_finished && device->finished();
    if (all_finished) return {};
    const int ready = poll(fds.data(), fds.size(), 100);
    if (ready < 0 && errno != EINTR)
      return std::unexpected(fmt::format("poll failed: {}", std::strerror(errno)));
    for (std::size_t i = 0; i < fds.size() && ready > 0; ++i) {
      if (!(fds[i].revents & POLLIN)) continue;
      for (const auto& event : devices[i]->read_events()) on_event(event);
    }
  }
  return {};
}

std::expected<std::size_t, std::string> record_gpio(const std::string& kind, const EdgeLinesRequest& request,
                                                    Nanoseconds duration, std::ostream& out,
                                                    const std::function<bool()>& keep_going) {
  auto trace = make_trace(kind, request.lines);
  if (!trace) return std::unexpected(trace.error());
  auto lines = open_edge_lines(request);
  if (!lines) return std::unexpected(lines.error());
  trace->extra.emplace_back("chip", request.chip);
  trace->initial_levels = (*lines)->initial_levels();
  // The header and levels first, then edges as they come, so a recording cut short is still readable.
  out << format_trace(*trace);
  const Nanoseconds start = monotonic_now();
  std::size_t count = 0;
  pollfd fd{(*lines)->fd(), POLLIN, 0};
  while (keep_going() && (duration <= 0 || monotonic_now() - start < duration)) {
    if (poll(&fd, 1, 100) < 0 && errno != EINTR)
      return std::unexpected(fmt::format("poll failed: {}", std::strerror(errno)));
    if (!(fd.revents & POLLIN)) continue;
    auto edges = (*lines)->read_edges();
    if (!edges) return std::unexpected(edges.error());
    for (const Edge& edge : *edges) {
      out << fmt::format("{} {} {}\n", edge.ts_ns, trace->lines[static_cast<std::size_t>(edge.line)].second,
                         edge.rising ? "rising" : "falling");
    }
    count += edges->size();
    out.flush();
  }
  out << fmt::format("end {}\n", monotonic_now());
  return count;
}

std::expected<std::size_t, std::string> record_rc522(
    const Rc522RecordRequest& request, std::unique_ptr<SpiTransport> spi, std::unique_ptr<GpioOutput> reset,
    Nanoseconds duration, std::ostream& out, const std::function<void(const PeripheralEvent&)>& on_event,
    const std::function<bool()>& keep_going, Clock clock) {
  if (!clock) clock = monotonic_now;
  auto header = make_spi_trace("rc522", request.spi_device, request.reset_line);
  if (!header) return std::unexpected(header.error());
  header->extra.emplace_back("chip", request.chip);
  // The header first, then transfers as they happen, so a recording cut short is still readable.
  out << format_trace(*header);
  auto recording = std::make_unique<RecordingSpiTransport>(std::move(spi), out, clock);
  RecordingSpiTransport* recorder = recording.get();
  auto device = Rc522Device::create("rc522", std::move(recording), std::move(reset), request.poll_interval,
                                    {}, {}, clock);
  if (!device) return std::unexpected(device.error());
  const Nanoseconds start = clock();
  auto ran = run_devices({device->get()}, on_event,
                         [&] { return keep_going() && (duration <= 0 || clock() - start < duration); });
  if (!ran) return std::unexpected(ran.error());
  out << fmt::format("end {}\n", clock());
  out.flush();
  return recorder->transfers();
}

std::expected<std::size_t, std::string> record_rc522_on_pi(
    const Rc522RecordRequest& request, Nanoseconds duration, std::ostream& out,
    const std::function<void(const PeripheralEvent&)>& on_event, const std::function<bool()>& keep_going) {
  auto spi = SpidevTransport::open(request.spi_device);
  if (!spi) return std::unexpected(spi.error());
  std::unique_ptr<GpioOutput> reset;
  if (!request.reset_line.empty()) {
    auto line = open_output_line(request.chip, request.reset_line, "boardbank-record-rc522", true);
    if (!line) return std::unexpected(line.error());
    reset = std::move(*line);
  }
  return record_rc522(request, std::move(*spi), std::move(reset), duration, out, on_event, keep_going);
}

}  // namespace bb::peripherals
