// Accuracy of the token tracker on generated games: at least 1,000 moves across every generated condition
// (camera pose, light level and colour, shadows, noise, blur, JPEG, hands), fixed seeds. Prints the figures
// issue 5 names: moves reported correctly, per-space occupancy, false "moved" events, and the time from the
// scene becoming still to the event. Then the same for tokens of one colour told apart by shape ("pairs").
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <opencv2/core.hpp>
#include <random>
#include <string>

#include "vision/board_layout.h"
#include "vision/table_renderer.h"
#include "vision/table_script.h"
#include "vision/tracking_evaluator.h"

using namespace bb::vision;

int main(int argc, char** argv) {
  cv::setNumThreads(1);  // figures for one core, as on a busy Pi
  // Optional: moves per game and games per condition, for a quicker look (defaults give 1,100 moves).
  const int moves_per_game = argc > 1 ? std::atoi(argv[1]) : 25;
  const int games = argc > 2 ? std::atoi(argv[2]) : 4;
  const int width = argc > 3 ? std::atoi(argv[3]) : 1280, height = argc > 4 ? std::atoi(argv[4]) : 720;
  const std::string only = argc > 5 ? argv[5] : "";  // one condition by name
  const int token_count = 4;
  const BoardLayout layout = classic_layout();
  const SpaceMap map(layout.spaces_per_side);
  TableRenderer renderer(layout, map, default_token_looks(token_count), width, height);
  std::printf("vision accuracy: %d games x %d moves per condition, %d tokens, %dx%d, hands on every move\n",
              games, moves_per_game, token_count, width, height);
  TrackingScore total;
  const auto start = std::chrono::steady_clock::now();
  double worst_calibration = 0;
  for (Condition c : all_conditions()) {
    if (!only.empty() && only != condition_name(c)) continue;
    TrackingScore per;
    double worst_here = 0;
    std::mt19937_64 rng(1000 + static_cast<int>(c));
    for (int g = 0; g < games; ++g) {
      const TableScene base = scene_for(c, renderer, rng);
      const uint64_t seed = 77 * static_cast<uint64_t>(c) + static_cast<uint64_t>(g);
      const auto moves = random_moves(token_count, map.space_count(), moves_per_game, seed);
      const auto s = evaluate_game(renderer, base, token_count, moves, seed, TokenTracker::Settings{});
      if (!s.learned) std::printf("  %s game %d: tokens not learned at the start\n", condition_name(c), g);
      worst_calibration = std::max(worst_calibration, s.calibration_error_px);
      worst_here = std::max(worst_here, s.calibration_error_px);
      per.add(s);
    }
    std::printf("  %-7s %s  calib %.2f px\n", condition_name(c), per.summary().c_str(), worst_here);
    std::fflush(stdout);
    total.add(per);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("  %-7s %s\n", "ALL", total.summary().c_str());
  std::vector<int> lat = total.latency_frames;
  std::sort(lat.begin(), lat.end());
  if (!lat.empty())
    std::printf(
        "still-to-event latency: median %d frames, 95th percentile %d frames (%.0f / %.0f ms at 30 fps)\n",
        lat[lat.size() / 2], lat[lat.size() * 95 / 100], lat[lat.size() / 2] * 1000.0 / 30,
        lat[lat.size() * 95 / 100] * 1000.0 / 30);
  std::printf("worst board-corner error at first calibration: %.2f px\n", worst_calibration);

  // Tokens of one colour, told apart by shape only: two red (disc, triangle) and two blue (square, star).
  // Not part of the figures above (the tokens differ in colour); one game per condition.
  if (only.empty() || only == "pairs") {
    TableRenderer pairs(layout, map,
                        {{0xE01010, TokenShape::circle},
                         {0xE01010, TokenShape::triangle},
                         {0x1040F0, TokenShape::square},
                         {0x1040F0, TokenShape::star}},
                        width, height);
    TrackingScore all_pairs;
    for (Condition c : all_conditions()) {
      std::mt19937_64 rng(2000 + static_cast<int>(c));
      const TableScene base = scene_for(c, pairs, rng);
      const uint64_t seed = 91 * static_cast<uint64_t>(c) + 1;
      const auto moves = random_moves(token_count, map.space_count(), moves_per_game, seed);
      const auto s = evaluate_game(pairs, base, token_count, moves, seed, TokenTracker::Settings{});
      if (!s.learned) std::printf("  pairs %s: tokens not learned at the start\n", condition_name(c));
      std::printf("  pairs %-7s %s\n", condition_name(c), s.summary().c_str());
      std::fflush(stdout);
      all_pairs.add(s);
    }
    std::printf("  pairs ALL     %s\n", all_pairs.summary().c_str());
  }
  std::printf(
      "moves reported correctly: %.2f%% (aim 99.5%%); per-space occupancy: %.3f%% (aim 99.9%%); "
      "false moved events: %d (aim 0); %d frames in %.0f s\n",
      100 * total.move_accuracy(), 100 * total.occupancy_accuracy(), total.false_moves, total.frames,
      seconds);
  return 0;
}
