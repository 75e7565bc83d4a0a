#include "ledger/medium.h"

#include <fmt/format.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace bb::ledger {

namespace {

std::string directory_of(const std::string& path) {
  auto parent = std::filesystem::path(path).parent_path();
  return parent.empty() ? std::string(".") : parent.string();
}

bool read_only_mount(const std::string& path) {
  struct statvfs info {};
  return ::statvfs(path.c_str(), &info) == 0 && (info.f_flag & ST_RDONLY) != 0;
}

}  // namespace

std::optional<std::string> read_only_reason(const std::string& path) {
  std::string dir = directory_of(path);
  if (read_only_mount(dir)) return fmt::format("the file system holding {} is mounted read-only", dir);
  if (::access(dir.c_str(), W_OK) != 0)
    return fmt::format("the directory {} cannot be written ({})", dir, std::strerror(errno));
  if (::access(path.c_str(), F_OK) == 0 && ::access(path.c_str(), W_OK) != 0)
    return fmt::format("the file {} cannot be written ({})", path, std::strerror(errno));
  return std::nullopt;
}

Database::Mode reading_mode(const std::string& path) {
  std::string dir = directory_of(path);
  bool dir_writable = !read_only_mount(dir) && ::access(dir.c_str(), W_OK) == 0;
  if (dir_writable) return Database::Mode::read_only;
  std::error_code ec;
  auto wal = std::filesystem::file_size(path + "-wal", ec);
  // A WAL with frames holds committed inputs not yet in the main file: an immutable open would not see them.
  // Open it normally then (SQLite manages when the -shm is there; if not, the error says so).
  bool unfinished_log = !ec && wal > 0;
  return unfinished_log ? Database::Mode::read_only : Database::Mode::immutable;
}

}  // namespace bb::ledger
