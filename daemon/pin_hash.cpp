// The banker's PIN hash (declared in config.h): PBKDF2-HMAC-SHA256 from OpenSSL's libcrypto, so a
// configuration file that leaks does not give the PIN away at a glance.
#include <fmt/format.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include <array>
#include <charconv>
#include <vector>

#include "daemon/config.h"

namespace bb::daemon {

namespace {

constexpr const char* kScheme = "pbkdf2-sha256";
constexpr std::size_t kSaltBytes = 16;
constexpr std::size_t kHashBytes = 32;

std::string to_hex(const unsigned char* bytes, std::size_t size) {
  std::string hex;
  for (std::size_t i = 0; i < size; ++i) hex += fmt::format("{:02x}", bytes[i]);
  return hex;
}

std::optional<std::vector<unsigned char>> from_hex(std::string_view hex) {
  if (hex.size() % 2 != 0) return std::nullopt;
  std::vector<unsigned char> bytes(hex.size() / 2);
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    auto [end, ec] = std::from_chars(hex.data() + 2 * i, hex.data() + 2 * i + 2, bytes[i], 16);
    if (ec != std::errc() || end != hex.data() + 2 * i + 2) return std::nullopt;
  }
  return bytes;
}

struct Parsed {
  std::uint32_t iterations = 0;
  std::vector<unsigned char> salt;
  std::vector<unsigned char> hash;
};

std::expected<Parsed, std::string> parse(const std::string& text) {
  std::vector<std::string_view> parts;
  std::string_view rest = text;
  for (std::size_t at; (at = rest.find('$')) != std::string_view::npos; rest.remove_prefix(at + 1))
    parts.push_back(rest.substr(0, at));
  parts.push_back(rest);
  const std::string what_to_do = "make one with `boardbank hash-pin` and paste its line";
  if (parts.size() != 4 || parts[0] != kScheme)
    return std::unexpected(fmt::format("not a {}$ITERATIONS$SALT$HASH text; {}", kScheme, what_to_do));
  Parsed parsed;
  auto [end, ec] = std::from_chars(parts[1].data(), parts[1].data() + parts[1].size(), parsed.iterations);
  if (ec != std::errc() || end != parts[1].data() + parts[1].size() || parsed.iterations < 1000)
    return std::unexpected(
        fmt::format("the iteration count must be a number of at least 1000; {}", what_to_do));
  auto salt = from_hex(parts[2]);
  auto hash = from_hex(parts[3]);
  if (!salt || salt->size() < 8 || !hash || hash->size() != kHashBytes)
    return std::unexpected(fmt::format("the salt or the hash is not the right hex; {}", what_to_do));
  parsed.salt = std::move(*salt);
  parsed.hash = std::move(*hash);
  return parsed;
}

std::array<unsigned char, kHashBytes> derive(const std::string& pin, const std::vector<unsigned char>& salt,
                                             std::uint32_t iterations) {
  std::array<unsigned char, kHashBytes> out{};
  [[maybe_unused]] const int ok =
      PKCS5_PBKDF2_HMAC(pin.data(), static_cast<int>(pin.size()), salt.data(), static_cast<int>(salt.size()),
                        static_cast<int>(iterations), EVP_sha256(), static_cast<int>(out.size()), out.data());
  return out;
}

}  // namespace

PinHash hash_pin(const std::string& pin, std::uint32_t iterations) {
  std::vector<unsigned char> salt(kSaltBytes);
  if (RAND_bytes(salt.data(), static_cast<int>(salt.size())) != 1) {
    // Without the kernel's randomness there is no safe salt; an assertion, not a weak hash.
    std::abort();
  }
  const auto hash = derive(pin, salt, iterations);
  return PinHash{fmt::format("{}${}${}${}", kScheme, iterations, to_hex(salt.data(), salt.size()),
                             to_hex(hash.data(), hash.size()))};
}

bool pin_matches(const PinHash& hash, const std::string& pin) {
  auto parsed = parse(hash.text);
  if (!parsed) return false;
  const auto derived = derive(pin, parsed->salt, parsed->iterations);
  return CRYPTO_memcmp(derived.data(), parsed->hash.data(), derived.size()) == 0;
}

std::optional<std::string> pin_hash_problem(const std::string& text) {
  auto parsed = parse(text);
  if (!parsed) return parsed.error();
  return std::nullopt;
}

}  // namespace bb::daemon
