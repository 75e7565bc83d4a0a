#include "vision/table_script.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <nlohmann/json.hpp>
#include <numbers>
#include <sstream>

#include "vision/token_names.h"

namespace bb::vision {

std::expected<std::vector<TableMove>, std::string> parse_moves(const std::string& jsonl, int token_count,
                                                               int space_count) {
  std::vector<TableMove> moves;
  std::istringstream in(jsonl);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos || line[line.find_first_not_of(" \t")] == '#')
      continue;
    try {
      const auto j = nlohmann::json::parse(line);
      const std::string token = j.at("token").get<std::string>();
      const int to = j.at("to").get<int>();
      const int index = learned_token_index(token).value_or(-1);
      if (index < 0 || index >= token_count)
        return std::unexpected("line " + std::to_string(number) + ": token \"" + token +
                               "\" is not one of T1..T" + std::to_string(token_count));
      if (to < 0 || to >= space_count)
        return std::unexpected("line " + std::to_string(number) + ": space " + std::to_string(to) +
                               " is not on this board (0.." + std::to_string(space_count - 1) + ")");
      moves.push_back({index, to});
    } catch (const std::exception& e) {
      return std::unexpected("line " + std::to_string(number) + ": " + e.what() +
                             "; each line must be like {\"token\": \"T1\", \"to\": 7}");
    }
  }
  return moves;
}

std::vector<TableMove> random_moves(int token_count, int space_count, int count, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> die(1, 6);
  std::vector<int> at(static_cast<size_t>(token_count), 0);
  std::vector<TableMove> moves;
  for (int i = 0; i < count; ++i) {
    const int t = i % token_count;
    int& p = at[static_cast<size_t>(t)];
    p = (p + die(rng) + die(rng)) % space_count;
    moves.push_back({t, p});
  }
  return moves;
}

const std::vector<Condition>& all_conditions() {
  static const std::vector<Condition> all{Condition::clean,  Condition::tilt,  Condition::dim,
                                          Condition::bright, Condition::warm,  Condition::cold,
                                          Condition::shadow, Condition::noise, Condition::blur,
                                          Condition::jpeg,   Condition::mixed};
  return all;
}

const char* condition_name(Condition c) {
  switch (c) {
    case Condition::clean:
      return "clean";
    case Condition::tilt:
      return "tilt";
    case Condition::dim:
      return "dim";
    case Condition::bright:
      return "bright";
    case Condition::warm:
      return "warm";
    case Condition::cold:
      return "cold";
    case Condition::shadow:
      return "shadow";
    case Condition::noise:
      return "noise";
    case Condition::blur:
      return "blur";
    case Condition::jpeg:
      return "jpeg";
    case Condition::mixed:
      return "mixed";
  }
  return "?";
}

TableScene scene_for(Condition c, const TableRenderer& renderer, std::mt19937_64& rng) {
  auto uni = [&](double a, double b) { return std::uniform_real_distribution<double>(a, b)(rng); };
  const bool mixed = c == Condition::mixed;
  for (int attempt = 0;; ++attempt) {
    TableScene s;
    s.camera.tilt_deg = (c == Condition::tilt || mixed) ? uni(15, 30) : uni(0, 8);
    s.camera.tilt_direction_deg = uni(0, 360);
    s.camera.yaw_deg = uni(0, 360);
    s.camera.board_fraction = uni(0.58, 0.7);
    s.camera.aim = {0.5 + uni(-0.03, 0.03), 0.5 + uni(-0.03, 0.03)};
    s.light.level = c == Condition::dim      ? uni(0.35, 0.5)
                    : c == Condition::bright ? uni(1.15, 1.3)
                                             : uni(0.85, 1.05);
    s.light.temperature_k = c == Condition::warm   ? uni(2700, 3300)
                            : c == Condition::cold ? uni(6800, 7500)
                                                   : uni(5000, 6000);
    if (c == Condition::shadow) s.light.shadow_strength = uni(0.35, 0.55);
    s.light.shadow_angle_deg = uni(0, 360);
    s.light.shadow_offset = uni(-0.15, 0.15);
    s.degradation.noise_sigma = c == Condition::noise ? uni(8, 12) : c == Condition::dim ? 5 : uni(1, 3);
    s.degradation.blur_sigma = c == Condition::blur ? uni(1.2, 2.0) : uni(0, 0.5);
    s.degradation.jpeg_quality = c == Condition::jpeg ? static_cast<int>(uni(30, 50)) : 0;
    if (mixed) {
      s.light.level = uni(0.45, 1.25);
      s.light.temperature_k = uni(2800, 7400);
      s.light.shadow_strength = uni(0, 0.45);
      s.degradation.noise_sigma = uni(1, 8);
      s.degradation.blur_sigma = uni(0, 1.5);
      s.degradation.jpeg_quality = uni(0, 1) < 0.5 ? static_cast<int>(uni(40, 90)) : 0;
    }
    // Keep the whole board (and its markers) in the frame.
    const Homography h = renderer.board_to_image(s);
    bool inside = true;
    for (int k = 0; k < 4; ++k) {
      const Point2 p = h.apply(MarkerLayout::board_corner(k));
      inside &= p.x > 0.03 * renderer.width() && p.x < 0.97 * renderer.width() &&
                p.y > 0.03 * renderer.height() && p.y < 0.97 * renderer.height();
    }
    if (inside || attempt > 50) {
      if (!inside) s.camera.board_fraction = 0.5, s.camera.tilt_deg = std::min(s.camera.tilt_deg, 15.0);
      return s;
    }
  }
}

