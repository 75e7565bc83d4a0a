#include "peripherals/device_factory.h"

#include <fmt/format.h>

#include <algorithm>

#include "peripherals/decoder_factory.h"
#include "peripherals/edge_device.h"
#include "peripherals/gpio.h"
#include "peripherals/rc522_device.h"
#include "peripherals/replay_edge_source.h"
#include "peripherals/replay_rc522_device.h"
#include "peripherals/simulated_edge_source.h"
#include "peripherals/simulated_rc522_device.h"
#include "peripherals/spidev_transport.h"
#include "peripherals/trace.h"
#include "peripherals/wiegand_decoder.h"

namespace bb::peripherals {

std::vector<std::string> default_lines(const std::string& kind) {
  if (kind == "wiegand") return {"GPIO5", "GPIO6"};
  if (kind == "dice") return {"GPIO16", "GPIO20", "GPIO21", "GPIO13", "GPIO19", "GPIO26", "GPIO12", "GPIO25"};
  if (kind == "button") return {"GPIO17"};
  return {};
}

std::expected<std::vector<std::string>, std::string> parse_line_list(const std::string& kind,
                                                                     const std::string& text) {
  const auto roles = device_roles(kind);
  if (roles.empty())
    return std::unexpected(fmt::format("unknown device '{}' (wiegand, dice or button)", kind));
  std::vector<std::string> items;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    if (comma > start) items.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  if (items.size() != roles.size()) {
    return std::unexpected(fmt::format("a {} needs {} lines ({}), got {}", kind, roles.size(),
                                       fmt::join(roles, ","), items.size()));
  }
  const bool keyed =
      std::all_of(items.begin(), items.end(), [](const auto& i) { return i.find('=') != std::string::npos; });
  if (!keyed) return items;
  std::vector<std::string> lines(roles.size());
  for (const auto& item : items) {
    const auto eq = item.find('=');
    const auto role = std::find(roles.begin(), roles.end(), item.substr(0, eq));
    if (role == roles.end())
      return std::unexpected(
          fmt::format("'{}' is not a {} line ({})", item.substr(0, eq), kind, fmt::join(roles, ",")));
    lines[static_cast<std::size_t>(role - roles.begin())] = item.substr(eq + 1);
  }
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].empty()) return std::unexpected(fmt::format("no line given for {}", roles[i]));
  }
  return lines;
}

std::expected<std::unique_ptr<Device>, std::string> open_device(const DeviceConfig& config,
                                                                CardRegistryCheck is_registered,
                                                                DiceRoller roller) {
  std::optional<Trace> replayed;
  if (config.backend == "replay") {
    auto trace = load_trace(config.trace_path);
    if (!trace) return std::unexpected(trace.error());
    replayed = std::move(*trace);
    // The trace says what it recorded; an rc522 trace holds SPI transfers, not edges.
    if (is_spi_device(replayed->device)) {
      auto device = ReplayRc522Device::create(config.name.empty() ? replayed->device : config.name, *replayed,
                                              is_registered);
      if (!device) return std::unexpected(fmt::format("{}: {}", config.trace_path, device.error()));
      return std::unique_ptr<Device>(std::move(*device));
    }
  }
  const std::string name = config.name.empty() ? config.kind : config.name;
  if (config.kind == "rc522" && !replayed) {
    if (config.backend == "simulated") {
      auto simulated = SimulatedRc522Device::create(name, config.input_fd, is_registered);
      if (!simulated) return std::unexpected(simulated.error());
      return std::unique_ptr<Device>(std::move(*simulated));
    }
    if (config.backend != "real")
      return std::unexpected(fmt::format("unknown backend '{}' (real, simulated or replay)", config.backend));
    auto spi = SpidevTransport::open(config.spi_device);
    if (!spi) return std::unexpected(spi.error());
    std::unique_ptr<GpioOutput> reset;
    if (!config.reset_line.empty()) {
      auto line = open_output_line(config.chip, config.reset_line, "boardbank-rc522-reset", true);
      if (!line) return std::unexpected(line.error());
      reset = std::move(*line);
    }
    if (config.poll_ms < 1)
      return std::unexpected(std::string("the rc522's poll interval must be at least 1 ms"));
    auto device = Rc522Device::create(name, std::move(*spi), std::move(reset), config.poll_ms * kMillisecond,
                                      is_registered);
    if (!device) return std::unexpected(device.error());
    return std::unique_ptr<Device>(std::move(*device));
  }
  std::string kind = config.kind;
  std::unique_ptr<EdgeSource> source;
  if (replayed) {
    kind = replayed->device;
    source = std::make_unique<ReplayEdgeSource>(std::move(*replayed));
  } else if (config.backend == "simulated") {
    auto simulated = SimulatedEdgeSource::create(kind, config.input_fd);
    if (!simulated) return std::unexpected(simulated.error());
    source = std::move(*simulated);
  } else if (config.backend == "real") {
    EdgeLinesRequest request;
    request.chip = config.chip;
    request.lines = config.lines.empty() ? default_lines(kind) : config.lines;
    request.consumer = fmt::format("boardbank-{}", name);
    request.shortest_pulse = kind == "wiegand" ? WiegandTiming{}.min_pulse : 0;
    if (request.lines.empty())
      return std::unexpected(fmt::format("unknown device '{}' (wiegand, dice, button or rc522)", kind));
    auto lines = open_edge_lines(request);
    if (!lines) return std::unexpected(lines.error());
    source = std::move(*lines);
  } else {
    return std::unexpected(fmt::format("unknown backend '{}' (real, simulated or replay)", config.backend));
  }
  auto decoder = make_decoder(kind, config.name.empty() ? kind : config.name, std::move(roller),
                              config.wiegand_bits, config.wiegand_taps);
  if (!decoder) return std::unexpected(decoder.error());
  auto device = EdgeDevice::create(config.name.empty() ? kind : config.name, std::move(source),
                                   std::move(*decoder), is_registered);
  if (!device) return std::unexpected(device.error());
  return std::unique_ptr<Device>(std::move(*device));
}

}  // namespace bb::peripherals
