#include "vision/token_appearance.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

namespace bb::vision {

double shape_distance(const ShapeFeatures& a, const ShapeFeatures& b) {
  // Scales: about twice the frame-to-frame scatter of one token's features at 720p, sharp or blurred (the
  // spread varies by 1-2%, the fill by 0.03, the elongation by 0.05-0.1).
  return std::abs(a.spread - b.spread) / (0.04 * std::max({a.spread, b.spread, 1e-3})) +
         std::abs(a.elongation - b.elongation) / 0.2 + std::abs(a.fill - b.fill) / 0.08;
}

double cap_distance(const CapFeatures& a, const CapFeatures& b) {
  if (a.present() != b.present()) return 3.0;
  if (!a.present()) return 0.0;
  const double dr = a.r - b.r, dg = a.g - b.g;
  return (std::abs(dr) + std::abs(dg) + std::abs(dr + dg)) / 0.08;
}

std::string TokenAppearance::problem() const {
  if (name.empty()) return "a token has no name";
  if (area_px <= 0) return "token " + name + " has no size; learn the tokens again";
  for (double s : spread)
    if (!(s > 0)) return "token " + name + " has no colour spread; learn the tokens again";
  return {};
}

std::string tokens_to_json(const std::vector<TokenAppearance>& tokens) {
  nlohmann::json j = nlohmann::json::array();
  for (const auto& t : tokens)
    j.push_back({{"name", t.name},
                 {"mean", t.mean},
                 {"spread", t.spread},
                 {"area_px", t.area_px},
                 {"hu", t.hu},
                 {"shape", {t.shape.spread, t.shape.elongation, t.shape.fill}},
                 {"cap", {t.cap.share, t.cap.r, t.cap.g}},
                 {"outline_cut", t.outline_cut},
                 {"faint_contrast", t.faint_contrast}});
  return j.dump();
}

std::expected<std::vector<TokenAppearance>, std::string> tokens_from_json(const std::string& text) {
  try {
    std::vector<TokenAppearance> out;
    for (const auto& j : nlohmann::json::parse(text)) {
      TokenAppearance t;
      t.name = j.at("name").get<std::string>();
      t.mean = j.at("mean").get<std::array<double, 3>>();
      t.spread = j.at("spread").get<std::array<double, 3>>();
      t.area_px = j.at("area_px").get<double>();
      t.hu = j.value("hu", std::array<double, 7>{});
      const auto shape = j.value("shape", std::array<double, 3>{});  // absent in older set-ups
      t.shape = {shape[0], shape[1], shape[2]};
      const auto cap = j.value("cap", std::array<double, 3>{});
      t.cap = {cap[0], cap[1], cap[2]};
      t.outline_cut = j.value("outline_cut", false);
      t.faint_contrast = j.value("faint_contrast", 0.0);  // absent in older set-ups: none was faint
      if (auto p = t.problem(); !p.empty()) return std::unexpected(p);
      out.push_back(t);
    }
    return out;
  } catch (const std::exception& e) {
    return std::unexpected(std::string("the stored tokens cannot be read (") + e.what() +
                           "); learn them again");
  }
}

std::string colour_word(const TokenAppearance& token) {
  const double r = token.mean[0], g = token.mean[1], b = 1 - r - g, brightness = token.mean[2];
  const double most = std::max({r, g, b}), least = std::min({r, g, b});
  if (most - least < 0.08) return brightness < 0.2 ? "black" : brightness > 0.7 ? "white" : "grey";
  // The hue of the chromaticity, in degrees: red 0, yellow 60, green 120, cyan 180, blue 240, magenta 300.
  double hue = 0;
  const double span = most - least;
  if (most == r)
    hue = 60 * std::fmod((g - b) / span + 6, 6.0);
  else if (most == g)
    hue = 60 * ((b - r) / span + 2);
  else
    hue = 60 * ((r - g) / span + 4);
  if (hue < 20 || hue >= 335) return "red";
  if (hue < 45) return "orange";
  if (hue < 70) return "yellow";
  if (hue < 160) return "green";
  if (hue < 200) return "cyan";
  if (hue < 260) return "blue";
  if (hue < 300) return "purple";
  return "pink";
}

}  // namespace bb::vision
