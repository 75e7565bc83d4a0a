#include "rules/replay.h"

#include <fmt/format.h>

#include "rules/script.h"

namespace bb::rules {

std::expected<Game, std::string> start_game(const Setup& setup,
                                            const std::vector<std::string>& edition_dirs) {
  auto edition = load_edition(setup.edition, edition_dirs);
  if (!edition) return std::unexpected(edition.error().what());
  return Game::start(std::make_shared<const Edition>(std::move(*edition)), setup);
}

ReplayResult replay_script(std::string_view script, const std::string& file_name,
                           const std::vector<std::string>& edition_dirs, bool keep_going) {
  ReplayResult result;
  int line_no = 0;
  std::size_t pos = 0;
  std::vector<std::string> names;
  while (pos <= script.size()) {
    std::size_t end = script.find('\n', pos);
    if (end == std::string_view::npos) end = script.size();
    std::string_view line = script.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t'))
      line.remove_suffix(1);
    std::size_t first = line.find_first_not_of(" \t");
    if (first == std::string_view::npos || line[first] == '#') {
      if (end == script.size()) break;
      continue;
    }
    auto fail = [&](const std::string& why) {
      result.errors.push_back(fmt::format("{}:{}: {}", file_name, line_no, why));
    };
    if (!result.game) {
      auto setup = parse_setup(line);
      if (!setup) {
        fail(setup.error());
        return result;  // without a setup nothing else can be read
      }
      auto game = start_game(*setup, edition_dirs);
      if (!game) {
        fail(game.error());
        return result;
      }
      result.game.emplace(std::move(*game));
      for (const auto& p : setup->players) names.push_back(p.name);
    } else {
      auto input = parse_input(line, names, result.game->edition());
      if (!input) {
        fail(input.error());
        if (!keep_going) return result;
      } else if (auto applied = result.game->apply(*input); !applied) {
        fail(applied.error());
        if (!keep_going) return result;
      } else {
        ++result.inputs_applied;
      }
    }
    if (end == script.size()) break;
  }
  if (!result.game && result.errors.empty())
    result.errors.push_back(
        fmt::format("{}: the script is empty: its first line must be the setup", file_name));
  return result;
}

}  // namespace bb::rules
