#include "peripherals/wiegand_decoder.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <optional>

#include "decode_helpers.h"
#include "peripherals/trace_generator.h"

namespace bb::peripherals {
namespace {

using testing::decode_all;
using testing::of_kind;

std::vector<std::uint8_t> bits_of(const std::string& uid, int bits) {
  auto frame = wiegand_frame_bits({uid, bits});
  EXPECT_TRUE(frame.has_value());
  return frame.value_or(std::vector<std::uint8_t>{});
}

std::vector<PeripheralEvent> decode(const std::vector<Edge>& edges) {
  WiegandDecoder decoder("front");
  return decode_all(decoder, edges);
}

TEST(WiegandFrame, KnownCardHasKnownParity) {
  // 0x1A2 (the 12 leading data bits) holds 4 ones: even parity bit 0; 0xB3C holds 7: odd parity bit 0.
  // 0x0A2 holds 3 and 0xB3D holds 8: both parity bits 1.
  const auto bits = bits_of("1A2B3C", 26);
  ASSERT_EQ(bits.size(), 26u);
  EXPECT_EQ(bits.front(), 0);
  EXPECT_EQ(bits.back(), 0);
  const auto other = bits_of("0A2B3D", 26);
  EXPECT_EQ(other.front(), 1);
  EXPECT_EQ(other.back(), 1);
  std::string error;
  const auto card = wiegand_decode_bits(bits, &error);
  ASSERT_TRUE(card) << error;
  EXPECT_EQ(card->uid, "1A2B3C");
  EXPECT_FALSE(wiegand_frame_bits({"1A2B3", 26}));
  EXPECT_FALSE(wiegand_frame_bits({"1A2B3C", 30}));
  EXPECT_FALSE(wiegand_frame_bits({"1A2B3G", 26}));
}

struct Timing {
  Nanoseconds pulse;
  Nanoseconds interval;
};

class WiegandTimingLimits : public ::testing::TestWithParam<Timing> {};

TEST_P(WiegandTimingLimits, Decodes26And34BitFramesWithBounceAndGlitches) {
  const WiegandPulses timing{GetParam().pulse, GetParam().interval};
  for (const auto& [uid, bits] : std::vector<std::pair<std::string, int>>{
           {"1A2B3C", 26}, {"00000000", 34}, {"FFFFFF", 26}, {"DEADBEEF", 34}}) {
    const auto clean = wiegand_edges(bits_of(uid, bits), 5 * kMillisecond, timing);
    auto events = decode(clean);
    ASSERT_EQ(events.size(), 1u) << uid;
    EXPECT_EQ(events[0].kind, EventKind::card);
    EXPECT_EQ(events[0].uid, uid);
    EXPECT_EQ(events[0].bits, bits);
    EXPECT_EQ(events[0].ts_ns, 5 * kMillisecond);
    EXPECT_EQ(events[0].id, "wiegand:front:5000000");

    // Contact bounce at every edge (2 us toggles) and glitches between bits on both lines.
    auto noisy = with_bounce(clean, 2, 2 * kMicrosecond);
    for (int i = 0; i + 1 < bits; i += 5) {
      const Nanoseconds between = 5 * kMillisecond + i * timing.interval + timing.pulse + 30 * kMicrosecond;
      if (between + 3 * kMicrosecond < 5 * kMillisecond + (i + 1) * timing.interval) {
        noisy = merge_edges(noisy, glitch(i % 2, between, 3 * kMicrosecond));
      }
    }
    WiegandDecoder decoder("front");
    events = decode_all(decoder, noisy);
    ASSERT_EQ(of_kind(events, EventKind::card).size(), 1u) << uid;
    EXPECT_EQ(events[0].uid, uid);
    EXPECT_TRUE(of_kind(events, EventKind::rejected).empty());
    EXPECT_GT(decoder.glitches(), 0);
  }
}

INSTANTIATE_TEST_SUITE_P(PulsesAndIntervals, WiegandTimingLimits,
                         ::testing::Values(Timing{20 * kMicrosecond, 200 * kMicrosecond},
                                           Timing{100 * kMicrosecond, 200 * kMicrosecond},
                                           Timing{20 * kMicrosecond, 20 * kMillisecond},
                                           Timing{100 * kMicrosecond, 20 * kMillisecond},
                                           Timing{50 * kMicrosecond, 2 * kMillisecond}));

TEST(WiegandDecoder, RejectsMissingAndExtraBits) {
  auto bits = bits_of("1A2B3C", 26);
  auto missing = bits;
  missing.erase(missing.begin() + 7);
  auto events = decode(wiegand_edges(missing, 0));
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, EventKind::rejected);
  EXPECT_NE(events[0].why.find("25 bits"), std::string::npos) << events[0].why;

