#include "odds/odds_worker.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>

namespace bb::odds {

struct OddsWorker::Running {
  // The playouts copy the position: without its journal, a copy copies no postings.
  explicit Running(rules::Game game) : position(std::move(game)) { position.forget_journal(); }
  std::uint64_t id = 0;
  rules::Game position;
  std::optional<rules::Game> traded;
  PlayoutSettings settings;
  std::atomic<int> next_batch{0};
  std::atomic<bool> cancelled{false};
};

OddsWorker::OddsWorker(int threads, std::function<void()> on_progress)
    : on_progress_(std::move(on_progress)) {
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  threads = std::min(threads, 64);
  for (int t = 0; t < threads; ++t) threads_.emplace_back([this] { run(); });
}

OddsWorker::~OddsWorker() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    if (current_) current_->cancelled = true;
  }
  wake_.notify_all();
  threads_.clear();  // joins
}

std::expected<std::uint64_t, std::string> OddsWorker::start(OddsJob job) {
  std::optional<rules::Game> traded;
  if (job.trade) {
    traded.emplace(job.position);
    if (auto applied = traded->apply(*job.trade); !applied) return std::unexpected(applied.error());
    traded->forget_journal();  // as the position's: its playouts' copies copy no postings
  }
  auto running = std::make_shared<Running>(std::move(job.position));
  running->traded = std::move(traded);
  running->settings = job.settings;
  {
    std::lock_guard lock(mutex_);
    if (current_) current_->cancelled = true;
    running->id = next_id_++;
    current_ = running;
    progress_ = OddsProgress{};
    progress_.job = running->id;
    progress_.target = std::max(0, job.settings.playouts);
    progress_.without_trade.players.resize(running->position.state().players.size());
    if (running->traded) progress_.with_trade.emplace(progress_.without_trade);
    progress_.done = progress_.target == 0;
  }
  wake_.notify_all();
  return running->id;
}

void OddsWorker::cancel() {
  std::lock_guard lock(mutex_);
  if (!current_) return;
  current_->cancelled = true;
  current_.reset();
  progress_.cancelled = !progress_.done;
}

OddsProgress OddsWorker::progress() const {
  std::lock_guard lock(mutex_);
  return progress_;
}

void OddsWorker::run() {
  // The table's thread comes first: this thread runs at the lowest priority (Linux: per-thread nice).
  setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 19);
  for (;;) {
    std::shared_ptr<Running> job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] {
        return stopping_ || (current_ && current_->next_batch.load() * kBatch < current_->settings.playouts);
      });
      if (stopping_) return;
      job = current_;
    }
    const int total = job->settings.playouts;
    for (;;) {
      const int first = job->next_batch.fetch_add(1) * kBatch;
      if (first >= total || job->cancelled) break;
      const int last = std::min(total, first + kBatch);
      Chances plain, traded;
      bool complete = true;
      for (int i = first; i < last && complete; ++i) {
        const std::uint64_t seed = playout_seed(job->settings.seed, i);
        auto a = play_out(job->position, seed, job->settings.turn_cap, &job->cancelled);
        std::optional<PlayoutResult> b;
        if (a && job->traded) b = play_out(*job->traded, seed, job->settings.turn_cap, &job->cancelled);
        if (!a || (job->traded && !b)) {
          complete = false;
          break;
        }
        plain.add(*a);
        if (b) traded.add(*b);
      }
      if (!complete) break;
      {
        std::lock_guard lock(mutex_);
        if (current_ != job) break;
        progress_.without_trade.merge(plain);
        if (progress_.with_trade) progress_.with_trade->merge(traded);
        const int counted = progress_.without_trade.playouts + progress_.without_trade.refused;
        progress_.done = counted >= progress_.target;
      }
      if (on_progress_) on_progress_();
    }
  }
}

}  // namespace bb::odds
