// The GPIO layer over libgpiod's v1 API (libgpiod 1.x, Debian bookworm / Pi OS bookworm).
#include <fmt/format.h>
#include <gpiod.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>

#include "peripherals/gpio.h"
#include "peripherals/gpio_diagnostics.h"

namespace bb::peripherals {

namespace {

struct ChipCloser {
  void operator()(gpiod_chip* chip) const { gpiod_chip_close(chip); }
};
using ChipHandle = std::unique_ptr<gpiod_chip, ChipCloser>;

std::expected<ChipHandle, std::string> open_chip(const std::string& chip) {
  errno = 0;
  ChipHandle handle(gpiod_chip_open_lookup(chip.c_str()));
  if (!handle) return std::unexpected(chip_open_error(chip, errno == 0 ? ENOENT : errno));
  return handle;
}

std::expected<gpiod_line*, std::string> find_line(gpiod_chip* chip, const std::string& chip_name,
                                                  const std::string& line) {
  gpiod_line* found = nullptr;
  if (const auto offset = line_offset(line)) {
    if (*offset < gpiod_chip_num_lines(chip)) found = gpiod_chip_get_line(chip, *offset);
  } else {
    found = gpiod_chip_find_line(chip, line.c_str());
  }
  if (!found) return std::unexpected(line_not_found_error(chip_name, line, gpiod_chip_num_lines(chip)));
  return found;
}

std::string busy_consumer(gpiod_line* line) {
  if (gpiod_line_update(line) != 0) return {};
  const char* consumer = gpiod_line_consumer(line);
  return consumer ? consumer : "";
}

class V1EdgeLines final : public EdgeSource {
 public:
  V1EdgeLines(ChipHandle chip, std::vector<gpiod_line*> lines, int epoll_fd,
              std::vector<std::optional<bool>> levels)
      : chip_(std::move(chip)), lines_(std::move(lines)), epoll_fd_(epoll_fd), levels_(std::move(levels)) {}
  ~V1EdgeLines() override {
    for (gpiod_line* line : lines_) gpiod_line_release(line);
    if (epoll_fd_ >= 0) close(epoll_fd_);
  }
  V1EdgeLines(const V1EdgeLines&) = delete;
  V1EdgeLines& operator=(const V1EdgeLines&) = delete;

  int fd() const override { return epoll_fd_; }
  bool live() const override { return true; }
  std::vector<std::optional<bool>> initial_levels() const override { return levels_; }

  std::expected<std::vector<Edge>, std::string> read_edges() override {
    std::array<epoll_event, 16> ready{};
    int count = 0;
    do {
      count = epoll_wait(epoll_fd_, ready.data(), static_cast<int>(ready.size()), 0);
    } while (count < 0 && errno == EINTR);
    if (count < 0)
      return std::unexpected(fmt::format("waiting for GPIO events failed: {}", std::strerror(errno)));
    std::vector<Edge> edges;
    std::array<gpiod_line_event, 64> batch{};
    for (int i = 0; i < count; ++i) {
      const auto role = ready[static_cast<std::size_t>(i)].data.u32;
      const int got =
          gpiod_line_event_read_multiple(lines_[role], batch.data(), static_cast<unsigned>(batch.size()));
      if (got < 0)
        return std::unexpected(fmt::format("reading GPIO events failed: {}", std::strerror(errno)));
      for (int k = 0; k < got; ++k) {
        const auto& event = batch[static_cast<std::size_t>(k)];
        edges.push_back({static_cast<Nanoseconds>(event.ts.tv_sec) * kSecond + event.ts.tv_nsec,
                         static_cast<int>(role), event.event_type == GPIOD_LINE_EVENT_RISING_EDGE});
      }
    }
    // Each line has its own queue in the v1 uAPI; the decoders need one timeline.
    std::stable_sort(edges.begin(), edges.end(),
                     [](const Edge& a, const Edge& b) { return a.ts_ns < b.ts_ns; });
    return edges;
  }

 private:
  ChipHandle chip_;
  std::vector<gpiod_line*> lines_;
  int epoll_fd_ = -1;
  std::vector<std::optional<bool>> levels_;
};

class V1Output final : public GpioOutput {
 public:
  V1Output(ChipHandle chip, gpiod_line* line) : chip_(std::move(chip)), line_(line) {}
  ~V1Output() override { gpiod_line_release(line_); }
  V1Output(const V1Output&) = delete;
  V1Output& operator=(const V1Output&) = delete;
  std::expected<void, std::string> set(bool high) override {
    if (gpiod_line_set_value(line_, high ? 1 : 0) != 0) {
      return std::unexpected(fmt::format("setting a GPIO output failed: {}", std::strerror(errno)));
    }
    return {};
  }

