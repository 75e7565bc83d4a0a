#include "display/game_history.h"

#include <fmt/format.h>

namespace bb::display {

void GameHistory::start(const rules::Game& game) {
  worth_.clear();
  landings_.assign(game.state().spaces.size(), 0);
  sample(game);
}

void GameHistory::record(const rules::Game& game, const rules::Outcome& outcome) {
  if (landings_.size() != game.state().spaces.size()) landings_.assign(game.state().spaces.size(), 0);
  for (const auto& e : outcome.events)
    if (e.kind == rules::Event::Kind::moved && e.to_space && e.to_space->index() < landings_.size())
      ++landings_[e.to_space->index()];
  sample(game);
}

void GameHistory::sample(const rules::Game& game) {
  std::vector<rules::Money> row;
  for (rules::PlayerId p : game.state().players.ids()) row.push_back(game.worth(p));
  worth_.push_back(std::move(row));
}

std::vector<std::string> GameHistory::invariant_violations() const {
  std::vector<std::string> out;
  for (std::size_t i = 1; i < worth_.size(); ++i)
    if (worth_[i].size() != worth_[0].size())
      out.push_back(fmt::format("worth sample {} has {} players, the first has {}", i, worth_[i].size(),
                                worth_[0].size()));
  for (std::size_t s = 0; s < landings_.size(); ++s)
    if (landings_[s] < 0) out.push_back(fmt::format("negative landing count on space {}", s));
  return out;
}

}  // namespace bb::display
