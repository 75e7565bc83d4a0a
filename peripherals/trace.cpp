#include "peripherals/trace.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

namespace bb::peripherals {

namespace {
constexpr std::string_view kMagic = "# boardbank-trace";
constexpr std::size_t kMaxEdges = 50'000'000;  // ~1 GB of text; more is not a recording of one evening
// A trace file: 256 MiB is days of play at a card tap a minute and a roll every few seconds; a larger file
// (or an endless source such as /dev/zero or a FIFO) is refused before it fills the Pi's memory.
constexpr std::size_t kMaxTraceBytes = 256u << 20;
// The longest line of a trace (an SPI transfer of a full 64-byte FIFO is under 300 bytes).
constexpr std::size_t kMaxTraceLineBytes = 4096;

// A word from the file as an error message shows it: at most 40 characters, anything not printable as \xNN,
// so that a message never echoes megabytes or raw NUL bytes.
std::string shown(std::string_view word) {
  std::string out;
  for (std::size_t i = 0; i < word.size() && i < 40; ++i) {
    const auto c = static_cast<unsigned char>(word[i]);
    if (c < 0x20 || c >= 0x7f)
      out += fmt::format("\\x{:02X}", c);
    else
      out += static_cast<char>(c);
  }
  if (word.size() > 40) out += fmt::format("... ({} bytes)", word.size());
  return out;
}

std::vector<std::string_view> split_words(std::string_view line) {
  std::vector<std::string_view> words;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
    if (i > start) words.push_back(line.substr(start, i - start));
  }
  return words;
}

std::optional<Nanoseconds> parse_ns(std::string_view text) {
  Nanoseconds value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size() || value < 0) return std::nullopt;
  return value;
}

std::optional<std::vector<std::uint8_t>> parse_hex_bytes(std::string_view hex) {
  if (hex.empty() || hex.size() % 2 != 0) return std::nullopt;
  std::vector<std::uint8_t> bytes;
  bytes.reserve(hex.size() / 2);
  for (std::size_t i = 0; i < hex.size(); i += 2) {
    std::uint8_t byte = 0;
    const auto [end, ec] = std::from_chars(hex.data() + i, hex.data() + i + 2, byte, 16);
    if (ec != std::errc{} || end != hex.data() + i + 2) return std::nullopt;
    bytes.push_back(byte);
  }
  return bytes;
}

std::string hex_bytes(const std::vector<std::uint8_t>& bytes) {
  std::string hex;
  hex.reserve(bytes.size() * 2);
  for (const std::uint8_t byte : bytes) hex += fmt::format("{:02X}", byte);
  return hex;
}

// "TIMESTAMP_NS spi TX_HEX RX_HEX" or "TIMESTAMP_NS spi TX_HEX error TEXT..."; words[1] is "spi".
std::expected<SpiTransfer, std::string> parse_spi_line(const std::vector<std::string_view>& words) {
  constexpr std::string_view kShape =
      "expected 'TIMESTAMP_NS spi TX_HEX RX_HEX' (or 'TIMESTAMP_NS spi TX_HEX error TEXT')";
  if (words.size() < 4) return std::unexpected(std::string(kShape));
  SpiTransfer transfer;
  const auto ts = parse_ns(words[0]);
  if (!ts) return std::unexpected(fmt::format("'{}' is not a timestamp in nanoseconds", shown(words[0])));
  transfer.ts_ns = *ts;
  auto tx = parse_hex_bytes(words[2]);
  if (!tx)
    return std::unexpected(fmt::format("TX '{}' is not bytes in hex (two digits a byte)", shown(words[2])));
  transfer.tx = std::move(*tx);
  if (words[3] == "error") {
    if (words.size() == 4) return std::unexpected(std::string("a failed transfer says why after 'error'"));
    transfer.error = fmt::format("{}", fmt::join(words.begin() + 4, words.end(), " "));
    return transfer;
  }
  if (words.size() != 4) return std::unexpected(std::string(kShape));
  auto rx = parse_hex_bytes(words[3]);
  if (!rx)
    return std::unexpected(fmt::format("RX '{}' is not bytes in hex (two digits a byte)", shown(words[3])));
  if (rx->size() != transfer.tx.size()) {
    return std::unexpected(fmt::format(
        "RX has {} bytes but TX has {}: a full-duplex transfer clocks back one byte per byte sent",
        rx->size(), transfer.tx.size()));
  }
  transfer.rx = std::move(*rx);
  return transfer;
}
}  // namespace

