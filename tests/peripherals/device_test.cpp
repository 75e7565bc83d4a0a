#include <fmt/format.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <unistd.h>

#include "decode_helpers.h"
#include "peripherals/device_factory.h"
#include "peripherals/edge_device.h"
#include "peripherals/replay_edge_source.h"
#include "peripherals/simulated_edge_source.h"
#include "peripherals/trace_generator.h"
#include "peripherals/wiegand_decoder.h"

namespace bb::peripherals {
namespace {

DeviceConfig config(std::string kind, std::string backend = "real", int input_fd = -1,
                    std::string trace = "") {
  DeviceConfig config;
  config.kind = std::move(kind);
  config.backend = std::move(backend);
  config.input_fd = input_fd;
  config.trace_path = std::move(trace);
  return config;
}

// Waits on the device's fd like the daemon's loop does, until `count` events of `kind` came or 5 s passed.
std::vector<PeripheralEvent> wait_for(Device& device, EventKind kind, std::size_t count) {
  std::vector<PeripheralEvent> events;
  const Nanoseconds give_up = monotonic_now() + 5 * kSecond;
  while (testing::of_kind(events, kind).size() < count && monotonic_now() < give_up) {
    pollfd fd{device.fd(), POLLIN, 0};
    if (poll(&fd, 1, 50) > 0) {
      auto more = device.read_events();
      events.insert(events.end(), more.begin(), more.end());
      EXPECT_TRUE(device.invariant_violations().empty());
    }
  }
  return events;
}

TEST(ReplayDevice, DeliversInBatchesWhatThePureDecoderDecodes) {
  std::vector<Edge> edges;
  for (int i = 0; i < 20; ++i) {
    const auto uid = fmt::format("{:06X}", 0x100000 + i * 4097);
    edges =
        merge_edges(edges, wiegand_edges(*wiegand_frame_bits(WiegandCard{uid, 26}), i * 100 * kMillisecond));
  }
  Trace trace = *make_trace("wiegand", {"GPIO5", "GPIO6"});
  trace.edges = edges;
  WiegandDecoder pure("wiegand");
  const auto expected = testing::decode_all(pure, edges, 0);
  ASSERT_EQ(expected.size(), 20u);

  auto device = EdgeDevice::create("wiegand", std::make_unique<ReplayEdgeSource>(trace, 7),
                                   std::make_unique<WiegandDecoder>("wiegand"),
                                   [](const std::string& uid) { return uid != "100000"; });
  ASSERT_TRUE(device);
  std::vector<PeripheralEvent> events;
  int reads = 0;
  while (!(*device)->finished()) {
    pollfd fd{(*device)->fd(), POLLIN, 0};
    ASSERT_EQ(poll(&fd, 1, 0), 1) << "a replay with edges left must be readable";
    auto more = (*device)->read_events();
    events.insert(events.end(), more.begin(), more.end());
    ++reads;
  }
  EXPECT_GT(reads, 10);
  EXPECT_EQ((*device)->edges_decoded(), edges.size());
  ASSERT_EQ(events.size(), expected.size());
  EXPECT_EQ(events[0].kind, EventKind::unknown_card);  // the registry does not know 100000
  for (std::size_t i = 1; i < events.size(); ++i) EXPECT_EQ(events[i], expected[i]);
}

TEST(SimulatedDevice, ScriptedCardsRollsAndPressesComeOutOfThePollableFd) {
  auto wiegand = open_device(config("wiegand", "simulated"));
  ASSERT_TRUE(wiegand) << wiegand.error();
  auto* source = dynamic_cast<SimulatedEdgeSource*>(&dynamic_cast<EdgeDevice&>(**wiegand).source());
  ASSERT_NE(source, nullptr);
  ASSERT_TRUE(source->command("card 1a2b3c"));
  ASSERT_TRUE(source->command("card 12345678"));
  const auto bad = source->command("card 12");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().find("6 hex digits"), std::string::npos);
  auto cards = testing::of_kind(wait_for(**wiegand, EventKind::card, 2), EventKind::card);
  ASSERT_EQ(cards.size(), 2u);
  EXPECT_EQ(cards[0].uid, "1A2B3C");
  EXPECT_EQ(cards[1].uid, "12345678");
  EXPECT_EQ(cards[1].bits, 34);

  auto dice = open_device(config("dice", "simulated"));
  ASSERT_TRUE(dice) << dice.error();
  auto* dice_source = dynamic_cast<SimulatedEdgeSource*>(&dynamic_cast<EdgeDevice&>(**dice).source());
  ASSERT_TRUE(dice_source->command("roll 2 5"));
  auto rolls = testing::of_kind(wait_for(**dice, EventKind::dice, 1), EventKind::dice);
  ASSERT_EQ(rolls.size(), 1u);
  EXPECT_EQ(rolls[0].dice, (std::array<int, 2>{2, 5}));
}

TEST(SimulatedDevice, CommandsTypedAtATerminalOrPipedIn) {
  int pipe_fds[2];
  ASSERT_EQ(pipe(pipe_fds), 0);
  auto button =
      open_device(config("button", "simulated", pipe_fds[0]), {}, DiceRoller([](std::span<std::uint8_t> out) {
                    for (auto& byte : out) byte = 0;  // face 1
                  }));
  ASSERT_TRUE(button) << button.error();
  const std::string typed = "press\nsing\n";
  ASSERT_EQ(write(pipe_fds[1], typed.data(), typed.size()), static_cast<ssize_t>(typed.size()));
  const auto events = wait_for(**button, EventKind::dice, 1);
  const auto rolls = testing::of_kind(events, EventKind::dice);
  ASSERT_EQ(rolls.size(), 1u);
  EXPECT_EQ(rolls[0].dice, (std::array<int, 2>{1, 1}));
  const auto notes = testing::of_kind(events, EventKind::status);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].why.find("unknown button command 'sing'"), std::string::npos) << notes[0].why;
  close(pipe_fds[1]);
  close(pipe_fds[0]);
}

TEST(DeviceFactory, ParsesLineListsAndRefusesUnknownThings) {
  EXPECT_EQ(*parse_line_list("wiegand", "d1=GPIO6,d0=GPIO5"), (std::vector<std::string>{"GPIO5", "GPIO6"}));
  EXPECT_EQ(*parse_line_list("button", "27"), (std::vector<std::string>{"27"}));
  EXPECT_FALSE(parse_line_list("wiegand", "GPIO5"));
  EXPECT_FALSE(parse_line_list("wiegand", "d0=GPIO5,dx=GPIO6"));
  EXPECT_FALSE(parse_line_list("toaster", "GPIO5"));
  EXPECT_EQ(default_lines("dice").size(), 8u);
  EXPECT_FALSE(open_device(config("wiegand", "teleport")));
  EXPECT_FALSE(open_device(config("toaster", "simulated")));
  const auto replay = open_device(config("wiegand", "replay", -1, "no/such.trace"));
  ASSERT_FALSE(replay);
  EXPECT_NE(replay.error().find("check the path"), std::string::npos);
}

}  // namespace
}  // namespace bb::peripherals
