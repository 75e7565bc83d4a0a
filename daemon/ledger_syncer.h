#pragma once
#include <condition_variable>
#include <cstdint>
#include <expected>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "daemon/event_loop.h"

namespace bb::daemon {

// The ledger syncer: the thread that makes the ledger's commits durable, so that no fsync runs on the loop.
// The loop writes each input's commit (SQLite's WAL with synchronous=NORMAL: ordered and atomic, not yet on
// the disk; see ledger::LedgerOptions::Durability) and then calls request(n), n counting the commits written
// so far. The thread runs one `sync` (ledger::WalSync: an fdatasync of the WAL) that covers every request
// made before it began (several commits, one sync) and hands the outcome to the loop through
// EventLoop::post (its eventfd): a Result whose `durable` is the count now known to be on the disk, or the
// error of a sync that failed (nothing new is durable then; the loop asks again with request()).
// The service shows an input as done only once a Result covers it.
// Owns: its thread. Must never: touch the ledger's connection, the table or SDL (it runs `sync` and posts).
// Thread: construction, request() and destruction on the loop thread; `on_result` runs on the loop thread.
class LedgerSyncer {
 public:
  using Sync = std::function<std::expected<void, std::string>()>;
  struct Result {
    std::uint64_t durable = 0;         // commits known durable (the request the sync covered)
    std::optional<std::string> error;  // the sync failed: what the system said
  };
  LedgerSyncer(EventLoop& loop, Sync sync, std::function<void(const Result&)> on_result);
  ~LedgerSyncer();  // finishes the sync under way, then stops the thread
  LedgerSyncer(const LedgerSyncer&) = delete;
  LedgerSyncer& operator=(const LedgerSyncer&) = delete;

  // Loop thread: `written` commits are in the WAL; make them durable. A repeated count asks again (after a
  // failed sync).
  void request(std::uint64_t written);

 private:
  void run(std::stop_token stop);

  EventLoop& loop_;
  Sync sync_;
  std::function<void(const Result&)> on_result_;
  std::mutex mutex_;
  std::condition_variable_any wake_;
  std::uint64_t requested_ = 0;  // guarded by mutex_
  bool asked_ = false;           // guarded by mutex_: a request not yet taken by the thread
  std::jthread thread_;          // last: started once everything above exists
};

}  // namespace bb::daemon
