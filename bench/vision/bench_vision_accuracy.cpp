// Accuracy of the token tracker on generated games across every generated condition (camera pose, light
// level and colour, shadows, noise, blur, JPEG, hands), fixed seeds. Prints, per row, tokens learned over
// tokens on the table beside the moves reported right, the unsure ones, the wrong ones and false "moved"
// events, then the still-to-event time. Row sets:
//   main     4 tokens of different colours standing apart on GO (issue 5's figures)
//   crowded  4 tokens crowded on GO, two on the GO marker, two touching (issue 12)
//   six      6 tokens crowded on GO (issue 12)
//   hard     red, blue, a metal-like grey and a black token learned on GO (issue 12)
//   hard1    the same tokens learned one at a time by difference from the empty board (issue 12)
//   white1   red, blue, white and black tokens learned one at a time (issue 12: is a white token seen?); a
//            token not learned is left to the dice once the tracker says so, as the table offers
//   capped1  red, blue, a white token with a green cap and a metal grey one with a magenta cap, one at a
//            time (the cap docs/vision.md recommends for white and metal tokens, measured)
//   pairs    two red and two blue tokens told apart by shape (issue 5)
// Rows other than main and pairs expect their token count, so a start that shows fewer says so.
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <numeric>
#include <opencv2/core.hpp>
#include <random>
#include <string>

#include "vision/board_layout.h"
#include "vision/table_renderer.h"
#include "vision/table_script.h"
#include "vision/tracking_evaluator.h"

using namespace bb::vision;

namespace {

struct RowSet {
  const char* name;
  const TableRenderer* renderer;
  int tokens;
  int games;
  TokenTracker::Settings tracker;
  TableScript::Settings script;
  int seed_base;
};

// NAME is a row set (hard1), a condition (jpeg), or both (hard1/jpeg); empty selects every row.
bool selected(const std::string& only, const std::string& set, const std::string& condition) {
  if (only.empty() || only == set || only == condition) return true;
  return only == set + "/" + condition;
}

// True when ONLY selects at least one row of SETS: empty, a set, a condition, or set/condition.
bool names_rows(const std::string& only, const std::vector<const RowSet*>& sets) {
  for (const RowSet* set : sets)
    for (Condition c : all_conditions())
      if (selected(only, set->name, condition_name(c))) return true;
  return false;
}

std::string row_names(const std::vector<const RowSet*>& sets) {
  std::string names = "sets";
  for (const RowSet* set : sets) names += std::string(" ") + set->name;
  names += "; conditions";
  for (Condition c : all_conditions()) names += std::string(" ") + condition_name(c);
  return names + "; or SET/CONDITION";
}

TrackingScore run_rows(const RowSet& set, int moves_per_game, const std::string& only) {
  TrackingScore all;
  const int spaces = set.renderer->space_map().space_count();
  for (Condition c : all_conditions()) {
    if (!selected(only, set.name, condition_name(c))) continue;
    TrackingScore per;
    std::mt19937_64 rng(static_cast<uint64_t>(set.seed_base + static_cast<int>(c)));
    for (int g = 0; g < set.games; ++g) {
      const TableScene base = scene_for(c, *set.renderer, rng);
      const uint64_t seed = static_cast<uint64_t>(set.seed_base / 13 + 77 * static_cast<int>(c) + g);
      const auto moves = random_moves(set.tokens, spaces, moves_per_game, seed);
      per.add(evaluate_game(*set.renderer, base, set.tokens, moves, seed, set.tracker, set.script));
    }
    std::printf("  %-7s %-7s %s\n", set.name, condition_name(c), per.summary().c_str());
    std::fflush(stdout);
    all.add(per);
  }
  if (all.moves > 0) std::printf("  %-7s %-7s %s\n", set.name, "ALL", all.summary().c_str());
  return all;
}

}  // namespace

