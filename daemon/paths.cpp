#include "daemon/paths.h"

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>

namespace bb::daemon {

std::expected<std::vector<std::string>, std::string> edition_dirs(const std::string& from_option) {
  namespace fs = std::filesystem;
  std::vector<std::string> dirs;
  if (!from_option.empty()) dirs.push_back(from_option);
  if (const char* env = std::getenv("BOARDBANK_EDITIONS"); env && *env) {
    std::error_code ec;
    if (!fs::is_directory(env, ec))
      return std::unexpected(
          fmt::format("BOARDBANK_EDITIONS is set to {}, which is not a folder: point it at the folder "
                      "holding the edition "
                      "files, or unset it to use the installed editions",
                      env));
    dirs.emplace_back(env);
  }
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) dirs.push_back((exe.parent_path().parent_path() / "share" / "boardbank" / "editions").string());
  dirs.emplace_back("/usr/share/boardbank/editions");
  dirs.emplace_back(BOARDBANK_EDITIONS_DIR);
  return dirs;
}

}  // namespace bb::daemon
