#include "display/sample_table.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "display/board_geometry.h"
#include "odds/chances.h"

namespace bb::display {

namespace {
// The chances as the daemon shows them (daemon/service_odds.cpp fills its ChancesView the same way).
std::vector<ChancesView::Chance> chances_of(const odds::Chances& c) {
  std::vector<ChancesView::Chance> out;
  for (const auto& p : c.players) out.push_back({p.estimate(), p.low(), p.high(), odds::format_chance(p)});
  return out;
}

// Real playouts, never made-up numbers: the game is replayed from its first input, and at about twenty
// settled turns along the way the rest of it is played out (a few hundred times: the line over the game);
// the position now is weighed as the daemon's worker weighs it (2,000 playouts), so the digits shown are the
// ones those playouts support.
std::shared_ptr<ChancesView> played_out_chances(const rules::Game& game) {
  auto view = std::make_shared<ChancesView>();
  if (!game.has_history()) return view;
  auto replay = rules::Game::start(game.edition_ptr(), game.setup());
  if (!replay) return view;
  const int step = std::max(1, game.state().turns / 20);
  int next_point = 0;
  for (const auto& input : game.inputs()) {
    if (!replay->apply(input)) return view;
    const auto& st = replay->state();
    if (st.turns < next_point || st.ended || !replay->between_moves()) continue;
    const auto c = odds::estimate_chances(*replay, {.playouts = 200, .seed = 1, .turn_cap = 400});
    ChancesView::Point point{st.turns, {}};
    for (const auto& p : c.players) point.estimate.push_back(p.estimate());
    view->over_game.push_back(std::move(point));
    next_point = st.turns + step;
  }
  const auto now = odds::estimate_chances(game, {.playouts = 2000, .seed = 1, .turn_cap = 400});
  view->now = chances_of(now);
  view->playouts = now.playouts;
  view->refining = false;
  return view;
}
}  // namespace

SampleTable::SampleTable(std::string name, rules::Game game)
    : name_(std::move(name)), game_(std::make_shared<rules::Game>(std::move(game))) {
  history_.start(*game_);
}

std::expected<rules::Outcome, std::string> SampleTable::apply(const rules::Input& input) {
  auto out = game_->apply(input);
  if (out) {
    history_.record(*game_, *out);
    ++version_;
  }
  return out;
}

std::expected<rules::Outcome, std::string> SampleTable::apply(const rules::Input& input,
                                                              const std::string& reason) {
  const int last = static_cast<int>(game_->input_count()) - 1;
  auto out = apply(input);
  if (out && std::holds_alternative<rules::Undo>(input) && !reason.empty()) undo_reasons[last] = reason;
  return out;
}

Snapshot SampleTable::snapshot() const {
  Snapshot s;
  s.game = game_.get();
  s.history = &history_;
  s.colours = colours;
  s.seen_positions = seen_positions;
  s.devices = devices;
  s.camera = camera.get();
  s.calibration = calibration.get();
  s.editions = editions;
  s.unfinished_game = unfinished_game;
  s.undo_reasons = undo_reasons;
  s.chances = chances.get();
  s.version = version_;
  return s;
}

void SampleTable::play(int inputs, std::uint64_t seed) {
  std::uint64_t rng = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  auto die = [&rng] {
    rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<int>((rng >> 33) % 6) + 1;
  };
  for (int n = 0; n < inputs; ++n) {
    const auto& st = game_->state();
    if (st.ended) return;
    std::vector<rules::Input> tries;
    if (st.auction) {
      const auto& a = *st.auction;
      const rules::PlayerId bidder{(a.high_bidder ? a.high_bidder->number() + 1 : st.current.number()) %
                                   static_cast<int>(st.players.size())};
      if (!a.high_bidder || a.high_bid < 80) tries.push_back(rules::Bid{bidder, a.high_bid + 20});
      tries.push_back(rules::Close{});
    } else if (!st.pending.empty()) {
      const auto& q = st.pending.front();
      const auto& p = st.players[q.player];
      switch (q.kind) {
        case rules::QuestionKind::buy:
          tries.push_back(rules::Choose{
              q.player, {p.cash >= q.amount + 150 ? rules::Answer::buy : rules::Answer::auction}});
          break;
        case rules::QuestionKind::tax:
          tries.push_back(rules::Choose{q.player, {rules::Answer::pay_fixed}});
          break;
        case rules::QuestionKind::jail:
          tries.push_back(rules::Choose{q.player, {rules::Answer::pay_fine}});
          break;
        case rules::QuestionKind::mortgaged_transfer:
          tries.push_back(rules::Choose{q.player, {rules::Answer::keep}});
          break;
        case rules::QuestionKind::draw:
          tries.push_back(rules::Draw{*q.deck, std::nullopt});
          break;
        case rules::QuestionKind::debt: {
          for (std::size_t s = 0; s < st.spaces.size(); ++s)
            if (st.spaces[s].owner == q.player) {
              const rules::SpaceId lot{static_cast<int>(s)};
              if (!game_->why_not_sell(q.player, lot)) tries.push_back(rules::Sell{q.player, lot});
              if (!game_->why_not_mortgage(q.player, lot)) tries.push_back(rules::Mortgage{q.player, lot});
            }
          tries.push_back(rules::Bankrupt{q.player});
          break;
        }
        case rules::QuestionKind::roll:
          tries.push_back(rules::Roll{die(), die()});
          break;
        case rules::QuestionKind::draft:
          break;  // the options below: the first set still free
      }
      for (const auto& o : q.options) tries.push_back(rules::Choose{q.player, o});
    } else {
      // Between throws the player builds where the rules allow, while cash lasts.
      const rules::PlayerId me = st.current;
      for (std::size_t s = 0; s < st.spaces.size() && tries.empty(); ++s)
        if (st.spaces[s].owner == me && st.players[me].cash > 400 &&
            !game_->why_not_build(me, rules::SpaceId{static_cast<int>(s)}))
          tries.push_back(rules::Build{me, rules::SpaceId{static_cast<int>(s)}});
      tries.push_back(rules::Roll{die(), die()});
    }
    bool done = false;
    for (const auto& t : tries)
      if (apply(t)) {
        done = true;
        break;
      }
    if (!done) return;  // nothing the policy knows is accepted: stop rather than spin
  }
}

std::vector<DeviceStatus> SampleTable::healthy_devices() {
  return {{DeviceStatus::Kind::dice, "Dice unit", DeviceStatus::State::ok, "Last throw read 12 s ago", ""},
          {DeviceStatus::Kind::card_reader, "Card reader", DeviceStatus::State::ok, "4 cards registered", ""},
          {DeviceStatus::Kind::camera, "Camera", DeviceStatus::State::ok,
           "Board calibrated, 4 tokens tracked", ""}};
}

std::shared_ptr<CameraView> SampleTable::synthetic_camera(int spaces) {
  auto cam = std::make_shared<CameraView>();
  cam->width = 320;
  cam->height = 240;
  cam->rgb.assign(static_cast<std::size_t>(cam->width * cam->height * 3), 0);
  // A board seen slightly from the side: a light square on a wooden table, drawn as a perspective warp.
  const double top_l = 70, top_r = 250, bot_l = 40, bot_r = 280, top_y = 20, bot_y = 225;
  auto warp = [&](double u, double v, int& x, int& y) {  // u,v in 0..1 over the board
    const double left = top_l + (bot_l - top_l) * v, right = top_r + (bot_r - top_r) * v;
    x = static_cast<int>(std::lround(left + (right - left) * u));
    y = static_cast<int>(std::lround(top_y + (bot_y - top_y) * v));
  };
  for (int y = 0; y < cam->height; ++y)
    for (int x = 0; x < cam->width; ++x) {
      auto* px = &cam->rgb[static_cast<std::size_t>((y * cam->width + x) * 3)];
      const double v = (y - top_y) / (bot_y - top_y);
      const double left = top_l + (bot_l - top_l) * v, right = top_r + (bot_r - top_r) * v;
      const bool board = v >= 0 && v <= 1 && x >= left && x <= right;
      const int grain = ((x * 7 + y * 3) % 17);
      px[0] = static_cast<unsigned char>(board ? 205 : 120 + grain);
      px[1] = static_cast<unsigned char>(board ? 225 : 80 + grain / 2);
      px[2] = static_cast<unsigned char>(board ? 200 : 50);
    }
  const BoardGeometry geo({0, 0, 1000, 1000}, spaces);
  for (const rules::SpaceId s : rules::IdRange<rules::SpaceId>{static_cast<std::size_t>(spaces)}) {
    const Rect r = geo.cell(s);
    CameraView::Cell c;
    c.space = s;
    const double us[4] = {r.x / 1000.0, r.right() / 1000.0, r.right() / 1000.0, r.x / 1000.0};
    const double vs[4] = {r.y / 1000.0, r.y / 1000.0, r.bottom() / 1000.0, r.bottom() / 1000.0};
    for (int k = 0; k < 4; ++k) warp(us[k], vs[k], c.x[k], c.y[k]);
    cam->grid.push_back(c);
  }
  const double corners[4][2] = {{0.03, 0.03}, {0.97, 0.03}, {0.97, 0.97}, {0.03, 0.97}};
  for (int m = 0; m < 4; ++m) {
    CameraView::Marker mk;
    mk.id = m;
    warp(corners[m][0], corners[m][1], mk.x, mk.y);
    mk.size = 14;
    cam->markers.push_back(mk);
  }
  return cam;
}

std::array<BoardPoint, 4> SampleTable::synthetic_printed_corners() {
  // Printed boards leave a white margin, a little wider at the bottom here, as if the print were off.
  return {BoardPoint{0.03, 0.028}, BoardPoint{0.972, 0.03}, BoardPoint{0.968, 0.962},
          BoardPoint{0.032, 0.966}};
}

std::shared_ptr<CalibrationView> SampleTable::synthetic_top_view(int spaces) {
  auto cal = std::make_shared<CalibrationView>();
  cal->width = cal->height = 464;
  cal->spaces_per_side = std::max(3, spaces / 4);
  cal->rgb.assign(static_cast<std::size_t>(cal->width * cal->height * 3), 0);
  const auto printed = synthetic_printed_corners();
  const double n = cal->spaces_per_side, ratio = cal->corner_ratio;
  const double w = 1.0 / (2.0 * ratio + (n - 1)), c = ratio * w;
  const double range = cal->view_max - cal->view_min;
  static const unsigned char bands[8][3] = {{150, 84, 60}, {170, 220, 240}, {214, 60, 150}, {245, 150, 30},
                                            {225, 30, 40}, {250, 230, 20},  {30, 170, 80},  {20, 90, 180}};
  for (int y = 0; y < cal->height; ++y)
    for (int x = 0; x < cal->width; ++x) {
      auto* px = &cal->rgb[static_cast<std::size_t>((y * cal->width + x) * 3)];
      const double u = cal->view_min + (x + 0.5) / cal->width * range;
      const double v = cal->view_min + (y + 0.5) / cal->height * range;
      const int grain = ((x * 7 + y * 3) % 17);
      unsigned char r = static_cast<unsigned char>(120 + grain),
                    g = static_cast<unsigned char>(80 + grain / 2),
                    b = 50;  // the wooden table
      if (u >= 0 && u < 1 && v >= 0 && v < 1) {
        r = 226, g = 236, b = 222;  // the board
        // Where the point sits on the printed ring (bilinear is close enough for a near-square print).
        const double top = printed[0].y + (printed[1].y - printed[0].y) * u;
        const double bottom = printed[3].y + (printed[2].y - printed[3].y) * u;
        const double left = printed[0].x + (printed[3].x - printed[0].x) * v;
        const double right = printed[1].x + (printed[2].x - printed[1].x) * v;
        const double s = (u - left) / (right - left), t = (v - top) / (bottom - top);
        const double line = 0.0035;
        if (s >= -line && s <= 1 + line && t >= -line && t <= 1 + line) {
          const bool ring = s < c || s > 1 - c || t < c || t > 1 - c;
          auto near = [&](double a, double at) { return std::abs(a - at) < line; };
          bool dark = near(s, 0) || near(s, 1) || near(t, 0) || near(t, 1);
          if (ring) {
            dark = dark || (near(s, c) && t >= c && t <= 1 - c) || (near(s, 1 - c) && t >= c && t <= 1 - c) ||
                   (near(t, c) && s >= c && s <= 1 - c) || (near(t, 1 - c) && s >= c && s <= 1 - c);
            // Borders between spaces, and a colour band along the inner edge of some of them.
            const bool across_top = t<c, across_bottom = t> 1 - c;
            const double along = across_top || across_bottom ? s : t;
            const double depth = across_top      ? t / c
                                 : across_bottom ? (1 - t) / c
                                 : s < c         ? s / c
                                                 : (1 - s) / c;
            if (along > c && along < 1 - c) {
              const double k = (along - c) / w;
              dark = dark || std::abs(k - std::round(k)) * w < line;
              const int space = static_cast<int>(k);
              const int side = across_bottom ? 0 : s < c ? 1 : across_top ? 2 : 3;
              if (depth > 0.78 && (space % 3) != 1) {
                const auto* band = bands[(side * 2 + space / 5) % 8];
                r = band[0], g = band[1], b = band[2];
              }
            }
          }
          if (dark) r = g = b = 30;
        }
        // The corner markers, stuck on the board's own corners.
        const double m = 0.07, inset = 0.008;
        const bool marker_x = (u > inset && u < inset + m) || (u > 1 - inset - m && u < 1 - inset);
        const bool marker_y = (v > inset && v < inset + m) || (v > 1 - inset - m && v < 1 - inset);
        if (marker_x && marker_y) {
          // A pattern like an ArUco marker's: a black border, cells inside.
          const double lx = u < 0.5 ? u - inset : u - (1 - inset - m),
                       ly = v < 0.5 ? v - inset : v - (1 - inset - m);
          const int cell_x = static_cast<int>(lx / (m / 6)), cell_y = static_cast<int>(ly / (m / 6));
          const bool inner = cell_x > 0 && cell_x < 5 && cell_y > 0 && cell_y < 5;
          const bool white = inner && (cell_x * 5 + cell_y * 3 + static_cast<int>(u * 2) * 2) % 3 == 0;
          r = g = b = white ? 240 : 10;
        }
      }
      px[0] = r, px[1] = g, px[2] = b;
    }
  return cal;
}

std::expected<SampleTable, std::string> SampleTable::start(const std::string& name,
                                                           const std::string& editions_dir,
                                                           const std::vector<std::string>& players,
                                                           std::uint64_t seed, const std::string& edition_id,
                                                           const std::map<std::string, bool>& options) {
  auto edition = rules::load_edition(edition_id, {editions_dir});
  if (!edition) return std::unexpected(edition.error().what());
  auto shared = std::make_shared<const rules::Edition>(std::move(*edition));
  static const char* tokens[] = {"car", "dog", "hat", "boot", "ship", "thimble", "iron", "cat"};
  rules::Setup setup;
  setup.edition = edition_id;
  setup.options = options;
  setup.seed = seed;
  for (std::size_t i = 0; i < players.size(); ++i)
    setup.players.push_back({players[i], tokens[i % 8], fmt::format("0A1B2C{:02X}", i), {}});
  auto game = rules::Game::start(shared, setup);
  if (!game) return std::unexpected(game.error());
  SampleTable t(name, std::move(*game));
  t.devices = healthy_devices();
  t.camera = synthetic_camera(static_cast<int>(shared->spaces.size()));
  t.calibration = synthetic_top_view(static_cast<int>(shared->spaces.size()));
  // The setup screen lists what the family can pick: every edition in the folder.
  t.editions = folder_editions(editions_dir);
  if (t.editions.empty()) t.editions = {shared};
  for (std::size_t i = 0; i < players.size(); ++i) t.seen_positions.push_back(rules::SpaceId{0});
  return t;
}

std::vector<std::shared_ptr<const rules::Edition>> SampleTable::folder_editions(
    const std::string& editions_dir) {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(editions_dir, ec))
    if (entry.path().extension() == ".toml") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  std::vector<std::shared_ptr<const rules::Edition>> out;
  for (const auto& f : files)
    if (auto ed = rules::load_edition(f.string(), {editions_dir}))
      out.push_back(std::make_shared<const rules::Edition>(std::move(*ed)));
  return out;
}

