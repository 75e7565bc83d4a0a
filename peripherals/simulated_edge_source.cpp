#include "peripherals/simulated_edge_source.h"

#include <fmt/format.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstring>

#include "peripherals/command_lines.h"
#include "peripherals/edge_device.h"
#include "peripherals/epoll_watch.h"
#include "peripherals/trace.h"
#include "peripherals/trace_generator.h"
#include "peripherals/wiegand_decoder.h"

namespace bb::peripherals {

namespace {
std::vector<std::string_view> words_of(std::string_view text) {
  std::vector<std::string_view> words;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r')) ++i;
    const std::size_t start = i;
    while (i < text.size() && text[i] != ' ' && text[i] != '\t' && text[i] != '\r') ++i;
    if (i > start) words.push_back(text.substr(start, i - start));
  }
  return words;
}

std::optional<int> face(std::string_view word) {
  int value = 0;
  const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), value);
  if (ec != std::errc{} || end != word.data() + word.size() || value < 1 || value > 6) return std::nullopt;
  return value;
}
}  // namespace

std::expected<std::unique_ptr<SimulatedEdgeSource>, std::string> SimulatedEdgeSource::create(
    std::string device, int input_fd) {
  if (device_roles(device).empty()) {
    return std::unexpected(fmt::format("unknown device '{}' (wiegand, dice or button)", device));
  }
  std::unique_ptr<SimulatedEdgeSource> source(new SimulatedEdgeSource(std::move(device)));
  source->input_fd_ = input_fd;
  source->epoll_fd_ = epoll_create1(EPOLL_CLOEXEC);
  source->wake_fd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (source->epoll_fd_ < 0 || source->wake_fd_ < 0) {
    return std::unexpected(fmt::format("cannot create the simulator's fds: {}", std::strerror(errno)));
  }
  source->release_fd_ = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
  if (source->release_fd_ < 0)
    return std::unexpected(fmt::format("cannot create the simulator's timer: {}", std::strerror(errno)));
  std::vector<int> watched{source->wake_fd_, source->release_fd_};
  if (source->device_ == "dice") {
    source->heartbeat_fd_ = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    const itimerspec every_second{{1, 0}, {1, 0}};
    if (source->heartbeat_fd_ < 0 || timerfd_settime(source->heartbeat_fd_, 0, &every_second, nullptr) != 0) {
      return std::unexpected(
          fmt::format("cannot create the simulator's heartbeat: {}", std::strerror(errno)));
    }
    watched.push_back(source->heartbeat_fd_);
    // The unit announces itself at once, as the real one does when it powers up.
    source->inject(source->dice_.report(monotonic_now() + 100 * kMicrosecond, 0, 0));
  }
  if (input_fd >= 0) watched.push_back(input_fd);
  if (auto watching = watch_readable(source->epoll_fd_, watched, "the simulator's input"); !watching)
    return std::unexpected(watching.error());
  return source;
}

SimulatedEdgeSource::~SimulatedEdgeSource() {
  for (const int fd : {epoll_fd_, wake_fd_, heartbeat_fd_, release_fd_}) {
    if (fd >= 0) close(fd);
  }
}

std::vector<std::optional<bool>> SimulatedEdgeSource::initial_levels() const {
  if (device_ == "dice") return {dice_.levels().begin(), dice_.levels().end()};
  return std::vector<std::optional<bool>>(device_roles(device_).size(), true);
}

void SimulatedEdgeSource::inject(const std::vector<Edge>& edges) {
  queue_.insert(queue_.end(), edges.begin(), edges.end());
  std::stable_sort(queue_.begin(), queue_.end(),
                   [](const Edge& a, const Edge& b) { return a.ts_ns < b.ts_ns; });
  arm_release();
}

void SimulatedEdgeSource::arm_release() {
  if (queue_.empty()) return;
  if (queue_.front().ts_ns <= monotonic_now()) {
    const std::uint64_t one = 1;
    [[maybe_unused]] const auto written = write(wake_fd_, &one, sizeof one);
    return;
  }
  itimerspec when{};
  when.it_value.tv_sec = queue_.front().ts_ns / kSecond;
  when.it_value.tv_nsec = queue_.front().ts_ns % kSecond;
  timerfd_settime(release_fd_, TFD_TIMER_ABSTIME, &when, nullptr);
}

