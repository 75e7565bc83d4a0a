#include "daemon/event_loop.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cassert>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace bb::daemon {

namespace {

std::string system_error(const char* what) { return fmt::format("{}: {}", what, std::strerror(errno)); }

timespec to_timespec(std::chrono::nanoseconds duration) {
  const auto ns = duration.count();
  return timespec{static_cast<time_t>(ns / 1'000'000'000), static_cast<long>(ns % 1'000'000'000)};
}

void arm(int fd, std::chrono::nanoseconds first, std::chrono::nanoseconds period) {
  // A zero `it_value` disarms; a positive one below a nanosecond cannot happen with nanoseconds.
  const itimerspec spec{to_timespec(period), to_timespec(first)};
  [[maybe_unused]] const int armed = timerfd_settime(fd, 0, &spec, nullptr);
  assert(armed == 0);
}

}  // namespace

std::expected<std::unique_ptr<EventLoop>, std::string> EventLoop::create() {
  std::unique_ptr<EventLoop> loop(new EventLoop());
  loop->epoll_fd_ = epoll_create1(EPOLL_CLOEXEC);
  if (loop->epoll_fd_ < 0) return std::unexpected(system_error("cannot create the event loop (epoll)"));
  loop->event_fd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (loop->event_fd_ < 0) return std::unexpected(system_error("cannot create the loop's wake-up eventfd"));
  epoll_event event{};
  event.events = EPOLLIN;
  event.data.fd = loop->event_fd_;
  if (epoll_ctl(loop->epoll_fd_, EPOLL_CTL_ADD, loop->event_fd_, &event) != 0)
    return std::unexpected(system_error("cannot watch the loop's eventfd"));
  return loop;
}

EventLoop::~EventLoop() {
  for (auto& [id, timer] : timers_) close(timer.fd);
  if (signal_fd_ >= 0) close(signal_fd_);
  if (event_fd_ >= 0) close(event_fd_);
  if (epoll_fd_ >= 0) close(epoll_fd_);
  if (schedstat_fd_ >= 0) close(schedstat_fd_);
}

std::expected<void, std::string> EventLoop::watch(int fd, std::string name, Callback on_readable) {
  assert(on_readable);
  if (fd < 0) return std::unexpected(fmt::format("{} has no fd to watch", name));
  epoll_event event{};
  event.events = EPOLLIN;
  event.data.fd = fd;
  if (epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &event) != 0)
    return std::unexpected(system_error(fmt::format("cannot watch {}", name).c_str()));
  handlers_[fd] = Handler{std::move(name), std::move(on_readable), ++generation_};
  return {};
}

void EventLoop::unwatch(int fd) {
  if (handlers_.erase(fd) == 0) return;
  epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, fd, nullptr);
}

std::expected<EventLoop::TimerId, std::string> EventLoop::add_timer(std::string name,
                                                                    std::chrono::nanoseconds first,
                                                                    std::chrono::nanoseconds period,
                                                                    Callback on_fire) {
  const int fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
  if (fd < 0) return std::unexpected(system_error(fmt::format("cannot create the {} timer", name).c_str()));
  const TimerId id{next_timer_++};
  auto callback = [this, id, fd] {
    std::uint64_t expirations = 0;
    if (read(fd, &expirations, sizeof expirations) != sizeof expirations) return;  // re-armed meanwhile
    auto found = timers_.find(id);
    if (found == timers_.end()) return;
    auto fire = found->second.callback;  // a copy: the callback may cancel its own timer
    fire();
  };
  if (auto watched = watch(fd, name, std::move(callback)); !watched) {
    close(fd);
    return std::unexpected(watched.error());
  }
  timers_[id] = Timer{fd, std::move(name), std::move(on_fire)};
  arm(fd, first, period);
  return id;
}

void EventLoop::rearm(TimerId timer, std::chrono::nanoseconds first, std::chrono::nanoseconds period) {
  auto found = timers_.find(timer);
  if (found == timers_.end()) return;
  std::uint64_t stale = 0;
  [[maybe_unused]] const auto drained = read(found->second.fd, &stale, sizeof stale);
  arm(found->second.fd, first, period);
}

void EventLoop::cancel(TimerId timer) {
  auto found = timers_.find(timer);
  if (found == timers_.end()) return;
  unwatch(found->second.fd);
  close(found->second.fd);
  timers_.erase(found);
}

std::expected<void, std::string> EventLoop::on_signal(int signo, Callback on_signal) {
  signals_[signo] = std::move(on_signal);
  sigset_t mask;
  sigemptyset(&mask);
  for (const auto& [number, callback] : signals_) sigaddset(&mask, number);
  if (pthread_sigmask(SIG_BLOCK, &mask, nullptr) != 0)
    return std::unexpected(fmt::format("cannot block signal {}", signo));
  const bool fresh = signal_fd_ < 0;
  signal_fd_ = signalfd(signal_fd_, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
  if (signal_fd_ < 0) return std::unexpected(system_error("cannot create the signalfd"));
  if (fresh) {
    epoll_event event{};
    event.events = EPOLLIN;
    event.data.fd = signal_fd_;
    if (epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, signal_fd_, &event) != 0)
      return std::unexpected(system_error("cannot watch the signalfd"));
  }
  return {};
}