void SampleTable::play_out_chances() {
  if (shows_chances_ && !chances) chances = played_out_chances(*game_);
}

std::expected<std::vector<SampleTable>, std::string> SampleTable::samples(const std::string& editions_dir,
                                                                          ChancesWork chances_work) {
  std::vector<SampleTable> out;
  const std::vector<std::string> four = {"Ann", "Bob", "Cleo", "Dev"};
  auto must = [](SampleTable& t, const rules::Input& in) -> std::expected<void, std::string> {
    auto r = t.apply(in);
    if (!r) return std::unexpected(fmt::format("sample '{}': {}", t.name(), r.error()));
    return {};
  };
#define BB_TRY(expr)                                                  \
  do {                                                                \
    if (auto ok_ = (expr); !ok_) return std::unexpected(ok_.error()); \
  } while (0)

  // A fresh game: nobody has moved.
  auto fresh = start("fresh", editions_dir, four, 7);
  if (!fresh) return std::unexpected(fresh.error());
  out.push_back(std::move(*fresh));

  // Houses, hotels and mortgages, with a purchase question pending.
  auto dev = start("developed", editions_dir, four, 11);
  if (!dev) return std::unexpected(dev.error());
  {
    using rules::AdoptSpace;
    rules::Adopt ann{
        rules::PlayerId{0}, 1240,
        std::nullopt,       std::nullopt,
        std::nullopt,       {AdoptSpace{rules::SpaceId{1}, 2}, AdoptSpace{rules::SpaceId{3}, 3}}};
    rules::Adopt bob{rules::PlayerId{1},
                     620,
                     std::nullopt,
                     std::nullopt,
                     std::nullopt,
                     {AdoptSpace{rules::SpaceId{37}, 0, true}, AdoptSpace{rules::SpaceId{39}, 0, true},
                      AdoptSpace{rules::SpaceId{25}, 0, false, true}}};
    rules::Adopt cleo{rules::PlayerId{2},
                      980,
                      std::nullopt,
                      std::nullopt,
                      1,
                      {AdoptSpace{rules::SpaceId{5}}, AdoptSpace{rules::SpaceId{15}, 0, false, true},
                       AdoptSpace{rules::SpaceId{12}, 0, false, true}, AdoptSpace{rules::SpaceId{28}}}};
    rules::Adopt devi{rules::PlayerId{3},
                      410,
                      std::nullopt,
                      std::nullopt,
                      std::nullopt,
                      {AdoptSpace{rules::SpaceId{16}, 1}, AdoptSpace{rules::SpaceId{18}, 1},
                       AdoptSpace{rules::SpaceId{19}, 2}, AdoptSpace{rules::SpaceId{26}, 0, false, true}}};
    for (const auto& a : {ann, bob, cleo, devi}) BB_TRY(must(*dev, a));
    BB_TRY(must(*dev, rules::Roll{2, 4}));  // Ann to Oriental Avenue: buy or auction?
  }
  dev->seen_positions = {rules::SpaceId{6}, rules::SpaceId{0}, rules::SpaceId{0}, rules::SpaceId{0}};
  out.push_back(std::move(*dev));

  // An auction under way.
  auto auction = start("auction", editions_dir, four, 13);
  if (!auction) return std::unexpected(auction.error());
  BB_TRY(must(*auction, rules::Roll{1, 2}));
  BB_TRY(must(*auction, rules::Choose{rules::PlayerId{0}, {rules::Answer::auction}}));
  BB_TRY(must(*auction, rules::Bid{rules::PlayerId{1}, 30}));
  BB_TRY(must(*auction, rules::Bid{rules::PlayerId{2}, 45}));
  BB_TRY(must(*auction, rules::Bid{rules::PlayerId{1}, 52}));
  out.push_back(std::move(*auction));

  // A debt: Ann lands on Boardwalk with a hotel and cannot pay.
  auto debt = start("debt", editions_dir, four, 17);
  if (!debt) return std::unexpected(debt.error());
  {
    using rules::AdoptSpace;
    BB_TRY(must(*debt, rules::Adopt{rules::PlayerId{1},
                                    std::nullopt,
                                    std::nullopt,
                                    std::nullopt,
                                    std::nullopt,
                                    {AdoptSpace{rules::SpaceId{37}, 0, true},
                                     AdoptSpace{rules::SpaceId{39}, 0, true}}}));
    BB_TRY(must(*debt, rules::Adopt{rules::PlayerId{0},
                                    240,
                                    rules::SpaceId{35},
                                    std::nullopt,
                                    std::nullopt,
                                    {AdoptSpace{rules::SpaceId{6}}, AdoptSpace{rules::SpaceId{8}},
                                     AdoptSpace{rules::SpaceId{9}, 0, false, true}}}));
    BB_TRY(must(*debt, rules::Roll{1, 3}));
  }
  debt->seen_positions = {rules::SpaceId{39}, rules::SpaceId{0}, rules::SpaceId{0}, rules::SpaceId{0}};
  out.push_back(std::move(*debt));

  // A hotel sale when the bank has no houses: Ann's light blues stand at 4 houses, a hotel and a hotel, and
  // Bob's houses have emptied the bank, so selling a hotel takes the group's hotels at once.
  auto shortage = start("shortage", editions_dir, four, 19);
  if (!shortage) return std::unexpected(shortage.error());
  {
    using rules::AdoptSpace;
    BB_TRY(must(*shortage,
                rules::Adopt{rules::PlayerId{0},
                             860,
                             std::nullopt,
                             std::nullopt,
                             std::nullopt,
                             {AdoptSpace{rules::SpaceId{6}, 4}, AdoptSpace{rules::SpaceId{8}, 0, true},
                              AdoptSpace{rules::SpaceId{9}, 0, true}}}));
    BB_TRY(must(*shortage, rules::Adopt{rules::PlayerId{1},
                                        420,
                                        std::nullopt,
                                        std::nullopt,
                                        std::nullopt,
                                        {AdoptSpace{rules::SpaceId{31}, 4}, AdoptSpace{rules::SpaceId{32}, 4},
                                         AdoptSpace{rules::SpaceId{34}, 4}, AdoptSpace{rules::SpaceId{26}, 4},
                                         AdoptSpace{rules::SpaceId{27}, 4}, AdoptSpace{rules::SpaceId{29}, 4},
                                         AdoptSpace{rules::SpaceId{16}, 2}, AdoptSpace{rules::SpaceId{18}, 1},
                                         AdoptSpace{rules::SpaceId{19}, 1}}}));
  }
  out.push_back(std::move(*shortage));

  // A time-limit game ended in a tie: Ann and Cleo are both worth $2,500 (Cleo's mortgaged railroad at half).
  auto tie = start("tie", editions_dir, four, 31);
  if (!tie) return std::unexpected(tie.error());
  {
    using rules::AdoptSpace;
    const auto none = std::nullopt;
    BB_TRY(must(*tie, rules::Adopt{rules::PlayerId{0},
                                   1640,
                                   none,
                                   none,
                                   none,
                                   {AdoptSpace{rules::SpaceId{16}, 1}, AdoptSpace{rules::SpaceId{18}, 1},
                                    AdoptSpace{rules::SpaceId{19}, 1}}}));
    BB_TRY(must(*tie,
                rules::Adopt{rules::PlayerId{1}, 1320, none, none, none, {AdoptSpace{rules::SpaceId{37}}}}));
    BB_TRY(must(*tie,
                rules::Adopt{rules::PlayerId{2},
                             2050,
                             none,
                             none,
                             none,
                             {AdoptSpace{rules::SpaceId{5}}, AdoptSpace{rules::SpaceId{15}, 0, false, true},
                              AdoptSpace{rules::SpaceId{12}}}}));
    BB_TRY(must(*tie, rules::Adopt{rules::PlayerId{3}, 900, none, none, none, {}}));
    BB_TRY(must(*tie, rules::End{}));
  }
  out.push_back(std::move(*tie));

  // A long ledger: a few hundred inputs of play.
  auto long_game = start("long-ledger", editions_dir, four, 23);
  if (!long_game) return std::unexpected(long_game.error());
  long_game->play(400, 23);
  long_game->seen_positions.clear();
  long_game->shows_chances_ = true;  // the charts' Chances tab
  if (chances_work == ChancesWork::now) long_game->play_out_chances();
  out.push_back(std::move(*long_game));

  // Six players with long names, and a camera that has gone missing.
  auto six =
      start("six-players", editions_dir,
            {"Bartholomew Featherstonehaugh", "Anastasia Wolkenstein-Maier", "Maximiliano Cardenas Ortiz",
             "Gwendolyn Abernathy-Rhys", "Oluwaseun Adebayo-Williams", "Christopher Montgomery III"},
            29);
  if (!six) return std::unexpected(six.error());
  six->play(60, 29);
  six->devices[2] = {
      DeviceStatus::Kind::camera, "Camera", DeviceStatus::State::missing,
      "No picture from the camera for 40 s",
      "Check the camera's ribbon cable, then tap Recalibrate. Until then move tokens by the dice."};
  six->camera.reset();
  six->calibration.reset();
  six->seen_positions.clear();
  out.push_back(std::move(*six));

  // Each other edition of the folder, some way into a game: its own words, money and board on the screens.
  for (const auto& ed : folder_editions(editions_dir)) {
    if (ed->id == "classic") continue;
    auto game = start("edition-" + ed->id, editions_dir, four, 31, ed->id);
    if (!game) return std::unexpected(game.error());
    game->play(160, 31);
    game->seen_positions.clear();
    out.push_back(std::move(*game));
    if (ed->id == "finance-1932") {
      // FINANCE (1932) before a throw with Ann and Bob each holding a railroad: the insurance and partnership
      // buttons of the home screen.
      auto deals = start("finance-1932-deals", editions_dir, four, 41, "finance-1932");
      if (!deals) return std::unexpected(deals.error());
      rules::Adopt ann;
      ann.player = rules::PlayerId{0};
      ann.spaces = {{rules::SpaceId{5}}};
      rules::Adopt bob;
      bob.player = rules::PlayerId{1};
      bob.spaces = {{rules::SpaceId{15}}};
      BB_TRY(must(*deals, ann));
      BB_TRY(must(*deals, bob));
      deals->seen_positions.clear();
      out.push_back(std::move(*deals));
    }
    if (ed->id == "ships") {
      // The ships Short Game's first moment: the title-deed draft, Bob choosing after Ann.
      auto draft = start("ships-short-draft", editions_dir, four, 37, "ships", {{"short_game", true}});
      if (!draft) return std::unexpected(draft.error());
      const auto dark_blue = ed->option_named("dark_blue");
      if (!dark_blue) return std::unexpected(std::string("the ships edition has no dark_blue set to draft"));
      BB_TRY(must(*draft, rules::Choose{rules::PlayerId{0}, *dark_blue}));
      draft->seen_positions.clear();
      out.push_back(std::move(*draft));
    }
  }
#undef BB_TRY
  return out;
}

}  // namespace bb::display
