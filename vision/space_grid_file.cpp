#include "vision/space_grid_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace bb::vision {

namespace {

using Json = nlohmann::ordered_json;

// The file's JSON object; an empty object when there is no file yet.
std::expected<Json, std::string> read_object(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return Json::object();
  std::ifstream in(path);
  if (!in) return std::unexpected(fmt::format("cannot read {}; check its permissions", path));
  std::stringstream text;
  text << in.rdbuf();
  try {
    Json j = Json::parse(text.str());
    if (!j.is_object())
      return std::unexpected(
          fmt::format("{} is not a boardbank set-up file (its JSON is not an object); move it away and "
                      "run the set-up again",
                      path));
    return j;
  } catch (const std::exception& e) {
    return std::unexpected(fmt::format(
        "{} is not valid JSON ({}); fix it, or move it away and run the set-up again", path, e.what()));
  }
}

std::string errno_text() { return std::strerror(errno); }

// Writes `text` to a temporary file in the same folder, flushes it to the storage, and renames it over
// `path`; then flushes the folder so that the rename itself survives a power cut.
std::expected<void, std::string> replace_file(const std::string& path, const std::string& text) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
  const std::string temp = (folder / (target.filename().string() + ".XXXXXX")).string();
  std::string name = temp;
  const int fd = ::mkstemp(name.data());
  if (fd < 0)
    return std::unexpected(fmt::format("cannot write beside {} ({}); check the folder exists and is writable",
                                       path, errno_text()));
  auto fail = [&](const std::string& what) -> std::expected<void, std::string> {
    const std::string message =
        fmt::format("cannot write {} ({}: {}); the old file is unchanged", path, what, errno_text());
    ::close(fd);
    ::unlink(name.c_str());
    return std::unexpected(message);
  };
  // Keep the permissions the set-up file had (mkstemp creates 0600).
  std::error_code ec;
  const auto old_perms = fs::status(target, ec).permissions();
  const mode_t mode = ec || !fs::exists(target, ec) ? 0644 : static_cast<mode_t>(old_perms) & 07777;
  if (::fchmod(fd, mode) != 0) return fail("chmod");
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return fail("write");
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0) return fail("fsync");
  if (::close(fd) != 0) {
    ::unlink(name.c_str());
    return std::unexpected(fmt::format("cannot write {} (close: {})", path, errno_text()));
  }
  if (::rename(name.c_str(), path.c_str()) != 0) {
    const std::string message = fmt::format("cannot replace {} ({})", path, errno_text());
    ::unlink(name.c_str());
    return std::unexpected(message);
  }
  const int dir = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY);
  if (dir >= 0) {
    ::fsync(dir);  // best effort: some file systems refuse to sync a folder
    ::close(dir);
  }
  return {};
}

}  // namespace

std::expected<void, std::string> SpaceGridFile::save(const std::string& setup_path, const SpaceMap& map) {
  auto j = read_object(setup_path);
  if (!j) return std::unexpected(j.error());
  (*j)["space_map"] = Json::parse(map.to_json());
  return replace_file(setup_path, j->dump(2) + "\n");
}

std::expected<std::optional<SpaceMap>, std::string> SpaceGridFile::load(const std::string& setup_path) {
  auto j = read_object(setup_path);
  if (!j) return std::unexpected(j.error());
  if (!j->contains("space_map")) return std::optional<SpaceMap>{};
  auto map = SpaceMap::from_json((*j)["space_map"].dump());
  if (!map) return std::unexpected(setup_path + ": " + map.error());
  return std::optional<SpaceMap>(std::move(*map));
}

}  // namespace bb::vision
