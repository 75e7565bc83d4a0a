// The RC522's trace of SPI transfers: recorded against the simulated chip, replayed through the real driver.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <poll.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "decode_helpers.h"
#include "peripherals/device_factory.h"
#include "peripherals/fake_mfrc522.h"
#include "peripherals/probe.h"
#include "peripherals/rc522_device.h"
#include "peripherals/replay_rc522_device.h"
#include "peripherals/spi_trace_transport.h"
#include "peripherals/trace.h"

namespace bb::peripherals {
namespace {

const std::string kTraceName = std::string(TRACES_DIR) + "/rc522_session.trace";
const std::string kExpectedName = std::string(TRACES_DIR) + "/rc522_session.expected.jsonl";

using testing::read_file;

std::string as_json_lines(const std::vector<PeripheralEvent>& events) {
  std::string json;
  for (const auto& event : events) json += to_json_line(event) + "\n";
  return json;
}

struct RecordedSession {
  std::string trace_text;
  std::vector<PeripheralEvent> events;  // what the driver reported while it was recorded
};

// A table evening in miniature, on the simulated chip, polled every 100 ms of scripted time: cards of 4, 7
// and 10 bytes, two cards on the reader at once, a card held on the reader for half a second, one lifted
// and put back at once (the same tap), and a transfer that fails as a pulled cable would.
RecordedSession record_scripted_session() {
  Nanoseconds now = 5'200'000'000'000;
  const Clock clock = [&now] { return now; };
  std::ostringstream out;
  auto header = make_spi_trace("rc522", "/dev/spidev0.0", "GPIO22");
  header->extra.emplace_back("chip", "gpiochip0");
  out << format_trace(*header);
  auto owned_chip = std::make_unique<FakeMfrc522>();
  FakeMfrc522& chip = *owned_chip;
  auto recorder = std::make_unique<RecordingSpiTransport>(std::move(owned_chip), out, clock);
  auto device = Rc522Device::create(
      "rc522", std::move(recorder), nullptr, 100 * kMillisecond, {}, [](Nanoseconds) {}, clock);
  EXPECT_TRUE(device) << device.error();
  RecordedSession session;
  auto poll = [&](int times = 1) {
    for (int i = 0; i < times; ++i) {
      now += 100 * kMillisecond;
      auto more = (*device)->read_events();
      session.events.insert(session.events.end(), more.begin(), more.end());
    }
  };
  const std::vector<std::uint8_t> four{0xDE, 0xAD, 0xBE, 0xEF};
  const std::vector<std::uint8_t> seven{0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6};
  const std::vector<std::uint8_t> ten{0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A};
  const std::vector<std::uint8_t> other_four{0x12, 0x34, 0x56, 0x78};
  poll();
  chip.add_card(four);
  poll(2);
  chip.remove_card(four);
  chip.add_card(four);  // lifted and put straight back: the same tap
  poll();
  chip.remove_card(four);
  chip.add_card(seven);
  poll(5);  // held on the reader for half a second: one tap
  chip.remove_card(seven);
  chip.add_card(ten);
  chip.add_card(other_four);  // two cards at once: anticollision reads both, one per poll
  poll(3);
  chip.remove_all_cards();
  chip.fail_next_transfer();
  poll(2);  // the failure, then "card reader back"
  out << fmt::format("end {}\n", now + 50 * kMillisecond);
  session.trace_text = out.str();
  return session;
}

std::vector<std::string> uids_of(const std::vector<PeripheralEvent>& events) {
  std::vector<std::string> uids;
  for (const auto& event : events) {
    if (event.kind == EventKind::card) uids.push_back(event.uid);
  }
  return uids;
}

// Replaces the TX of the spi transfer on the given trace line (1-based) with other bytes of the same length.
std::string with_tx_changed(const std::string& text, std::size_t line_number) {
  std::istringstream in(text);
  std::string line, out;
  for (std::size_t n = 1; std::getline(in, line); ++n) {
    if (n == line_number) {
      const auto tx = line.find(" spi ") + 5;
      line[tx] = line[tx] == 'F' ? '0' : 'F';
    }
    out += line + "\n";
  }
  return out;
}

TEST(Rc522Trace, ARecordedSessionReplaysThroughTheRealDriverIntoTheSameEvents) {
  const auto session = record_scripted_session();
  EXPECT_EQ(uids_of(session.events),
            (std::vector<std::string>{"DEADBEEF", "04A1B2C3D4E5F6", "12345678", "0102030405060708090A"}));
  const auto statuses = std::count_if(session.events.begin(), session.events.end(),
                                      [](const auto& event) { return event.kind == EventKind::status; });
  EXPECT_EQ(statuses, 2);
  const auto trace = parse_trace(session.trace_text);
  ASSERT_TRUE(trace) << trace.error();
  EXPECT_EQ(trace->device, "rc522");
  EXPECT_EQ(trace_header_value(*trace, "spi"), "/dev/spidev0.0");
  EXPECT_EQ(trace_header_value(*trace, "rst"), "GPIO22");
  EXPECT_GT(trace->spi_transfers.size(), 100u);
  const auto replayed = decode_trace(*trace);
  ASSERT_TRUE(replayed) << replayed.error();
  EXPECT_EQ(as_json_lines(*replayed), as_json_lines(session.events));
  EXPECT_EQ(*replayed, session.events);
  // Formatting the parsed trace gives back the recorder's text.
  EXPECT_EQ(format_trace(*trace), session.trace_text);
}

TEST(Rc522Trace, ATamperedTransferIsRefusedWithItsTraceLine) {
  const auto session = record_scripted_session();
  const auto trace = parse_trace(session.trace_text);
  ASSERT_TRUE(trace);
  // In the middle of the session (a poll), and during the chip's initialisation.
  const std::size_t mid_session = trace->spi_transfers[trace->spi_transfers.size() / 2].source_line;
  const auto tampered = parse_trace(with_tx_changed(session.trace_text, mid_session));
  ASSERT_TRUE(tampered) << tampered.error();
  const auto refused = decode_trace(*tampered);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().find(fmt::format("trace line {}:", mid_session)), std::string::npos)
      << refused.error();
  EXPECT_NE(refused.error().find("the driver sent"), std::string::npos) << refused.error();