bool is_spi_device(std::string_view device) { return device == "rc522"; }

std::string trace_header_value(const Trace& trace, std::string_view key) {
  for (const auto& [name, value] : trace.extra) {
    if (name == key) return value;
  }
  return {};
}

std::expected<Trace, std::string> make_spi_trace(std::string_view device, std::string spi_device,
                                                 std::string reset_line) {
  if (!is_spi_device(device))
    return std::unexpected(fmt::format("'{}' is not an SPI device (rc522)", shown(device)));
  if (spi_device.empty()) return std::unexpected(std::string("an SPI trace needs the spidev node (spi=)"));
  Trace trace;
  trace.device = device;
  trace.extra.emplace_back("spi", std::move(spi_device));
  if (!reset_line.empty()) trace.extra.emplace_back("rst", std::move(reset_line));
  return trace;
}

std::string format_spi_transfer(const SpiTransfer& transfer) {
  if (!transfer.error.empty())
    return fmt::format("{} spi {} error {}\n", transfer.ts_ns, hex_bytes(transfer.tx), transfer.error);
  return fmt::format("{} spi {} {}\n", transfer.ts_ns, hex_bytes(transfer.tx), hex_bytes(transfer.rx));
}

std::vector<std::string> device_roles(std::string_view device) {
  if (device == "wiegand") return {"d0", "d1"};
  if (device == "dice") return {"a0", "a1", "a2", "b0", "b1", "b2", "par", "stb"};
  if (device == "button") return {"btn"};
  return {};
}

std::expected<Trace, std::string> make_trace(std::string_view device, std::vector<std::string> line_names) {
  const auto roles = device_roles(device);
  if (roles.empty())
    return std::unexpected(fmt::format("unknown device '{}' (wiegand, dice or button)", shown(device)));
  if (line_names.size() != roles.size()) {
    return std::unexpected(
        fmt::format("a {} trace needs {} lines, got {}", device, roles.size(), line_names.size()));
  }
  Trace trace;
  trace.device = device;
  for (std::size_t i = 0; i < roles.size(); ++i) trace.lines.emplace_back(roles[i], line_names[i]);
  trace.initial_levels.assign(roles.size(), std::nullopt);
  return trace;
}

