// The GPIO layer over libgpiod's v2 API (libgpiod 2.x, e.g. Debian trixie). Chosen by CMake when
// pkg-config finds libgpiod >= 2; same interface and messages as gpio_v1.cpp.
#include <fmt/format.h>
#include <gpiod.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "peripherals/gpio.h"
#include "peripherals/gpio_diagnostics.h"

namespace bb::peripherals {

namespace {

template <typename T, void (*Free)(T*)>
struct Freer {
  void operator()(T* p) const { Free(p); }
};
using ChipHandle = std::unique_ptr<gpiod_chip, Freer<gpiod_chip, gpiod_chip_close>>;
using ChipInfo = std::unique_ptr<gpiod_chip_info, Freer<gpiod_chip_info, gpiod_chip_info_free>>;
using LineInfo = std::unique_ptr<gpiod_line_info, Freer<gpiod_line_info, gpiod_line_info_free>>;
using Settings = std::unique_ptr<gpiod_line_settings, Freer<gpiod_line_settings, gpiod_line_settings_free>>;
using LineConfig = std::unique_ptr<gpiod_line_config, Freer<gpiod_line_config, gpiod_line_config_free>>;
using RequestConfig =
    std::unique_ptr<gpiod_request_config, Freer<gpiod_request_config, gpiod_request_config_free>>;
using Request = std::unique_ptr<gpiod_line_request, Freer<gpiod_line_request, gpiod_line_request_release>>;
using EventBuffer =
    std::unique_ptr<gpiod_edge_event_buffer, Freer<gpiod_edge_event_buffer, gpiod_edge_event_buffer_free>>;

// v2 opens chips by path only; a label ("pinctrl-rp1") is found by looking at every chip.
std::expected<ChipHandle, std::string> open_chip(const std::string& chip) {
  const std::string path = chip_path(chip);
  errno = 0;
  ChipHandle handle(gpiod_chip_open(path.c_str()));
  if (handle) return handle;
  int open_error = errno == 0 ? ENOENT : errno;
  // libgpiod 2 checks sysfs too: an existing file that is not a GPIO chip also comes back as ENOENT.
  if (open_error == ENOENT && access(path.c_str(), F_OK) == 0) open_error = ENODEV;
  if (open_error == ENOENT && !chip.starts_with('/')) {
    std::error_code ignored;
    for (const auto& entry : std::filesystem::directory_iterator("/dev", ignored)) {
      const std::string candidate = entry.path().string();
      if (!gpiod_is_gpiochip_device(candidate.c_str())) continue;
      ChipHandle other(gpiod_chip_open(candidate.c_str()));
      if (!other) continue;
      ChipInfo info(gpiod_chip_get_info(other.get()));
      if (info && chip == gpiod_chip_info_get_label(info.get())) return other;
    }
  }
  return std::unexpected(chip_open_error(chip, open_error));
}

unsigned num_lines(gpiod_chip* chip) {
  ChipInfo info(gpiod_chip_get_info(chip));
  return info ? static_cast<unsigned>(gpiod_chip_info_get_num_lines(info.get())) : 0;
}

std::expected<unsigned, std::string> find_offset(gpiod_chip* chip, const std::string& chip_name,
                                                 const std::string& line) {
  if (const auto offset = line_offset(line)) {
    if (*offset < num_lines(chip)) return *offset;
  } else if (const int found = gpiod_chip_get_line_offset_from_name(chip, line.c_str()); found >= 0) {
    return static_cast<unsigned>(found);
  }
  return std::unexpected(line_not_found_error(chip_name, line, num_lines(chip)));
}

std::string consumer_of(gpiod_chip* chip, unsigned offset, bool* used) {
  LineInfo info(gpiod_chip_get_line_info(chip, offset));
  *used = info && gpiod_line_info_is_used(info.get());
  const char* consumer = info ? gpiod_line_info_get_consumer(info.get()) : nullptr;
  return consumer ? consumer : "";
}

class V2EdgeLines final : public EdgeSource {
 public:
  V2EdgeLines(ChipHandle chip, Request request, std::vector<unsigned> offsets,
              std::vector<std::optional<bool>> levels)
      : chip_(std::move(chip)),
        request_(std::move(request)),
        offsets_(std::move(offsets)),
        levels_(std::move(levels)),
        buffer_(gpiod_edge_event_buffer_new(64)) {}

  int fd() const override { return gpiod_line_request_get_fd(request_.get()); }
  bool live() const override { return true; }
  std::vector<std::optional<bool>> initial_levels() const override { return levels_; }

  std::expected<std::vector<Edge>, std::string> read_edges() override {
    std::vector<Edge> edges;
    if (!buffer_) return std::unexpected(std::string("out of memory for the GPIO event buffer"));
    // One request holds all lines, so the kernel already delivers them in one timeline.
    while (gpiod_line_request_wait_edge_events(request_.get(), 0) > 0) {
      const int got = gpiod_line_request_read_edge_events(request_.get(), buffer_.get(), 64);
      if (got < 0)
        return std::unexpected(fmt::format("reading GPIO events failed: {}", std::strerror(errno)));
      for (int i = 0; i < got; ++i) {
        gpiod_edge_event* event =
            gpiod_edge_event_buffer_get_event(buffer_.get(), static_cast<unsigned long>(i));
        const unsigned offset = gpiod_edge_event_get_line_offset(event);
        for (std::size_t role = 0; role < offsets_.size(); ++role) {
          if (offsets_[role] != offset) continue;
          edges.push_back({static_cast<Nanoseconds>(gpiod_edge_event_get_timestamp_ns(event)),
                           static_cast<int>(role),
                           gpiod_edge_event_get_event_type(event) == GPIOD_EDGE_EVENT_RISING_EDGE});
        }
      }
      if (got < 64) break;
    }
    return edges;
  }

