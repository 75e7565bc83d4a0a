#include "daemon/text_file.h"

#include <fmt/format.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <system_error>
#include <vector>

namespace bb::daemon {

std::expected<void, TextFileError> check_file_path(const std::string& path, std::string_view what) {
  namespace fs = std::filesystem;
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (status.type() == fs::file_type::not_found)
    return std::unexpected(TextFileError{TextFileError::Kind::missing,
                                         fmt::format("{} does not exist: check the path to {}", path, what)});
  if (status.type() == fs::file_type::directory)
    return std::unexpected(
        TextFileError{TextFileError::Kind::folder,
                      fmt::format("{} is a folder, not a file: give the path of {}", path, what)});
  return {};
}

std::expected<std::string, TextFileError> read_text_file(const std::string& path, std::string_view what,
                                                         std::size_t max_bytes) {
  if (auto checked = check_file_path(path, what); !checked) return std::unexpected(checked.error());
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return std::unexpected(
        TextFileError{TextFileError::Kind::unreadable,
                      fmt::format("cannot read {} ({}): check that you may read {}", path,
                                  std::error_code(errno, std::generic_category()).message(), what)});
  // Read in bounded pieces: a pipe or a device has no size to check beforehand.
  std::string text;
  std::vector<char> chunk(1u << 16);
  while (in.read(chunk.data(), static_cast<std::streamsize>(chunk.size())) || in.gcount() > 0) {
    text.append(chunk.data(), static_cast<std::size_t>(in.gcount()));
    if (text.size() > max_bytes)
      return std::unexpected(TextFileError{
          TextFileError::Kind::too_large, fmt::format("{} is larger than {} KiB, more than {} would ever be: "
                                                      "is it the right file, or an endless device?",
                                                      path, max_bytes >> 10, what)});
  }
  if (in.bad())
    return std::unexpected(
        TextFileError{TextFileError::Kind::unreadable,
                      fmt::format("could not read all of {}: read it again or copy it", path)});
  return text;
}

}  // namespace bb::daemon