  auto extra = bits;
  extra.push_back(1);
  events = decode(wiegand_edges(extra, 0));
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, EventKind::rejected);
  EXPECT_NE(events[0].why.find("27 bits"), std::string::npos) << events[0].why;

  std::vector<std::uint8_t> many(80, 1);
  events = decode(wiegand_edges(many, 0));
  ASSERT_EQ(events.size(), 1u);
  EXPECT_NE(events[0].why.find("80 bits"), std::string::npos) << events[0].why;
}

TEST(WiegandDecoder, RejectsBadParityAndSaysWhenD0AndD1AreSwapped) {
  for (const auto& [uid, bits] : std::vector<std::pair<std::string, int>>{{"1A2B3C", 26}, {"12345678", 34}}) {
    const auto frame = bits_of(uid, bits);
    auto events = decode(swap_lines01(wiegand_edges(frame, 0)));
    ASSERT_EQ(events.size(), 1u);
    EXPECT_EQ(events[0].kind, EventKind::rejected);
    EXPECT_NE(events[0].why.find("swapped"), std::string::npos) << events[0].why;

    for (std::size_t flip : {std::size_t{0}, std::size_t{3}, frame.size() - 3, frame.size() - 1}) {
      auto bad = frame;
      bad[flip] ^= 1;
      events = decode(wiegand_edges(bad, 0));
      ASSERT_EQ(events.size(), 1u);
      EXPECT_EQ(events[0].kind, EventKind::rejected);
      EXPECT_NE(events[0].why.find("parity"), std::string::npos) << events[0].why;
    }
  }
}

TEST(WiegandDecoder, TwoCardsInFastSuccessionAndTheSameCardOnceWithinOneAndAHalfSeconds) {
  const WiegandPulses timing{};
  const auto a = wiegand_edges(bits_of("1A2B3C", 26), 0, timing);
  const auto b = wiegand_edges(bits_of("0BCDEF", 26), a.back().ts_ns + 26 * kMillisecond, timing);
  auto events = decode(merge_edges(a, b));
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].uid, "1A2B3C");
  EXPECT_EQ(events[1].uid, "0BCDEF");

  // The same card read three times while held (every 0.7 s) is one tap; after 2 s of absence, a new one.
  std::vector<Edge> held;
  for (const Nanoseconds start :
       {Nanoseconds{0}, 700 * kMillisecond, 1400 * kMillisecond, 3400 * kMillisecond}) {
    held = merge_edges(held, wiegand_edges(bits_of("1A2B3C", 26), start, timing));
  }
  WiegandDecoder decoder("front");
  events = decode_all(decoder, held);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].ts_ns, 0);
  EXPECT_EQ(events[1].ts_ns, 3400 * kMillisecond);
  EXPECT_EQ(decoder.repeats_suppressed(), 2);
}

