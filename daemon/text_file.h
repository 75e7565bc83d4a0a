#pragma once

#include <cstddef>
#include <expected>
#include <string>
#include <string_view>

namespace bb::daemon {

// Why a file named from outside was refused.
struct TextFileError {
  enum class Kind { missing, folder, unreadable, too_large };
  Kind kind;
  std::string message;  // names the path and says what to do
};
// The first checks of `read_text_file` alone (the path exists and is no folder), for a command that reads
// the file its own way but must refuse it before it changes anything else (`replay --db` opens its ledger).
std::expected<void, TextFileError> check_file_path(const std::string& path, std::string_view what);

// Reads the whole of a file named from outside (a command-line argument, the configuration) for the
// `boardbank` commands and the service's start-up. Refuses, in words that say what to do:
// - a path that does not exist, or that cannot be opened;
// - a folder: std::ifstream opens a folder on Linux and reads it as empty, so a folder given for the
//   configuration was checked as an empty one and called good, and a folder given as a moves file rendered
//   a game of no moves;
// - more than `max_bytes`: an endless device (/dev/zero) was read until the memory ran out.
// A pipe or a device is read as it comes (`<(...)`, /dev/stdin), in bounded pieces. Owns nothing and keeps
// nothing; any thread may call it.
//
// `what` names the file in the messages: "the game script", "the configuration file", ...
std::expected<std::string, TextFileError> read_text_file(const std::string& path, std::string_view what,
                                                         std::size_t max_bytes);

// Bounds for the files the commands read: far above any real one (a long game's script is a few hundred
// kilobytes), far below what a Pi's memory holds.
inline constexpr std::size_t kMaxScriptFileBytes = 64u << 20;
inline constexpr std::size_t kMaxConfigFileBytes = 1u << 20;

}  // namespace bb::daemon
