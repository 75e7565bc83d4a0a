#include "table/card_registry.h"

#include <fmt/format.h>

namespace bb::table {
namespace {
std::string describe(const CardRole& role, const std::string& owner) {
  switch (role.kind) {
    case CardRole::Kind::player:
      return fmt::format("{}'s card", owner);
    case CardRole::Kind::banker:
      return "the banker's card";
    case CardRole::Kind::deck_card:
      return fmt::format("the {} card {}", role.deck, role.card);
  }
  return "another card";
}
}  // namespace

std::optional<std::string> CardRegistry::normalise(const std::string& uid) {
  std::string out;
  for (char c : uid) {
    if (c == ':' || c == '-' || c == ' ') continue;
    if (c >= 'a' && c <= 'f') c = static_cast<char>(c - 'a' + 'A');
    if (!((c >= '0' && c <= '9') || (c >= 'A' && c <= 'F'))) return std::nullopt;
    out.push_back(c);
  }
  if (out.empty()) return std::nullopt;
  return out;
}

std::expected<void, std::string> CardRegistry::add(const std::string& uid, CardRole role,
                                                   const std::string& owner_name) {
  const auto key = normalise(uid);
  if (!key) return std::unexpected(fmt::format("'{}' is not a card number (hex digits expected)", uid));
  if (auto it = cards_.find(*key); it != cards_.end()) {
    if (it->second.first == role) return {};
    // Both names: whose the card is, and who was about to be given it.
    if (role.kind == CardRole::Kind::player && !owner_name.empty())
      return std::unexpected(
          fmt::format("Card {} is already {}: {} cannot have it too (one card stands for one "
                      "thing only; give {} a card of their own)",
                      *key, describe(it->second.first, it->second.second), owner_name, owner_name));
    return std::unexpected(fmt::format("Card {} is already {}: one card stands for one thing only", *key,
                                       describe(it->second.first, it->second.second)));
  }
  cards_.emplace(*key, std::make_pair(std::move(role), owner_name));
  return {};
}

void CardRegistry::remove(const std::string& uid) {
  if (const auto key = normalise(uid)) cards_.erase(*key);
}

std::optional<CardRole> CardRegistry::find(const std::string& uid) const {
  const auto key = normalise(uid);
  if (!key) return std::nullopt;
  const auto it = cards_.find(*key);
  if (it == cards_.end()) return std::nullopt;
  return it->second.first;
}

std::vector<RegisteredCard> CardRegistry::all() const {
  std::vector<RegisteredCard> out;
  for (const auto& [uid, entry] : cards_) out.push_back({uid, entry.first});
  return out;
}

void CardRegistry::clear_players() {
  std::erase_if(cards_, [](const auto& kv) { return kv.second.first.kind == CardRole::Kind::player; });
}

}  // namespace bb::table
