#include "odds/chances.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace bb::odds {

namespace {
constexpr double kZ = 1.959963984540054;  // 95%

double wilson_centre_and_half(const Chance& c, double sign) {
  if (c.playouts <= 0) return sign < 0 ? 0.0 : 1.0;
  const double n = c.playouts;
  const double p = std::clamp(c.wins() / n, 0.0, 1.0);
  const double z2 = kZ * kZ;
  const double centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const double half = kZ * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n);
  return std::clamp(centre + sign * half, 0.0, 1.0);
}
}  // namespace

double Chance::low() const { return wilson_centre_and_half(*this, -1); }
double Chance::high() const { return wilson_centre_and_half(*this, +1); }

void Chances::add(const PlayoutResult& r) {
  if (r.refused) {
    ++refused;
    return;
  }
  if (players.size() < r.share.size()) players.resize(r.share.size());
  for (std::size_t p = 0; p < r.share.size(); ++p) {
    players[p].win_units += r.share[p];
    ++players[p].playouts;
  }
  for (std::size_t p = r.share.size(); p < players.size(); ++p) ++players[p].playouts;
  ++playouts;
  capped += r.capped ? 1 : 0;
  turns += r.turns;
}

void Chances::merge(const Chances& other) {
  if (players.size() < other.players.size()) players.resize(other.players.size());
  for (std::size_t p = 0; p < other.players.size(); ++p) {
    players[p].win_units += other.players[p].win_units;
    players[p].playouts += other.players[p].playouts;
  }
  playouts += other.playouts;
  capped += other.capped;
  refused += other.refused;
  turns += other.turns;
}

std::string format_chance(const Chance& c) {
  if (c.playouts <= 0) return "?";
  const double pct = 100 * c.estimate();
  const double margin = 100 * c.margin();
  if (margin < 0.5) {
    if (pct < 0.1) return "<0.1%";
    if (pct > 99.9) return ">99.9%";
    return fmt::format("{:.1f}% ±{:.1f}", pct, std::max(0.1, std::ceil(margin * 10) / 10));
  }
  if (pct < 1) return "<1%";
  if (pct > 99) return ">99%";
  return fmt::format("{:.0f}% ±{}", pct, static_cast<int>(std::ceil(margin)));
}

std::string format_change(const std::string& name, const Chance& before, const Chance& after) {
  auto whole = [](const Chance& c) {
    const double pct = 100 * c.estimate();
    if (c.playouts <= 0) return std::string("?");
    if (pct < 1) return std::string("<1%");
    if (pct > 99) return std::string(">99%");
    return fmt::format("{:.0f}%", pct);
  };
  return fmt::format("{} {} -> {}", name, whole(before), whole(after));
}

Chances estimate_chances(const rules::Game& game, const PlayoutSettings& settings) {
  Chances out;
  out.players.resize(game.state().players.size());
  // Each playout copies this one: without the journal, a copy copies no postings.
  rules::Game position = game;
  position.forget_journal();
  for (int i = 0; i < settings.playouts; ++i)
    if (auto r = play_out(position, playout_seed(settings.seed, i), settings.turn_cap)) out.add(*r);
  return out;
}

std::expected<TradeChances, std::string> estimate_trade(const rules::Game& game, const rules::Trade& trade,
                                                        const PlayoutSettings& settings) {
  rules::Game traded = game;
  if (auto applied = traded.apply(trade); !applied) return std::unexpected(applied.error());
  TradeChances out;
  out.without_trade = estimate_chances(game, settings);
  out.with_trade = estimate_chances(traded, settings);
  return out;
}

}  // namespace bb::odds
