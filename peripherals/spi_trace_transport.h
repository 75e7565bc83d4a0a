#pragma once
#include <cstddef>
#include <memory>
#include <optional>
#include <ostream>

#include "peripherals/edge.h"
#include "peripherals/spi_transport.h"
#include "peripherals/trace.h"

namespace bb::peripherals {

// Passes every transfer to the real transport and writes it to `out` as a trace line (format_spi_transfer),
// flushed at once so a recording cut short is still readable. The trace's header is the caller's.
class RecordingSpiTransport final : public SpiTransport {
 public:
  // clock: when a transfer happened (CLOCK_MONOTONIC by default, like the GPIO recorder's).
  RecordingSpiTransport(std::unique_ptr<SpiTransport> inner, std::ostream& out, Clock clock = {});
  std::expected<std::vector<std::uint8_t>, std::string> transfer(std::span<const std::uint8_t> tx) override;
  std::size_t transfers() const { return transfers_; }

 private:
  std::unique_ptr<SpiTransport> inner_;
  std::ostream& out_;
  Clock clock_;
  std::size_t transfers_ = 0;
};

// Answers each transfer with the next one of a recorded trace, after checking the driver sent exactly the
// bytes that were recorded: a replay only means something while the driver asks what it asked then. After
// the first divergence every transfer fails with the same error, which names the trace line.
class ReplaySpiTransport final : public SpiTransport {
 public:
  explicit ReplaySpiTransport(std::vector<SpiTransfer> transfers);
  std::expected<std::vector<std::uint8_t>, std::string> transfer(std::span<const std::uint8_t> tx) override;

  bool exhausted() const { return next_ >= transfers_.size(); }
  // When the next recorded transfer happened: the replay's clock.
  std::optional<Nanoseconds> next_timestamp() const;
  const std::optional<std::string>& divergence() const { return divergence_; }
  std::size_t replayed() const { return next_; }

 private:
  std::vector<SpiTransfer> transfers_;
  std::size_t next_ = 0;
  std::optional<std::string> divergence_;
};

}  // namespace bb::peripherals