std::expected<Trace, std::string> parse_trace(std::string_view text) {
  Trace trace;
  std::size_t line_number = 0;
  bool header_seen = false;
  auto fail = [&](std::string why) {
    return std::unexpected(fmt::format("trace line {}: {}", line_number, why));
  };
  auto find_line = [&](std::string_view name) -> int {
    for (std::size_t i = 0; i < trace.lines.size(); ++i) {
      if (trace.lines[i].first == name || trace.lines[i].second == name) return static_cast<int>(i);
    }
    return -1;
  };
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t newline = std::min(text.find('\n', pos), text.size());
    const std::string_view line = text.substr(pos, newline - pos);
    pos = newline + 1;
    ++line_number;
    if (line.size() > kMaxTraceLineBytes)
      return fail(fmt::format("the line is {} bytes long, longer than any trace line ({} at most)",
                              line.size(), kMaxTraceLineBytes));
    if (line.find('\0') != std::string_view::npos) return fail("the line holds a NUL byte: not a text trace");
    if (!header_seen) {
      if (!line.starts_with(kMagic))
        return fail("not a boardbank trace (the first line must be '# boardbank-trace 1 ...')");
      const auto words = split_words(line.substr(kMagic.size()));
      if (words.empty() || words[0] != "1")
        return fail("unsupported trace version (this build reads version 1)");
      std::vector<std::pair<std::string, std::string>> keys;
      for (std::size_t i = 1; i < words.size(); ++i) {
        const auto eq = words[i].find('=');
        if (eq == std::string_view::npos || eq == 0 || eq + 1 == words[i].size()) {
          return fail(fmt::format("'{}' is not key=value", shown(words[i])));
        }
        keys.emplace_back(words[i].substr(0, eq), words[i].substr(eq + 1));
      }
      const auto device =
          std::find_if(keys.begin(), keys.end(), [](const auto& kv) { return kv.first == "device"; });
      if (device == keys.end()) return fail("the header names no device= (wiegand, dice, button or rc522)");
      if (is_spi_device(device->second)) {
        trace.device = device->second;
        for (const auto& kv : keys) {
          if (kv.first != "device") trace.extra.push_back(kv);
        }
        if (trace_header_value(trace, "spi").empty())
          return fail("the header names no spi= device (e.g. spi=/dev/spidev0.0)");
        header_seen = true;
        continue;
      }
      const auto roles = device_roles(device->second);
      if (roles.empty())
        return fail(
            fmt::format("unknown device '{}' (wiegand, dice, button or rc522)", shown(device->second)));
      trace.device = device->second;
      for (const auto& role : roles) {
        const auto found =
            std::find_if(keys.begin(), keys.end(), [&](const auto& kv) { return kv.first == role; });
        if (found == keys.end()) return fail(fmt::format("the header names no {}= line", role));
        for (const auto& [other_role, other_name] : trace.lines) {
          if (other_name == found->second) {
            return fail(fmt::format("{} and {} are both {}: each role needs its own line", other_role, role,
                                    other_name));
          }
        }
        trace.lines.emplace_back(role, found->second);
      }
      for (const auto& kv : keys) {
        if (kv.first != "device" && std::find(roles.begin(), roles.end(), kv.first) == roles.end()) {
          trace.extra.push_back(kv);
        }
      }
      trace.initial_levels.assign(roles.size(), std::nullopt);
      header_seen = true;
      continue;
    }
    const auto words = split_words(line);
    if (words.empty() || words[0].starts_with('#')) continue;
    if (trace.end_ns) return fail("nothing may follow the 'end' line");
    const bool spi_trace = is_spi_device(trace.device);
    if (spi_trace && words[0] != "end") {
      if (words.size() < 2 || words[1] != "spi") {
        return fail(fmt::format(
            "an {} trace holds SPI transfers ('TIMESTAMP_NS spi TX_HEX RX_HEX'), not GPIO edges or levels",
            trace.device));
      }
      auto transfer = parse_spi_line(words);
      if (!transfer) return fail(transfer.error());
      if (!trace.spi_transfers.empty() && transfer->ts_ns < trace.spi_transfers.back().ts_ns)
        return fail("timestamps go back in time");
      if (trace.spi_transfers.size() >= kMaxEdges) return fail("too many transfers");
      transfer->source_line = line_number;
      trace.spi_transfers.push_back(std::move(*transfer));
      continue;
    }
    if (words[0] == "level") {
      if (words.size() != 3 || (words[2] != "0" && words[2] != "1")) return fail("expected 'level LINE 0|1'");
      if (!trace.edges.empty()) return fail("'level' lines come before the first edge");
      const int index = find_line(words[1]);
      if (index < 0) return fail(fmt::format("line '{}' is not in the header", shown(words[1])));
      trace.initial_levels[static_cast<std::size_t>(index)] = words[2] == "1";
      continue;
    }
    if (words[0] == "end") {
      const auto ts = words.size() == 2 ? parse_ns(words[1]) : std::nullopt;
      if (!ts) return fail("expected 'end TIMESTAMP_NS'");
      if (!trace.edges.empty() && *ts < trace.edges.back().ts_ns) return fail("'end' before the last edge");
      if (!trace.spi_transfers.empty() && *ts < trace.spi_transfers.back().ts_ns)
        return fail("'end' before the last transfer");
      trace.end_ns = ts;
      continue;
    }
    if (words.size() >= 2 && words[1] == "spi" && find_line("spi") < 0)
      return fail(fmt::format("'spi' transfers belong in an SPI device's trace (device=rc522), not a {}'s",
                              trace.device));
    if (words.size() != 3) return fail("expected 'TIMESTAMP_NS LINE rising|falling'");
    const auto ts = parse_ns(words[0]);
    if (!ts) return fail(fmt::format("'{}' is not a timestamp in nanoseconds", shown(words[0])));
    if (!trace.edges.empty() && *ts < trace.edges.back().ts_ns) return fail("timestamps go back in time");
    const int index = find_line(words[1]);
    if (index < 0) return fail(fmt::format("line '{}' is not in the header", shown(words[1])));
    if (words[2] != "rising" && words[2] != "falling") return fail("an edge is 'rising' or 'falling'");
    if (trace.edges.size() >= kMaxEdges) return fail("too many edges");
    trace.edges.push_back(Edge{*ts, index, words[2] == "rising"});
  }
  if (!header_seen)
    return std::unexpected(std::string("empty trace: the first line must be '# boardbank-trace 1 ...'"));
  return trace;
}

