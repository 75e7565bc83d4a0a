#pragma once
// The machine's load, printed by the daemon benches beside their figures: on a machine shared with other
// work, a stall is as much the others' as the loop's. Header-only; any thread.

#include <fmt/format.h>

#include <fstream>
#include <string>
#include <thread>

namespace bb::bench {

// /proc/loadavg's 1, 5 and 15 minute averages and the number of CPUs, as one phrase.
inline std::string machine_load() {
  std::ifstream in("/proc/loadavg");
  double one = 0, five = 0, fifteen = 0;
  if (!(in >> one >> five >> fifteen)) return "machine load unknown";
  return fmt::format("machine load {:.2f} {:.2f} {:.2f} on {} CPUs", one, five, fifteen,
                     std::thread::hardware_concurrency());
}

}  // namespace bb::bench
