#pragma once
#include <expected>
#include <string>

namespace bb::daemon {

// One service per database: two processes writing one ledger each number their inputs from what they last
// read, and the second one's inputs collide with the first one's (a UNIQUE failure on inputs.seq, or worse,
// two games interleaved). An advisory lock on "<database>.lock", held for the service's life and released by
// the kernel when the process ends however it ends, refuses the second one with a clear message.
// Owns the lock file's descriptor. Thread: any, but one owner.
class DatabaseLock {
 public:
  static std::expected<DatabaseLock, std::string> take(const std::string& database);
  DatabaseLock(DatabaseLock&& other) noexcept;
  DatabaseLock& operator=(DatabaseLock&&) = delete;
  DatabaseLock(const DatabaseLock&) = delete;
  ~DatabaseLock();

 private:
  explicit DatabaseLock(int fd) : fd_(fd) {}
  int fd_ = -1;
};

}  // namespace bb::daemon
