#include <gtest/gtest.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include "daemon/event_loop.h"
#include "daemon/systemd_notifier.h"

using namespace bb::daemon;
using namespace std::chrono_literals;

namespace {

std::unique_ptr<EventLoop> make_loop() {
  auto loop = EventLoop::create();
  EXPECT_TRUE(loop.has_value()) << (loop ? "" : loop.error());
  return std::move(*loop);
}

// Runs the loop until `done` or 2000 rounds of at most 50 ms each: a hang fails the test instead of
// blocking it, without asserting anything about time.
template <class Done>
void run_until(EventLoop& loop, Done done) {
  for (int round = 0; round < 2000 && !done(); ++round) loop.run_once(50ms);
  ASSERT_TRUE(done()) << "the loop never got there";
}

}  // namespace

TEST(EventLoop, AOneShotTimerFiresOnceAndAPeriodicOneUntilCancelled) {
  auto loop = make_loop();
  int once = 0, periodic = 0;
  ASSERT_TRUE(loop->add_timer("once", 1ms, 0ms, [&] { ++once; }));
  EventLoop::TimerId tick{};
  auto added = loop->add_timer("tick", 1ms, 1ms, [&] {
    if (++periodic == 5) loop->cancel(tick);  // a timer may cancel itself from its own callback
  });
  ASSERT_TRUE(added);
  tick = *added;
  run_until(*loop, [&] { return periodic == 5 && once == 1; });
  // Nothing more fires: the one-shot is spent and the periodic one is gone.
  for (int i = 0; i < 5; ++i) loop->run_once(5ms);
  EXPECT_EQ(once, 1);
  EXPECT_EQ(periodic, 5);
}

TEST(EventLoop, RearmingATimerMovesItAndZeroDisarmsIt) {
  auto loop = make_loop();
  int fired = 0;
  auto timer = loop->add_timer("deal", 1h, 0ms, [&] { ++fired; });
  ASSERT_TRUE(timer);
  loop->rearm(*timer, 1ms, 0ms);
  run_until(*loop, [&] { return fired == 1; });
  loop->rearm(*timer, 0ns, 0ns);
  for (int i = 0; i < 3; ++i) loop->run_once(5ms);
  EXPECT_EQ(fired, 1);
}

TEST(EventLoop, AWatchedFdCallsItsCallbackUntilUnwatched) {
  auto loop = make_loop();
  int pipe_fds[2];
  ASSERT_EQ(pipe(pipe_fds), 0);
  std::string got;
  ASSERT_TRUE(loop->watch(pipe_fds[0], "pipe", [&] {
    char buffer[16];
    const auto n = read(pipe_fds[0], buffer, sizeof buffer);
    got.append(buffer, static_cast<std::size_t>(n));
  }));
  ASSERT_EQ(write(pipe_fds[1], "abc", 3), 3);
  run_until(*loop, [&] { return got == "abc"; });
  loop->unwatch(pipe_fds[0]);
  ASSERT_EQ(write(pipe_fds[1], "d", 1), 1);
  loop->run_once(5ms);
  EXPECT_EQ(got, "abc");
  EXPECT_FALSE(loop->watch(-1, "nothing", [] {}).has_value());
  close(pipe_fds[0]);
  close(pipe_fds[1]);
}

TEST(EventLoop, AnotherThreadHandsWorkOverThroughTheEventfdInOrder) {
  auto loop = make_loop();
  std::vector<int> seen;
  std::vector<std::thread::id> ran_on;
  std::thread camera([&] {
    for (int i = 0; i < 100; ++i) {
      while (!loop->post([&, i] {
        seen.push_back(i);
        ran_on.push_back(std::this_thread::get_id());
      })) {
        std::this_thread::yield();  // the queue is full: the loop is behind
      }
    }
  });
  run_until(*loop, [&] { return seen.size() == 100; });
  camera.join();
  for (int i = 0; i < 100; ++i) EXPECT_EQ(seen[static_cast<std::size_t>(i)], i);
  for (const auto& id : ran_on) EXPECT_EQ(id, std::this_thread::get_id());
}

TEST(EventLoop, AFullQueueRefusesMoreWork) {
  auto loop = make_loop();
  std::size_t accepted = 0;
  while (loop->post([] {})) ++accepted;
  EXPECT_EQ(accepted, EventLoop::kMaxPosted);
  loop->run_once(5ms);
  EXPECT_TRUE(loop->post([] {}));
}

TEST(EventLoop, SignalsArriveAsCallbacksOnTheLoop) {
  auto loop = make_loop();
  int terms = 0, hups = 0;
  ASSERT_TRUE(loop->on_signal(SIGUSR1, [&] { ++terms; }));
  ASSERT_TRUE(loop->on_signal(SIGUSR2, [&] { ++hups; }));
  raise(SIGUSR1);           // to this thread
  kill(getpid(), SIGUSR2);  // to the process
  run_until(*loop, [&] { return terms == 1 && hups == 1; });
}

TEST(EventLoop, StopEndsRunWithItsCodeAfterTheCurrentCallback) {
  auto loop = make_loop();
  int after_stop = 0;
  ASSERT_TRUE(loop->add_timer("stop", 1ms, 0ms, [&] {
    loop->stop(3);
    ++after_stop;  // the callback in progress finishes
  }));
  EXPECT_EQ(loop->run(), 3);
  EXPECT_EQ(after_stop, 1);
}

