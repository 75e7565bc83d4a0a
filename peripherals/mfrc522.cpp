#include "peripherals/mfrc522.h"

#include <fmt/format.h>

#include <array>
#include <chrono>
#include <thread>

#include "peripherals/mfrc522_registers.h"

namespace bb::peripherals {

using namespace mfrc522;

namespace {
// Bounds a wait for the chip by wall time: the chip's timer fires after 5 ms; far more means it is gone.
constexpr auto kChipGone = std::chrono::milliseconds(30);
}  // namespace

std::string uid_hex(const std::vector<std::uint8_t>& uid) {
  std::string hex;
  for (const std::uint8_t byte : uid) hex += fmt::format("{:02X}", byte);
  return hex;
}

Mfrc522::Mfrc522(SpiTransport& spi, GpioOutput* reset, Sleep sleep)
    : spi_(spi), reset_(reset), sleep_(std::move(sleep)) {
  if (!sleep_)
    sleep_ = [](Nanoseconds duration) { std::this_thread::sleep_for(std::chrono::nanoseconds(duration)); };
}

std::expected<std::uint8_t, std::string> Mfrc522::read(std::uint8_t reg) {
  const std::array<std::uint8_t, 2> tx{static_cast<std::uint8_t>(0x80 | ((reg << 1) & 0x7E)), 0};
  auto rx = spi_.transfer(tx);
  if (!rx) return std::unexpected(rx.error());
  if (rx->size() != 2) return std::unexpected(std::string("SPI returned a short reply"));
  return (*rx)[1];
}

std::expected<void, std::string> Mfrc522::write(std::uint8_t reg, std::uint8_t value) {
  return write(reg, std::span<const std::uint8_t>(&value, 1));
}

std::expected<void, std::string> Mfrc522::write(std::uint8_t reg, std::span<const std::uint8_t> values) {
  std::vector<std::uint8_t> tx{static_cast<std::uint8_t>((reg << 1) & 0x7E)};
  tx.insert(tx.end(), values.begin(), values.end());
  auto rx = spi_.transfer(tx);
  if (!rx) return std::unexpected(rx.error());
  return {};
}

std::expected<std::vector<std::uint8_t>, std::string> Mfrc522::read_fifo(std::size_t count) {
  // Reading one address repeatedly in one transfer pops the FIFO once per byte.
  std::vector<std::uint8_t> tx(count + 1, static_cast<std::uint8_t>(0x80 | (FIFODataReg << 1)));
  tx.back() = 0;
  auto rx = spi_.transfer(tx);
  if (!rx) return std::unexpected(rx.error());
  if (rx->size() != tx.size()) return std::unexpected(std::string("SPI returned a short reply"));
  return std::vector<std::uint8_t>(rx->begin() + 1, rx->end());
}

std::expected<void, std::string> Mfrc522::set_bits(std::uint8_t reg, std::uint8_t mask) {
  auto value = read(reg);
  if (!value) return std::unexpected(value.error());
  return write(reg, static_cast<std::uint8_t>(*value | mask));
}

std::expected<void, std::string> Mfrc522::init() {
  if (reset_) {
    // A hard reset through RST, then the oscillator needs a moment to start.
    if (auto low = reset_->set(false); !low) return low;
    sleep_(2 * kMillisecond);
    if (auto high = reset_->set(true); !high) return high;
    sleep_(50 * kMillisecond);
  }
  if (auto done = write(CommandReg, SoftReset); !done) return done;
  sleep_(50 * kMillisecond);
  auto version = read(VersionReg);
  if (!version) return std::unexpected(version.error());
  version_ = *version;
  if (version_ == 0x00 || version_ == 0xFF) {
    return std::unexpected(fmt::format(
        "no RC522 answers on SPI (version register reads {:#04x}): check 3.3 V, GND, SDA to CE0 (pin 24), "
        "SCK (23), MOSI (19), MISO (21), and RST",
        version_));
  }
  const std::pair<std::uint8_t, std::uint8_t> setup[] = {
      {TModeReg, 0x80},       // the timer starts at the end of every transmission...
      {TPrescalerReg, 0xA9},  // ...ticking every 25 us...
      // ...for 200 ticks: a card has 5 ms to answer REQA, anticollision and SELECT (ISO 14443-3 asks for
      // about 0.1 ms), so a card pulled away mid-read costs the loop at most 5 ms
      {TReloadRegH, 0x00},
      {TReloadRegL, 0xC8},
      {TxASKReg, 0x40},  // 100 % ASK modulation, as ISO 14443 A wants
      {ModeReg, 0x3D},   // CRC preset 0x6363 (CRC_A)
  };
  for (const auto& [reg, value] : setup) {
    if (auto done = write(reg, value); !done) return done;
  }
  return set_bits(TxControlReg, 0x03);  // antenna on
}

std::expected<void, std::string> Mfrc522::start_transceive(std::span<const std::uint8_t> data,
                                                           int tx_last_bits, int rx_align) {
  for (const auto& [reg, value] : std::initializer_list<std::pair<std::uint8_t, std::uint8_t>>{
           {CommandReg, Idle}, {ComIrqReg, 0x7F}, {FIFOLevelReg, 0x80}}) {
    if (auto done = write(reg, value); !done) return std::unexpected(done.error());
  }
  if (auto done = write(FIFODataReg, data); !done) return std::unexpected(done.error());
  const auto framing = static_cast<std::uint8_t>((rx_align << 4) | tx_last_bits);
  if (auto done = write(BitFramingReg, framing); !done) return std::unexpected(done.error());
  if (auto done = write(CommandReg, Transceive); !done) return std::unexpected(done.error());
  if (auto done = write(BitFramingReg, static_cast<std::uint8_t>(framing | kStartSend)); !done) {
    return std::unexpected(done.error());
  }
  return {};
}

std::expected<std::optional<Mfrc522::Reply>, std::string> Mfrc522::check_transceive() {
  auto irq = read(ComIrqReg);
  if (!irq) return std::unexpected(irq.error());
  if (*irq & (kRxIrq | kIdleIrq)) {
    auto reply = read_reply();
    if (!reply) return std::unexpected(reply.error());
    return std::optional<Reply>(std::move(*reply));
  }
  if (*irq & kTimerIrq) {
    Reply reply;
    reply.timeout = true;
    return std::optional<Reply>(std::move(reply));
  }
  return std::optional<Reply>{};
}

std::expected<Mfrc522::Reply, std::string> Mfrc522::read_reply() {
  Reply reply;
  auto error = read(ErrorReg);
  if (!error) return std::unexpected(error.error());
  if (*error & kFatalErrors)
    return std::unexpected(fmt::format("the RC522 reports a receive error ({:#04x})", *error));
  auto level = read(FIFOLevelReg);
  if (!level) return std::unexpected(level.error());
  auto bytes = read_fifo(*level & 0x7F);
  if (!bytes) return std::unexpected(bytes.error());
  reply.bytes = std::move(*bytes);
  auto control = read(ControlReg);
  if (!control) return std::unexpected(control.error());
  reply.last_bits = *control & 0x07;
  if (*error & kCollErr) {
    auto coll = read(CollReg);
    if (!coll) return std::unexpected(coll.error());
    const int position = *coll & 0x1F;
    reply.collision = position == 0 ? 32 : position;
  }
  return reply;
}

std::expected<Mfrc522::Reply, std::string> Mfrc522::transceive(std::span<const std::uint8_t> data,
                                                               int tx_last_bits, int rx_align) {
  if (auto started = start_transceive(data, tx_last_bits, rx_align); !started)
    return std::unexpected(started.error());
  const auto started = std::chrono::steady_clock::now();
  for (;;) {
    auto reply = check_transceive();
    if (!reply) return std::unexpected(reply.error());
    if (*reply) return std::move(**reply);
    if (std::chrono::steady_clock::now() - started > kChipGone) {
      return std::unexpected(std::string("the RC522 stopped answering: check its power and wiring"));
    }
  }
}

std::expected<std::uint16_t, std::string> Mfrc522::calculate_crc(std::span<const std::uint8_t> data) {
  for (const auto& [reg, value] : std::initializer_list<std::pair<std::uint8_t, std::uint8_t>>{
           {CommandReg, Idle}, {DivIrqReg, kCrcIrq}, {FIFOLevelReg, 0x80}}) {
    if (auto done = write(reg, value); !done) return std::unexpected(done.error());
  }
  if (auto done = write(FIFODataReg, data); !done) return std::unexpected(done.error());
  if (auto done = write(CommandReg, CalcCRC); !done) return std::unexpected(done.error());
  const auto started = std::chrono::steady_clock::now();
  for (;;) {
    auto irq = read(DivIrqReg);
    if (!irq) return std::unexpected(irq.error());
    if (*irq & kCrcIrq) break;
    if (std::chrono::steady_clock::now() - started > kChipGone) {
      return std::unexpected(std::string("the RC522's CRC coprocessor did not finish: check its power"));
    }
  }
  if (auto done = write(CommandReg, Idle); !done) return std::unexpected(done.error());
  auto low = read(CRCResultRegL);
  auto high = read(CRCResultRegH);
  if (!low || !high) return std::unexpected(!low ? low.error() : high.error());
  return static_cast<std::uint16_t>(*low | (*high << 8));
}

// One cascade level: anticollision until the level's 4 bytes + BCC are known, then SELECT. Returns the
// level's 5 bytes, or nullopt when the card left the field.
std::expected<std::optional<std::vector<std::uint8_t>>, std::string> Mfrc522::select_level(
    int level, std::uint8_t* sak) {
  const std::uint8_t sel = kSelect[level];
  std::array<std::uint8_t, 5> known{};
  int known_bits = 0;
  for (int round = 0; known_bits < 40; ++round) {
    if (round > 40)
      return std::unexpected(std::string("anticollision did not converge (cards moving in the field?)"));
    const int full_bytes = known_bits / 8;
    const int partial_bits = known_bits % 8;
    std::vector<std::uint8_t> frame{sel, static_cast<std::uint8_t>(((2 + full_bytes) << 4) | partial_bits)};
    frame.insert(frame.end(), known.begin(), known.begin() + full_bytes + (partial_bits ? 1 : 0));
    auto reply = transceive(frame, partial_bits, partial_bits);
    if (!reply) return std::unexpected(reply.error());
    if (reply->timeout || reply->bytes.empty()) return std::optional<std::vector<std::uint8_t>>{};
    // The reply continues the partly known byte: keep our known low bits of it, take the rest from the chip.
    for (std::size_t i = 0; i < reply->bytes.size() && full_bytes + i < known.size(); ++i) {
      std::uint8_t byte = reply->bytes[i];
      if (i == 0 && partial_bits) {
        const auto mask = static_cast<std::uint8_t>(0xFF << partial_bits);
        byte =
            static_cast<std::uint8_t>((known[static_cast<std::size_t>(full_bytes)] & ~mask) | (byte & mask));
      }
      known[static_cast<std::size_t>(full_bytes) + i] = byte;
    }
    if (!reply->collision) {
      known_bits = 40;
      break;
    }
    // Two cards answered differently at this bit: choose the cards with a 1 there and go on.
    const int collided = full_bytes * 8 + *reply->collision - 1;
    if (collided < known_bits || collided >= 40)
      return std::unexpected(std::string("the RC522 reports an impossible collision"));
    auto& byte = known[static_cast<std::size_t>(collided / 8)];
    const int bit = collided % 8;
    byte = static_cast<std::uint8_t>((byte & ((1U << bit) - 1)) | (1U << bit));
    for (std::size_t i = static_cast<std::size_t>(collided / 8) + 1; i < known.size(); ++i) known[i] = 0;
    known_bits = collided + 1;
  }
  if ((known[0] ^ known[1] ^ known[2] ^ known[3]) != known[4]) {
    return std::unexpected(std::string("UID check byte (BCC) wrong: a bad read, try again"));
  }
  std::vector<std::uint8_t> select{sel, 0x70, known[0], known[1], known[2], known[3], known[4]};
  auto crc = calculate_crc(select);
  if (!crc) return std::unexpected(crc.error());
  select.push_back(static_cast<std::uint8_t>(*crc & 0xFF));
  select.push_back(static_cast<std::uint8_t>(*crc >> 8));
  auto reply = transceive(select, 0, 0);
  if (!reply) return std::unexpected(reply.error());
  if (reply->timeout) return std::optional<std::vector<std::uint8_t>>{};
  if (reply->bytes.size() != 3 || reply->last_bits != 0) {
    return std::unexpected(
        fmt::format("SELECT answered {} bytes instead of SAK and CRC", reply->bytes.size()));
  }
  auto sak_crc = calculate_crc(std::span<const std::uint8_t>(reply->bytes.data(), 1));
  if (!sak_crc) return std::unexpected(sak_crc.error());
  if (reply->bytes[1] != (*sak_crc & 0xFF) || reply->bytes[2] != (*sak_crc >> 8)) {
    return std::unexpected(std::string("SAK's CRC wrong: a bad read, try again"));
  }
  *sak = reply->bytes[0];
  return std::optional<std::vector<std::uint8_t>>{std::vector<std::uint8_t>(known.begin(), known.end())};
}

std::expected<std::optional<Mfrc522::Card>, std::string> Mfrc522::read_card() {
  using Result = std::optional<Card>;
  Card card;
  for (int level = 0; level < 3; ++level) {
    std::uint8_t sak = 0;
    auto bytes = select_level(level, &sak);
    if (!bytes) return std::unexpected(bytes.error());
    if (!*bytes) return Result{};  // the card left mid-way
    const auto& cl = **bytes;
    const bool more = sak & kSakUidIncomplete;
    if (more && cl[0] != kCascadeTag)
      return std::unexpected(std::string("a card announced more UID without a cascade tag"));
    card.uid.insert(card.uid.end(), cl.begin() + (more ? 1 : 0), cl.begin() + 4);
    card.sak = sak;
    if (!more) break;
    if (level == 2) return std::unexpected(std::string("a card announced a UID longer than 10 bytes"));
  }
  // HLTA: the card stays quiet until it leaves the field, so one tap is read once. Its only answer is
  // silence, which would take the chip's whole timer to hear: it is sent and left (the next command starts
  // by putting the chip back to Idle).
  std::vector<std::uint8_t> halt{kHltA, 0x00};
  auto crc = calculate_crc(halt);
  if (!crc) return std::unexpected(crc.error());
  halt.push_back(static_cast<std::uint8_t>(*crc & 0xFF));
  halt.push_back(static_cast<std::uint8_t>(*crc >> 8));
  if (auto sent = start_transceive(halt, 0, 0); !sent) return std::unexpected(sent.error());
  return Result{std::move(card)};
}

std::expected<Mfrc522::Step, std::string> Mfrc522::step() {
  if (!request_in_air_) {
    if (auto done = write(CollReg, 0x80); !done)
      return std::unexpected(done.error());  // ValuesAfterColl: 0 bits after a collision
    const std::uint8_t request = kReqA;
    // REQA is a 7-bit short frame.
    if (auto sent = start_transceive(std::span<const std::uint8_t>(&request, 1), 7, 0); !sent)
      return std::unexpected(sent.error());
    request_in_air_ = true;
    started_ = std::chrono::steady_clock::now();
  }
  // One look at once (a card, or a simulated chip, may have answered already), then back to the caller.
  auto atqa = check_transceive();
  if (!atqa) {
    request_in_air_ = false;
    return std::unexpected(atqa.error());
  }
  if (!*atqa) {
    if (std::chrono::steady_clock::now() - started_ > kChipGone) {
      request_in_air_ = false;
      return std::unexpected(std::string("the RC522 stopped answering: check its power and wiring"));
    }
    return Step{};
  }
  request_in_air_ = false;
  if ((*atqa)->timeout) return Step{Step::Kind::no_card, std::nullopt};
  auto card = read_card();
  if (!card) return std::unexpected(card.error());
  if (!*card) return Step{Step::Kind::no_card, std::nullopt};
  return Step{Step::Kind::card, std::move(*card)};
}

std::expected<std::optional<Mfrc522::Card>, std::string> Mfrc522::poll() {
  for (;;) {
    auto next = step();
    if (!next) return std::unexpected(next.error());
    if (next->kind == Step::Kind::card) return std::move(next->card);
    if (next->kind == Step::Kind::no_card) return std::optional<Card>{};
  }
}

}  // namespace bb::peripherals
