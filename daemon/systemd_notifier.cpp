#include "daemon/systemd_notifier.h"

#include <systemd/sd-daemon.h>

#include <cstdlib>

namespace bb::daemon {

SystemdNotifier::SystemdNotifier() {
  const char* socket = std::getenv("NOTIFY_SOCKET");
  enabled_ = socket != nullptr && socket[0] != '\0';
  std::uint64_t usec = 0;
  // > 0 when the watchdog is on for this process (WATCHDOG_PID, if set, must be ours).
  if (enabled_ && sd_watchdog_enabled(0, &usec) > 0 && usec > 0)
    watchdog_period_ = std::chrono::microseconds(usec / 2);
}

void SystemdNotifier::send(const std::string& state) {
  if (!enabled_) return;
  sd_notify(0, state.c_str());
}

void SystemdNotifier::ready(const std::string& status) { send("READY=1\nSTATUS=" + status); }
void SystemdNotifier::status(const std::string& status) { send("STATUS=" + status); }
void SystemdNotifier::watchdog() { send("WATCHDOG=1"); }
void SystemdNotifier::stopping(const std::string& status) { send("STOPPING=1\nSTATUS=" + status); }
void SystemdNotifier::reloading() { send("RELOADING=1"); }

}  // namespace bb::daemon

#include "daemon/event_loop.h"

namespace bb::daemon {

std::expected<void, std::string> keep_watchdog_fed(EventLoop& loop, SystemdNotifier& notifier) {
  const auto period = notifier.watchdog_period();
  if (period.count() == 0) return {};
  auto timer = loop.add_timer("watchdog", period, period, [&notifier] { notifier.watchdog(); });
  if (!timer) return std::unexpected(timer.error());
  return {};
}

}  // namespace bb::daemon
