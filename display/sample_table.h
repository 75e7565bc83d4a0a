#pragma once
#include <expected>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "display/game_history.h"
#include "display/snapshot.h"
#include "rules/game.h"

namespace bb::display {

// A game at the table as the screens need it: the game, its history for the charts, device states and the
// camera picture. The screenshots, tests and benchmarks build these; the daemon will hold the same things.
class SampleTable {
 public:
  SampleTable(std::string name, rules::Game game);

  // Applies an input as the daemon would, recording it for the charts.
  std::expected<rules::Outcome, std::string> apply(const rules::Input& input);
  // Applies an intent's input; an undo keeps the banker's reason for the ledger screen.
  std::expected<rules::Outcome, std::string> apply(const rules::Input& input, const std::string& reason);
  // Plays `inputs` more inputs with the simple table policy below (for long games in tests and samples).
  void play(int inputs, std::uint64_t seed);
  Snapshot snapshot() const;

  const std::string& name() const { return name_; }
  rules::Game& game() { return *game_; }
  const rules::Game& game() const { return *game_; }
  const GameHistory& history() const { return history_; }
  std::vector<DeviceStatus> devices;
  std::shared_ptr<CameraView> camera;
  std::shared_ptr<CalibrationView> calibration;
  std::vector<int> colours;
  rules::ById<rules::PlayerId, std::optional<rules::SpaceId>> seen_positions;
  std::vector<std::shared_ptr<const rules::Edition>> editions;
  bool unfinished_game = false;
  std::map<int, std::string> undo_reasons;
  std::shared_ptr<ChancesView> chances;  // the odds worker's answer, where a test or sample gives one

  // The sample states every screen is shown in: a fresh game; houses, hotels and mortgages; an auction;
  // a debt; a hotel sale with no houses in the bank; a game ended in a tie; a long ledger; six players with
  // long names; then each other edition of the folder in play ("edition-ID"), and the ships Short Game's
  // draft.
  // The long game's chances (its charts' Chances tab) take thousands of playouts: a fraction of a second
  // here, seconds in an unoptimised build. `when_asked` leaves them to play_out_chances(), for a caller that
  // shows only some tables (a test of one screen).
  enum class ChancesWork { now, when_asked };
  static std::expected<std::vector<SampleTable>, std::string> samples(
      const std::string& editions_dir, ChancesWork chances_work = ChancesWork::now);
  // Plays out the chances of a table whose charts show them, if samples() left them for later; nothing for
  // any other table.
  void play_out_chances();
  static std::expected<SampleTable, std::string> start(const std::string& name,
                                                       const std::string& editions_dir,
                                                       const std::vector<std::string>& players,
                                                       std::uint64_t seed,
                                                       const std::string& edition = "classic",
                                                       const std::map<std::string, bool>& options = {});
  // Every edition file of the folder that loads, in file-name order (as the service lists them).
  static std::vector<std::shared_ptr<const rules::Edition>> folder_editions(const std::string& editions_dir);
  static std::vector<DeviceStatus> healthy_devices();
  static std::shared_ptr<CameraView> synthetic_camera(int spaces);
  // A top view of a board whose printed ring sits a little inside the board's edge (as most printed boards
  // do), under the default grid: what the calibration screen shows before the corners are dragged.
  static std::shared_ptr<CalibrationView> synthetic_top_view(int spaces);
  // Where synthetic_top_view printed the ring's corners, in board units.
  static std::array<BoardPoint, 4> synthetic_printed_corners();

 private:
  std::string name_;
  std::shared_ptr<rules::Game> game_;
  GameHistory history_;
  std::uint64_t version_ = 1;
  bool shows_chances_ = false;
};

}  // namespace bb::display
