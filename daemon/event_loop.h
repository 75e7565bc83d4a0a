#pragma once
#include <chrono>
#include <cstdint>
#include <deque>
#include <expected>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace bb::daemon {

// The service's one event loop: an epoll set of fds, each with the callback that handles it.
//
// Owns: the epoll fd, one timerfd per timer, the signalfd, and the eventfd + queue other threads post to.
// Must never: block in a callback (every callback runs on the loop thread, one at a time; a callback that
// takes longer than a frame shows up in longest_stall()), touch a watched fd after unwatch(), or let an
// exception out of run() unreported.
// Thread: everything on the thread that calls run(), except post() and stop(), which any thread may call.
class EventLoop {
 public:
  using Callback = std::function<void()>;
  using Clock = std::chrono::steady_clock;

  // A timer's handle; 0 is never a timer.
  struct TimerId {
    std::uint64_t value = 0;
    friend bool operator==(TimerId, TimerId) = default;
    friend auto operator<=>(TimerId, TimerId) = default;
  };

  // The longest any one callback held the loop, and which one it was. `longest_own` is the largest of the
  // same times less what the callback spent waiting for a CPU (the loop thread's run-queue wait, from
  // /proc/thread-self/schedstat): what its own work and its disk waits cost, without the other processes of
  // a loaded machine preempting it. Where the kernel does not count run-queue waits it equals `longest`.
  struct Stall {
    std::chrono::nanoseconds longest{0};
    std::string where;
    std::chrono::nanoseconds longest_own{0};
    std::string where_own;
  };

  // The error says which system call failed and why.
  static std::expected<std::unique_ptr<EventLoop>, std::string> create();
  ~EventLoop();
  EventLoop(const EventLoop&) = delete;
  EventLoop& operator=(const EventLoop&) = delete;

  // Calls `on_readable` whenever `fd` is readable (level-triggered: the callback must drain it or unwatch).
  // `name` appears in stall reports. The loop does not own `fd`.
  std::expected<void, std::string> watch(int fd, std::string name, Callback on_readable);
  void unwatch(int fd);

  // A timer: first after `first`, then every `period` (zero: once). The callback may cancel or re-arm it.
  std::expected<TimerId, std::string> add_timer(std::string name, std::chrono::nanoseconds first,
                                                std::chrono::nanoseconds period, Callback on_fire);
  // Arms an existing timer again (a zero `first` disarms it without forgetting it).
  void rearm(TimerId timer, std::chrono::nanoseconds first, std::chrono::nanoseconds period);
  void cancel(TimerId timer);

  // Delivers `signo` through the loop instead of an asynchronous handler: the signal is blocked in this
  // thread (call before starting other threads, so they inherit the mask) and `on_signal` runs on the loop.
  std::expected<void, std::string> on_signal(int signo, Callback on_signal);

  // Any thread: runs `work` on the loop thread soon, in the order posted. Returns false when the queue
  // already holds `kMaxPosted` items (the poster drops or retries; the loop is far behind). `name` says in
  // stall reports whose work it was (the ledger's sync, the camera's news, a touch, ...).
  bool post(Callback work, std::string name = "posted work");
  static constexpr std::size_t kMaxPosted = 256;

  // Runs until stop(); returns the code stop() was given.
  int run();
  // Runs what is ready now, waiting at most `timeout` for something; returns how many callbacks ran.
  // For tests and for callers that interleave the loop with their own work.
  int run_once(std::chrono::milliseconds timeout);
  // Any thread: run() returns `exit_code` after the callback in progress.
  void stop(int exit_code = 0);
  bool stopping() const;

  Stall longest_stall() const { return longest_; }
  // The same per handler: each timer, watched fd, posted work and signal by the name it was given, so a
  // bench can say which kind of work held the loop longest.
  const std::map<std::string, Stall>& stalls_by_handler() const { return by_handler_; }
  void reset_stall() {
    longest_ = {};
    by_handler_.clear();
  }
  std::size_t watched() const { return handlers_.size(); }

 private:
  EventLoop() = default;
  void dispatch(int fd);
  void drain_posted();
  void drain_signals();
  // When a callback started: the clock and the loop thread's run-queue wait so far.
  struct Mark {
    Clock::time_point at;
    std::int64_t run_queue_ns = 0;
  };
  Mark mark();
  void measure(const Mark& started, const std::string& where);

  struct Handler {
    std::string name;
    Callback callback;
    std::uint64_t generation = 0;
  };
  struct Timer {
    int fd = -1;
    std::string name;
    Callback callback;
  };

  int epoll_fd_ = -1;
  int event_fd_ = -1;
  int signal_fd_ = -1;
  std::map<int, Handler> handlers_;
  std::map<TimerId, Timer> timers_;
  std::map<int, Callback> signals_;
  std::uint64_t next_timer_ = 1;
  std::uint64_t generation_ = 0;
  mutable std::mutex posted_mutex_;
  struct Posted {
    Callback work;
    std::string name;
  };
  std::deque<Posted> posted_;
  bool stop_requested_ = false;  // guarded by posted_mutex_
  int exit_code_ = 0;            // guarded by posted_mutex_
  Stall longest_;
  std::map<std::string, Stall> by_handler_;
  int schedstat_fd_ = -1;  // the loop thread's /proc/thread-self/schedstat, opened by run(); -1: none
};

}  // namespace bb::daemon