std::expected<std::vector<Edge>, std::string> SimulatedEdgeSource::command_edges(std::string_view text,
                                                                                 Nanoseconds at) {
  const auto words = words_of(text);
  if (words.empty()) return std::vector<Edge>{};
  if (device_ == "wiegand" && words[0] == "card" && words.size() == 2) {
    const WiegandCard card{std::string(words[1]), words[1].size() == 8 ? 34 : 26};
    std::string upper = card.uid;
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    const auto bits = wiegand_frame_bits({upper, card.bits});
    if (!bits)
      return std::unexpected(
          fmt::format("'{}' is not a card: 6 hex digits (26 bits) or 8 (34 bits)", words[1]));
    return wiegand_edges(*bits, at);
  }
  if (device_ == "dice" && words[0] == "roll" && words.size() == 3) {
    const auto a = face(words[1]);
    const auto b = face(words[2]);
    if (!a || !b) return std::unexpected(std::string("roll takes two faces 1-6, e.g. 'roll 3 4'"));
    auto edges = dice_.report(at, 0, 0);
    const auto result = dice_.report(at + 50 * kMillisecond, *a, *b);
    edges.insert(edges.end(), result.begin(), result.end());
    return edges;
  }
  if (device_ == "dice" && words[0] == "rolling" && words.size() == 1) return dice_.report(at, 0, 0);
  if (device_ == "dice" && words[0] == "unplug" && words.size() == 1) {
    const itimerspec stop{};
    timerfd_settime(heartbeat_fd_, 0, &stop, nullptr);
    return dice_.unplug(at);
  }
  if (device_ == "button" && words[0] == "press" && words.size() == 1)
    return button_press_edges(at, 150 * kMillisecond);
  static constexpr std::string_view help[] = {"card HEX (6 or 8 hex digits)", "roll A B | rolling | unplug",
                                              "press"};
  const std::size_t which = device_ == "wiegand" ? 0 : device_ == "dice" ? 1 : 2;
  return std::unexpected(fmt::format("unknown {} command '{}': try {}", device_, text, help[which]));
}

std::expected<void, std::string> SimulatedEdgeSource::command(std::string_view text) {
  const Nanoseconds at = std::max(monotonic_now() + 100 * kMicrosecond, next_free_);
  auto edges = command_edges(text, at);
  if (!edges) return std::unexpected(edges.error());
  if (edges->empty()) return {};
  // A Wiegand frame ends 25 ms after its last bit: the next command waits for that.
  next_free_ = edges->back().ts_ns + 30 * kMillisecond;
  inject(*edges);
  return {};
}

std::expected<std::vector<Edge>, std::string> SimulatedEdgeSource::read_edges() {
  std::uint64_t count = 0;
  while (read(wake_fd_, &count, sizeof count) > 0) {
  }
  if (heartbeat_fd_ >= 0) {
    std::uint64_t beats = 0;
    if (read(heartbeat_fd_, &beats, sizeof beats) > 0 && beats > 0) {
      const Nanoseconds at = std::max(monotonic_now() + 100 * kMicrosecond, next_free_);
      const auto edges = dice_.report(at, 0, 0);
      // The heartbeat holds the lines like a command: a throw sent meanwhile follows it rather than
      // interleaving its strobe with the heartbeat's (the decoder refused such a throw as a short strobe).
      if (!edges.empty()) next_free_ = edges.back().ts_ns + 30 * kMillisecond;
      queue_.insert(queue_.end(), edges.begin(), edges.end());
    }
  }
  std::uint64_t expirations = 0;
  [[maybe_unused]] const auto released = read(release_fd_, &expirations, sizeof expirations);
  std::vector<std::string> errors;
  if (input_fd_ >= 0 && !input_closed_) {
    input_closed_ = !run_command_lines(
        input_fd_, epoll_fd_, partial_line_, [this](std::string_view line) { return command(line); }, errors);
  }
  std::stable_sort(queue_.begin(), queue_.end(),
                   [](const Edge& a, const Edge& b) { return a.ts_ns < b.ts_ns; });
  const Nanoseconds now = monotonic_now();
  std::vector<Edge> edges;
  while (!queue_.empty() && queue_.front().ts_ns <= now) {
    edges.push_back(queue_.front());
    queue_.pop_front();
  }
  arm_release();
  if (!errors.empty()) {
    inject(edges);  // keep the edges that were due for the next read, and wake it
    std::string joined;
    for (const auto& error : errors) joined += (joined.empty() ? "" : "; ") + error;
    return std::unexpected(joined);
  }
  return edges;
}

}  // namespace bb::peripherals