int main(int argc, char** argv) {
  cv::setNumThreads(1);  // figures for one core, as on a busy Pi
  // Optional, in this order: moves per game and main games per condition, for a quicker look; the frame
  // size; one condition, one row set, or one row (set/condition) by name.
  int moves_per_game = 12, games = 2, width = 1280, height = 720;
  std::string only;
  CLI::App app{"Accuracy of the token tracker on generated games (docs/vision.md explains the rows)"};
  app.add_option("moves_per_game", moves_per_game, "Moves per game")->check(CLI::Range(1, 10'000));
  app.add_option("games", games, "Games per condition in the main rows")->check(CLI::Range(1, 1'000));
  app.add_option("width", width, "Frame width in pixels")->check(CLI::Range(320, 7'680));
  app.add_option("height", height, "Frame height in pixels")->check(CLI::Range(240, 4'320));
  app.add_option("rows", only,
                 "A row set (hard1), a condition (jpeg) or one row (hard1/jpeg); all when left out");
  CLI11_PARSE(app, argc, argv);
  const BoardLayout layout = classic_layout();
  const SpaceMap map(layout.spaces_per_side);
  TableRenderer four(layout, map, default_token_looks(4), width, height);
  TableRenderer six(layout, map, default_token_looks(6), width, height);
  auto hard_looks = hard_token_looks();
  hard_looks.resize(4);  // red, blue, metal grey, black
  TableRenderer hard(layout, map, hard_looks, width, height);
  const auto all_hard = hard_token_looks();  // red, blue, metal grey, black, white
  TableRenderer white(layout, map, {all_hard[0], all_hard[1], all_hard[4], all_hard[3]}, width, height);
  // What docs/vision.md tells a family with white and metal tokens to do: a small coloured cap on each.
  TableRenderer capped(layout, map,
                       {all_hard[0],
                        all_hard[1],
                        {0xF4F4F4, TokenShape::diamond, 0x10C040},
                        {0xA0A0A4, TokenShape::hexagon, 0xE020E0, true}},
                       width, height);
  TableRenderer pairs(layout, map,
                      {{0xE01010, TokenShape::circle},
                       {0xE01010, TokenShape::triangle},
                       {0x1040F0, TokenShape::square},
                       {0x1040F0, TokenShape::star}},
                      width, height);

  auto expecting = [](int n) {
    TokenTracker::Settings s;
    s.expected_tokens = n;
    return s;
  };
  auto crowded = [](int n) {
    TableScript::Settings s;
    s.start_positions = crowded_go_positions(n);
    return s;
  };
  TokenTracker::Settings one_by_one = expecting(4);
  one_by_one.learning = TokenTracker::Settings::Learning::one_at_a_time;
  const std::vector<RowSet> sets{
      {"main", &four, 4, games, {}, {}, 1000},
      {"crowded", &four, 4, 1, expecting(4), crowded(4), 3000},
      {"six", &six, 6, 1, expecting(6), crowded(6), 4000},
      {"hard", &hard, 4, 1, expecting(4), {}, 5000},
      {"hard1", &hard, 4, 1, one_by_one, {}, 6000},
      {"white1", &white, 4, 1, one_by_one, {}, 7000},
      {"capped1", &capped, 4, 1, one_by_one, {}, 8000},
  };
  const RowSet pair_set{"pairs", &pairs, 4, 1, {}, {}, 2000};
  std::vector<const RowSet*> every_set;
  for (const auto& set : sets) every_set.push_back(&set);
  every_set.push_back(&pair_set);
  if (!names_rows(only, every_set)) {
    std::fprintf(stderr, "bench_vision_accuracy: no row is named '%s'; name one of the %s\n", only.c_str(),
                 row_names(every_set).c_str());
    return 2;
  }
  std::printf("vision accuracy: %d moves per game, %dx%d, hands on every move\n", moves_per_game, width,
              height);
  const auto start = std::chrono::steady_clock::now();
  TrackingScore total;
  for (const auto& set : sets) total.add(run_rows(set, moves_per_game, only));
  const TrackingScore pair_score = run_rows(pair_set, moves_per_game, only);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  std::printf("  %-15s %s\n", "ALL but pairs", total.summary().c_str());
  std::vector<int> lat = total.latency_frames;
  std::sort(lat.begin(), lat.end());
  if (!lat.empty())
    std::printf(
        "still-to-event latency: median %d frames, 95th percentile %d frames (%.0f / %.0f ms at 30 fps)\n",
        lat[lat.size() / 2], lat[lat.size() * 95 / 100], lat[lat.size() / 2] * 1000.0 / 30,
        lat[lat.size() * 95 / 100] * 1000.0 / 30);
  std::printf("worst board-corner error at first calibration: %.2f px\n", total.calibration_error_px);
  TrackingScore with_pairs = total;
  with_pairs.add(pair_score);
  std::printf(
      "tokens learned: %d of %d (start said fewer in %d games); moves reported correctly: %.2f%% (aim "
      "99.5%%), %.2f%% with pairs; per-space occupancy: %.3f%%; false moved events: %d (aim 0), %d with "
      "pairs; %d frames in %.0f s\n",
      total.tokens_learned, total.tokens_expected, total.incomplete_said, 100 * total.move_accuracy(),
      100 * with_pairs.move_accuracy(), 100 * total.occupancy_accuracy(), total.false_moves,
      with_pairs.false_moves, with_pairs.frames, seconds);
  // A token the camera said it cannot see, left to the dice by the family (the table's "go on without"):
  // its moves count above as not right; here, the moves of the tokens the camera watches.
  if (with_pairs.moves_unwatched > 0)
    std::printf(
        "left to the dice after the camera said it cannot see them: %d tokens, %d moves; moves of the "
        "watched tokens reported correctly: %.2f%% with pairs\n",
        with_pairs.tokens_unwatched, with_pairs.moves_unwatched, 100 * with_pairs.watched_accuracy());
  return 0;
}
