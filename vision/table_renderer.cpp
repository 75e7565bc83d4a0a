#include "vision/table_renderer.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <numbers>
#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>
#include <sstream>

#include "vision/image_files.h"
#include "vision/marker_detector.h"

namespace bb::vision {

namespace {

constexpr int texture_side = 1000;    // board texture, pixels per board side
constexpr double table_extent = 1.5;  // table texture covers [-extent, 1 + extent] board units
constexpr int table_side = 500;
constexpr double light_unit = 128;  // light map value for a gain of 1
constexpr double noise_unit = 16;   // standard deviation of the stored noise field
constexpr int noise_margin = 64;

cv::Scalar bgr(uint32_t rgb, double scale = 1.0) {
  return {((rgb)&0xFF) * scale, ((rgb >> 8) & 0xFF) * scale, ((rgb >> 16) & 0xFF) * scale};
}

double radians(double deg) { return deg * std::numbers::pi / 180.0; }

cv::Matx33d to_matx(const Homography& h) { return cv::Matx33d(h.matrix().data()); }

std::vector<cv::Point> to_texture(const std::array<Point2, 4>& poly) {
  std::vector<cv::Point> out;
  for (const auto& p : poly)
    out.emplace_back(static_cast<int>(std::lround(p.x * texture_side)),
                     static_cast<int>(std::lround(p.y * texture_side)));
  return out;
}

// Fixed-point polygon for anti-aliased drawing at 1/16 pixel.
constexpr int subpixel_bits = 4;
std::vector<cv::Point> to_image(const Homography& h, const std::vector<Point2>& poly) {
  std::vector<cv::Point> out;
  out.reserve(poly.size());
  for (const auto& p : poly) {
    const Point2 q = h.apply(p);
    out.emplace_back(static_cast<int>(std::lround(q.x * (1 << subpixel_bits))),
                     static_cast<int>(std::lround(q.y * (1 << subpixel_bits))));
  }
  return out;
}

std::vector<Point2> shape_polygon(TokenShape shape, Point2 c, double r, double rotation_deg) {
  std::vector<std::pair<double, double>> unit;  // (angle, radius factor)
  auto regular = [&](int n, double start) {
    for (int i = 0; i < n; ++i) unit.emplace_back(start + 2 * std::numbers::pi * i / n, 1.0);
  };
  switch (shape) {
    case TokenShape::circle:
      regular(32, 0);
      break;
    case TokenShape::square:
      regular(4, std::numbers::pi / 4);
      break;
    case TokenShape::triangle:
      regular(3, -std::numbers::pi / 2);
      break;
    case TokenShape::hexagon:
      regular(6, 0);
      break;
    case TokenShape::pentagon:
      regular(5, -std::numbers::pi / 2);
      break;
    case TokenShape::diamond:
      for (int i = 0; i < 4; ++i) unit.emplace_back(i * std::numbers::pi / 2, i % 2 ? 0.7 : 1.0);
      break;
    case TokenShape::star:
      for (int i = 0; i < 10; ++i)
        unit.emplace_back(-std::numbers::pi / 2 + i * std::numbers::pi / 5, i % 2 ? 0.5 : 1.0);
      break;
    case TokenShape::cross:
      for (int i = 0; i < 4; ++i) {
        const double a = i * std::numbers::pi / 2;
        unit.emplace_back(a - 0.33, 1.0);
        unit.emplace_back(a + 0.33, 1.0);
        unit.emplace_back(a + std::numbers::pi / 4, 0.45);
      }
      break;
  }
  std::vector<Point2> out;
  const double rot = radians(rotation_deg);
  for (const auto& [a, f] : unit)
    out.push_back({c.x + r * f * std::cos(a + rot), c.y + r * f * std::sin(a + rot)});
  return out;
}

std::vector<Point2> ellipse_polygon(Point2 c, double ra, double rb, double angle) {
  std::vector<Point2> out;
  for (int i = 0; i < 24; ++i) {
    const double t = 2 * std::numbers::pi * i / 24;
    const double x = ra * std::cos(t), y = rb * std::sin(t);
    out.push_back(
        {c.x + x * std::cos(angle) - y * std::sin(angle), c.y + x * std::sin(angle) + y * std::cos(angle)});
  }
  return out;
}

std::vector<Point2> shifted(std::vector<Point2> poly, double dx, double dy) {
  for (auto& p : poly) p = {p.x + dx, p.y + dy};
  return poly;
}

cv::Vec3d temperature_gains(double kelvin) {
  // Relative to a neutral 5500 K: warm light lacks blue, cold light lacks red (B, G, R order).
  if (kelvin < 5500) {
    const double w = std::min(1.0, (5500 - kelvin) / 2800);
    return {1 - 0.42 * w, 1 - 0.14 * w, 1.0};
  }
  const double c = std::min(1.0, (kelvin - 5500) / 2000);
  return {1.0, 1 - 0.05 * c, 1 - 0.16 * c};
}

}  // namespace

struct TableRenderer::Impl {
  BoardLayout layout;
  SpaceMap map;
  std::vector<TokenLook> looks;
  int width, height;
  MarkerLayout markers;
  cv::Mat board_with_markers, board_plain, table;
  mutable cv::Mat scratch, noise;  // reused between frames: render() is not re-entrant

