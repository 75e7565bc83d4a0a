#include "peripherals/mfrc522.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>

#include "peripherals/fake_mfrc522.h"
#include "peripherals/mfrc522_registers.h"
#include "peripherals/rc522_device.h"
#include "peripherals/simulated_rc522_device.h"
#include "peripherals/spidev_transport.h"

namespace bb::peripherals {
namespace {

const Mfrc522::Sleep kNoSleep = [](Nanoseconds) {};

TEST(CrcA, MatchesTheStandardsExampleForHltA) {
  const std::uint8_t halt[] = {0x50, 0x00};
  EXPECT_EQ(mfrc522::crc_a(halt), 0xCD57);  // sent as 57 CD
}

TEST(Mfrc522, InitialisesAndTurnsTheAntennaOn) {
  FakeMfrc522 chip;
  Mfrc522 reader(chip, nullptr, kNoSleep);
  ASSERT_TRUE(reader.init());
  EXPECT_EQ(reader.version(), 0x92);
  EXPECT_TRUE(chip.antenna_on());
}

TEST(Mfrc522, SaysWhatToCheckWhenNoChipAnswers) {
  FakeMfrc522 chip(0x00);
  Mfrc522 reader(chip, nullptr, kNoSleep);
  const auto result = reader.init();
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().find("check 3.3 V"), std::string::npos) << result.error();
}

TEST(Mfrc522, ReadsFourSevenAndTenByteUids) {
  const std::vector<std::vector<std::uint8_t>> uids = {
      {0xDE, 0xAD, 0xBE, 0xEF},
      {0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6},
      {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A},
      {0x88, 0x02, 0x03, 0x04},  // a 4-byte UID that starts like a cascade tag
  };
  for (const auto& uid : uids) {
    FakeMfrc522 chip;
    Mfrc522 reader(chip, nullptr, kNoSleep);
    ASSERT_TRUE(reader.init());
    auto none = reader.poll();
    ASSERT_TRUE(none) << none.error();
    EXPECT_FALSE(*none);
    chip.add_card(uid);
    auto card = reader.poll();
    ASSERT_TRUE(card) << card.error();
    ASSERT_TRUE(*card);
    EXPECT_EQ((*card)->uid, uid);
    // Halted: the card still in the field is not read again until it leaves and comes back.
    auto again = reader.poll();
    ASSERT_TRUE(again);
    EXPECT_FALSE(*again);
    chip.remove_card(uid);
    chip.add_card(uid);
    auto back = reader.poll();
    ASSERT_TRUE(back && *back);
    EXPECT_EQ((*back)->uid, uid);
  }
}

TEST(Mfrc522, AnticollisionReadsEveryCardOfSeveralInTheField) {
  FakeMfrc522 chip;
  Mfrc522 reader(chip, nullptr, kNoSleep);
  ASSERT_TRUE(reader.init());
  const std::vector<std::vector<std::uint8_t>> uids = {
      {0x12, 0x34, 0x56, 0x78},
      {0x12, 0x34, 0x56, 0x79},  // differs in the very last bit
      {0x92, 0x34, 0x56, 0x78},  // differs in the 8th bit
      {0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66},
      {0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x67},  // same first level, differs at the second
  };
  for (const auto& uid : uids) chip.add_card(uid);
  std::vector<std::vector<std::uint8_t>> read;
  for (int i = 0; i < 10; ++i) {
    auto card = reader.poll();
    ASSERT_TRUE(card) << card.error();
    if (*card) read.push_back((*card)->uid);
  }
  std::sort(read.begin(), read.end());
  auto expected = uids;
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(read, expected);
}

// The loop blocker that was: with no card in the field, each poll spun on ComIrqReg until the chip's timer
// ran out (and again after HLTA). Now a call looks once and hands back; the chip's timer is watched across
// calls, and HLTA is never waited for.
TEST(Rc522Device, WithNoCardACallLooksOnceAndComesBackInsteadOfWaitingForTheChipsTimer) {
  auto chip = std::make_unique<FakeMfrc522>();
  FakeMfrc522* fake = chip.get();
  fake->set_timeout_reads(500);  // the chip's timer runs for 500 of the driver's looks
  auto device = Rc522Device::create("door", std::move(chip), nullptr, 100 * kMillisecond, {}, kNoSleep);
  ASSERT_TRUE(device) << device.error();
  int calls = 0;
  int most_reads_in_a_call = 0;
  int before = fake->irq_reads();
  // The chip's timeout arrives at the 500th look: about 500 calls, each one look.
  while (fake->irq_reads() < 500 && calls < 2000) {
    EXPECT_TRUE((*device)->read_events().empty());
    most_reads_in_a_call = std::max(most_reads_in_a_call, fake->irq_reads() - before);
    before = fake->irq_reads();
    ++calls;
  }
  EXPECT_EQ(most_reads_in_a_call, 1);
  EXPECT_GE(calls, 499);
  EXPECT_EQ(fake->transceives(), 1);  // one REQA for the whole wait

  // A card answers at once: the next look starts a new REQA and reads the card, HLTA sent and not waited for.
  fake->add_card({0xDE, 0xAD, 0xBE, 0xEF});
  before = fake->irq_reads();
  std::vector<PeripheralEvent> events;
  for (int i = 0; i < 3 && events.empty(); ++i) events = (*device)->read_events();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].uid, "DEADBEEF");
  // REQA, the anticollision and SELECT each answered at the first look; the HLTA was not looked at.
  EXPECT_LE(fake->irq_reads() - before, 4);
}

