#pragma once

#include <cstdint>
#include <expected>
#include <random>
#include <string>
#include <vector>

#include "vision/table_renderer.h"
#include "vision/table_scene.h"

namespace bb::vision {

struct TableMove {
  int token = 0;  // index: 0 is T1
  int to = 0;
};

// One JSON object per line: {"token": "T1", "to": 7}. Blank lines and lines starting with # are skipped.
std::expected<std::vector<TableMove>, std::string> parse_moves(const std::string& jsonl, int token_count,
                                                               int space_count);
// Moves of a plausible game: each token in turn advances by a throw of two dice.
std::vector<TableMove> random_moves(int token_count, int space_count, int count, uint64_t seed);

// The generated conditions, each its own test and benchmark row.
enum class Condition { clean, tilt, dim, bright, warm, cold, shadow, noise, blur, jpeg, mixed };
const std::vector<Condition>& all_conditions();
const char* condition_name(Condition c);
// Camera pose, light and sensor for a condition, drawn from `rng`; the pose keeps the board in frame.
TableScene scene_for(Condition c, const TableRenderer& renderer, std::mt19937_64& rng);

// Up to six tokens crowded on GO as families put them: the first on the GO marker, the second over the
// marker's corner, the third and fourth touching each other, the fifth and sixth close by. Their distances
// from the board's outer GO corner differ by at least 0.007 board units, so the tracker's names (T1
// nearest) are known.
std::vector<Point2> crowded_go_positions(int count);

// Frames of a scripted game, with the truth behind each. The tokens start on space 0 standing apart; each
// move is a hand reaching in, lifting the token, carrying it, putting it down and leaving, then the table
// stays still.
class TableScript {
 public:
  struct Frame {
    TableScene scene;
    std::vector<int> truth;  // per token, its space (-1 while in a hand)
    int move = -1;           // index of the move under way or just made, -1 before the first
    bool still = false;      // nothing on the table moves in this frame
  };
  struct Settings {
    int still_frames = 8;  // frames the table stays still after each move
    int opening_frames = 10;
    bool hands = true;  // false: tokens jump between frames, as in a time-lapse
    // Per token, where it stands at the start (board units); empty: apart on GO, clear of the marker.
    std::vector<Point2> start_positions;
  };

  TableScript(const TableRenderer& renderer, TableScene base, int token_count, uint64_t seed,
              Settings settings);
  TableScript(const TableRenderer& renderer, TableScene base, int token_count, uint64_t seed);

  std::vector<Frame> opening();
  std::vector<Frame> play(const TableMove& move, int move_index);
  // Places token `token` by hand somewhere exact (straddling spaces, a second token on a space, ...).
  std::vector<Frame> place(int token, Point2 position, int move_index);
  std::vector<Frame> still(int frames, int move_index);
  const std::vector<int>& truth() const { return truth_; }
  TableScene& base() { return base_; }

 private:
  Frame frame(const std::vector<Hand>& hands, int move_index, bool still, int hidden_token = -1);
  Hand hand_towards(Point2 palm) const;
  int free_slot(int space, int token) const;

  const TableRenderer& renderer_;
  TableScene base_;
  Settings settings_;
  std::mt19937_64 rng_;
  std::vector<TokenPlacement> placements_;
  std::vector<int> truth_;
  std::vector<int> slots_;
  uint64_t frame_counter_ = 0;
};

}  // namespace bb::vision