TEST(EventLoop, TheLongestStallNamesTheCallbackThatHeldTheLoop) {
  auto loop = make_loop();
  bool slow_done = false;
  ASSERT_TRUE(loop->add_timer("quick", 1ms, 0ms, [] {}));
  ASSERT_TRUE(loop->add_timer("slow", 2ms, 0ms, [&] {
    std::this_thread::sleep_for(60ms);
    slow_done = true;
  }));
  run_until(*loop, [&] { return slow_done; });
  EXPECT_EQ(loop->longest_stall().where, "slow");
  EXPECT_GE(loop->longest_stall().longest, 60ms);
}

// Each handler's longest turn is kept by its name, posted work by the name it was posted with, so a bench can
// say which kind of work held the loop.
TEST(EventLoop, EachHandlersLongestTurnIsKeptByItsName) {
  auto loop = make_loop();
  bool posted_done = false;
  bool timer_done = false;
  ASSERT_TRUE(loop->add_timer("slow timer", 1ms, 0ms, [&] {
    std::this_thread::sleep_for(30ms);
    timer_done = true;
  }));
  ASSERT_TRUE(loop->post(
      [&] {
        std::this_thread::sleep_for(10ms);
        posted_done = true;
      },
      "a touch"));
  ASSERT_TRUE(loop->post([] {}));
  run_until(*loop, [&] { return posted_done && timer_done; });
  const auto& by_handler = loop->stalls_by_handler();
  ASSERT_TRUE(by_handler.contains("slow timer"));
  ASSERT_TRUE(by_handler.contains("a touch"));
  ASSERT_TRUE(by_handler.contains("posted work"));  // work posted without a name
  EXPECT_GE(by_handler.at("slow timer").longest, 30ms);
  EXPECT_GE(by_handler.at("a touch").longest, 10ms);
  EXPECT_EQ(loop->longest_stall().where, "slow timer");
  loop->reset_stall();
  EXPECT_TRUE(loop->stalls_by_handler().empty());
}

namespace {

// A stand-in for systemd: a unix datagram socket NOTIFY_SOCKET points at.
class FakeSystemd {
 public:
  FakeSystemd() {
    path_ = (std::filesystem::temp_directory_path() / ("bb-notify-" + std::to_string(getpid()))).string();
    std::filesystem::remove(path_);
    fd_ = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::snprintf(address.sun_path, sizeof address.sun_path, "%s", path_.c_str());
    EXPECT_EQ(bind(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
    setenv("NOTIFY_SOCKET", path_.c_str(), 1);
  }
  ~FakeSystemd() {
    unsetenv("NOTIFY_SOCKET");
    unsetenv("WATCHDOG_USEC");
    close(fd_);
    std::filesystem::remove(path_);
  }
  int fd() const { return fd_; }
  std::vector<std::string> received() {
    std::vector<std::string> messages;
    char buffer[512];
    for (ssize_t n; (n = recv(fd_, buffer, sizeof buffer, 0)) > 0;)
      messages.emplace_back(buffer, static_cast<std::size_t>(n));
    return messages;
  }

 private:
  std::string path_;
  int fd_ = -1;
};

}  // namespace

TEST(SystemdNotifier, WithoutNotifySocketItIsSilentAndHasNoWatchdog) {
  unsetenv("NOTIFY_SOCKET");
  SystemdNotifier notifier;
  EXPECT_FALSE(notifier.enabled());
  EXPECT_EQ(notifier.watchdog_period().count(), 0);
  notifier.ready("up");  // nothing to send to; must not fail
  auto loop = make_loop();
  ASSERT_TRUE(keep_watchdog_fed(*loop, notifier));
  EXPECT_EQ(loop->watched(), 0u);
}

TEST(SystemdNotifier, SendsReadyAndStatusDatagrams) {
  FakeSystemd systemd;
  unsetenv("WATCHDOG_USEC");
  SystemdNotifier notifier;
  ASSERT_TRUE(notifier.enabled());
  notifier.ready("table ready: game 3 resumed");
  notifier.status("playing");
  notifier.stopping("saving");
  EXPECT_EQ(systemd.received(), (std::vector<std::string>{"READY=1\nSTATUS=table ready: game 3 resumed",
                                                          "STATUS=playing", "STOPPING=1\nSTATUS=saving"}));
}

TEST(SystemdNotifier, TheLoopPingsTheWatchdogAtHalfItsInterval) {
  FakeSystemd systemd;
  setenv("WATCHDOG_USEC", "20000", 1);  // 20 ms: pings every 10 ms
  SystemdNotifier notifier;
  EXPECT_EQ(notifier.watchdog_period(), 10ms);
  auto loop = make_loop();
  ASSERT_TRUE(keep_watchdog_fed(*loop, notifier));
  int pings = 0;
  ASSERT_TRUE(loop->watch(systemd.fd(), "fake systemd", [&] {
    for (const auto& message : systemd.received()) pings += message == "WATCHDOG=1";
  }));
  run_until(*loop, [&] { return pings >= 3; });
}
