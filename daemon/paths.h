#pragma once
#include <string>
#include <vector>

namespace bb::daemon {
// Where editions are looked up, first match wins: --editions, $BOARDBANK_EDITIONS, the installed share
// directory beside the binary, /usr/share/boardbank/editions, then the source tree the binary was built from.
std::vector<std::string> edition_dirs(const std::string& from_option = {});
}  // namespace bb::daemon
