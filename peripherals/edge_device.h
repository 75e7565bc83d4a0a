#pragma once
#include <expected>
#include <memory>
#include <string>
#include <vector>

#include "peripherals/device.h"
#include "peripherals/edge_decoder.h"
#include "peripherals/edge_source.h"

namespace bb::peripherals {

// A GPIO device: an edge source (real, simulated or replay) feeding a pure decoder. Its one fd is an
// epoll set of the source's fd and a timer that fires when the decoder has a deadline (end of a Wiegand
// frame, the dice strobe's second read, a silent dice unit).
class EdgeDevice final : public Device {
 public:
  static std::expected<std::unique_ptr<EdgeDevice>, std::string> create(std::string name,
                                                                        std::unique_ptr<EdgeSource> source,
                                                                        std::unique_ptr<EdgeDecoder> decoder,
                                                                        CardRegistryCheck is_registered = {});
  ~EdgeDevice() override;
  EdgeDevice(const EdgeDevice&) = delete;
  EdgeDevice& operator=(const EdgeDevice&) = delete;

  const std::string& name() const override { return name_; }
  int fd() const override { return epoll_fd_; }
  std::vector<PeripheralEvent> read_events() override;
  bool finished() const override { return finished_; }
  std::vector<std::string> invariant_violations() const override;

  EdgeSource& source() { return *source_; }
  // An edge can happen (and be stamped by the kernel) just before we look at the clock but reach us only
  // at the next read; a live decoder is therefore only told that time has reached now minus this margin,
  // and its deadlines fire this much later.
  static constexpr Nanoseconds kLateEdgeMargin = 2 * kMillisecond;
  std::uint64_t edges_decoded() const { return edges_decoded_; }

 private:
  EdgeDevice(std::string name, std::unique_ptr<EdgeSource> source, std::unique_ptr<EdgeDecoder> decoder,
             CardRegistryCheck is_registered);
  void arm_timer();

  std::string name_;
  std::unique_ptr<EdgeSource> source_;
  std::unique_ptr<EdgeDecoder> decoder_;
  CardRegistryCheck is_registered_;
  int epoll_fd_ = -1;
  int timer_fd_ = -1;
  bool finished_ = false;
  std::uint64_t edges_decoded_ = 0;
};

// CLOCK_MONOTONIC now, the clock of the kernel's GPIO timestamps.
Nanoseconds monotonic_now();

}  // namespace bb::peripherals
