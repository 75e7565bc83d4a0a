#include "peripherals/replay_edge_source.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cassert>

namespace bb::peripherals {

ReplayEdgeSource::ReplayEdgeSource(Trace trace, std::size_t batch)
    : trace_(std::move(trace)), batch_(std::max<std::size_t>(batch, 1)) {
  event_fd_ = eventfd(1, EFD_NONBLOCK | EFD_CLOEXEC);
  assert(event_fd_ >= 0 && "eventfd failed: out of file descriptors");
}

ReplayEdgeSource::~ReplayEdgeSource() {
  if (event_fd_ >= 0) close(event_fd_);
}

std::expected<std::vector<Edge>, std::string> ReplayEdgeSource::read_edges() {
  const std::size_t end = std::min(trace_.edges.size(), next_ + batch_);
  std::vector<Edge> edges(trace_.edges.begin() + static_cast<std::ptrdiff_t>(next_),
                          trace_.edges.begin() + static_cast<std::ptrdiff_t>(end));
  next_ = end;
  if (exhausted()) {
    std::uint64_t count = 0;
    [[maybe_unused]] const auto drained = read(event_fd_, &count, sizeof count);
  }
  return edges;
}

Nanoseconds ReplayEdgeSource::end_time() const {
  if (trace_.end_ns) return *trace_.end_ns;
  return trace_.edges.empty() ? 0 : trace_.edges.back().ts_ns;
}

}  // namespace bb::peripherals
