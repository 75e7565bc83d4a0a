#include "peripherals/trace.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "decode_helpers.h"
#include "peripherals/probe.h"

namespace bb::peripherals {
namespace {

using testing::read_file;

TEST(TraceLimits, AnErrorQuotesAtMostFortyPrintableCharactersOfTheWord) {
  std::string text = "# boardbank-trace 1 device=wiegand d0=GPIO5 d1=GPIO6\n";
  text += std::string(3000, '9') + "x GPIO5 rising\n";
  auto trace = parse_trace(text);
  ASSERT_FALSE(trace.has_value());
  EXPECT_EQ(trace.error(),
            "trace line 2: '" + std::string(40, '9') + "... (3001 bytes)' is not a timestamp in nanoseconds");
  auto control =
      parse_trace("# boardbank-trace 1 device=wiegand d0=GPIO5 d1=GPIO6\n1\x01\x7f GPIO5 rising\n");
  ASSERT_FALSE(control.has_value());
  EXPECT_EQ(control.error(), "trace line 2: '1\\x01\\x7F' is not a timestamp in nanoseconds");
}

TEST(TraceLimits, NulBytesAndEndlessLinesAreRefused) {
  std::string header = "# boardbank-trace 1 device=wiegand d0=GPIO5 d1=GPIO6\n";
  auto nul = parse_trace(header + std::string("12\0\0 GPIO5 rising\n", 18));
  ASSERT_FALSE(nul.has_value());
  EXPECT_EQ(nul.error(), "trace line 2: the line holds a NUL byte: not a text trace");
  auto endless = parse_trace(header + std::string(5000, ' ') + "\n");
  ASSERT_FALSE(endless.has_value());
  EXPECT_EQ(endless.error(),
            "trace line 2: the line is 5000 bytes long, longer than any trace line (4096 at most)");
}

TEST(Trace, ParsesTheIssuesHeaderAndEdgesByLineNameOrRole) {
  const auto trace = parse_trace(
      "# boardbank-trace 1 device=wiegand d0=GPIO5 d1=GPIO6\n"
      "level GPIO6 0\n"
      "100 GPIO5 falling\n"
      "# a comment\n"
      "\n"
      "150 d0 rising\r\n"
      "end 200\n");
  ASSERT_TRUE(trace) << trace.error();
  EXPECT_EQ(trace->device, "wiegand");
  ASSERT_EQ(trace->lines.size(), 2u);
  EXPECT_EQ(trace->lines[1], (std::pair<std::string, std::string>{"d1", "GPIO6"}));
  EXPECT_EQ(trace->initial_levels[1], false);
  EXPECT_FALSE(trace->initial_levels[0]);
  ASSERT_EQ(trace->edges.size(), 2u);
  EXPECT_EQ(trace->edges[1], (Edge{150, 0, true}));
  EXPECT_EQ(trace->end_ns, 200);
  const auto again = parse_trace(format_trace(*trace));
  ASSERT_TRUE(again);
  EXPECT_EQ(again->edges, trace->edges);
  EXPECT_EQ(again->initial_levels, trace->initial_levels);
  EXPECT_EQ(again->end_ns, trace->end_ns);
}

TEST(Trace, ErrorsNameTheLineAndWhatIsWrong) {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"", "empty trace"},
      {"hello\n", "line 1: not a boardbank trace"},
      {"# boardbank-trace 2 device=dice\n", "version"},
      {"# boardbank-trace 1 device=toaster\n", "unknown device 'toaster'"},
      {"# boardbank-trace 1 device=wiegand d0=GPIO5\n", "no d1= line"},
      {"# boardbank-trace 1 device=wiegand d0=GPIO5 d1=GPIO5\n", "each role needs its own line"},
      {"# boardbank-trace 1 device=wiegand d0=GPIO5 d1=GPIO6\n10 GPIO7 rising\n", "line 2: line 'GPIO7'"},
      {"# boardbank-trace 1 device=wiegand d0=GPIO5 d1=GPIO6\n10 GPIO5 up\n", "rising' or 'falling"},
      {"# boardbank-trace 1 device=wiegand d0=GPIO5 d1=GPIO6\n20 GPIO5 falling\n10 GPIO5 rising\n",
       "line 3: timestamps go back"},
      {"# boardbank-trace 1 device=wiegand d0=GPIO5 d1=GPIO6\n-5 GPIO5 falling\n", "not a timestamp"},
      {"# boardbank-trace 1 device=wiegand d0=GPIO5 d1=GPIO6\n5 GPIO5 falling\nlevel GPIO5 1\n",
       "before the first edge"},
      {"# boardbank-trace 1 device=wiegand d0=GPIO5 d1=GPIO6\nend 5\n6 GPIO5 falling\n",
       "nothing may follow"},
  };
  for (const auto& [text, why] : bad) {
    const auto trace = parse_trace(text);
    ASSERT_FALSE(trace) << text;
    EXPECT_NE(trace.error().find(why), std::string::npos) << trace.error();
  }
  EXPECT_FALSE(load_trace("no/such/file.trace"));
}

// A file that opens but fails part-way through reading is refused, never parsed as the part that was read:
// reading /proc/self/mem from its start fails with an I/O error (nothing is mapped at address zero).
TEST(TraceFormat, AReadThatFailsIsRefused) {
  std::ifstream probe("/proc/self/mem", std::ios::binary);
  if (!probe) GTEST_SKIP() << "no /proc/self/mem here";
  const auto trace = load_trace("/proc/self/mem");
  ASSERT_FALSE(trace);
  EXPECT_NE(trace.error().find("cannot read trace"), std::string::npos) << trace.error();
}

// The committed traces (synthesised with jitter, bounce and noise, in the recorder's format) replay into
// exactly the events reviewed when they were committed.
TEST(RecordedTraces, ReplayGivesTheSameEvents) {
  for (const std::string name : {"wiegand_session", "dice_session"}) {
    const auto trace = load_trace(std::string(TRACES_DIR) + "/" + name + ".trace");
    ASSERT_TRUE(trace) << trace.error();
    const auto events = decode_trace(*trace);
    ASSERT_TRUE(events) << events.error();
    std::string json;
    for (const auto& event : *events) json += to_json_line(event) + "\n";
    EXPECT_EQ(json, read_file(std::string(TRACES_DIR) + "/" + name + ".expected.jsonl")) << name;
    const auto twice = decode_trace(*trace);
    ASSERT_TRUE(twice);
    EXPECT_EQ(*twice, *events);
  }
}

TEST(RecordedTraces, ButtonPressesRollOncePerPressAndIgnoreBounce) {
  const auto trace = load_trace(std::string(TRACES_DIR) + "/button_session.trace");
  ASSERT_TRUE(trace) << trace.error();
  const auto events = decode_trace(*trace, DiceRoller([](std::span<std::uint8_t> out) {
    for (auto& byte : out) byte = 7;  // 7 % 6 + 1 = 2
  }));
  ASSERT_TRUE(events);
  ASSERT_EQ(events->size(), 2u);  // the 8 ms press is bounce, not a press
  for (const auto& event : *events) {
    EXPECT_EQ(event.kind, EventKind::dice);
    EXPECT_EQ(event.dice, (std::array<int, 2>{2, 2}));
  }
}

}  // namespace
}  // namespace bb::peripherals
