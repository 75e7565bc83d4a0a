#pragma once
#include <chrono>
#include <expected>
#include <string>

namespace bb::daemon {

// Tells systemd how the service is doing (sd_notify): READY=1 once the table is up, STATUS= lines, and
// WATCHDOG=1 pings. Without NOTIFY_SOCKET (run by hand, in tests) every call does nothing.
// Owns nothing but what it read from the environment. Must never block: a notification is one datagram.
// Thread: the loop thread.
class SystemdNotifier {
 public:
  // Reads NOTIFY_SOCKET and WATCHDOG_USEC (and WATCHDOG_PID) from the environment.
  SystemdNotifier();

  bool enabled() const { return enabled_; }
  // Zero when systemd watches no watchdog for this process; otherwise half of WATCHDOG_USEC, the period at
  // which the loop pings.
  std::chrono::microseconds watchdog_period() const { return watchdog_period_; }

  void ready(const std::string& status);
  void status(const std::string& status);
  void watchdog();
  void stopping(const std::string& status);
  void reloading();

 private:
  void send(const std::string& state);
  bool enabled_ = false;
  std::chrono::microseconds watchdog_period_{0};
};

}  // namespace bb::daemon

namespace bb::daemon {
class EventLoop;
// When systemd watches this process, pings it from a loop timer at half its WATCHDOG_USEC: a loop that
// hangs stops pinging and systemd restarts the service. Does nothing when the watchdog is off.
std::expected<void, std::string> keep_watchdog_fed(EventLoop& loop, SystemdNotifier& notifier);
}  // namespace bb::daemon
