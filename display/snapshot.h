#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rules/edition.h"
#include "rules/game.h"

namespace bb::display {

class GameHistory;

// A device the table depends on, as the daemon last saw it.
struct DeviceStatus {
  enum class State { ok, missing, error };
  std::string name;  // "Dice unit", "Card reader", "Camera"
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
    int space = 0;
    int x[4] = {0, 0, 0, 0};  // the space's quadrilateral in camera pixels
    int y[4] = {0, 0, 0, 0};
  };
  std::vector<Cell> grid;
};

// Everything a screen draws: read-only. The game is held by const pointer, so the display cannot change it;
// the caller applies intents and hands over a new snapshot with a new version.
struct Snapshot {
  const rules::Game* game = nullptr;  // null before a game is set up
  const GameHistory* history = nullptr;
  std::vector<int> colours;         // palette index per player; index order when empty
  std::vector<int> seen_positions;  // where the camera sees each player's token, -1 unknown
  std::vector<DeviceStatus> devices;
  const CameraView* camera = nullptr;
  std::vector<std::shared_ptr<const rules::Edition>> editions;  // for setup
  bool unfinished_game = false;
  // Why the banker took inputs back, by the index of the input taken back (from the ledger).
  std::map<int, std::string> undo_reasons;
  std::uint64_t version = 0;  // the caller bumps it whenever anything above changed

  int colour_of(int player) const {
    return player >= 0 && static_cast<std::size_t>(player) < colours.size()
               ? colours[static_cast<std::size_t>(player)]
               : player;
  }
};

}  // namespace bb::display