// Asked to, the decoder reports the same card within the window flagged as a repeat instead of dropping it
// (the table judges it); a reader that sends one frame per tap counts every frame.
TEST(WiegandDecoder, RepeatsAreReportedFlaggedWhenAskedAndEveryFrameCountsForOneFramePerTap) {
  std::vector<Edge> held;
  for (const Nanoseconds start : {Nanoseconds{0}, 700 * kMillisecond, 3400 * kMillisecond})
    held = merge_edges(held, wiegand_edges(bits_of("1A2B3C", 26), start));
  WiegandTiming reporting;
  reporting.report_repeats = true;
  WiegandDecoder judged("front", reporting);
  auto events = decode_all(judged, held);
  ASSERT_EQ(events.size(), 3u);
  EXPECT_FALSE(events[0].repeat);
  EXPECT_TRUE(events[1].repeat);
  EXPECT_EQ(events[1].kind, EventKind::card);
  EXPECT_EQ(events[1].id, fmt::format("wiegand:front:{}", 700 * kMillisecond));
  EXPECT_FALSE(events[2].repeat);
  EXPECT_NE(to_json_line(events[1]).find("\"repeat\":true"), std::string::npos) << to_json_line(events[1]);
  EXPECT_EQ(to_json_line(events[0]).find("repeat"), std::string::npos);

  WiegandTiming once;
  once.same_card_window = 0;
  WiegandDecoder every("front", once);
  events = decode_all(every, held);
  ASSERT_EQ(events.size(), 3u);
  for (const auto& e : events) EXPECT_FALSE(e.repeat);
  EXPECT_EQ(every.repeats_suppressed(), 0);
}

TEST(WiegandDecoder, EndsFrameAfterTheGapOnlyAndRejectsALineStuckLow) {
  WiegandDecoder decoder("front");
  std::vector<PeripheralEvent> events;
  const auto edges = wiegand_edges(bits_of("1A2B3C", 26), 0);
  for (const Edge& edge : edges) decoder.feed(edge, events);
  ASSERT_TRUE(decoder.next_deadline());
  EXPECT_EQ(*decoder.next_deadline(), edges.back().ts_ns + WiegandTiming{}.frame_gap);
  decoder.advance(*decoder.next_deadline() - 1, events);
  EXPECT_TRUE(events.empty());
  decoder.advance(*decoder.next_deadline(), events);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_FALSE(decoder.next_deadline());

  events.clear();
  decoder.feed({10 * kSecond, WiegandDecoder::kD0, false}, events);
  decoder.advance(11 * kSecond, events);
  decoder.feed({12 * kSecond, WiegandDecoder::kD0, true}, events);
  decoder.advance(13 * kSecond, events);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, EventKind::rejected);
  EXPECT_NE(events[0].why.find("held low"), std::string::npos) << events[0].why;
}

TEST(WiegandDecoder, NeverAcceptsAFrameWithBadParityFromRandomBits) {
  std::uint32_t state = 12345;
  for (int round = 0; round < 2000; ++round) {
    std::vector<std::uint8_t> bits(round % 2 ? 26 : 34);
    for (auto& bit : bits) {
      state = state * 1664525u + 1013904223u;
      bit = (state >> 16) & 1U;
    }
    const auto events = decode(wiegand_edges(bits, 0));
    ASSERT_EQ(events.size(), 1u);
    std::string error;
    const bool valid = wiegand_decode_bits(bits, &error).has_value();
    EXPECT_EQ(events[0].kind == EventKind::card, valid);
  }
}

WiegandTiming of_length(int bits) {
  WiegandTiming timing;
  timing.frame_bits = bits;
  return timing;
}

// A reader whose frame length is configured: the card is known at the last bit's rising edge, not 25 ms
// later, with or without contact bounce and glitches; the frame leaves nothing open behind it.
TEST(WiegandDecoder, AConfiguredLengthEndsTheFrameAtItsLastBit) {
  for (const auto& [uid, bits] :
       std::vector<std::pair<std::string, int>>{{"1A2B3C", 26}, {"0BCDEF", 26}, {"DEADBEEF", 34}}) {
    const auto clean = wiegand_edges(bits_of(uid, bits), 5 * kMillisecond);
    for (const auto& edges : {clean, with_bounce(clean, 2, 2 * kMicrosecond)}) {
      WiegandDecoder decoder("front", of_length(bits));
      std::vector<PeripheralEvent> events;
      for (const Edge& edge : edges) {
        decoder.feed(edge, events);
        if (edge.ts_ns < clean.back().ts_ns) {
          EXPECT_TRUE(events.empty()) << uid << " ended before its last bit";
        }
      }
      ASSERT_EQ(of_kind(events, EventKind::card).size(), 1u) << uid;
      EXPECT_EQ(events[0].uid, uid);
      EXPECT_EQ(events[0].bits, bits);
      // The frame's first bit (its first edge when clean), as without a length.
      if (edges.size() == clean.size()) {
        EXPECT_EQ(events[0].id, "wiegand:front:5000000");
      }
      EXPECT_FALSE(decoder.next_deadline()) << uid;
      decoder.finish(clean.back().ts_ns + kSecond, events);
      EXPECT_EQ(events.size(), 1u) << uid;
      EXPECT_TRUE(decoder.invariant_violations().empty());
    }
  }
}

