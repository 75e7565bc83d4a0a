#pragma once
#include <cstddef>

#include "peripherals/edge_source.h"
#include "peripherals/trace.h"

namespace bb::peripherals {

// Replays a trace as fast as the reader takes it, in batches, on the trace's own time: the decoders
// see exactly the timestamps that were recorded, so a replay gives the same events every time.
class ReplayEdgeSource final : public EdgeSource {
 public:
  explicit ReplayEdgeSource(Trace trace, std::size_t batch = 256);
  ~ReplayEdgeSource() override;
  ReplayEdgeSource(const ReplayEdgeSource&) = delete;
  ReplayEdgeSource& operator=(const ReplayEdgeSource&) = delete;

  int fd() const override { return event_fd_; }
  std::expected<std::vector<Edge>, std::string> read_edges() override;
  std::vector<std::optional<bool>> initial_levels() const override { return trace_.initial_levels; }
  bool live() const override { return false; }
  bool exhausted() const override { return next_ >= trace_.edges.size(); }
  Nanoseconds end_time() const override;

 private:
  Trace trace_;
  std::size_t batch_;
  std::size_t next_ = 0;
  int event_fd_ = -1;  // readable until the last batch has been read
};

}  // namespace bb::peripherals
