#include "ledger/script_replay.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <system_error>

#include "ledger/chain_hash.h"
#include "ledger/ledger.h"
#include "rules/script.h"

namespace bb::ledger {

std::string ScriptReplay::origin_of(const std::string& setup_line) {
  return "script " + ChainHash().add(setup_line).hex();
}

std::expected<ScriptReplay::Result, std::string> ScriptReplay::run(Ledger& ledger,
                                                                   const std::string& script_path,
                                                                   bool keep_going,
                                                                   const OnStored& on_stored) {
  // A folder opens as an empty file on Linux: it would be refused as an empty script.
  if (std::error_code error; std::filesystem::is_directory(script_path, error))
    return std::unexpected(
        fmt::format("{} is a folder, not a file: give the path of the game script", script_path));
  std::ifstream in(script_path, std::ios::binary);
  if (!in) return std::unexpected(fmt::format("cannot read {}", script_path));
  std::vector<std::pair<int, std::string>> lines;
  std::string text;
  std::size_t total = 0;
  // Read by bounded lines, so that an endless source (/dev/zero, a FIFO that never ends) is refused, not
  // read into memory.
  for (int number = 1;; ++number) {
    text.clear();
    char c = 0;
    while (in.get(c) && c != '\n') {
      if (text.size() == kMaxLineBytes) {
        return std::unexpected(fmt::format("{}:{}: the line is longer than {} bytes: not a game-script line",
                                           script_path, number, kMaxLineBytes));
      }
      text += c;
    }
    if (!in && text.empty()) break;
    total += text.size() + 1;
    if (total > kMaxScriptBytes) {
      return std::unexpected(
          fmt::format("{}: the script is larger than {} bytes: split it, or check that it "
                      "is a game script",
                      script_path, kMaxScriptBytes));
    }
    if (text.find('\0') != std::string::npos)
      return std::unexpected(
          fmt::format("{}:{}: the line holds a NUL byte: not a game-script line", script_path, number));
    auto first = text.find_first_not_of(" \t\r");
    // Blank lines and '#' comments are skipped, as plain `boardbank replay` skips them.
    if (first == std::string::npos || text[first] == '#') continue;
    lines.emplace_back(number, text);
  }
  if (lines.empty()) return std::unexpected(fmt::format("{}: the script is empty", script_path));

  auto setup = rules::parse_setup(lines[0].second);
  if (!setup) return std::unexpected(fmt::format("{}:{}: {}", script_path, lines[0].first, setup.error()));
  std::string origin = origin_of(rules::setup_to_json(*setup));

  Result result;
  if (auto existing = ledger.newest_game_with_origin(origin)) {
    auto report = ledger.resume(*existing);
    if (!report) return std::unexpected(report.error().message);
    if (!report->differences.empty()) {
      return std::unexpected(fmt::format("game {} in the ledger does not replay to what is stored: {}",
                                         *existing, report->differences[0]));
    }
    result.game = *existing;
  } else {
    auto id = ledger.start_game(*setup, origin);
    if (!id) return std::unexpected(id.error().message);
    result.game = *id;
  }
  const rules::Game* game = ledger.game(result.game);
  std::vector<std::string> names;
  for (const auto& p : setup->players) names.push_back(p.name);

  struct Line {
    int number;
    std::string id;
    const std::string* text;
  };
  std::vector<Line> inputs;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    inputs.push_back({lines[i].first,
                      rules::input_line_id(lines[i].second).value_or(std::to_string(lines[i].first)),
                      &lines[i].second});
  }
  // A line before the last stored one that is not stored was refused by the rules in an earlier run: trying
  // it now, against a later state, would not give what an uninterrupted run gives.
  std::size_t resume_at = 0;
  for (std::size_t i = inputs.size(); i-- > 0;) {
    if (ledger.has_input(result.game, inputs[i].id)) {
      resume_at = i;
      break;
    }
  }

  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const Line& line = inputs[i];
    bool stored = ledger.has_input(result.game, line.id);
    if (i < resume_at && !stored) {
      result.refused.push_back(fmt::format("line {}: refused in an earlier run", line.number));
      continue;
    }
    auto input = rules::parse_input(*line.text, names, game->edition());
    if (!input) {
      result.refused.push_back(fmt::format("{}:{}: {}", script_path, line.number, input.error()));
      if (!keep_going) break;
      continue;
    }
    InputMeta meta{line.id, "script", "script",
                   fmt::format("replay of {} line {}", script_path, line.number)};
    auto recorded = ledger.record(result.game, *input, meta);
    if (!recorded) {
      std::string message = fmt::format("{}:{}: {}", script_path, line.number, recorded.error().message);
      bool rules_said_no = recorded.error().kind == LedgerError::Kind::refused ||
                           recorded.error().kind == LedgerError::Kind::game_over;
      if (!rules_said_no) return std::unexpected(message);
      result.refused.push_back(message);
      if (!keep_going) break;
      continue;
    }
    if (recorded->duplicate) {
      ++result.skipped;
    } else {
      ++result.applied;
    }
    if (on_stored) on_stored(line.number, line.id, *recorded);
    game = ledger.game(result.game);
  }
  return result;
}

}  // namespace bb::ledger
