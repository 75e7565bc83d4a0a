#include "daemon/ledger_syncer.h"

#include <chrono>
#include <utility>

namespace bb::daemon {

LedgerSyncer::LedgerSyncer(EventLoop& loop, Sync sync, std::function<void(const Result&)> on_result)
    : loop_(loop),
      sync_(std::move(sync)),
      on_result_(std::move(on_result)),
      thread_([this](std::stop_token stop) { run(stop); }) {}

LedgerSyncer::~LedgerSyncer() {
  thread_.request_stop();
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void LedgerSyncer::request(std::uint64_t written) {
  {
    std::lock_guard lock(mutex_);
    requested_ = std::max(requested_, written);
    asked_ = true;
  }
  wake_.notify_one();
}

void LedgerSyncer::run(std::stop_token stop) {
  while (true) {
    std::uint64_t covering = 0;
    {
      std::unique_lock lock(mutex_);
      if (!wake_.wait(lock, stop, [this] { return asked_; })) return;
      covering = requested_;  // everything written before this moment is in the WAL already
      asked_ = false;
    }
    Result result;
    if (auto synced = sync_(); synced)
      result.durable = covering;
    else
      result.error = synced.error();
    // The loop's queue is bounded: a full one means the loop is far behind, and the result must not be lost
    // (the screen waits for it), so it is handed over again a moment later. The callback is copied, not
    // reached through this object, which may be gone when the loop runs it.
    while (!loop_.post([on_result = on_result_, result] { on_result(result); }, "ledger synced")) {
      if (stop.stop_requested()) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
}

}  // namespace bb::daemon
