#include "random_driver.h"

#include <cassert>
#include <memory>
#include <stdexcept>

#include "rules/script.h"

namespace bb::ledger::testing {

rules::Setup RandomDriver::setup(std::uint64_t seed, int players) {
  static const char* kNames[] = {"Ann", "Bob", "Cat", "Dan", "Eve", "Fay"};
  static const char* kTokens[] = {"car", "dog", "hat", "ship", "boot", "iron"};
  rules::Setup setup;
  setup.edition = "classic";
  setup.seed = seed;
  for (int i = 0; i < players; ++i) setup.players.push_back({kNames[i], kTokens[i], "", {}});
  return setup;
}

rules::Input RandomDriver::propose(const rules::Game& game, int attempt) {
  const rules::GameState& st = game.state();
  if (attempt >= 8) return rules::End{};
  if (st.auction) {
    if (attempt == 0 && chance(60)) {
      std::vector<int> bidders;
      for (std::size_t i = 0; i < st.players.size(); ++i)
        if (!st.players[i].bankrupt) bidders.push_back(static_cast<int>(i));
      if (!bidders.empty()) {
        int who = bidders[rng_() % bidders.size()];
        rules::Money step = std::max<rules::Money>(1, game.rules().bid_increment);
        return rules::Bid{rules::PlayerId{who},
                          st.auction->high_bid + step * static_cast<rules::Money>(1 + rng_() % 20)};
      }
    }
    return rules::Close{};
  }
  if (!st.pending.empty()) {
    const rules::Question& q = st.pending.front();
    switch (q.kind) {
      case rules::QuestionKind::draw:
        return rules::Draw{*q.deck, std::nullopt};
      case rules::QuestionKind::roll:
        return rules::Roll{die(), die()};
      case rules::QuestionKind::debt: {
        if (attempt < 4) {
          for (std::size_t s = 0; s < st.spaces.size(); ++s) {
            if (st.spaces[s].owner != q.player) continue;
            const rules::SpaceId space{static_cast<int>(s)};
            if (!game.why_not_sell(q.player, space)) return rules::Sell{q.player, space};
          }
          for (std::size_t s = 0; s < st.spaces.size(); ++s) {
            if (st.spaces[s].owner != q.player) continue;
            const rules::SpaceId space{static_cast<int>(s)};
            if (!game.why_not_mortgage(q.player, space)) return rules::Mortgage{q.player, space};
          }
        }
        return rules::Bankrupt{q.player};
      }
      default:
        break;
    }
    if (q.options.empty())
      return attempt % 2 ? rules::Input{rules::Bankrupt{q.player}} : rules::Roll{die(), die()};
    std::size_t pick = chance(80) ? 0 : rng_() % q.options.size();
    return rules::Choose{q.player, q.options[(pick + static_cast<std::size_t>(attempt)) % q.options.size()]};
  }
  if (attempt == 0) {
    const rules::PlayerId player = st.current;
    if (allow_undo_ && st.turns > 0 && chance(2)) return rules::Undo{};
    if (chance(15)) {
      std::vector<rules::Input> moves;
      for (std::size_t s = 0; s < st.spaces.size(); ++s) {
        if (st.spaces[s].owner != player) continue;
        const rules::SpaceId space{static_cast<int>(s)};
        if (!game.why_not_build(player, space)) moves.push_back(rules::Build{player, space});
        if (!game.why_not_unmortgage(player, space)) moves.push_back(rules::Unmortgage{player, space});
        if (chance(5) && !game.why_not_mortgage(player, space))
          moves.push_back(rules::Mortgage{player, space});
      }
      if (!moves.empty()) return moves[rng_() % moves.size()];
    }
  }
  return rules::Roll{die(), die()};
}

std::string RandomDriver::script(const std::string& editions_dir, std::uint64_t seed, int players,
                                 int max_inputs, bool allow_undo) {
  auto edition = rules::load_edition("classic", {editions_dir});
  if (!edition) throw std::runtime_error(edition.error().what());
  rules::Setup s = setup(seed, players);
  auto game = rules::Game::start(std::make_shared<const rules::Edition>(std::move(*edition)), s);
  if (!game) throw std::runtime_error(game.error());
  std::vector<std::string> names;
  for (const auto& p : s.players) names.push_back(p.name);
  std::string out = rules::setup_to_json(s) + "\n";
  RandomDriver driver(seed * 7919 + 1, allow_undo);
  for (int n = 0; n < max_inputs && !game->state().ended; ++n) {
    bool accepted = false;
    for (int attempt = 0; attempt <= 8 && !accepted; ++attempt) {
      rules::Input input = n + 1 == max_inputs ? rules::Input{rules::End{}} : driver.propose(*game, attempt);
      if (game->apply(input)) {
        out += rules::input_to_json(input, names, game->edition()) + "\n";
        accepted = true;
      }
    }
    if (!accepted) break;
  }
  return out;
}

}  // namespace bb::ledger::testing