  void draw_board();
  Homography camera(const CameraPose& pose) const;
};

void TableRenderer::Impl::draw_board() {
  const cv::Scalar paper = bgr(0xD2E8D2), ink = bgr(0x202020);
  board_plain = cv::Mat(texture_side, texture_side, CV_8UC3, paper);
  cv::Mat& b = board_plain;
  const int n = map.space_count();
  for (int s = 0; s < n; ++s) {
    const uint32_t band = layout.band_colours[static_cast<size_t>(s)];
    if (band) cv::fillConvexPoly(b, to_texture(map.band_outline(s)), bgr(band), cv::LINE_AA);
    // The name, drawn upright as for the bottom row and turned to face that side's player.
    const auto outline = to_texture(map.outline(s));
    const cv::Rect r = cv::boundingRect(outline);
    const int side = map.side_of(s);
    const bool corner = s % map.spaces_per_side() == 0;
    cv::Mat patch(side % 2 ? r.width : r.height, side % 2 ? r.height : r.width, CV_8UC3,
                  cv::Scalar(255, 255, 255));
    std::istringstream words(layout.names[static_cast<size_t>(s)]);
    std::vector<std::string> lines;
    for (std::string w; words >> w;) lines.push_back(w);
    const double font = corner ? 0.7 : 0.42;
    for (size_t i = 0; i < lines.size(); ++i) {
      int base = 0;
      const cv::Size ts = cv::getTextSize(lines[i], cv::FONT_HERSHEY_SIMPLEX, font, 1, &base);
      const int y = corner ? patch.rows / 2 + static_cast<int>(i) * (ts.height + 6)
                           : patch.rows * 55 / 100 + static_cast<int>(i) * (ts.height + 5);
      cv::putText(patch, lines[i], cv::Point((patch.cols - ts.width) / 2, y), cv::FONT_HERSHEY_SIMPLEX, font,
                  ink, 1, cv::LINE_AA);
    }
    if (side == 1) cv::rotate(patch, patch, cv::ROTATE_90_CLOCKWISE);
    if (side == 2) cv::rotate(patch, patch, cv::ROTATE_180);
    if (side == 3) cv::rotate(patch, patch, cv::ROTATE_90_COUNTERCLOCKWISE);
    const cv::Rect clipped = r & cv::Rect(0, 0, texture_side, texture_side);
    cv::Mat roi = b(clipped);
    cv::min(roi, patch(cv::Rect(clipped.x - r.x, clipped.y - r.y, clipped.width, clipped.height)), roi);
    cv::polylines(b, outline, true, ink, 2, cv::LINE_AA);
  }
  // The centre: a title and the two card piles, as boards have.
  const double c = map.corner_depth();
  cv::putText(b, "boardbank", cv::Point(texture_side * 36 / 100, texture_side / 2), cv::FONT_HERSHEY_TRIPLEX,
              1.6, bgr(0xB02020), 3, cv::LINE_AA);
  const int lo = static_cast<int>((c + 0.08) * texture_side),
            hi = static_cast<int>((c + 0.22) * texture_side);
  cv::rectangle(b, cv::Rect(lo, lo, hi - lo, (hi - lo) * 2 / 3), bgr(0x3070C0), 3, cv::LINE_AA);
  const int lo2 = texture_side - hi, hi2 = texture_side - lo;
  cv::rectangle(b, cv::Rect(lo2, lo2, hi2 - lo2, (hi2 - lo2) * 2 / 3), bgr(0xE08020), 3, cv::LINE_AA);

  board_with_markers = board_plain.clone();
  for (int id = 0; id < MarkerLayout::count; ++id) {
    const auto corners = markers.corners(id);
    const Point2 bc = MarkerLayout::board_corner(id);
    const double pad = markers.inset;
    // White quiet zone from the board's corner to one inset beyond the marker on its inner sides.
    const double x0 = std::min(bc.x, corners[0].x - pad), x1 = std::max(bc.x, corners[2].x + pad);
    const double y0 = std::min(bc.y, corners[0].y - pad), y1 = std::max(bc.y, corners[2].y + pad);
    cv::rectangle(
        board_with_markers,
        cv::Rect(cv::Point(static_cast<int>(x0 * texture_side), static_cast<int>(y0 * texture_side)),
                 cv::Point(static_cast<int>(x1 * texture_side), static_cast<int>(y1 * texture_side))),
        cv::Scalar(255, 255, 255), cv::FILLED);
    const int side = static_cast<int>(std::lround(markers.size * texture_side));
    cv::Mat marker;
    MarkerDetector::draw(id, side, marker);
    cv::cvtColor(marker, marker, cv::COLOR_GRAY2BGR);
    const cv::Rect where(static_cast<int>(std::lround(corners[0].x * texture_side)),
                         static_cast<int>(std::lround(corners[0].y * texture_side)), side, side);
    marker.copyTo(board_with_markers(where));
  }

  // A wooden table: warm brown with a low-frequency grain.
  cv::Mat grain(table_side / 10, table_side / 10, CV_32F);
  cv::RNG rng(12345);
  rng.fill(grain, cv::RNG::NORMAL, 0, 1);
  cv::resize(grain, grain, cv::Size(table_side, table_side), 0, 0, cv::INTER_CUBIC);
  table = cv::Mat(table_side, table_side, CV_8UC3);
  for (int y = 0; y < table_side; ++y)
    for (int x = 0; x < table_side; ++x) {
      const double g =
          1.0 + 0.12 * grain.at<float>(y, x) + 0.05 * std::sin(x * 0.15 + 3 * grain.at<float>(y, x));
      table.at<cv::Vec3b>(y, x) =
          cv::Vec3b(cv::saturate_cast<uchar>(45 * g), cv::saturate_cast<uchar>(85 * g),
                    cv::saturate_cast<uchar>(125 * g));
    }
}

Homography TableRenderer::Impl::camera(const CameraPose& pose) const {
  const double f = pose.focal_factor * width;
  const double h = f / (pose.board_fraction * height);
  const double yaw = radians(pose.yaw_deg), tilt = radians(pose.tilt_deg),
               dir = radians(pose.tilt_direction_deg);
  // Camera axes in the world (x right, y down the board, z into the table), turned about the optical axis
  // by yaw, then tilted about a horizontal axis.
  cv::Matx33d axes(std::cos(yaw), -std::sin(yaw), 0, std::sin(yaw), std::cos(yaw), 0, 0, 0, 1);
  cv::Vec3d rv(std::cos(dir) * tilt, std::sin(dir) * tilt, 0);
  cv::Matx33d tilt_m;
  cv::Rodrigues(rv, tilt_m);
  const cv::Matx33d r = tilt_m * axes;  // columns: camera x, y, z in world
  const cv::Vec3d z(r(0, 2), r(1, 2), r(2, 2));
  const cv::Vec3d centre = cv::Vec3d(pose.aim.x, pose.aim.y, 0) - h * z;
  const cv::Matx33d rt = r.t();
  const cv::Vec3d t = -(rt * centre);
  const cv::Matx33d k(f, 0, width / 2.0, 0, f, height / 2.0, 0, 0, 1);
  const cv::Matx33d ext(rt(0, 0), rt(0, 1), t[0], rt(1, 0), rt(1, 1), t[1], rt(2, 0), rt(2, 1), t[2]);
  const cv::Matx33d hm = k * ext;
  std::array<double, 9> m{};
  for (int i = 0; i < 9; ++i) m[static_cast<size_t>(i)] = hm(i / 3, i % 3) / hm(2, 2);
  return Homography(m);
}

TableRenderer::TableRenderer(const BoardLayout& layout, const SpaceMap& map, std::vector<TokenLook> looks,
                             int width, int height, MarkerLayout markers)
    : impl_(std::make_unique<Impl>(
          Impl{layout, map, std::move(looks), width, height, markers, {}, {}, {}, {}, {}})) {
  assert(layout.problem().empty() && layout.spaces_per_side == map.spaces_per_side());
  assert(width >= 64 && height >= 48);
  impl_->draw_board();
}

TableRenderer::~TableRenderer() = default;

int TableRenderer::width() const { return impl_->width; }
int TableRenderer::height() const { return impl_->height; }
const SpaceMap& TableRenderer::space_map() const { return impl_->map; }
const std::vector<TokenLook>& TableRenderer::looks() const { return impl_->looks; }

Homography TableRenderer::board_to_image(const TableScene& scene) const {
  // Board -> world: turned about its centre and shifted on the table; then the camera.
  const double a = radians(scene.board_rotation_deg), ca = std::cos(a), sa = std::sin(a);
  const double tx = 0.5 + scene.board_shift.x - (ca * 0.5 - sa * 0.5);
  const double ty = 0.5 + scene.board_shift.y - (sa * 0.5 + ca * 0.5);
  const Homography board_to_world({ca, -sa, tx, sa, ca, ty, 0, 0, 1});
  return board_to_world.then(impl_->camera(scene.camera));
}

Point2 TableRenderer::slot_position(int space, int slot, double jitter_along, double jitter_depth) const {
  const SpaceMap& map = impl_->map;
  const bool corner = space % map.spaces_per_side() == 0;
  // Corner slots keep clear of the marker in the corner's outer part, and are at clearly different
  // distances from the board's corner (tokens are named by that order when learned).
  static constexpr std::array<std::array<double, 2>, 6> corner_slots{
      {{0.82, 0.22}, {0.30, 0.86}, {0.82, 0.55}, {0.86, 0.86}, {0.56, 0.86}, {0.62, 0.62}}};
  static constexpr std::array<std::array<double, 2>, 6> side_slots{
      {{0.5, 0.22}, {0.5, 0.56}, {0.25, 0.4}, {0.75, 0.4}, {0.28, 0.12}, {0.72, 0.66}}};
  const auto& s = (corner ? corner_slots : side_slots)[static_cast<size_t>(slot % 6)];
  return map.point_in_space(space, std::clamp(s[0] + jitter_along, 0.05, 0.95),
                            std::clamp(s[1] + jitter_depth, 0.05, 0.95));
}

Point2 TableRenderer::straddle_position(int space) const {
  return impl_->map.point_in_space(space, 1.0, 0.4);
}

void TableRenderer::render(const TableScene& scene, cv::Mat& out, RenderTruth* truth) const {
  const Impl& im = *impl_;
  const cv::Size size(im.width, im.height);
  const Homography board_h = board_to_image(scene);
  const Homography world_h = im.camera(scene.camera);

  // Table, then the board over it.
  const double px = table_side / (1 + 2 * table_extent);
  const Homography table_to_world({1 / px, 0, -table_extent, 0, 1 / px, -table_extent, 0, 0, 1});
  cv::warpPerspective(im.table, out, to_matx(table_to_world.then(world_h)), size, cv::INTER_LINEAR,
                      cv::BORDER_REPLICATE);
  const Homography texture_to_board({1.0 / texture_side, 0, 0, 0, 1.0 / texture_side, 0, 0, 0, 1});
  cv::warpPerspective(scene.markers ? im.board_with_markers : im.board_plain, out,
                      to_matx(texture_to_board.then(board_h)), size, cv::INTER_LINEAR,
                      cv::BORDER_TRANSPARENT);

  // Tokens: a soft shadow, a darker rim, the top, and a stuck-on cap if the family added one.
  const double r = 0.22 * im.map.space_width();
  auto fill = [&](const std::vector<Point2>& poly, const Homography& h, const cv::Scalar& colour) {
    const auto pts = to_image(h, poly);
    cv::fillPoly(out, std::vector<std::vector<cv::Point>>{pts}, colour, cv::LINE_AA, subpixel_bits);
  };
  auto darken = [&](const std::vector<Point2>& poly, const Homography& h, double amount) {
    const auto pts = to_image(h, poly);
    cv::Rect box = cv::boundingRect(pts);
    box = cv::Rect(box.x >> subpixel_bits, box.y >> subpixel_bits, (box.width >> subpixel_bits) + 2,
                   (box.height >> subpixel_bits) + 2) &
          cv::Rect(0, 0, im.width, im.height);
    if (box.area() <= 0) return;
    cv::Mat mask = cv::Mat::zeros(box.size(), CV_8U);
    std::vector<cv::Point> local = pts;
    for (auto& p : local) p -= cv::Point(box.x << subpixel_bits, box.y << subpixel_bits);
    cv::fillPoly(mask, std::vector<std::vector<cv::Point>>{local}, cv::Scalar(255), cv::LINE_AA,
                 subpixel_bits);
    cv::GaussianBlur(mask, mask, cv::Size(5, 5), 0);
    cv::Mat roi = out(box);
    for (int y = 0; y < roi.rows; ++y)
      for (int x = 0; x < roi.cols; ++x) {
        const double k = 1.0 - amount * mask.at<uchar>(y, x) / 255.0;
        cv::Vec3b& v = roi.at<cv::Vec3b>(y, x);
        for (int c = 0; c < 3; ++c) v[c] = cv::saturate_cast<uchar>(v[c] * k);
      }
  };
  if (truth) truth->token_spaces.clear();
  for (const auto& t : scene.tokens) {
    assert(t.token >= 0 && static_cast<size_t>(t.token) < im.looks.size());
    const TokenLook& look = im.looks[static_cast<size_t>(t.token)];
    const auto poly = shape_polygon(look.shape, t.position, r, t.rotation_deg);
    darken(shifted(poly, 0.15 * r, 0.25 * r), board_h, 0.45);
    fill(poly, board_h, bgr(look.colour, 0.45));
    fill(shape_polygon(look.shape, t.position, r * 0.86, t.rotation_deg), board_h, bgr(look.colour));
    if (look.metallic) {
      // The sheen: a brighter band on the side towards the light and a darker one opposite, turning with
      // the token (the light is fixed, the casting's relief is not).
      const double a = radians(t.rotation_deg);
      const Point2 lit{t.position.x + 0.3 * r * std::cos(a), t.position.y + 0.3 * r * std::sin(a)};
      const Point2 dull{t.position.x - 0.35 * r * std::cos(a), t.position.y - 0.35 * r * std::sin(a)};
      fill(ellipse_polygon(lit, 0.45 * r, 0.22 * r, a + std::numbers::pi / 2), board_h,
           bgr(look.colour, 1.35));
      fill(ellipse_polygon(dull, 0.35 * r, 0.18 * r, a + std::numbers::pi / 2), board_h,
           bgr(look.colour, 0.7));
    }
    if (look.cap) fill(ellipse_polygon(t.position, 0.4 * r, 0.4 * r, 0), board_h, bgr(look.cap));
    if (truth) truth->token_spaces.push_back(im.map.space_at(t.position));
  }

  // Hands and forearms hover above the table, so their shadows fall a little aside.
  for (const auto& hand : scene.hands) {
    const double a = radians(hand.from_deg), s = hand.size;
    const Point2 dir{std::cos(a), std::sin(a)};
    const Point2 elbow{hand.palm.x + dir.x * 0.9 * s, hand.palm.y + dir.y * 0.9 * s};
    const Point2 n{-dir.y, dir.x};
    const double wrist = 0.045 * s, arm = 0.06 * s;
    const Point2 cuff{hand.palm.x + dir.x * 0.2 * s, hand.palm.y + dir.y * 0.2 * s};
    std::vector<Point2> forearm{{hand.palm.x + n.x * wrist, hand.palm.y + n.y * wrist},
                                {elbow.x + n.x * arm, elbow.y + n.y * arm},
                                {elbow.x - n.x * arm, elbow.y - n.y * arm},
                                {hand.palm.x - n.x * wrist, hand.palm.y - n.y * wrist}};
    std::vector<Point2> sleeve{{cuff.x + n.x * arm, cuff.y + n.y * arm},
                               {elbow.x + n.x * arm * 1.2, elbow.y + n.y * arm * 1.2},
                               {elbow.x - n.x * arm * 1.2, elbow.y - n.y * arm * 1.2},
                               {cuff.x - n.x * arm, cuff.y - n.y * arm}};
    std::vector<Point2> palm = ellipse_polygon(hand.palm, 0.065 * s, 0.055 * s, a);
    std::vector<std::vector<Point2>> fingers;
    for (int f = -2; f <= 1; ++f) {
      const double fa = a + std::numbers::pi + f * 0.28 + 0.14;
      const Point2 c{hand.palm.x + std::cos(fa) * 0.085 * s, hand.palm.y + std::sin(fa) * 0.085 * s};
      fingers.push_back(ellipse_polygon(c, 0.04 * s, 0.014 * s, fa));
    }
    for (const auto* poly : {&forearm, &palm}) darken(shifted(*poly, 0.03, 0.04), board_h, 0.35);
    fill(forearm, board_h, bgr(hand.skin));
    fill(sleeve, board_h, bgr(hand.sleeve));
    fill(palm, board_h, bgr(hand.skin));
    for (const auto& f : fingers) fill(f, board_h, bgr(hand.skin, 0.97));
  }

  // Optics, then light, then the sensor.
  if (scene.degradation.blur_sigma > 0.05)
    cv::GaussianBlur(out, out, cv::Size(), scene.degradation.blur_sigma);
  const cv::Size small(std::max(8, im.width / 16), std::max(6, im.height / 16));
  cv::Mat light(small, CV_8UC3);
  const cv::Vec3d gains = temperature_gains(scene.light.temperature_k) * scene.light.level;
  const double sa = radians(scene.light.shadow_angle_deg);
  for (int y = 0; y < small.height; ++y)
    for (int x = 0; x < small.width; ++x) {
      const double u = (x + 0.5) / small.width - 0.5, v = (y + 0.5) / small.height - 0.5;
      const double d = u * std::cos(sa) + v * std::sin(sa) - scene.light.shadow_offset;
      const double shade = 1.0 - scene.light.shadow_strength / (1.0 + std::exp(-d / 0.03));
      const double vignette = 1.0 - 0.25 * (u * u + v * v);
      const double k = shade * vignette * light_unit;
      light.at<cv::Vec3b>(y, x) =
          cv::Vec3b(cv::saturate_cast<uchar>(gains[0] * k), cv::saturate_cast<uchar>(gains[1] * k),
                    cv::saturate_cast<uchar>(gains[2] * k));
    }
  // Eight-bit arithmetic throughout: float images of a full frame cost more than the rest of the render.
  cv::resize(light, im.scratch, size, 0, 0, cv::INTER_LINEAR);
  cv::multiply(out, im.scratch, out, 1.0 / light_unit);
  if (scene.degradation.noise_sigma > 0) {
    // A fixed field of unit noise, read at a different offset for each frame.
    if (im.noise.empty()) {
      cv::Mat n(im.height + noise_margin, im.width + noise_margin, CV_8UC3);
      cv::RNG rng(4242);
      rng.fill(n, cv::RNG::NORMAL, 128, noise_unit);
      im.noise = n;
    }
    cv::RNG pick(scene.noise_seed);
    const cv::Rect window(pick.uniform(0, noise_margin), pick.uniform(0, noise_margin), im.width, im.height);
    const double k = scene.degradation.noise_sigma / noise_unit;
    cv::addWeighted(out, 1.0, im.noise(window), k, -128.0 * k, out);
  }
  if (scene.degradation.jpeg_quality > 0) {
    // Through libjpeg-turbo directly: the same calls as OpenCV's imencode/imdecode, without loading
    // imgcodecs' libraries into the demo.
    const auto round_trip = jpeg_round_trip(out, std::clamp(scene.degradation.jpeg_quality, 1, 100));
    assert(round_trip.has_value() && "a rendered frame is always an 8-bit BGR picture");
    (void)round_trip;
  }

  if (truth) {
    truth->board_to_image = board_h;
    for (int k = 0; k < 4; ++k)
      truth->board_corners[static_cast<size_t>(k)] = board_h.apply(MarkerLayout::board_corner(k));
  }
}

std::vector<TokenLook> hard_token_looks() {
  return {{0xE01010, TokenShape::circle},
          {0x1040F0, TokenShape::square},
          {0xA0A0A4, TokenShape::hexagon, 0, true},
          {0x161616, TokenShape::star},
          {0xF4F4F4, TokenShape::diamond}};
}

std::vector<TokenLook> default_token_looks(int count) {
  static const std::vector<TokenLook> all{{0xE01010, TokenShape::circle},   {0x1040F0, TokenShape::square},
                                          {0x10C040, TokenShape::triangle}, {0xF0E020, TokenShape::star},
                                          {0xE020E0, TokenShape::hexagon},  {0x10D0E0, TokenShape::diamond},
                                          {0xFF8000, TokenShape::cross},    {0x7010B0, TokenShape::pentagon}};
  assert(count >= 0 && count <= static_cast<int>(all.size()));
  return {all.begin(), all.begin() + count};
}

}  // namespace bb::vision
