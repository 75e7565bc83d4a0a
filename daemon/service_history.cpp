#include <fmt/format.h>

#include "daemon/service_impl.h"
#include "rules/script.h"

namespace bb::daemon {

void Service::Impl::rebuild_history() {
  replay_history();
  const rules::Game* live = session->view().game;
  history_given_up = live && history.worth().size() != live->input_count() + 1;
}

void Service::Impl::replay_history() {
  history = display::GameHistory{};
  history_game = store->current();
  const rules::Game* live = session->view().game;
  if (!history_game || !live) return;
  auto script = ledger->export_script(*history_game);
  if (!script) return (void)log("the charts start from now: " + script.error().message);
  // The live game's edition, borrowed for the replay (it outlives this function).
  std::shared_ptr<const rules::Edition> edition(&live->edition(), [](const rules::Edition*) {});
  std::size_t start = 0;
  std::optional<rules::Game> game;
  std::vector<std::string> names;
  while (start < script->size()) {
    std::size_t end = script->find('\n', start);
    if (end == std::string::npos) end = script->size();
    const std::string_view line(script->data() + start, end - start);
    start = end + 1;
    if (line.empty()) continue;
    if (!game) {
      auto game_setup = rules::parse_setup(line);
      if (!game_setup) return (void)log("the charts start from now: " + game_setup.error());
      auto started_game = rules::Game::start(edition, *game_setup);
      if (!started_game) return (void)log("the charts start from now: " + started_game.error());
      game.emplace(std::move(*started_game));
      for (const auto& p : game_setup->players) names.push_back(p.name);
      history.start(*game);
      continue;
    }
    auto input = rules::parse_input(line, names, *edition);
    if (!input) return (void)log("the charts stop at a line they cannot read: " + input.error());
    auto outcome = game->apply(*input);
    if (!outcome) return (void)log("the charts stop at a refused input: " + outcome.error());
    history.record(*game, *outcome);
  }
}

void Service::Impl::follow_history(const table::Reaction& r) {
  const rules::Game* game = session->view().game;
  if (!game || history_game != store->current()) return;
  std::size_t fresh = 0;
  for (const auto& recorded : r.recorded) fresh += recorded.duplicate ? 0 : 1;
  if (fresh == 1 && history.worth().size() == game->input_count()) {
    for (const auto& recorded : r.recorded)
      if (!recorded.duplicate) history.record(*game, rules::Outcome{0, recorded.events});
  }
}

void Service::Impl::refresh_snapshot() {
  const std::uint64_t version = snapshot.version;
  const rules::Game* game = session->view().game;
  if (history_game != store->current() ||
      (game && !history_given_up && history.worth().size() != game->input_count() + 1))
    rebuild_history();
  snapshot.history = game ? &history : nullptr;
  session->fill(snapshot);
  snapshot.chances = odds ? &chances : nullptr;
  snapshot.editions = editions;
  snapshot.version = version + 1;
  screen->show(snapshot);
  follow_odds();
}

}  // namespace bb::daemon