  const auto early = parse_trace(with_tx_changed(session.trace_text, 3));
  ASSERT_TRUE(early);
  const auto refused_early = decode_trace(*early);
  ASSERT_FALSE(refused_early);
  EXPECT_NE(refused_early.error().find("trace line 3:"), std::string::npos) << refused_early.error();

  // Through the device factory the replay is a device like any other: the divergence is reported once,
  // as a status, and the replay ends there.
  auto replay = ReplayRc522Device::create("rc522", *tampered);
  ASSERT_TRUE(replay) << replay.error();
  std::vector<PeripheralEvent> events;
  while (!(*replay)->finished()) {
    auto more = (*replay)->read_events();
    events.insert(events.end(), more.begin(), more.end());
  }
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events.back().kind, EventKind::status);
  EXPECT_NE(events.back().why.find(fmt::format("trace line {}", mid_session)), std::string::npos);
}

TEST(Rc522Trace, ATraceCutInTheMiddleOfAnExchangeIsRefused) {
  const auto session = record_scripted_session();
  auto trace = parse_trace(session.trace_text);
  ASSERT_TRUE(trace);
  // Cut inside an exchange: the first transfer dropped is not the start of a poll (writing CollReg).
  const std::vector<std::uint8_t> poll_start{0x1C, 0x80};
  std::size_t cut = trace->spi_transfers.size() / 3;
  while (trace->spi_transfers[cut].tx == poll_start) ++cut;
  trace->spi_transfers.resize(cut);
  trace->end_ns.reset();
  const auto refused = decode_trace(*trace);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().find("the trace ends here"), std::string::npos) << refused.error();
}

