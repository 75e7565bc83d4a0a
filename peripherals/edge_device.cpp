#include "peripherals/edge_device.h"

#include <fmt/format.h>
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include <cassert>
#include <cerrno>
#include <cstring>

#include "peripherals/epoll_watch.h"

namespace bb::peripherals {

Nanoseconds monotonic_now() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<Nanoseconds>(now.tv_sec) * kSecond + now.tv_nsec;
}

EdgeDevice::EdgeDevice(std::string name, std::unique_ptr<EdgeSource> source,
                       std::unique_ptr<EdgeDecoder> decoder, CardRegistryCheck is_registered)
    : name_(std::move(name)),
      source_(std::move(source)),
      decoder_(std::move(decoder)),
      is_registered_(std::move(is_registered)) {}

EdgeDevice::~EdgeDevice() {
  if (timer_fd_ >= 0) close(timer_fd_);
  if (epoll_fd_ >= 0) close(epoll_fd_);
}

std::expected<std::unique_ptr<EdgeDevice>, std::string> EdgeDevice::create(
    std::string name, std::unique_ptr<EdgeSource> source, std::unique_ptr<EdgeDecoder> decoder,
    CardRegistryCheck is_registered) {
  assert(source && decoder);
  std::unique_ptr<EdgeDevice> device(
      new EdgeDevice(std::move(name), std::move(source), std::move(decoder), std::move(is_registered)));
  device->epoll_fd_ = epoll_create1(EPOLL_CLOEXEC);
  device->timer_fd_ = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
  if (device->epoll_fd_ < 0 || device->timer_fd_ < 0) {
    return std::unexpected(fmt::format("cannot create the device's event fds: {}", std::strerror(errno)));
  }
  if (auto watching = watch_readable(device->epoll_fd_, {device->source_->fd(), device->timer_fd_},
                                     "the device's source");
      !watching)
    return std::unexpected(watching.error());
  const auto levels = device->source_->initial_levels();
  for (std::size_t line = 0; line < levels.size() && static_cast<int>(line) < device->decoder_->line_count();
       ++line) {
    if (levels[line]) device->decoder_->set_initial_level(static_cast<int>(line), *levels[line]);
  }
  if (device->source_->live()) {
    std::vector<PeripheralEvent> ignored;  // nothing can be due before the first edge
    device->decoder_->advance(monotonic_now() - kLateEdgeMargin, ignored);
    device->arm_timer();
  }
  return device;
}

void EdgeDevice::arm_timer() {
  itimerspec when{};
  if (const auto deadline = decoder_->next_deadline()) {
    // An absolute time of 0 would disarm the timer; a deadline already past fires at once.
    const Nanoseconds at = std::max<Nanoseconds>(*deadline + kLateEdgeMargin, 1);
    when.it_value.tv_sec = at / kSecond;
    when.it_value.tv_nsec = at % kSecond;
  }
  timerfd_settime(timer_fd_, TFD_TIMER_ABSTIME, &when, nullptr);
}

std::vector<PeripheralEvent> EdgeDevice::read_events() {
  std::vector<PeripheralEvent> events;
  std::uint64_t expirations = 0;
  while (read(timer_fd_, &expirations, sizeof expirations) > 0) {
  }
  if (finished_) return events;
  // The clock is read before the edges: every edge stamped up to this moment is in what the read returns, so
  // the decoder is never told time passed an edge it has not been given. (Read after, a loaded machine that
  // preempted this thread for 25 ms between the read and the clock cut a Wiegand frame short: "25 bits".)
  const Nanoseconds read_at = monotonic_now();
  auto edges = source_->read_edges();
  if (!edges) {
    PeripheralEvent problem;
    problem.kind = EventKind::status;
    problem.device = name_;
    problem.ts_ns = source_->live() ? monotonic_now() : 0;
    problem.why = edges.error();
    events.push_back(std::move(problem));
  } else {
    for (const Edge& edge : *edges) {
      if (edge.line < 0 || edge.line >= decoder_->line_count())
        continue;  // a source bug; never crash the table
      decoder_->feed(edge, events);
    }
    edges_decoded_ += edges->size();
  }
  if (source_->live()) {
    decoder_->advance(read_at - kLateEdgeMargin, events);
    arm_timer();
  } else if (source_->exhausted()) {
    decoder_->finish(source_->end_time(), events);
    finished_ = true;
  }
  for (auto& event : events) {
    if (event.device.empty()) event.device = name_;
  }
  classify_cards(events, is_registered_);
  return events;
}

std::vector<std::string> EdgeDevice::invariant_violations() const {
  auto problems = decoder_->invariant_violations();
  if (epoll_fd_ < 0 || timer_fd_ < 0) problems.push_back("device fds not open");
  return problems;
}

}  // namespace bb::peripherals
