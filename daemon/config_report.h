#pragma once
#include <string>
#include <vector>

#include "daemon/config.h"

namespace bb::daemon {

// What a well-formed configuration will do, in words, and what on this machine looks wrong for it (a
// missing editions folder, a trace file that is not there, no PIN for the banker). Warnings never stop the
// service: a missing device falls back at the table. Reads the file system; thread: any.
struct ConfigReport {
  std::vector<std::string> lines;
  std::vector<std::string> warnings;
};
ConfigReport describe_config(const Config& config);

}  // namespace bb::daemon
