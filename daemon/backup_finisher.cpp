#include "daemon/backup_finisher.h"

#include <chrono>
#include <utility>

namespace bb::daemon {

BackupFinisher::BackupFinisher(EventLoop& loop, Finish finish, std::function<void(const Result&)> on_result)
    : loop_(loop),
      finish_(std::move(finish)),
      on_result_(std::move(on_result)),
      thread_([this](std::stop_token stop) { run(stop); }) {}

BackupFinisher::~BackupFinisher() {
  thread_.request_stop();
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  // A backup finished after the loop stopped taking work is still reported, here on the loop thread.
  if (unposted_) {
    *busy_ = false;
    on_result_(*unposted_);
  }
}

void BackupFinisher::hand_over(ledger::PendingBackup pending, Occasion occasion) {
  *busy_ = true;
  {
    std::lock_guard lock(mutex_);
    job_ = Job{std::move(pending), occasion};
  }
  wake_.notify_one();
}

void BackupFinisher::run(std::stop_token stop) {
  while (true) {
    Job job;
    {
      std::unique_lock lock(mutex_);
      // A job handed over before the stop is still finished: its copy would otherwise be left half-made.
      if (!wake_.wait(lock, stop, [this] { return job_.has_value(); })) return;
      job = std::move(*job_);
      job_.reset();
    }
    Result result{job.occasion, finish_(job.pending)};
    // The loop's queue is bounded: a full one means the loop is far behind, and the result is handed over
    // again a moment later. Once the service stops, the destructor reports it instead.
    while (true) {
      if (stop.stop_requested()) {
        std::lock_guard lock(mutex_);
        unposted_ = std::move(result);
        return;
      }
      // Copies, not this object, which may be gone when the loop runs it.
      auto deliver = [busy = busy_, on_result = on_result_, result] {
        *busy = false;
        on_result(result);
      };
      if (loop_.post(deliver, "backup finished")) break;  // a copy: tried again when full
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
}

}  // namespace bb::daemon