bool EventLoop::post(Callback work, std::string name) {
  {
    std::lock_guard lock(posted_mutex_);
    if (posted_.size() >= kMaxPosted) return false;
    posted_.push_back(Posted{std::move(work), std::move(name)});
  }
  const std::uint64_t one = 1;
  [[maybe_unused]] const auto written = write(event_fd_, &one, sizeof one);
  return true;
}

void EventLoop::stop(int exit_code) {
  {
    std::lock_guard lock(posted_mutex_);
    if (!stop_requested_) exit_code_ = exit_code;
    stop_requested_ = true;
  }
  const std::uint64_t one = 1;
  [[maybe_unused]] const auto written = write(event_fd_, &one, sizeof one);
}

bool EventLoop::stopping() const {
  std::lock_guard lock(posted_mutex_);
  return stop_requested_;
}

EventLoop::Mark EventLoop::mark() {
  Mark m{Clock::now(), 0};
  if (schedstat_fd_ < 0) return m;
  // "<ns on a CPU> <ns waiting on a run queue> <timeslices>"
  std::array<char, 96> text{};
  const auto got = pread(schedstat_fd_, text.data(), text.size() - 1, 0);
  if (got <= 0) return m;
  const char* space = std::strchr(text.data(), ' ');
  if (space) m.run_queue_ns = std::strtoll(space + 1, nullptr, 10);
  return m;
}

void EventLoop::measure(const Mark& started, const std::string& where) {
  const Mark ended = mark();
  const auto took = std::chrono::duration_cast<std::chrono::nanoseconds>(ended.at - started.at);
  const auto own =
      took - std::chrono::nanoseconds(std::max<std::int64_t>(0, ended.run_queue_ns - started.run_queue_ns));
  for (Stall* stall : {&longest_, &by_handler_[where]}) {
    if (took > stall->longest) {
      stall->longest = took;
      stall->where = where;
    }
    if (own > stall->longest_own) {
      stall->longest_own = own;
      stall->where_own = where;
    }
  }
}

void EventLoop::drain_posted() {
  std::uint64_t count = 0;
  [[maybe_unused]] const auto drained = read(event_fd_, &count, sizeof count);
  std::deque<Posted> work;
  {
    std::lock_guard lock(posted_mutex_);
    work.swap(posted_);
  }
  for (auto& item : work) {
    const auto started = mark();
    item.work();
    measure(started, item.name);
  }
}

void EventLoop::drain_signals() {
  signalfd_siginfo info{};
  while (read(signal_fd_, &info, sizeof info) == sizeof info) {
    auto found = signals_.find(static_cast<int>(info.ssi_signo));
    if (found == signals_.end()) continue;
    const auto started = mark();
    auto callback = found->second;
    callback();
    measure(started, fmt::format("signal {}", info.ssi_signo));
  }
}

void EventLoop::dispatch(int fd) {
  if (fd == event_fd_) return drain_posted();
  if (fd == signal_fd_) return drain_signals();
  auto found = handlers_.find(fd);
  if (found == handlers_.end()) return;          // unwatched by an earlier callback of this round
  const auto callback = found->second.callback;  // a copy: the callback may unwatch itself
  const std::string name = found->second.name;
  const auto started = mark();
  callback();
  measure(started, name);
}

int EventLoop::run_once(std::chrono::milliseconds timeout) {
  std::array<epoll_event, 32> events{};
  const int ready = epoll_wait(epoll_fd_, events.data(), static_cast<int>(events.size()),
                               static_cast<int>(timeout.count()));
  if (ready < 0) return 0;  // EINTR: a signal not routed through the loop (a debugger); go round again
  // Handlers registered during this round are not in `events`; an fd unwatched and reused in this round
  // would be, so a generation check guards the callbacks of fds whose handler changed meanwhile.
  std::vector<std::pair<int, std::uint64_t>> round;
  for (int i = 0; i < ready; ++i) {
    const int fd = events[static_cast<std::size_t>(i)].data.fd;
    auto found = handlers_.find(fd);
    round.emplace_back(fd, found == handlers_.end() ? 0 : found->second.generation);
  }
  int ran = 0;
  for (const auto& [fd, generation] : round) {
    if (fd != event_fd_ && fd != signal_fd_) {
      auto found = handlers_.find(fd);
      if (found == handlers_.end() || found->second.generation != generation) continue;
    }
    dispatch(fd);
    ++ran;
    if (stopping()) break;
  }
  return ran;
}

int EventLoop::run() {
  if (schedstat_fd_ < 0) schedstat_fd_ = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
  while (!stopping()) run_once(std::chrono::milliseconds(-1));
  std::lock_guard lock(posted_mutex_);
  return exit_code_;
}

}  // namespace bb::daemon