// A card lying on the reader is halted after its read and stays quiet: one tap. Lifted and tapped again a
// moment later (well inside the same-card window), it is a new tap: the poll in between found the field
// empty.
TEST(Rc522Device, ACardLyingThereIsOneTapAndAQuickDeliberateRetapIsANewOne) {
  auto chip = std::make_unique<FakeMfrc522>();
  FakeMfrc522* fake = chip.get();
  Nanoseconds now = 0;
  auto device = Rc522Device::create("door", std::move(chip), nullptr, 100 * kMillisecond, {}, kNoSleep,
                                    [&now] { return now; });
  ASSERT_TRUE(device) << device.error();
  auto cards_read = [&](int polls) {
    int cards = 0;
    for (int i = 0; i < polls; ++i) {
      now += 100 * kMillisecond;
      for (const auto& e : (*device)->read_events())
        cards += e.kind == EventKind::card || e.kind == EventKind::unknown_card;
    }
    return cards;
  };
  fake->add_card({0xDE, 0xAD, 0xBE, 0xEF});
  EXPECT_EQ(cards_read(5), 1);  // lying there for half a second
  fake->remove_card({0xDE, 0xAD, 0xBE, 0xEF});
  EXPECT_EQ(cards_read(2), 0);
  fake->add_card({0xDE, 0xAD, 0xBE, 0xEF});  // tapped again 0.7 s after the first
  EXPECT_EQ(cards_read(2), 1);
}

TEST(Mfrc522, StepSaysPendingWhileTheChipWaitsAndPollStillGivesTheAnswer) {
  FakeMfrc522 chip;
  chip.set_timeout_reads(3);
  Mfrc522 reader(chip, nullptr, kNoSleep);
  ASSERT_TRUE(reader.init());
  auto first = reader.step();
  ASSERT_TRUE(first);
  EXPECT_EQ(first->kind, Mfrc522::Step::Kind::pending);
  auto second = reader.step();
  ASSERT_TRUE(second);
  EXPECT_EQ(second->kind, Mfrc522::Step::Kind::pending);
  auto third = reader.step();
  ASSERT_TRUE(third);
  EXPECT_EQ(third->kind, Mfrc522::Step::Kind::no_card);
  auto none = reader.poll();  // the blocking form, for command-line tools, waits it out
  ASSERT_TRUE(none);
  EXPECT_FALSE(*none);
}

