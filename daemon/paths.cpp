#include "daemon/paths.h"

#include <cstdlib>
#include <filesystem>

namespace bb::daemon {

std::vector<std::string> edition_dirs(const std::string& from_option) {
  namespace fs = std::filesystem;
  std::vector<std::string> dirs;
  if (!from_option.empty()) dirs.push_back(from_option);
  if (const char* env = std::getenv("BOARDBANK_EDITIONS"); env && *env) dirs.emplace_back(env);
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) dirs.push_back((exe.parent_path().parent_path() / "share" / "boardbank" / "editions").string());
  dirs.emplace_back("/usr/share/boardbank/editions");
  dirs.emplace_back(BOARDBANK_EDITIONS_DIR);
  return dirs;
}

}  // namespace bb::daemon
