#include "peripherals/rc522_device.h"

#include <fmt/format.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <cassert>
#include <cerrno>
#include <cstring>

#include "peripherals/edge_device.h"

namespace bb::peripherals {

Rc522Device::Rc522Device(std::string name, std::unique_ptr<SpiTransport> spi,
                         std::unique_ptr<GpioOutput> reset, CardRegistryCheck is_registered,
                         Mfrc522::Sleep sleep, Clock clock)
    : name_(std::move(name)),
      spi_(std::move(spi)),
      reset_(std::move(reset)),
      reader_(*spi_, reset_.get(), std::move(sleep)),
      is_registered_(std::move(is_registered)),
      clock_(clock ? std::move(clock) : Clock(monotonic_now)) {}

Rc522Device::~Rc522Device() {
  if (timer_fd_ >= 0) close(timer_fd_);
}

std::expected<std::unique_ptr<Rc522Device>, std::string> Rc522Device::create(
    std::string name, std::unique_ptr<SpiTransport> spi, std::unique_ptr<GpioOutput> reset,
    Nanoseconds poll_interval, CardRegistryCheck is_registered, Mfrc522::Sleep sleep, Clock clock) {
  assert(spi && poll_interval > 0);
  std::unique_ptr<Rc522Device> device(new Rc522Device(std::move(name), std::move(spi), std::move(reset),
                                                      std::move(is_registered), std::move(sleep),
                                                      std::move(clock)));
  if (auto ready = device->reader_.init(); !ready) return std::unexpected(ready.error());
  device->timer_fd_ = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
  device->poll_interval_ = poll_interval;
  const timespec every{poll_interval / kSecond, poll_interval % kSecond};
  const itimerspec schedule{every, every};
  if (device->timer_fd_ < 0 || timerfd_settime(device->timer_fd_, 0, &schedule, nullptr) != 0) {
    return std::unexpected(fmt::format("cannot create the reader's poll timer: {}", std::strerror(errno)));
  }
  return device;
}

void Rc522Device::arm(Nanoseconds first, Nanoseconds period) {
  const itimerspec schedule{{period / kSecond, period % kSecond}, {first / kSecond, first % kSecond}};
  [[maybe_unused]] const int armed = timerfd_settime(timer_fd_, 0, &schedule, nullptr);
}

std::vector<PeripheralEvent> Rc522Device::read_events() {
  std::vector<PeripheralEvent> events;
  std::uint64_t expirations = 0;
  [[maybe_unused]] const auto drained = read(timer_fd_, &expirations, sizeof expirations);
  const Nanoseconds now = clock_();  // before the transfers: a replay's clock is the next transfer's time
  auto step = reader_.step();
  const bool pending = step && step->kind == Mfrc522::Step::Kind::pending;
  if (pending != checking_) {
    // Waiting for an answer: look again soon. Done: back to the poll interval.
    checking_ = pending;
    if (pending)
      arm(kAnswerCheck, kAnswerCheck);
    else
      arm(poll_interval_, poll_interval_);
  }
  if (pending) return events;
  std::expected<std::optional<Mfrc522::Card>, std::string> card =
      step ? std::expected<std::optional<Mfrc522::Card>, std::string>(std::move(step->card))
           : std::unexpected(step.error());
  if (!card) {
    if (card.error() != last_error_) {
      last_error_ = card.error();
      events.push_back(PeripheralEvent{EventKind::status, name_, now, {}, {}, 0, {0, 0}, card.error()});
    }
    return events;
  }
  if (!last_error_.empty()) {
    last_error_.clear();
    events.push_back(PeripheralEvent{EventKind::status, name_, now, {}, {}, 0, {0, 0}, "card reader back"});
  }
  if (!*card) {
    // Nothing answered: a card read before has left the field, or lies there halted (quiet until it leaves,
    // so it is never read twice). Empty long enough, the next tap of that card is a new one.
    dedup_.field_empty(now);
    return events;
  }
  const std::string uid = uid_hex((*card)->uid);
  if (!dedup_.is_new_tap(uid, now)) return events;
  PeripheralEvent tap;
  tap.kind = EventKind::card;
  tap.device = name_;
  tap.ts_ns = now;
  tap.id = fmt::format("rc522:{}:{}", name_, now);
  tap.uid = uid;
  tap.bits = static_cast<int>((*card)->uid.size() * 8);
  events.push_back(std::move(tap));
  classify_cards(events, is_registered_);
  return events;
}

std::vector<std::string> Rc522Device::invariant_violations() const {
  if (timer_fd_ < 0) return {"the reader's poll timer is not open"};
  return {};
}

}  // namespace bb::peripherals