std::expected<Trace, std::string> load_trace(const std::string& path) {
  // A folder opens as an empty file on Linux: it would be refused as an empty trace.
  if (std::error_code error; std::filesystem::is_directory(path, error))
    return std::unexpected(fmt::format("'{}' is a folder, not a trace: give the path of a trace file", path));
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::unexpected(fmt::format("cannot open trace '{}': check the path", path));
  // Read in bounded pieces: a FIFO or a device has no size to check beforehand.
  std::string text;
  std::vector<char> chunk(1u << 16);
  while (in.read(chunk.data(), static_cast<std::streamsize>(chunk.size())) || in.gcount() > 0) {
    text.append(chunk.data(), static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxTraceBytes) {
      return std::unexpected(
          fmt::format("{}: larger than {} MiB, more than any recording (is it a trace, or an "
                      "endless device?)",
                      path, kMaxTraceBytes >> 20));
    }
  }
  // A read that failed part-way (a disk error, a device gone) must not be parsed as a shorter trace.
  if (in.bad())
    return std::unexpected(fmt::format("cannot read trace '{}' to its end: check the disk or device", path));
  auto trace = parse_trace(text);
  if (!trace) return std::unexpected(fmt::format("{}: {}", path, trace.error()));
  return trace;
}

std::string format_trace(const Trace& trace) {
  std::string text = fmt::format("{} 1 device={}", kMagic, trace.device);
  for (const auto& [role, name] : trace.lines) text += fmt::format(" {}={}", role, name);
  for (const auto& [key, value] : trace.extra) text += fmt::format(" {}={}", key, value);
  text += '\n';
  for (std::size_t i = 0; i < trace.initial_levels.size() && i < trace.lines.size(); ++i) {
    if (trace.initial_levels[i])
      text += fmt::format("level {} {}\n", trace.lines[i].second, *trace.initial_levels[i] ? 1 : 0);
  }
  for (const Edge& edge : trace.edges) {
    text += fmt::format("{} {} {}\n", edge.ts_ns, trace.lines.at(static_cast<std::size_t>(edge.line)).second,
                        edge.rising ? "rising" : "falling");
  }
  for (const SpiTransfer& transfer : trace.spi_transfers) text += format_spi_transfer(transfer);
  if (trace.end_ns) text += fmt::format("end {}\n", *trace.end_ns);
  return text;
}

}  // namespace bb::peripherals
