#pragma once
#include <expected>
#include <string>
#include <vector>

namespace bb::daemon {
// Where editions are looked up, first match wins: --editions, $BOARDBANK_EDITIONS, the installed share
// directory beside the binary, /usr/share/boardbank/editions, then the source tree the binary was built from.
// $BOARDBANK_EDITIONS set to something that is not a folder is refused (the message says what to do): it was
// named on purpose, and passing over it would play the installed editions instead without a word. The option
// is checked by the command line (CLI11's ExistingDirectory) before this is called. Any thread; reads the
// environment and the file system only.
std::expected<std::vector<std::string>, std::string> edition_dirs(const std::string& from_option = {});
}  // namespace bb::daemon