// At the configured length a frame whose parity does not check out is not whole yet: it waits for the gap
// as before and is refused then with the parity's reason.
TEST(WiegandDecoder, AConfiguredLengthWaitsForTheGapWhenTheParityFails) {
  auto bad = bits_of("1A2B3C", 26);
  bad[3] ^= 1U;
  WiegandDecoder decoder("front", of_length(26));
  std::vector<PeripheralEvent> events;
  const auto edges = wiegand_edges(bad, 0);
  for (const Edge& edge : edges) decoder.feed(edge, events);
  EXPECT_TRUE(events.empty());
  ASSERT_TRUE(decoder.next_deadline());
  EXPECT_EQ(*decoder.next_deadline(), edges.back().ts_ns + WiegandTiming{}.frame_gap);
  decoder.advance(*decoder.next_deadline(), events);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, EventKind::rejected);
  EXPECT_NE(events[0].why.find("parity"), std::string::npos) << events[0].why;
}

// A reader configured as 26 bits that sends 34: where the first 26 bits happen to check out the frame ends
// there, and the 8 bits that follow are refused with what to set; the next tap is read again.
TEST(WiegandDecoder, AReaderSendingLongerFramesThanConfiguredIsRefusedWithWhatToSet) {
  std::optional<std::vector<std::uint8_t>> longer;
  for (std::uint32_t value = 0x10000000; !longer && value < 0x10000400; ++value) {
    auto bits = bits_of(fmt::format("{:08X}", value), 34);
    const std::vector<std::uint8_t> head(bits.begin(), bits.begin() + 26);
    if (wiegand_decode_bits(head, nullptr)) longer = bits;
  }
  ASSERT_TRUE(longer);
  WiegandDecoder decoder("front", of_length(26));
  const auto edges = wiegand_edges(*longer, 0);
  auto events = decode_all(decoder, edges);
  const auto refused = of_kind(events, EventKind::rejected);
  ASSERT_EQ(refused.size(), 1u);
  EXPECT_NE(refused[0].why.find("more than 26 bits"), std::string::npos) << refused[0].why;
  EXPECT_NE(refused[0].why.find("bits = 34"), std::string::npos) << refused[0].why;

  // A 26-bit card a second later is read normally.
  events.clear();
  for (const Edge& edge : wiegand_edges(bits_of("1A2B3C", 26), 2 * kSecond)) decoder.feed(edge, events);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, EventKind::card);
  EXPECT_EQ(events[0].uid, "1A2B3C");
}

// "any" (0) keeps today's behaviour: a 26-bit frame waits for the gap (a 34-bit one might be on its way).
TEST(WiegandDecoder, AnyLengthStillEndsTheFrameAfterTheGap) {
  WiegandDecoder decoder("front", of_length(0));
  std::vector<PeripheralEvent> events;
  const auto edges = wiegand_edges(bits_of("1A2B3C", 26), 0);
  for (const Edge& edge : edges) decoder.feed(edge, events);
  EXPECT_TRUE(events.empty());
  decoder.advance(edges.back().ts_ns + WiegandTiming{}.frame_gap, events);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, EventKind::card);
}

}  // namespace
}  // namespace bb::peripherals
