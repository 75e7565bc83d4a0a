#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <span>

namespace bb::peripherals {

// Two fair dice for families without a dice unit. The bytes come from the kernel (getrandom) unless a
// test gives its own source.
class DiceRoller {
 public:
  using RandomBytes = std::function<void(std::span<std::uint8_t>)>;
  static void kernel_random_bytes(std::span<std::uint8_t> out);

  explicit DiceRoller(RandomBytes source = &DiceRoller::kernel_random_bytes) : source_(std::move(source)) {}
  std::array<int, 2> roll();

 private:
  int one_die();
  RandomBytes source_;
};

}  // namespace bb::peripherals
