#include "peripherals/fake_mfrc522.h"

#include <algorithm>

#include "peripherals/mfrc522_registers.h"

namespace bb::peripherals {

using namespace mfrc522;

FakeMfrc522::FakeMfrc522(std::uint8_t version) : version_(version) { soft_reset(); }

void FakeMfrc522::soft_reset() {
  registers_.fill(0);
  registers_[CommandReg] = 0x20;
  registers_[TxControlReg] = 0x80;  // antenna off after reset
  registers_[VersionReg] = version_;
  fifo_.clear();
  command_ = Idle;
}

void FakeMfrc522::add_card(std::vector<std::uint8_t> uid) { cards_.push_back(Card{std::move(uid)}); }

void FakeMfrc522::remove_card(const std::vector<std::uint8_t>& uid) {
  std::erase_if(cards_, [&](const Card& card) { return card.uid == uid; });
}

std::expected<std::vector<std::uint8_t>, std::string> FakeMfrc522::transfer(
    std::span<const std::uint8_t> tx) {
  if (fail_next_ || unplugged_) {
    fail_next_ = false;
    return std::unexpected(std::string("SPI transfer failed: Input/output error"));
  }
  std::vector<std::uint8_t> rx(tx.size(), 0);
  if (tx.empty()) return rx;
  if (tx[0] & 0x80) {  // read: each byte sent is the next address, its value comes back one byte later
    for (std::size_t i = 0; i + 1 < tx.size(); ++i)
      rx[i + 1] = read_register(static_cast<std::uint8_t>((tx[i] >> 1) & 0x3F));
  } else {
    const auto reg = static_cast<std::uint8_t>((tx[0] >> 1) & 0x3F);
    for (std::size_t i = 1; i < tx.size(); ++i) write_register(reg, tx[i]);
  }
  return rx;
}

std::uint8_t FakeMfrc522::read_register(std::uint8_t reg) {
  switch (reg) {
    case FIFODataReg: {
      if (fifo_.empty()) return 0;
      const std::uint8_t byte = fifo_.front();
      fifo_.pop_front();
      return byte;
    }
    case FIFOLevelReg:
      return static_cast<std::uint8_t>(std::min<std::size_t>(fifo_.size(), 64));
    case CommandReg:
      return command_;
    case ComIrqReg:
      ++irq_reads_;
      if (timeout_in_ > 0 && --timeout_in_ == 0) registers_[ComIrqReg] |= kTimerIrq;
      return registers_[reg];
    default:
      return registers_[reg];
  }
}

void FakeMfrc522::write_register(std::uint8_t reg, std::uint8_t value) {
  switch (reg) {
    case CommandReg:
      command_ = value & 0x0F;
      if (command_ == SoftReset) soft_reset();
      if (command_ == CalcCRC) {
        const std::vector<std::uint8_t> data(fifo_.begin(), fifo_.end());
        const std::uint16_t crc = crc_a(data);
        registers_[CRCResultRegL] = static_cast<std::uint8_t>(crc & 0xFF);
        registers_[CRCResultRegH] = static_cast<std::uint8_t>(crc >> 8);
        registers_[DivIrqReg] |= kCrcIrq;
      }
      return;
    case ComIrqReg:
    case DivIrqReg:  // bit 7 set: set the marked bits; clear: clear them
      if (value & 0x80)
        registers_[reg] |= value & 0x7F;
      else
        registers_[reg] &= static_cast<std::uint8_t>(~value);
      return;
    case FIFODataReg:
      if (fifo_.size() < 64) fifo_.push_back(value);
      return;
    case FIFOLevelReg:
      if (value & 0x80) fifo_.clear();
      return;
    case BitFramingReg:
      registers_[reg] = value & 0x7F;
      if ((value & kStartSend) && command_ == Transceive) transceive();
      return;
    default:
      registers_[reg] = value;
  }
}

std::array<std::uint8_t, 5> FakeMfrc522::level_bytes(const Card& card, int level) {
  const std::size_t size = card.uid.size();
  const int levels = size == 4 ? 1 : size == 7 ? 2 : 3;
  std::array<std::uint8_t, 5> bytes{};
  // Every level but the last starts with the cascade tag and carries 3 UID bytes; the last carries 4.
  const std::size_t offset = static_cast<std::size_t>(level) * 3;
  if (level + 1 < levels) {
    bytes = {kCascadeTag, card.uid[offset], card.uid[offset + 1], card.uid[offset + 2], 0};
  } else {
    bytes = {card.uid[offset], card.uid[offset + 1], card.uid[offset + 2], card.uid[offset + 3], 0};
  }
  bytes[4] = bytes[0] ^ bytes[1] ^ bytes[2] ^ bytes[3];
  return bytes;
}

void FakeMfrc522::answer(const std::vector<std::uint8_t>& bytes) {
  for (const auto byte : bytes) fifo_.push_back(byte);
  registers_[ControlReg] = 0;
  registers_[ComIrqReg] |= kRxIrq;
}

void FakeMfrc522::answer_bits(const std::vector<bool>& bits, int rx_align, std::optional<int> collision_at) {
  std::vector<std::uint8_t> bytes;
  int position = rx_align;
  for (const bool bit : bits) {
    if (bytes.empty() || position % 8 == 0) bytes.push_back(0);
    if (bit) bytes.back() |= static_cast<std::uint8_t>(1U << (position % 8));
    ++position;
  }
  for (const auto byte : bytes) fifo_.push_back(byte);
  registers_[ControlReg] = static_cast<std::uint8_t>(position % 8);
  registers_[ComIrqReg] |= kRxIrq;
  if (collision_at) {
    registers_[ErrorReg] |= kCollErr;
    registers_[CollReg] = static_cast<std::uint8_t>(*collision_at & 0x1F);
  }
}

void FakeMfrc522::transceive() {
  ++transceives_;
  const std::vector<std::uint8_t> frame(fifo_.begin(), fifo_.end());
  fifo_.clear();
  registers_[ErrorReg] = 0;
  registers_[CollReg] = 0;
  const int tx_last_bits = registers_[BitFramingReg] & 0x07;
  const int rx_align = (registers_[BitFramingReg] >> 4) & 0x07;
  timeout_in_ = 0;
  auto timeout = [&] {
    if (timeout_reads_ > 0)
      timeout_in_ = timeout_reads_;
    else
      registers_[ComIrqReg] |= kTimerIrq;
  };
  if (!antenna_on() || frame.empty()) return timeout();

  if (frame.size() == 1 && tx_last_bits == 7 && (frame[0] == kReqA || frame[0] == kWupA)) {
    bool any = false;
    for (auto& card : cards_) {
      const bool wakes =
          card.state == CardState::idle || (frame[0] == kWupA && card.state == CardState::halt);
      if (!wakes) continue;
      card.state = CardState::ready;
      card.level = 0;
      any = true;
    }
    if (!any) return timeout();
    return answer({0x44, 0x00});  // ATQA; several cards answering at once still look like one here
  }

  if (frame.size() == 4 && frame[0] == kHltA && frame[1] == 0x00 &&
      crc_a(std::span(frame.data(), 2)) == (frame[2] | (frame[3] << 8))) {
    for (auto& card : cards_) {
      if (card.state == CardState::active) card.state = CardState::halt;
    }
    return timeout();  // a halted card says nothing
  }

  const auto sel = std::find(std::begin(kSelect), std::end(kSelect), frame[0]);
  if (sel == std::end(kSelect) || frame.size() < 2) return timeout();
  const int level = static_cast<int>(sel - std::begin(kSelect));
  const std::uint8_t nvb = frame[1];

  if (nvb == 0x70) {  // SELECT: 4 bytes + BCC + CRC_A
    if (frame.size() != 9 || tx_last_bits != 0 ||
        crc_a(std::span(frame.data(), 7)) != (frame[7] | (frame[8] << 8))) {
      return timeout();
    }
    // Every card whose bytes match is selected at this level (cards sharing a level's bytes go on together
    // and part at the next level); the others go back to sleep until the next REQA.
    std::optional<std::uint8_t> sak;
    for (auto& card : cards_) {
      if (card.state != CardState::ready || card.level != level) continue;
      const auto bytes = level_bytes(card, level);
      if (!std::equal(bytes.begin(), bytes.end(), frame.begin() + 2)) {
        card.state = CardState::idle;
        continue;
      }
      const std::size_t levels = card.uid.size() == 4 ? 1 : card.uid.size() == 7 ? 2 : 3;
      const bool complete = static_cast<std::size_t>(level) + 1 == levels;
      sak = complete ? 0x08 : kSakUidIncomplete;
      if (complete)
        card.state = CardState::active;
      else
        card.level = level + 1;
    }
    if (!sak) return timeout();
    const std::uint16_t crc = crc_a(std::span(&*sak, 1));
    return answer({*sak, static_cast<std::uint8_t>(crc & 0xFF), static_cast<std::uint8_t>(crc >> 8)});
  }

  // ANTICOLLISION: NVB says how many bits of the 40 the reader already knows; matching cards send the rest.
  const int known_bits = ((nvb >> 4) - 2) * 8 + (nvb & 0x0F);
  if (known_bits < 0 || known_bits >= 40 || (nvb & 0x0F) != tx_last_bits || (known_bits % 8) != rx_align) {
    return timeout();
  }
  auto bit_of = [](const std::array<std::uint8_t, 5>& bytes, int i) {
    return (bytes[static_cast<std::size_t>(i / 8)] >> (i % 8)) & 1;
  };
  std::vector<std::array<std::uint8_t, 5>> answering;
  for (const auto& card : cards_) {
    if (card.state != CardState::ready || card.level != level) continue;
    const auto bytes = level_bytes(card, level);
    bool matches = true;
    for (int i = 0; i < known_bits && matches; ++i) {
      const std::size_t byte = 2 + static_cast<std::size_t>(i / 8);
      matches = byte < frame.size() && ((frame[byte] >> (i % 8)) & 1) == bit_of(bytes, i);
    }
    if (matches) answering.push_back(bytes);
  }
  if (answering.empty()) return timeout();
  std::vector<bool> bits;
  std::optional<int> collision;
  for (int i = known_bits; i < 40; ++i) {
    const int first = bit_of(answering[0], i);
    const bool differ =
        std::any_of(answering.begin(), answering.end(), [&](const auto& b) { return bit_of(b, i) != first; });
    if (differ) {
      bits.push_back(true);
      // CollPos counts from bit 0 of the first FIFO byte, i.e. from the start of the partly known byte.
      collision = (i - (known_bits / 8) * 8) + 1;
      break;
    }
    bits.push_back(first != 0);
  }
  answer_bits(bits, rx_align, collision);
}

}  // namespace bb::peripherals
