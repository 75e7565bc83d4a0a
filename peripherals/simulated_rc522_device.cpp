#include "peripherals/simulated_rc522_device.h"

#include <fmt/format.h>
#include <poll.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>

#include "peripherals/command_lines.h"
#include "peripherals/edge_device.h"
#include "peripherals/epoll_watch.h"

namespace bb::peripherals {

namespace {
std::optional<std::vector<std::uint8_t>> parse_uid(std::string_view hex) {
  if (hex.size() != 8 && hex.size() != 14 && hex.size() != 20) return std::nullopt;
  std::vector<std::uint8_t> uid;
  for (std::size_t i = 0; i < hex.size(); i += 2) {
    std::uint8_t byte = 0;
    const auto [end, ec] = std::from_chars(hex.data() + i, hex.data() + i + 2, byte, 16);
    if (ec != std::errc{} || end != hex.data() + i + 2) return std::nullopt;
    uid.push_back(byte);
  }
  return uid;
}
}  // namespace

std::expected<std::unique_ptr<SimulatedRc522Device>, std::string> SimulatedRc522Device::create(
    std::string name, int input_fd, CardRegistryCheck is_registered) {
  std::unique_ptr<SimulatedRc522Device> device(new SimulatedRc522Device());
  auto chip = std::make_unique<FakeMfrc522>();
  device->chip_ = chip.get();
  auto reader = Rc522Device::create(std::move(name), std::move(chip), nullptr, 100 * kMillisecond,
                                    std::move(is_registered), [](Nanoseconds) {});
  if (!reader) return std::unexpected(reader.error());
  device->reader_ = std::move(*reader);
  device->input_fd_ = input_fd;
  device->epoll_fd_ = epoll_create1(EPOLL_CLOEXEC);
  if (device->epoll_fd_ < 0)
    return std::unexpected(fmt::format("epoll_create1 failed: {}", std::strerror(errno)));
  std::vector<int> watched{device->reader_->fd()};
  if (input_fd >= 0) watched.push_back(input_fd);
  if (auto watching = watch_readable(device->epoll_fd_, watched, "the simulator's input"); !watching)
    return std::unexpected(watching.error());
  return device;
}

SimulatedRc522Device::~SimulatedRc522Device() {
  if (epoll_fd_ >= 0) close(epoll_fd_);
}

std::expected<void, std::string> SimulatedRc522Device::command(std::string_view text) {
  while (!text.empty() && (text.back() == '\r' || text.back() == ' ')) text.remove_suffix(1);
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  if (text.empty()) return {};
  if (text == "clear") {
    chip_->remove_all_cards();
    return {};
  }
  if (text == "unplug" || text == "plug") {  // the reader's cable pulled, or put back
    chip_->set_unplugged(text == "unplug");
    return {};
  }
  const auto space = text.find(' ');
  const std::string_view verb = text.substr(0, space);
  const auto uid = space == std::string_view::npos ? std::nullopt : parse_uid(text.substr(space + 1));
  if ((verb == "card" || verb == "tap" || verb == "remove") && uid) {
    chip_->remove_card(*uid);
    if (verb != "remove") chip_->add_card(*uid);
    if (verb == "tap") tapped_.push_back(*uid);
    return {};
  }
  return std::unexpected(fmt::format(
      "unknown rc522 command '{}': try card HEX, tap HEX, remove HEX, clear, unplug or plug (UIDs of 4, 7 or "
      "10 bytes)",
      text));
}

std::vector<PeripheralEvent> SimulatedRc522Device::read_events() {
  std::vector<std::string> errors;
  if (input_fd_ >= 0 && !input_closed_) {
    input_closed_ = !run_command_lines(
        input_fd_, epoll_fd_, partial_line_, [this](std::string_view line) { return command(line); }, errors);
  }
  std::vector<PeripheralEvent> events;
  for (auto& error : errors) {
    events.push_back(
        PeripheralEvent{EventKind::status, name(), monotonic_now(), {}, {}, 0, {0, 0}, std::move(error)});
  }
  auto polled = reader_->read_events();
  // A tapped card stays in the field until a poll finds nothing new (every card there has been read).
  const bool quiet = std::none_of(polled.begin(), polled.end(), [](const PeripheralEvent& event) {
    return event.kind == EventKind::card || event.kind == EventKind::unknown_card;
  });
  events.insert(events.end(), polled.begin(), polled.end());
  if (quiet) {
    for (const auto& uid : tapped_) chip_->remove_card(uid);
    tapped_.clear();
  }
  return events;
}

}  // namespace bb::peripherals