std::vector<Point2> crowded_go_positions(int count) {
  // On the classic board the GO corner spans 0.869..1 and its marker with margin 0.914..1; a token's
  // radius is 0.018. Distances from the corner (1, 1): 0.061, 0.101, 0.118, 0.134, 0.127, 0.149.
  static constexpr std::array<Point2, 6> crowded{Point2{0.957, 0.957}, Point2{0.936, 0.922},
                                                 Point2{0.888, 0.962}, Point2{0.888, 0.926},
                                                 Point2{0.965, 0.878}, Point2{0.915, 0.878}};
  assert(count >= 0 && count <= static_cast<int>(crowded.size()));
  return {crowded.begin(), crowded.begin() + count};
}

TableScript::TableScript(const TableRenderer& renderer, TableScene base, int token_count, uint64_t seed)
    : TableScript(renderer, std::move(base), token_count, seed, Settings{}) {}

TableScript::TableScript(const TableRenderer& renderer, TableScene base, int token_count, uint64_t seed,
                         Settings settings)
    : renderer_(renderer), base_(std::move(base)), settings_(settings), rng_(seed) {
  assert(token_count >= 1 && token_count <= static_cast<int>(renderer.looks().size()));
  // Standing apart on GO, the first nearest the board's corner (or where the settings put them).
  assert(settings_.start_positions.empty() ||
         settings_.start_positions.size() >= static_cast<size_t>(token_count));
  for (int t = 0; t < token_count; ++t) {
    const Point2 p = settings_.start_positions.empty() ? renderer_.slot_position(0, t)
                                                       : settings_.start_positions[static_cast<size_t>(t)];
    placements_.push_back({t, p, std::uniform_real_distribution<double>(0, 360)(rng_)});
    truth_.push_back(renderer_.space_map().space_at(p));
    slots_.push_back(t);
  }
}

TableScript::Frame TableScript::frame(const std::vector<Hand>& hands, int move_index, bool still,
                                      int hidden_token) {
  Frame f;
  f.scene = base_;
  f.scene.noise_seed = base_.noise_seed * 1000003ULL + ++frame_counter_;
  for (const auto& p : placements_)
    if (p.token != hidden_token) f.scene.tokens.push_back(p);
  f.scene.hands = hands;
  f.truth = truth_;
  if (hidden_token >= 0) f.truth[static_cast<size_t>(hidden_token)] = -1;
  f.move = move_index;
  f.still = still;
  return f;
}

Hand TableScript::hand_towards(Point2 palm) const {
  // The arm comes from the nearest edge of the table, as a player reaches from their seat.
  Hand h;
  h.palm = palm;
  const double dx = palm.x - 0.5, dy = palm.y - 0.5;
  h.from_deg = std::atan2(dy, dx) * 180 / std::numbers::pi;
  if (std::abs(dx) < 0.2 && std::abs(dy) < 0.2) h.from_deg = 90;
  return h;
}

int TableScript::free_slot(int space, int token) const {
  for (int slot = 0;; ++slot) {
    bool used = false;
    for (size_t t = 0; t < truth_.size(); ++t)
      if (static_cast<int>(t) != token && truth_[t] == space && slots_[t] == slot) used = true;
    if (!used) return slot;
  }
}

std::vector<TableScript::Frame> TableScript::opening() { return still(settings_.opening_frames, -1); }

std::vector<TableScript::Frame> TableScript::still(int frames, int move_index) {
  std::vector<Frame> out;
  for (int i = 0; i < frames; ++i) out.push_back(frame({}, move_index, i > 0));
  return out;
}

std::vector<TableScript::Frame> TableScript::place(int token, Point2 to, int move_index) {
  std::vector<Frame> out;
  auto& placement = placements_[static_cast<size_t>(token)];
  const Point2 from = placement.position;
  if (settings_.hands) {
    auto at = [&](double t) { return Point2{from.x + (to.x - from.x) * t, from.y + (to.y - from.y) * t}; };
    auto edge = [&](Point2 p) {
      const double dx = p.x - 0.5, dy = p.y - 0.5, n = std::max(1e-6, std::hypot(dx, dy));
      return Point2{p.x + dx / n * 0.35, p.y + dy / n * 0.35};
    };
    out.push_back(frame({hand_towards(edge(from))}, move_index, false));
    out.push_back(frame({hand_towards(from)}, move_index, false));
    out.push_back(frame({hand_towards(at(0.5))}, move_index, false, token));
    out.push_back(frame({hand_towards(to)}, move_index, false, token));
  }
  placement.position = to;
  placement.rotation_deg = std::uniform_real_distribution<double>(0, 360)(rng_);
  truth_[static_cast<size_t>(token)] = renderer_.space_map().space_at(to);
  if (settings_.hands) {
    out.push_back(frame({hand_towards(to)}, move_index, false));
    const double dx = to.x - 0.5, dy = to.y - 0.5, n = std::max(1e-6, std::hypot(dx, dy));
    out.push_back(frame({hand_towards({to.x + dx / n * 0.35, to.y + dy / n * 0.35})}, move_index, false));
  }
  auto rest = still(settings_.still_frames, move_index);
  out.insert(out.end(), rest.begin(), rest.end());
  return out;
}

std::vector<TableScript::Frame> TableScript::play(const TableMove& move, int move_index) {
  assert(move.token >= 0 && static_cast<size_t>(move.token) < truth_.size());
  const int slot = free_slot(move.to, move.token);
  slots_[static_cast<size_t>(move.token)] = slot;
  std::uniform_real_distribution<double> jitter(-0.05, 0.05);
  const Point2 to = renderer_.slot_position(move.to, slot, jitter(rng_), jitter(rng_));
  auto frames = place(move.token, to, move_index);
  truth_[static_cast<size_t>(move.token)] = move.to;
  return frames;
}

}  // namespace bb::vision