TEST(Rc522Device, ReportsATapWithUidBitsAndIdAndReportsAFailingLinkOnce) {
  auto chip = std::make_unique<FakeMfrc522>();
  FakeMfrc522* fake = chip.get();
  auto device = Rc522Device::create(
      "door", std::move(chip), nullptr, 100 * kMillisecond,
      [](const std::string& uid) { return uid == "04A1B2C3D4E5F6"; }, kNoSleep);
  ASSERT_TRUE(device) << device.error();
  EXPECT_GE((*device)->fd(), 0);
  EXPECT_TRUE((*device)->read_events().empty());
  fake->add_card({0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6});
  auto events = (*device)->read_events();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, EventKind::card);
  EXPECT_EQ(events[0].uid, "04A1B2C3D4E5F6");
  EXPECT_EQ(events[0].bits, 56);
  EXPECT_EQ(events[0].id.rfind("rc522:door:", 0), 0u);

  fake->add_card({0xDE, 0xAD, 0xBE, 0xEF});
  events = (*device)->read_events();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, EventKind::unknown_card);
  EXPECT_EQ(events[0].uid, "DEADBEEF");

  fake->fail_next_transfer();
  events = (*device)->read_events();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, EventKind::status);
  events = (*device)->read_events();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].why, "card reader back");
  EXPECT_TRUE((*device)->invariant_violations().empty());
}

TEST(Spidev, MissingDeviceSaysHowToEnableSpi) {
  const auto spi = SpidevTransport::open("/dev/spidev-does-not-exist.0");
  ASSERT_FALSE(spi);
  EXPECT_NE(spi.error().find("enable SPI"), std::string::npos) << spi.error();
  EXPECT_NE(spidev_open_error("/dev/spidev0.0", EACCES).find("spi group"), std::string::npos);
  const auto not_spi = SpidevTransport::open("/dev/null");
  ASSERT_FALSE(not_spi);
  EXPECT_NE(not_spi.error().find("spidev"), std::string::npos) << not_spi.error();
}

}  // namespace
}  // namespace bb::peripherals

namespace bb::peripherals {
namespace {

TEST(SimulatedRc522, CardsTypedOrPipedInAreReadThroughTheRealDriver) {
  int pipe_fds[2];
  ASSERT_EQ(pipe(pipe_fds), 0);
  auto device = SimulatedRc522Device::create("table", pipe_fds[0]);
  ASSERT_TRUE(device) << device.error();
  const std::string typed = "tap 04A1B2C3D4E5F6\ncard DEADBEEF\nwave\n";
  ASSERT_EQ(write(pipe_fds[1], typed.data(), typed.size()), static_cast<ssize_t>(typed.size()));
  std::vector<PeripheralEvent> events;
  for (int poll = 0; poll < 4; ++poll) {
    auto more = (*device)->read_events();
    events.insert(events.end(), more.begin(), more.end());
  }
  std::vector<std::string> uids;
  for (const auto& event : events) {
    if (event.kind == EventKind::card) uids.push_back(event.uid);
  }
  std::sort(uids.begin(), uids.end());
  EXPECT_EQ(uids, (std::vector<std::string>{"04A1B2C3D4E5F6", "DEADBEEF"}));
  ASSERT_EQ(events.front().kind, EventKind::status);
  EXPECT_NE(events.front().why.find("unknown rc522 command 'wave'"), std::string::npos);
  EXPECT_FALSE((*device)->command("tap 123"));
  EXPECT_TRUE((*device)->command("clear"));
  EXPECT_TRUE((*device)->invariant_violations().empty());
  close(pipe_fds[1]);
  close(pipe_fds[0]);
}

}  // namespace
}  // namespace bb::peripherals
