#pragma once
#include <condition_variable>
#include <cstdint>
#include <expected>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "odds/chances.h"
#include "rules/game.h"
#include "rules/input.h"

namespace bb::odds {

// What to estimate: a copy of the game at the position (the worker never sees the live game), optionally
// a trade to weigh against it, and how many playouts.
struct OddsJob {
  rules::Game position;
  std::optional<rules::Trade> trade;
  PlayoutSettings settings;
};

// Where a job stands: the playouts counted so far, refined as more come in.
struct OddsProgress {
  std::uint64_t job = 0;              // the id start() returned; 0 before any job
  Chances without_trade;              // the position as it is
  std::optional<Chances> with_trade;  // the position after the trade, for a job with one
  int target = 0;                     // playouts the job asked for
  bool done = false;                  // every playout counted
  bool cancelled = false;
};

// A pool of threads that plays a position out many times, in batches, and reports as each batch comes in.
// Owns its threads (run at the lowest CPU priority, so the table's own thread always comes first) and
// copies of games; never touches a live game, a ledger, a screen or an fd.
//
// Threads: start(), cancel(), progress() and the destructor are for one owning thread (the service's loop).
// `on_progress` is called on a worker thread after every batch; it must only hand the news over (an eventfd
// write, EventLoop::post) and never call back into the worker.
class OddsWorker {
 public:
  // `threads` 0: one per hardware thread.
  OddsWorker(int threads, std::function<void()> on_progress);
  ~OddsWorker();
  OddsWorker(const OddsWorker&) = delete;
  OddsWorker& operator=(const OddsWorker&) = delete;

  // Cancels the job under way (its playouts stop at their next input) and starts this one. Refused when
  // the trade is not legal in the position, with the engine's reason.
  std::expected<std::uint64_t, std::string> start(OddsJob job);
  // Stops the job under way; progress() keeps what it had counted, marked cancelled.
  void cancel();
  OddsProgress progress() const;
  int threads() const { return static_cast<int>(threads_.size()); }

  // Playouts per batch: the first answer comes after one batch per thread.
  static constexpr int kBatch = 16;

 private:
  struct Running;
  void run();

  std::function<void()> on_progress_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::shared_ptr<Running> current_;  // guarded by mutex_
  OddsProgress progress_;             // guarded by mutex_
  std::uint64_t next_id_ = 1;
  bool stopping_ = false;  // guarded by mutex_
  std::vector<std::jthread> threads_;
};

}  // namespace bb::odds
