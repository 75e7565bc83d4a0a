#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace bb::ledger {

// A running 64-bit hash (FNV-1a) over a game's rows, each row's hash chained to the one before. SQLite checks
// its own pages, not the bytes inside a row: a flipped digit in an amount would pass quick_check. The chain
// catches it. It guards against a lying SD card, not against a forger.
class ChainHash {
 public:
  ChainHash() = default;
  explicit ChainHash(std::string_view previous_hex) { add(previous_hex); }

  // Each field is length-prefixed, so that ("ab","c") and ("a","bc") differ.
  ChainHash& add(std::string_view field);
  ChainHash& add(const std::string& field) { return add(std::string_view(field)); }
  ChainHash& add(const char* field) { return add(std::string_view(field)); }
  ChainHash& add(std::int64_t value);
  ChainHash& add(const std::optional<std::string>& field);
  std::string hex() const;  // 16 lowercase hex digits

 private:
  void mix(const void* data, std::size_t size);
  std::uint64_t state_ = 14695981039346656037ull;
};

}  // namespace bb::ledger