 private:
  ChipHandle chip_;
  gpiod_line* line_;
};

}  // namespace

std::expected<std::unique_ptr<EdgeSource>, std::string> open_edge_lines(const EdgeLinesRequest& request) {
  if (request.lines.empty() || request.lines.size() > GPIOD_LINE_BULK_MAX_LINES) {
    return std::unexpected(
        fmt::format("a device needs 1-{} lines, got {}", GPIOD_LINE_BULK_MAX_LINES, request.lines.size()));
  }
  if (const auto error = kernel_debounce_error(request.kernel_debounce, request.shortest_pulse)) {
    return std::unexpected(*error);
  }
  if (request.kernel_debounce > 0) {
    return std::unexpected(
        std::string("kernel debounce needs libgpiod 2 (this build uses libgpiod 1.x): leave it off, "
                    "boardbank debounces in software"));
  }
  auto chip = open_chip(request.chip);
  if (!chip) return std::unexpected(chip.error());
  gpiod_line_bulk bulk;
  gpiod_line_bulk_init(&bulk);
  std::vector<gpiod_line*> lines;
  for (const auto& name : request.lines) {
    auto line = find_line(chip->get(), request.chip, name);
    if (!line) return std::unexpected(line.error());
    if (std::find(lines.begin(), lines.end(), *line) != lines.end()) {
      return std::unexpected(fmt::format("line {} is named twice: each role needs its own line", name));
    }
    lines.push_back(*line);
    gpiod_line_bulk_add(&bulk, *line);
  }
  const int flags = request.pull_up ? GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP : 0;
  if (gpiod_line_request_bulk_both_edges_events_flags(&bulk, request.consumer.c_str(), flags) != 0) {
    const int error = errno;
    // Name the line that is busy, and who holds it when the kernel says.
    for (std::size_t i = 0; i < lines.size(); ++i) {
      if (gpiod_line_is_used(lines[i]) || error != EBUSY) {
        return std::unexpected(
            line_request_error(request.chip, request.lines[i], error, busy_consumer(lines[i])));
      }
    }
    return std::unexpected(line_request_error(request.chip, request.lines.front(), error, ""));
  }
  std::vector<int> values(lines.size(), 1);
  std::vector<std::optional<bool>> levels(lines.size());
  if (gpiod_line_get_value_bulk(&bulk, values.data()) == 0) {
    for (std::size_t i = 0; i < lines.size(); ++i) levels[i] = values[i] != 0;
  }
  const int epoll_fd = epoll_create1(EPOLL_CLOEXEC);
  auto source = std::make_unique<V1EdgeLines>(std::move(*chip), lines, epoll_fd, std::move(levels));
  if (epoll_fd < 0) return std::unexpected(fmt::format("epoll_create1 failed: {}", std::strerror(errno)));
  for (std::size_t i = 0; i < lines.size(); ++i) {
    epoll_event interest{};
    interest.events = EPOLLIN;
    interest.data.u32 = static_cast<std::uint32_t>(i);
    if (epoll_ctl(epoll_fd, EPOLL_CTL_ADD, gpiod_line_event_get_fd(lines[i]), &interest) != 0) {
      return std::unexpected(fmt::format("epoll_ctl failed: {}", std::strerror(errno)));
    }
  }
  return source;
}

std::expected<std::unique_ptr<GpioOutput>, std::string> open_output_line(const std::string& chip,
                                                                         const std::string& line,
                                                                         const std::string& consumer,
                                                                         bool initial_high) {
  auto handle = open_chip(chip);
  if (!handle) return std::unexpected(handle.error());
  auto found = find_line(handle->get(), chip, line);
  if (!found) return std::unexpected(found.error());
  if (gpiod_line_request_output(*found, consumer.c_str(), initial_high ? 1 : 0) != 0) {
    const int error = errno;
    return std::unexpected(
        line_request_error(chip, line, error, error == EBUSY ? busy_consumer(*found) : ""));
  }
  return std::make_unique<V1Output>(std::move(*handle), *found);
}

std::string gpio_backend_description() { return fmt::format("libgpiod {} (v1 API)", gpiod_version_string()); }

}  // namespace bb::peripherals