 private:
  ChipHandle chip_;
  Request request_;
  std::vector<unsigned> offsets_;
  std::vector<std::optional<bool>> levels_;
  EventBuffer buffer_;
};

class V2Output final : public GpioOutput {
 public:
  V2Output(ChipHandle chip, Request request, unsigned offset)
      : chip_(std::move(chip)), request_(std::move(request)), offset_(offset) {}
  std::expected<void, std::string> set(bool high) override {
    if (gpiod_line_request_set_value(request_.get(), offset_,
                                     high ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE) != 0) {
      return std::unexpected(fmt::format("setting a GPIO output failed: {}", std::strerror(errno)));
    }
    return {};
  }

 private:
  ChipHandle chip_;
  Request request_;
  unsigned offset_;
};

std::expected<Request, std::string> request_lines(gpiod_chip* chip, const std::string& chip_name,
                                                  const std::vector<unsigned>& offsets,
                                                  const std::vector<std::string>& names,
                                                  gpiod_line_settings* settings,
                                                  const std::string& consumer) {
  LineConfig line_config(gpiod_line_config_new());
  RequestConfig request_config(gpiod_request_config_new());
  if (!line_config || !request_config)
    return std::unexpected(std::string("out of memory configuring GPIO lines"));
  if (gpiod_line_config_add_line_settings(line_config.get(), offsets.data(), offsets.size(), settings) != 0) {
    return std::unexpected(line_request_error(chip_name, names.front(), errno, ""));
  }
  gpiod_request_config_set_consumer(request_config.get(), consumer.c_str());
  Request request(gpiod_chip_request_lines(chip, request_config.get(), line_config.get()));
  if (request) return request;
  const int error = errno;
  for (std::size_t i = 0; i < offsets.size(); ++i) {
    bool used = false;
    const std::string holder = consumer_of(chip, offsets[i], &used);
    if (used || error != EBUSY)
      return std::unexpected(line_request_error(chip_name, names[i], error, holder));
  }
  return std::unexpected(line_request_error(chip_name, names.front(), error, ""));
}

}  // namespace

std::expected<std::unique_ptr<EdgeSource>, std::string> open_edge_lines(const EdgeLinesRequest& request) {
  if (request.lines.empty()) return std::unexpected(std::string("a device needs at least one line"));
  if (const auto error = kernel_debounce_error(request.kernel_debounce, request.shortest_pulse)) {
    return std::unexpected(*error);
  }
  auto chip = open_chip(request.chip);
  if (!chip) return std::unexpected(chip.error());
  std::vector<unsigned> offsets;
  for (const auto& name : request.lines) {
    auto offset = find_offset(chip->get(), request.chip, name);
    if (!offset) return std::unexpected(offset.error());
    if (std::find(offsets.begin(), offsets.end(), *offset) != offsets.end()) {
      return std::unexpected(fmt::format("line {} is named twice: each role needs its own line", name));
    }
    offsets.push_back(*offset);
  }
  Settings settings(gpiod_line_settings_new());
  if (!settings) return std::unexpected(std::string("out of memory configuring GPIO lines"));
  gpiod_line_settings_set_direction(settings.get(), GPIOD_LINE_DIRECTION_INPUT);
  gpiod_line_settings_set_edge_detection(settings.get(), GPIOD_LINE_EDGE_BOTH);
  gpiod_line_settings_set_bias(settings.get(),
                               request.pull_up ? GPIOD_LINE_BIAS_PULL_UP : GPIOD_LINE_BIAS_AS_IS);
  gpiod_line_settings_set_event_clock(settings.get(), GPIOD_LINE_CLOCK_MONOTONIC);
  if (request.kernel_debounce > 0) {
    gpiod_line_settings_set_debounce_period_us(
        settings.get(), static_cast<unsigned long>(request.kernel_debounce / kMicrosecond));
  }
  auto line_request =
      request_lines(chip->get(), request.chip, offsets, request.lines, settings.get(), request.consumer);
  if (!line_request) return std::unexpected(line_request.error());
  std::vector<gpiod_line_value> values(offsets.size(), GPIOD_LINE_VALUE_ACTIVE);
  std::vector<std::optional<bool>> levels(offsets.size());
  if (gpiod_line_request_get_values(line_request->get(), values.data()) == 0) {
    for (std::size_t i = 0; i < values.size(); ++i) levels[i] = values[i] == GPIOD_LINE_VALUE_ACTIVE;
  }
  return std::make_unique<V2EdgeLines>(std::move(*chip), std::move(*line_request), std::move(offsets),
                                       std::move(levels));
}

std::expected<std::unique_ptr<GpioOutput>, std::string> open_output_line(const std::string& chip,
                                                                         const std::string& line,
                                                                         const std::string& consumer,
                                                                         bool initial_high) {
  auto handle = open_chip(chip);
  if (!handle) return std::unexpected(handle.error());
  auto offset = find_offset(handle->get(), chip, line);
  if (!offset) return std::unexpected(offset.error());
  Settings settings(gpiod_line_settings_new());
  if (!settings) return std::unexpected(std::string("out of memory configuring GPIO lines"));
  gpiod_line_settings_set_direction(settings.get(), GPIOD_LINE_DIRECTION_OUTPUT);
  gpiod_line_settings_set_output_value(settings.get(),
                                       initial_high ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE);
  auto request = request_lines(handle->get(), chip, {*offset}, {line}, settings.get(), consumer);
  if (!request) return std::unexpected(request.error());
  return std::make_unique<V2Output>(std::move(*handle), std::move(*request), *offset);
}

std::string gpio_backend_description() { return fmt::format("libgpiod {} (v2 API)", gpiod_api_version()); }

}  // namespace bb::peripherals
