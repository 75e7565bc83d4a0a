#include "peripherals/probe.h"

#include <fmt/format.h>
#include <poll.h>

#include <cerrno>
#include <cstring>

#include "peripherals/decoder_factory.h"
#include "peripherals/edge_device.h"
#include "peripherals/replay_edge_source.h"

namespace bb::peripherals {

std::expected<std::vector<PeripheralEvent>, std::string> decode_trace(const Trace& trace, DiceRoller roller) {
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

}  // namespace bb::peripherals
