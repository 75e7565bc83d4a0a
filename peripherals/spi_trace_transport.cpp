#include "peripherals/spi_trace_transport.h"

#include <fmt/format.h>

#include <algorithm>

#include "peripherals/edge_device.h"

namespace bb::peripherals {

namespace {
std::string hex_of(std::span<const std::uint8_t> bytes) {
  std::string hex;
  for (const std::uint8_t byte : bytes) hex += fmt::format("{:02X}", byte);
  return hex;
}
}  // namespace

RecordingSpiTransport::RecordingSpiTransport(std::unique_ptr<SpiTransport> inner, std::ostream& out,
                                             Clock clock)
    : inner_(std::move(inner)), out_(out), clock_(std::move(clock)) {
  if (!clock_) clock_ = monotonic_now;
}

std::expected<std::vector<std::uint8_t>, std::string> RecordingSpiTransport::transfer(
    std::span<const std::uint8_t> tx) {
  SpiTransfer recorded;
  recorded.ts_ns = clock_();
  recorded.tx.assign(tx.begin(), tx.end());
  auto rx = inner_->transfer(tx);
  if (rx) {
    recorded.rx = *rx;
  } else {
    // The trace keeps an error as words on one line: a line break would split the record, and an error
    // without words would read back as no error at all.
    recorded.error = rx.error();
    std::replace_if(
        recorded.error.begin(), recorded.error.end(),
        [](char c) { return c == '\n' || c == '\r' || c == '\t'; }, ' ');
    if (recorded.error.find_first_not_of(' ') == std::string::npos) recorded.error = "SPI transfer failed";
  }
  out_ << format_spi_transfer(recorded);
  out_.flush();
  ++transfers_;
  return rx;
}

ReplaySpiTransport::ReplaySpiTransport(std::vector<SpiTransfer> transfers)
    : transfers_(std::move(transfers)) {}

std::optional<Nanoseconds> ReplaySpiTransport::next_timestamp() const {
  if (exhausted()) return std::nullopt;
  return transfers_[next_].ts_ns;
}

std::expected<std::vector<std::uint8_t>, std::string> ReplaySpiTransport::transfer(
    std::span<const std::uint8_t> tx) {
  if (divergence_) return std::unexpected(*divergence_);
  if (exhausted()) {
    divergence_ = fmt::format(
        "the trace ends here but the driver sent {} (the recording was cut in the middle of an exchange)",
        hex_of(tx));
    return std::unexpected(*divergence_);
  }
  const SpiTransfer& recorded = transfers_[next_];
  if (!std::ranges::equal(tx, recorded.tx)) {
    const std::string where = recorded.source_line > 0 ? fmt::format("trace line {}", recorded.source_line)
                                                       : fmt::format("recorded transfer {}", next_ + 1);
    divergence_ = fmt::format(
        "{}: the driver sent {} but the recording has {} (a trace from another driver version, or edited)",
        where, hex_of(tx), hex_of(recorded.tx));
    return std::unexpected(*divergence_);
  }
  ++next_;
  if (!recorded.error.empty()) return std::unexpected(recorded.error);
  return recorded.rx;
}

}  // namespace bb::peripherals
