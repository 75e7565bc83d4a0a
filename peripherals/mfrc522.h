#pragma once
#include <chrono>
#include <cstdint>
#include <expected>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "peripherals/edge.h"
#include "peripherals/gpio.h"
#include "peripherals/spi_transport.h"

namespace bb::peripherals {

// The NXP MFRC522 (RC522 boards) over SPI: initialisation, REQA, the anticollision and SELECT cascade for
// 4-, 7- and 10-byte UIDs with the chip's CRC coprocessor, and HLTA so a card held on the reader is read
// once.
// Must never: wait for the chip's timer on an event loop. With no card in the field, REQA is answered by
// nobody and only the chip's timer (5 ms) ends the exchange: step() starts it and returns `pending`, and
// the caller comes back later; HLTA is answered by nobody either and is sent without waiting. Only a card
// that answered REQA is read to its end in one call (its replies take microseconds; a card pulled away
// mid-read costs one 5 ms timeout). Thread: whoever owns it; not thread-safe.
class Mfrc522 {
 public:
  struct Card {
    std::vector<std::uint8_t> uid;  // 4, 7 or 10 bytes
    std::uint8_t sak = 0;
  };
  using Sleep = std::function<void(Nanoseconds)>;

  // reset: the RST line (optional; without it only a soft reset is done). sleep: real by default.
  explicit Mfrc522(SpiTransport& spi, GpioOutput* reset = nullptr, Sleep sleep = {});

  // Resets the chip, sets its timer and modulation, turns the antenna on; the error says what to check.
  std::expected<void, std::string> init();
  // One look for a new card in the field, waiting for the chip's answer: nullopt when there is none. Blocks
  // up to the chip's timer (5 ms); for command-line tools. The service's loop uses step().
  std::expected<std::optional<Card>, std::string> poll();

  // The non-blocking poll: each call moves the look for a card on as far as it can without waiting.
  struct Step {
    enum class Kind { pending, no_card, card } kind = Kind::pending;
    std::optional<Card> card;
  };
  // pending: REQA is in the air; call again (about a millisecond later). no_card / card: the look is over
  // and the next call starts another.
  std::expected<Step, std::string> step();
  std::uint8_t version() const { return version_; }

 private:
  struct Reply {
    std::vector<std::uint8_t> bytes;
    int last_bits = 0;             // valid bits in the last byte, 0 = all 8
    std::optional<int> collision;  // CollPos (1-32) when cards answered differently
    bool timeout = false;
  };
  std::expected<std::uint8_t, std::string> read(std::uint8_t reg);
  std::expected<void, std::string> write(std::uint8_t reg, std::uint8_t value);
  std::expected<void, std::string> write(std::uint8_t reg, std::span<const std::uint8_t> values);
  std::expected<std::vector<std::uint8_t>, std::string> read_fifo(std::size_t count);
  std::expected<void, std::string> set_bits(std::uint8_t reg, std::uint8_t mask);
  std::expected<Reply, std::string> transceive(std::span<const std::uint8_t> data, int tx_last_bits,
                                               int rx_align);
  // transceive() in parts: start it, look once whether it ended (nullopt: still running), read the reply.
  std::expected<void, std::string> start_transceive(std::span<const std::uint8_t> data, int tx_last_bits,
                                                    int rx_align);
  std::expected<std::optional<Reply>, std::string> check_transceive();
  std::expected<Reply, std::string> read_reply();
  // After ATQA: the cascade, then HLTA sent without waiting for the silence that is its answer.
  std::expected<std::optional<Card>, std::string> read_card();
  std::expected<std::uint16_t, std::string> calculate_crc(std::span<const std::uint8_t> data);
  std::expected<std::optional<std::vector<std::uint8_t>>, std::string> select_level(int level,
                                                                                    std::uint8_t* sak);

  SpiTransport& spi_;
  GpioOutput* reset_;
  Sleep sleep_;
  std::uint8_t version_ = 0;
  bool request_in_air_ = false;  // step(): REQA sent, its answer (or the chip's timeout) not seen yet
  std::chrono::steady_clock::time_point started_{};
};

// Upper-case hex of a UID, as cards are named everywhere else ("04A1B2C3D4E5F6").
std::string uid_hex(const std::vector<std::uint8_t>& uid);

}  // namespace bb::peripherals
