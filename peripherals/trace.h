#pragma once
#include <cstddef>
#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "peripherals/edge.h"

namespace bb::peripherals {

// One full-duplex SPI transfer as recorded: what the driver sent, and what came back (or how it failed,
// so a pulled cable replays too).
struct SpiTransfer {
  Nanoseconds ts_ns = 0;
  std::vector<std::uint8_t> tx;
  std::vector<std::uint8_t> rx;  // as long as tx; empty when the transfer failed
  std::string error;             // the transport's error, empty on success
  std::size_t source_line = 0;   // the trace's line number, for errors; 0 when not parsed from text
};

// A recorded or generated session, in the plain-text format of docs/hardware.md. A GPIO device's:
//   # boardbank-trace 1 device=wiegand d0=GPIO5 d1=GPIO6
//   level GPIO5 1                 (optional, before the first edge: a line's level at the start)
//   1000000 GPIO5 falling         (TIMESTAMP_NS LINE rising|falling; LINE is the line name or its role)
//   end 2000000000                (optional, last: when the recording stopped)
// An SPI device's (the RC522) has no edges, but one line per transfer:
//   # boardbank-trace 1 device=rc522 spi=/dev/spidev0.0 rst=GPIO22 chip=gpiochip0
//   1000000 spi 8E00 0092         (TIMESTAMP_NS spi TX_HEX RX_HEX)
//   1000000 spi 0200 error SPI transfer failed: Input/output error
struct Trace {
  std::string device;                                      // wiegand, dice, button or rc522
  std::vector<std::pair<std::string, std::string>> lines;  // role -> line name, in the device's role order
  std::vector<std::pair<std::string, std::string>> extra;  // other header keys (e.g. chip=gpiochip0, spi=)
  std::vector<std::optional<bool>> initial_levels;         // by role index
  std::vector<Edge> edges;                                 // line = role index
  std::vector<SpiTransfer> spi_transfers;                  // SPI devices only
  std::optional<Nanoseconds> end_ns;
};

// True for devices on SPI (their traces hold transfers, not edges): the rc522.
bool is_spi_device(std::string_view device);
// The value of a header key kept in Trace::extra (e.g. "spi"), empty when absent.
std::string trace_header_value(const Trace& trace, std::string_view key);
// An SPI device's trace with no transfers: spi= the spidev node, rst= its reset line (empty: none).
std::expected<Trace, std::string> make_spi_trace(std::string_view device, std::string spi_device,
                                                 std::string reset_line);
// One transfer as a trace line, with its newline; the recorder writes these as they happen.
std::string format_spi_transfer(const SpiTransfer& transfer);

// The roles of a device's lines, in line-index order; empty for an unknown device.
std::vector<std::string> device_roles(std::string_view device);
// A trace with the given device and line names (role order) and no edges.
std::expected<Trace, std::string> make_trace(std::string_view device, std::vector<std::string> line_names);

std::expected<Trace, std::string> parse_trace(std::string_view text);
std::expected<Trace, std::string> load_trace(const std::string& path);
std::string format_trace(const Trace& trace);

}  // namespace bb::peripherals
