// The demo's virtual table: what a bot does physically comes out of the real decoders and the real tracker
// as what it meant (and a slip comes out as the slip, not as what was meant).
#include "daemon/virtual_table.h"

#include <SDL.h>
#include <gtest/gtest.h>
#include <poll.h>

#include <limits>
#include <opencv2/core.hpp>
#include <set>

#include "daemon/camera_token_names.h"
#include "daemon/demo_bots.h"
#include "peripherals/device_factory.h"
#include "vision/table_renderer.h"
#include "vision/token_tracker.h"

namespace bb::daemon {
namespace {

using peripherals::EventKind;
using peripherals::PeripheralEvent;

// Reads the device until an event of `kind` arrives; a generous guard against a hang, not a timing check.
std::optional<PeripheralEvent> wait_for(peripherals::Device& device, EventKind kind) {
  for (int polls = 0; polls < 400; ++polls) {
    pollfd p{device.fd(), POLLIN, 0};
    poll(&p, 1, 50);
    for (auto& e : device.read_events())
      if (e.kind == kind) return e;
  }
  return std::nullopt;
}

std::unique_ptr<peripherals::Device> open(const peripherals::DeviceConfig& config) {
  auto device = peripherals::open_device(config);
  EXPECT_TRUE(device.has_value()) << device.error();
  return device ? std::move(*device) : nullptr;
}

TEST(VirtualDevices, AThrowComesOutOfTheDiceDecoderAsTheSameDice) {
  auto devices = VirtualDevices::open();
  ASSERT_TRUE(devices.has_value()) << devices.error();
  auto dice = open((*devices)->dice_config());
  ASSERT_TRUE(dice);
  for (auto [d1, d2] : {std::pair{3, 4}, std::pair{6, 6}, std::pair{1, 2}}) {
    ASSERT_TRUE((*devices)->throw_dice(d1, d2));
    const auto roll = wait_for(*dice, EventKind::dice);
    ASSERT_TRUE(roll.has_value());
    EXPECT_EQ(roll->dice, (std::array<int, 2>{d1, d2}));
    EXPECT_EQ(roll->device, "dice");
    EXPECT_FALSE(roll->id.empty());
  }
  EXPECT_TRUE(dice->invariant_violations().empty());
  EXPECT_FALSE((*devices)->throw_dice(0, 7).has_value()) << "a die has no 0 or 7";
}

TEST(VirtualDevices, ATapComesOutOfEachReaderAsTheCardsUid) {
  auto devices = VirtualDevices::open();
  ASSERT_TRUE(devices.has_value()) << devices.error();
  for (Reader reader : {Reader::wiegand, Reader::rc522}) {
    SCOPED_TRACE(reader_name(reader));
    auto device = open((*devices)->reader_config(reader));
    ASSERT_TRUE(device);
    std::set<std::string> ids;
    for (const rules::PlayerId player : rules::IdRange<rules::PlayerId>{3}) {
      ASSERT_TRUE((*devices)->tap(reader, demo_card(player, reader)));
      const auto card = wait_for(*device, EventKind::card);
      ASSERT_TRUE(card.has_value());
      EXPECT_EQ(card->uid, demo_card(player, reader));
      EXPECT_EQ(card->device, reader_name(reader));
      ids.insert(card->id);
    }
    EXPECT_EQ(ids.size(), 3u) << "each tap has its own id, so the ledger tells a new tap from a repeat";
    EXPECT_TRUE(device->invariant_violations().empty());
  }
  EXPECT_FALSE((*devices)->tap(Reader::wiegand, "not-hex").has_value());
}

TEST(VirtualDevices, EveryPlayerHasItsOwnCardOnEachReader) {
  std::set<std::string> uids;
  for (const rules::PlayerId player : rules::IdRange<rules::PlayerId>{8})
    for (Reader reader : {Reader::wiegand, Reader::rc522}) uids.insert(demo_card(player, reader));
  EXPECT_EQ(uids.size(), 16u);
  EXPECT_EQ(demo_card(rules::PlayerId{0}, Reader::wiegand).size(), 6u) << "a Wiegand 26 card";
  EXPECT_EQ(demo_card(rules::PlayerId{0}, Reader::rc522).size(), 8u) << "a 4-byte NFC uid";
}

// The tracker watching the virtual camera until the camera has nothing more to show.
struct Watched {
  VirtualCamera camera;
  vision::TokenTracker tracker;
  cv::Mat image;
  std::int64_t frame = 0;
  explicit Watched(VirtualCamera::Settings settings)
      : camera(settings), tracker(camera.renderer().space_map(), {}) {}
  std::vector<vision::TrackerEvent> run(int still_frames_after = 12) {
    std::vector<vision::TrackerEvent> events;
    int still = 0;
    while (still < still_frames_after) {
      still = camera.moving() ? 0 : still + 1;
      auto grab = camera.grab(image);
      EXPECT_EQ(grab.status, vision::FrameSource::Status::frame);
      auto e = tracker.process(image, frame++);
      EXPECT_EQ(tracker.invariant_problem(), "");
      events.insert(events.end(), e.begin(), e.end());
    }
    return events;
  }
};

VirtualCamera::Settings fast(int players, std::uint64_t seed) {
  VirtualCamera::Settings s;
  s.players = players;
  s.seed = seed;
  s.speed = 1000;  // the test consumes frames as fast as it can
  s.max_frames_per_second = std::numeric_limits<double>::infinity();
  return s;
}

std::vector<vision::TrackerEvent> of_kind(const std::vector<vision::TrackerEvent>& events,
                                          vision::TrackerEvent::Kind kind) {
  std::vector<vision::TrackerEvent> out;
  for (const auto& e : events)
    if (e.kind == kind) out.push_back(e);
  return out;
}

TEST(VirtualCamera, FramesAre720pAndTheTokensAreLearnedOnGo) {
  Watched w(fast(3, 4));
  const auto events = w.run();
  EXPECT_EQ(w.image.cols, 1280);
  EXPECT_EQ(w.image.rows, 720);
  const auto learned = of_kind(events, vision::TrackerEvent::Kind::learned);
  ASSERT_EQ(learned.size(), 3u);
  std::set<std::string> names;
  for (const auto& e : learned) {
    EXPECT_EQ(e.to, 0);
    names.insert(e.token);
  }
  for (const rules::PlayerId p : rules::IdRange<rules::PlayerId>{3})
    EXPECT_TRUE(names.contains(w.camera.token_name(p))) << w.camera.token_name(p);
  // The service reads the tracker's names as the players in turn order (T1 is the first player).
  for (const rules::PlayerId p : rules::IdRange<rules::PlayerId>{3})
    EXPECT_EQ(w.camera.token_name(p), token_of_player(p));
}

TEST(VirtualCamera, ATokenMoveComesOutOfTheTrackerAsMovedToTheRightSpace) {
  Watched w(fast(3, 9));
  w.run();
  ASSERT_TRUE(w.tracker.learned());
  for (auto [number, space_number] : {std::pair{1, 7}, std::pair{0, 24}, std::pair{1, 11}}) {
    const rules::PlayerId player{number};
    const rules::SpaceId space{space_number};
    w.camera.move_token(player, space);
    EXPECT_TRUE(w.camera.moving());
    const auto moved = of_kind(w.run(), vision::TrackerEvent::Kind::moved);
    ASSERT_EQ(moved.size(), 1u) << "player " << number << " to " << space_number;
    EXPECT_EQ(moved[0].token, w.camera.token_name(player));
    EXPECT_EQ(moved[0].to, space_number);
    EXPECT_EQ(w.camera.truth()[player], space);
  }
}

TEST(VirtualCamera, TokensStandOnGoInTurnOrderFromTheCorner) {
  for (int players = 2; players <= DemoFamily::kMaxPlayers; ++players) {
    VirtualCamera camera(fast(players, 1));
    for (int p = 0; p < players; ++p)
      EXPECT_EQ(camera.token_name(rules::PlayerId{p}), token_of_player(rules::PlayerId{p}));
  }
}

TEST(VirtualCamera, TheSameSeedShowsTheSameTable) {
  VirtualCamera a(fast(2, 5)), b(fast(2, 5)), c(fast(2, 6));
  cv::Mat fa, fb, fc;
  a.grab(fa);
  b.grab(fb);
  c.grab(fc);
  EXPECT_EQ(cv::norm(fa, fb, cv::NORM_INF), 0);
  EXPECT_GT(cv::norm(fa, fc, cv::NORM_INF), 0) << "another seed, another camera pose";
}

TEST(Slips, AreSeededRareAndOneSpaceOff) {
  Slips a({.seed = 3}), b({.seed = 3});
  int off = 0, wrong = 0;
  for (int i = 0; i < 2000; ++i) {
    const rules::SpaceId to{i % 40};
    const rules::SpaceId carried = a.carried_to(to, 40);
    EXPECT_EQ(carried, b.carried_to(to, 40));
    if (carried != to) {
      ++off;
      EXPECT_TRUE(carried.number() == (to.number() + 1) % 40 || carried.number() == (to.number() + 39) % 40);
    }
    const bool w = a.taps_wrong_card();
    EXPECT_EQ(w, b.taps_wrong_card());
    wrong += w;
  }
  EXPECT_GT(off, 0);
  EXPECT_LT(off, 400);
  EXPECT_GT(wrong, 0);
  EXPECT_LT(wrong, 400);
  Slips never({.seed = 3, .miscount = 0, .wrong_card = 0});
  for (int i = 0; i < 200; ++i) {
    EXPECT_EQ(never.carried_to(rules::SpaceId{5}, 40), rules::SpaceId{5});
    EXPECT_FALSE(never.taps_wrong_card());
  }
}

TEST(Press, PutsAFingerDownAndUpOnTheTargetsCentre) {
  ASSERT_EQ(SDL_Init(SDL_INIT_EVENTS), 0) << SDL_GetError();
  display::Frame frame(800, 480);
  display::Target buy;
  buy.id = "home.option.buy";
  buy.rect = {600, 400, 100, 60};
  frame.targets.push_back(buy);
  SDL_Event e;
  while (SDL_PollEvent(&e)) {
  }
  ASSERT_TRUE(press_target(frame, "home.option.buy").has_value());
  std::vector<SDL_Event> events;
  while (SDL_PollEvent(&e)) events.push_back(e);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].type, SDL_FINGERDOWN);
  EXPECT_EQ(events[1].type, SDL_FINGERUP);
  // The screen turns the panel's 0..1 coordinates back into pixels: the point falls on the target.
  const int x = static_cast<int>(events[0].tfinger.x * 800), y = static_cast<int>(events[0].tfinger.y * 480);
  ASSERT_NE(frame.hit(x, y), nullptr);
  EXPECT_EQ(frame.hit(x, y)->id, "home.option.buy");
  const auto missing = press_target(frame, "home.roll");
  ASSERT_FALSE(missing.has_value());
  EXPECT_NE(missing.error().find("home.roll"), std::string::npos);
  SDL_Quit();
}

}  // namespace
}  // namespace bb::daemon