TEST(Rc522Trace, TheParserRefusesMalformedSpiLinesSayingWhatIsWrong) {
  const std::string header = "# boardbank-trace 1 device=rc522 spi=/dev/spidev0.0 rst=GPIO22\n";
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"# boardbank-trace 1 device=rc522 rst=GPIO22\n", "line 1: the header names no spi="},
      {header + "10 spi 8E00\n", "line 2: expected 'TIMESTAMP_NS spi TX_HEX RX_HEX'"},
      {header + "10 spi 8E00 0092 00\n", "expected 'TIMESTAMP_NS spi TX_HEX RX_HEX'"},
      {header + "10 spi 8E0 0092\n", "TX '8E0' is not bytes in hex"},
      {header + "10 spi 8EZZ 0092\n", "TX '8EZZ' is not bytes in hex"},
      {header + "10 spi 8E00 00920\n", "RX '00920' is not bytes in hex"},
      {header + "10 spi 8E00 009200\n", "RX has 3 bytes but TX has 2"},
      {header + "10 spi 8E00 error\n", "says why after 'error'"},
      {header + "x spi 8E00 0092\n", "'x' is not a timestamp"},
      {header + "20 spi 8E00 0092\n10 spi 8E00 0092\n", "line 3: timestamps go back"},
      {header + "10 GPIO22 falling\n", "line 2: an rc522 trace holds SPI transfers"},
      {header + "level GPIO22 1\n", "an rc522 trace holds SPI transfers"},
      {header + "20 spi 8E00 0092\nend 10\n", "'end' before the last transfer"},
      {header + "end 30\n40 spi 8E00 0092\n", "nothing may follow"},
      {"# boardbank-trace 1 device=wiegand d0=GPIO5 d1=GPIO6\n10 spi 8E00 0092\n",
       "line 2: 'spi' transfers belong in an SPI device's trace"},
  };
  for (const auto& [text, why] : bad) {
    const auto trace = parse_trace(text);
    ASSERT_FALSE(trace) << text;
    EXPECT_NE(trace.error().find(why), std::string::npos) << text << " -> " << trace.error();
  }
  const auto good = parse_trace(header +
                                "# a comment\n"
                                "10 spi 8e00 0092\r\n"
                                "20 spi 0200 error SPI transfer failed: Input/output error\n"
                                "end 30\n");
  ASSERT_TRUE(good) << good.error();
  ASSERT_EQ(good->spi_transfers.size(), 2u);
  EXPECT_EQ(good->spi_transfers[0].tx, (std::vector<std::uint8_t>{0x8E, 0x00}));
  EXPECT_EQ(good->spi_transfers[0].rx, (std::vector<std::uint8_t>{0x00, 0x92}));
  EXPECT_EQ(good->spi_transfers[0].source_line, 3u);
  EXPECT_EQ(good->spi_transfers[1].error, "SPI transfer failed: Input/output error");
  EXPECT_EQ(format_trace(*good), header +
                                     "10 spi 8E00 0092\n"
                                     "20 spi 0200 error SPI transfer failed: Input/output error\n"
                                     "end 30\n");
  // A GPIO device's trace still refuses what it always refused.
  EXPECT_FALSE(parse_trace("# boardbank-trace 1 device=wiegand d0=GPIO5\n"));
}

