#pragma once
#include <condition_variable>
#include <expected>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "daemon/event_loop.h"
#include "ledger/backup_store.h"

namespace bb::daemon {

// The backup finisher: the thread that finishes the ledger's backups, so that their fsyncs, the rename into
// place, the anchor beside it and the rotation of old backups never run on the loop. The loop copies the
// database (ledger::Ledger::start_backup: the part that needs the connection) and hands the copy over; the
// thread runs `finish` (ledger::BackupStore::finish) and hands the outcome back through EventLoop::post.
// One backup at a time: while busy() the loop starts no other copy (the rotation removes stray partial
// copies in the directory).
// Owns: its thread. Must never: touch the ledger's connection, the table or SDL (it runs `finish` and posts).
// Thread: construction, busy(), hand_over() and destruction on the loop thread; `on_result` runs on the loop
// thread (from the loop's queue, or from the destructor for a backup finished while the service stopped).
class BackupFinisher {
 public:
  using Finish = std::function<std::expected<std::string, std::string>(const ledger::PendingBackup&)>;
  enum class Occasion { scheduled, end_of_game };
  struct Result {
    Occasion occasion = Occasion::scheduled;
    std::expected<std::string, std::string> made;  // the backup's final name, or why it failed
  };
  BackupFinisher(EventLoop& loop, Finish finish, std::function<void(const Result&)> on_result);
  ~BackupFinisher();  // finishes the backup under way (and one handed over), reports it, then stops
  BackupFinisher(const BackupFinisher&) = delete;
  BackupFinisher& operator=(const BackupFinisher&) = delete;

  // Loop thread: a backup was handed over and its Result has not reached the loop yet.
  bool busy() const { return *busy_; }
  // Loop thread, only when !busy(): finish `pending` on the thread.
  void hand_over(ledger::PendingBackup pending, Occasion occasion);

 private:
  struct Job {
    ledger::PendingBackup pending;
    Occasion occasion;
  };
  void run(std::stop_token stop);

  EventLoop& loop_;
  Finish finish_;
  std::function<void(const Result&)> on_result_;
  // Loop thread only. Shared with the posted result, which may outlive this object in the loop's queue.
  std::shared_ptr<bool> busy_ = std::make_shared<bool>(false);
  std::mutex mutex_;
  std::condition_variable_any wake_;
  std::optional<Job> job_;          // guarded by mutex_: handed over, not yet taken by the thread
  std::optional<Result> unposted_;  // guarded by mutex_: finished while stopping, reported by the destructor
  std::jthread thread_;             // last: started once everything above exists
};

}  // namespace bb::daemon
