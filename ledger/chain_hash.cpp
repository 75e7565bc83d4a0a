#include "ledger/chain_hash.h"

#include <fmt/format.h>

namespace bb::ledger {

void ChainHash::mix(const void* data, std::size_t size) {
  const auto* bytes = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < size; ++i) {
    state_ ^= bytes[i];
    state_ *= 1099511628211ull;
  }
}

ChainHash& ChainHash::add(std::string_view field) {
  std::uint64_t size = field.size();
  mix(&size, sizeof size);
  mix(field.data(), field.size());
  return *this;
}

ChainHash& ChainHash::add(std::int64_t value) {
  unsigned char tag = 'i';
  mix(&tag, 1);
  mix(&value, sizeof value);
  return *this;
}

ChainHash& ChainHash::add(const std::optional<std::string>& field) {
  if (field) return add(std::string_view(*field));
  unsigned char tag = 'n';
  mix(&tag, 1);
  return *this;
}

std::string ChainHash::hex() const { return fmt::format("{:016x}", state_); }

}  // namespace bb::ledger
