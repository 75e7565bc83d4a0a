#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "display/chances_view.h"
#include "display/table_question.h"
#include "rules/edition.h"
#include "rules/game.h"
#include "rules/ids.h"

namespace bb::display {

class GameHistory;

// A device the table depends on, as the daemon last saw it.
struct DeviceStatus {
  // What the device is for, so that the table and the screen decide by it (several card readers may be
  // named "Card reader (door)", "Card reader (RC522)", ...), never by comparing names.
  enum class Kind { dice, roll_button, card_reader, camera };
  enum class State { ok, missing, error };
  Kind kind = Kind::dice;
  std::string name;  // what the Devices screen calls it: "Dice unit", "Card reader (RC522)", "Camera"
  State state = State::ok;
  std::string detail;      // "last throw 12 s ago", "no answer on GPIO 17"
  std::string what_to_do;  // shown when it is not ok
};

// What the camera sees, for calibration: its picture, the markers it found and the space grid it derived.
struct CameraView {
  int width = 0, height = 0;
  std::vector<unsigned char> rgb;  // width*height*3
  struct Marker {
    int id = 0;
    int x = 0, y = 0;  // centre in camera pixels
    int size = 0;
  };
  std::vector<Marker> markers;
  struct Cell {
    rules::SpaceId space{0};
    int x[4] = {0, 0, 0, 0};  // the space's quadrilateral in camera pixels
    int y[4] = {0, 0, 0, 0};
  };
  std::vector<Cell> grid;
};

// A point on the board in board units: the board's outer square is [0,1]^2 seen from above, x to the right,
// y down, GO in the bottom-right corner (as vision's SpaceMap has it).
struct BoardPoint {
  double x = 0, y = 0;
  bool operator==(const BoardPoint&) const = default;
};

// For the calibration screen: the camera's picture turned into a top view of the board, and the space grid
// that is drawn over it and dragged onto the printed board.
struct CalibrationView {
  int width = 0, height = 0;
  std::vector<unsigned char> rgb;  // width*height*3; shows board units view_min..view_max across and down
  double view_min = -0.08;
  double view_max = 1.08;
  int spaces_per_side = 10;
  double corner_ratio = 1.6;  // a corner square's side over an ordinary space's width
  // The grid's corners (top-left, top-right, bottom-right, bottom-left) as stored, and where Reset puts them.
  std::array<BoardPoint, 4> grid{BoardPoint{0, 0}, BoardPoint{1, 0}, BoardPoint{1, 1}, BoardPoint{0, 1}};
  std::array<BoardPoint, 4> default_grid{BoardPoint{0, 0}, BoardPoint{1, 0}, BoardPoint{1, 1},
                                         BoardPoint{0, 1}};
};

// Everything a screen draws: read-only. The game is held by const pointer, so the display cannot change it;
// the caller applies intents and hands over a new snapshot with a new version.
struct Snapshot {
  const rules::Game* game = nullptr;  // null before a game is set up
  const GameHistory* history = nullptr;
  std::vector<int> colours;  // palette index per player; index order when empty
  // Where the camera sees each player's token (nothing: unknown).
  rules::ById<rules::PlayerId, std::optional<rules::SpaceId>> seen_positions;
  std::vector<DeviceStatus> devices;
  const CameraView* camera = nullptr;
  const CalibrationView* calibration = nullptr;  // the top view for the calibration screen, when there is one
  std::vector<std::shared_ptr<const rules::Edition>> editions;  // for setup
  bool unfinished_game = false;
  // Why the banker took inputs back, by the index of the input taken back (from the ledger).
  std::map<int, std::string> undo_reasons;
  // From the table: its open question, where the dice say each token must go (nothing: nowhere in
  // particular), and a line for the status bar ("Resumed game 3 from input 57").
  std::optional<TableQuestion> table_question;
  rules::ById<rules::PlayerId, std::optional<rules::SpaceId>> expected_positions;
  std::string table_status;
  // Each player's chance of winning and the trade adviser's answer (the odds worker's); null when off.
  const ChancesView* chances = nullptr;
  std::uint64_t version = 0;  // the caller bumps it whenever anything above changed

  // The palette index of a player's colour (their seat's when none was chosen).
  int colour_of(rules::PlayerId player) const {
    return player.index() < colours.size() ? colours[player.index()] : player.number();
  }
};

}  // namespace bb::display
