#include "peripherals/dice_decoder.h"

#include <gtest/gtest.h>

#include "decode_helpers.h"
#include "peripherals/button_decoder.h"
#include "peripherals/dice_roller.h"
#include "peripherals/dice_unit_model.h"
#include "peripherals/trace_generator.h"

namespace bb::peripherals {
namespace {

using testing::decode_all;
using testing::of_kind;

void append(std::vector<Edge>& to, const std::vector<Edge>& more) {
  to.insert(to.end(), more.begin(), more.end());
}

TEST(DiceDecoder, ReadsEveryPairOfFacesWithRollingInBetween) {
  DiceUnitModel unit;
  std::vector<Edge> edges;
  Nanoseconds t = 0;
  for (int a = 1; a <= 6; ++a) {
    for (int b = 1; b <= 6; ++b) {
      append(edges, unit.report(t, 0, 0));
      append(edges, unit.report(t + 10 * kMillisecond, a, b));
      t += 100 * kMillisecond;
    }
  }
  DiceDecoder decoder("table");
  const auto events = decode_all(decoder, edges, 10 * kMillisecond);
  ASSERT_EQ(events.size(), 36u);
  for (int i = 0; i < 36; ++i) {
    EXPECT_EQ(events[static_cast<std::size_t>(i)].kind, EventKind::dice);
    EXPECT_EQ(events[static_cast<std::size_t>(i)].dice, (std::array<int, 2>{i / 6 + 1, i % 6 + 1}));
  }
  EXPECT_EQ(events[0].id, "dice:table:10100000");  // strobe 100 us after the data
}

TEST(DiceDecoder, CountsOneRollOnceEvenWhenTheUnitRepeatsIt) {
  DiceUnitModel unit;
  std::vector<Edge> edges;
  append(edges, unit.report(0, 5, 2));
  append(edges, unit.report(10 * kMillisecond, 5, 2));
  append(edges, unit.report(20 * kMillisecond, 0, 0));  // heartbeat / rolling re-arms
  append(edges, unit.report(30 * kMillisecond, 5, 2));
  DiceDecoder decoder;
  const auto events = decode_all(decoder, edges, 10 * kMillisecond);
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[0].kind, EventKind::dice);
  EXPECT_EQ(events[1].kind, EventKind::rejected);
  EXPECT_NE(events[1].why.find("without rolling"), std::string::npos);
  EXPECT_EQ(events[2].kind, EventKind::dice);
}

TEST(DiceDecoder, RejectsAStrobeWithoutValidData) {
  DiceUnitModel unit;
  const DiceUnitTiming normal{};
  const std::vector<std::pair<std::vector<Edge>, std::string>> cases = {
      {unit.report(0, 3, 4, normal, false), "bad parity"},
      {unit.report(0, 7, 4), "fault"},
      {unit.report(0, 2, 7), "fault"},
      {unit.report_changing(0, 3, 4, 5), "changed"},
      {unit.report(0, 3, 4, DiceUnitTiming{100 * kMicrosecond, 1'900 * kMicrosecond}), "too short"},
  };
  for (const auto& [edges, why] : cases) {
    DiceDecoder decoder;
    const auto events = decode_all(decoder, edges, 10 * kMillisecond);
    ASSERT_EQ(events.size(), 1u) << why;
    EXPECT_EQ(events[0].kind, EventKind::rejected);
    EXPECT_NE(events[0].why.find(why), std::string::npos) << events[0].why;
  }
}

TEST(DiceDecoder, AcceptsAStrobeOfExactlyTwoMillisecondsAndIgnoresStrobeGlitches) {
  DiceUnitModel unit;
  std::vector<Edge> edges = unit.report(0, 1, 6, DiceUnitTiming{100 * kMicrosecond, 2 * kMillisecond});
  append(edges, unit.strobe(50 * kMillisecond, 10 * kMicrosecond));
  DiceDecoder decoder;
  const auto events = decode_all(decoder, edges, 10 * kMillisecond);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].dice, (std::array<int, 2>{1, 6}));
}

TEST(DiceDecoder, ReportsAMissingUnitAfterThreeSilentSecondsAndItsReturn) {
  DiceUnitModel unit;
  std::vector<Edge> edges;
  for (int beat = 0; beat < 3; ++beat) append(edges, unit.report(beat * kSecond, 0, 0));
  DiceDecoder decoder;
  std::vector<PeripheralEvent> events;
  for (const Edge& edge : edges) decoder.feed(edge, events);
  decoder.advance(2 * kSecond + 2'999 * kMillisecond, events);
  EXPECT_TRUE(events.empty());
  decoder.advance(2 * kSecond + 3'001 * kMillisecond, events);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, EventKind::status);
  EXPECT_NE(events[0].why.find("dice unit missing"), std::string::npos);
  EXPECT_TRUE(decoder.unit_missing());
  decoder.advance(20 * kSecond, events);
  EXPECT_EQ(events.size(), 1u);  // said once
  for (const Edge& edge : unit.report(21 * kSecond, 0, 0)) decoder.feed(edge, events);
  decoder.advance(22 * kSecond, events);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[1].why, "dice unit back");
  EXPECT_FALSE(decoder.unit_missing());
}

TEST(DiceDecoder, AUnitUnpluggedMidRollGivesNoRollAndIsReportedMissing) {
  DiceUnitModel unit;
  std::vector<Edge> edges = unit.report(0, 0, 0);
  // Rolling, then the cable comes out while the strobe is low: every line floats up to 1 (7/7).
  append(edges, {{10 * kMillisecond, DiceDecoder::kStb, false}});
  append(edges, unit.unplug(10 * kMillisecond + 500 * kMicrosecond));
  DiceDecoder decoder;
  const auto events = decode_all(decoder, edges, 4 * kSecond);
  EXPECT_TRUE(of_kind(events, EventKind::dice).empty());
  ASSERT_EQ(of_kind(events, EventKind::status).size(), 1u);
  EXPECT_NE(of_kind(events, EventKind::status)[0].why.find("missing"), std::string::npos);
}

TEST(ButtonDecoder, OneDebouncedPressRollsTwoDiceFromTheRandomSource) {
  std::vector<std::uint8_t> bytes{255, 2, 253, 11};  // 255 and 253 are redrawn: faces 3 and 6
  std::size_t next = 0;
  DiceRoller roller([&](std::span<std::uint8_t> out) {
    for (auto& byte : out) byte = bytes[next++ % bytes.size()];
  });
  auto decoder = std::make_unique<ButtonDecoder>("button", roller);
  std::vector<Edge> edges = button_press_edges(0, 150 * kMillisecond);
  edges = merge_edges(edges, button_press_edges(kSecond, 5 * kMillisecond));  // too short: bounce only
  const auto events = decode_all(*decoder, edges);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, EventKind::dice);
  EXPECT_EQ(events[0].dice, (std::array<int, 2>{3, 6}));
}

TEST(DiceRoller, KernelRandomFacesAreAllSixAndNothingElse) {
  DiceRoller roller;
  std::array<int, 7> seen{};
  for (int i = 0; i < 600; ++i) {
    for (const int die : roller.roll()) {
      ASSERT_GE(die, 1);
      ASSERT_LE(die, 6);
      ++seen[static_cast<std::size_t>(die)];
    }
  }
  for (int face = 1; face <= 6; ++face) EXPECT_GT(seen[static_cast<std::size_t>(face)], 0);
}

}  // namespace
}  // namespace bb::peripherals
