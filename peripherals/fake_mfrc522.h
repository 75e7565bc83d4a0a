#pragma once
#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "peripherals/spi_transport.h"

namespace bb::peripherals {

// A simulated MFRC522 on the far side of SPI: a register file, FIFO, CRC coprocessor and transceive
// that answers like the chip for the cards in its field (REQA/WUPA, bit-wise anticollision with CollReg,
// SELECT with CRC_A and SAK, HLTA). The tests and the simulated reader use it; the driver cannot tell.
class FakeMfrc522 final : public SpiTransport {
 public:
  explicit FakeMfrc522(std::uint8_t version = 0x92);

  // A card enters the field (4-, 7- or 10-byte UID) or leaves it.
  void add_card(std::vector<std::uint8_t> uid);
  void remove_card(const std::vector<std::uint8_t>& uid);
  void remove_all_cards() { cards_.clear(); }
  // Makes the next SPI transfer fail, as a pulled cable would.
  void fail_next_transfer() { fail_next_ = true; }
  // Every SPI transfer fails while unplugged (a cable pulled), and works again once plugged back.
  void set_unplugged(bool unplugged) { unplugged_ = unplugged; }
  bool antenna_on() const { return (registers_[0x14] & 0x03) == 0x03; }
  int transceives() const { return transceives_; }
  // The real chip hears "no card" only when its timer runs out (milliseconds). With n > 0, a transceive
  // nobody answers shows its timeout only at the n-th read of ComIrqReg, as a real chip polled that often
  // would; 0 (the default) shows it at once.
  void set_timeout_reads(int n) { timeout_reads_ = n; }
  int irq_reads() const { return irq_reads_; }  // reads of ComIrqReg so far

  std::expected<std::vector<std::uint8_t>, std::string> transfer(std::span<const std::uint8_t> tx) override;

 private:
  enum class CardState { idle, ready, active, halt };
  struct Card {
    std::vector<std::uint8_t> uid;
    CardState state = CardState::idle;
    int level = 0;  // cascade level being selected while ready
  };
  std::uint8_t read_register(std::uint8_t reg);
  void write_register(std::uint8_t reg, std::uint8_t value);
  void soft_reset();
  void transceive();
  // The 5 bytes a card sends at a cascade level: (CT +) UID part + BCC.
  static std::array<std::uint8_t, 5> level_bytes(const Card& card, int level);
  void answer(const std::vector<std::uint8_t>& bytes);
  void answer_bits(const std::vector<bool>& bits, int rx_align, std::optional<int> collision_at);

  std::array<std::uint8_t, 64> registers_{};
  std::deque<std::uint8_t> fifo_;
  std::vector<Card> cards_;
  std::uint8_t version_;
  std::uint8_t command_ = 0;
  bool fail_next_ = false;
  bool unplugged_ = false;
  int transceives_ = 0;
  int timeout_reads_ = 0;
  int timeout_in_ = 0;  // reads of ComIrqReg left until a pending timeout shows; 0: none pending
  int irq_reads_ = 0;
};

}  // namespace bb::peripherals