// The committed trace (recorded against the simulated chip by the disabled test below, in the recorder's
// format) replays into exactly the events reviewed when it was committed, by decode_trace (probe --trace)
// and by the device factory's replay backend, polled like the daemon polls.
TEST(Rc522Trace, TheCommittedSessionReplaysIntoItsExpectedEvents) {
  const auto trace = load_trace(kTraceName);
  ASSERT_TRUE(trace) << trace.error();
  const auto events = decode_trace(*trace);
  ASSERT_TRUE(events) << events.error();
  const std::string expected = read_file(kExpectedName);
  EXPECT_EQ(as_json_lines(*events), expected);

  DeviceConfig config;
  config.kind = "rc522";
  config.backend = "replay";
  config.trace_path = kTraceName;
  auto device = open_device(config, [](const std::string& uid) { return uid != "DEADBEEF"; });
  ASSERT_TRUE(device) << device.error();
  std::vector<PeripheralEvent> polled;
  for (int reads = 0; !(*device)->finished() && reads < 1000; ++reads) {
    pollfd fd{(*device)->fd(), POLLIN, 0};
    ASSERT_EQ(poll(&fd, 1, 0), 1) << "a replay with transfers left must be readable";
    auto more = (*device)->read_events();
    polled.insert(polled.end(), more.begin(), more.end());
    EXPECT_TRUE((*device)->invariant_violations().empty());
  }
  ASSERT_TRUE((*device)->finished());
  ASSERT_EQ(polled.size(), events->size());
  EXPECT_EQ(polled[0].kind, EventKind::unknown_card);  // the registry does not know DEADBEEF
  for (std::size_t i = 1; i < polled.size(); ++i) EXPECT_EQ(polled[i], (*events)[i]);
  // Whatever device the config names, the trace says it is an rc522.
  config.kind = "wiegand";
  EXPECT_TRUE(open_device(config));
}

// Recreates the committed trace and its expected events after a deliberate change to the driver's SPI
// conversation: peripherals_tests --gtest_also_run_disabled_tests --gtest_filter='*RegenerateCommitted*'
TEST(Rc522Trace, DISABLED_RegenerateCommittedSession) {
  const auto session = record_scripted_session();
  std::ofstream(kTraceName) << session.trace_text;
  std::ofstream(kExpectedName) << as_json_lines(session.events);
}

TEST(Rc522Trace, RecordingRunsTheDriverAsTheDaemonWouldAndWritesAReplayableTrace) {
  auto chip = std::make_unique<FakeMfrc522>();
  chip->add_card({0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66});
  std::ostringstream out;
  std::vector<PeripheralEvent> seen;
  Rc522RecordRequest request;
  request.spi_device = "/dev/spidev0.1";
  request.reset_line = "";
  request.poll_interval = 20 * kMillisecond;
  const auto recorded = record_rc522(
      request, std::move(chip), nullptr, 150 * kMillisecond, out,
      [&](const PeripheralEvent& event) { seen.push_back(event); }, [] { return true; });
  ASSERT_TRUE(recorded) << recorded.error();
  EXPECT_GT(*recorded, 20u);
  EXPECT_EQ(uids_of(seen), (std::vector<std::string>{"04112233445566"}));
  EXPECT_TRUE(out.str().starts_with("# boardbank-trace 1 device=rc522 spi=/dev/spidev0.1 chip=gpiochip0\n"))
      << out.str().substr(0, 100);
  const auto trace = parse_trace(out.str());
  ASSERT_TRUE(trace) << trace.error();
  EXPECT_EQ(trace->spi_transfers.size(), *recorded);
  EXPECT_TRUE(trace->end_ns);
  const auto replayed = decode_trace(*trace);
  ASSERT_TRUE(replayed) << replayed.error();
  EXPECT_EQ(uids_of(*replayed), uids_of(seen));

  Rc522RecordRequest missing;
  missing.spi_device = "/dev/spidev-does-not-exist.0";
  const auto no_spi = record_rc522_on_pi(
      missing, kSecond, out, [](const PeripheralEvent&) {}, [] { return true; });
  ASSERT_FALSE(no_spi);
  EXPECT_NE(no_spi.error().find("enable SPI"), std::string::npos) << no_spi.error();
}

}  // namespace
}  // namespace bb::peripherals
