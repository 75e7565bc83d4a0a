#include "display_test_support.h"

#include <SDL.h>
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <stdexcept>

#include "display/canvas.h"
#include "display/font_set.h"

namespace bb::display::testing {

FontSet& fonts() {
  static std::unique_ptr<FontSet> f = [] {
    auto r = FontSet::open();
    if (!r) throw std::runtime_error(r.error());
    return std::move(*r);
  }();
  return *f;
}

namespace {
// Every test program runs each test in a process of its own: the long game's chances (seconds of playouts
// under the sanitizers) are played out only for the tests that show every table.
std::vector<SampleTable>& built_samples() {
  static std::vector<SampleTable> tables = [] {
    auto t = SampleTable::samples(EDITIONS_DIR, SampleTable::ChancesWork::when_asked);
    if (!t) {
      ADD_FAILURE() << "sample tables: " << t.error();
      return std::vector<SampleTable>{};
    }
    return std::move(*t);
  }();
  return tables;
}
}  // namespace

std::vector<SampleTable>& samples() {
  auto& tables = built_samples();
  for (auto& t : tables) t.play_out_chances();
  return tables;
}

SampleTable& sample(const std::string& name) {
  for (auto& t : built_samples())
    if (t.name() == name) return t;
  throw std::runtime_error("no sample table " + name);
}

SampleTable started_table(const std::string& name, const std::vector<std::string>& players) {
  auto t = SampleTable::start(name, EDITIONS_DIR, players, 5);
  if (!t) throw std::runtime_error(t.error());
  return std::move(*t);
}

std::vector<std::string> structural_problems(const Frame& frame, const Layout& layout) {
  std::vector<std::string> out;
  const Rect window{0, 0, frame.width(), frame.height()};
  int top = 0;
  for (const auto& t : frame.targets) top = std::max(top, t.layer);
  struct Ink {
    Rect r;
    std::string text;
    int layer;
  };
  std::vector<Ink> inks;
  for (const auto& op : frame.ops) {
    if (op.kind != DrawOp::Kind::text) continue;
    const auto& ts = op.text_size;
    if (ts.w > op.rect.w || ts.h > op.rect.h)
      out.push_back(fmt::format("text '{}' ({}x{}) does not fit its {}x{} box", op.text, ts.w, ts.h,
                                op.rect.w, op.rect.h));
    int x = op.rect.x;
    if (op.align == Align::centre) x += (op.rect.w - ts.w) / 2;
    if (op.align == Align::right) x = op.rect.right() - ts.w;
    const Rect ink{x, op.rect.y + (op.rect.h - ts.h) / 2, ts.w, ts.h};
    if (!window.contains(ink)) out.push_back(fmt::format("text '{}' leaves the window", op.text));
    // Glyph boxes include line spacing; shrink them a little so touching lines are not called overlaps.
    inks.push_back({Rect{ink.x + 1, ink.y + ts.h / 5, std::max(0, ink.w - 2), std::max(0, ts.h * 3 / 5)},
                    op.text, op.layer});
  }
  for (std::size_t i = 0; i < inks.size(); ++i)
    for (std::size_t j = i + 1; j < inks.size(); ++j)
      if (inks[i].layer == inks[j].layer && inks[i].r.overlaps(inks[j].r))
        out.push_back(fmt::format("texts '{}' and '{}' overlap", inks[i].text, inks[j].text));
  for (std::size_t i = 0; i < frame.targets.size(); ++i) {
    const auto& a = frame.targets[i];
    if (a.id.rfind("dialog.backdrop", 0) == 0) continue;
    if (!window.contains(a.rect)) out.push_back(fmt::format("target {} leaves the window", a.id));
    if (a.rect.w < layout.target || a.rect.h < layout.target)
      out.push_back(
          fmt::format("target {} is {}x{}, smaller than {} px", a.id, a.rect.w, a.rect.h, layout.target));
    if (a.layer != top) continue;
    for (std::size_t j = i + 1; j < frame.targets.size(); ++j) {
      const auto& b = frame.targets[j];
      if (b.layer == top && b.id.rfind("dialog.backdrop", 0) != 0 && a.rect.overlaps(b.rect))
        out.push_back(fmt::format("targets {} and {} overlap", a.id, b.id));
    }
  }
  return out;
}

Harness::Harness(SampleTable table, int width, int height, UiSettings settings, Rotation rotation)
    : table_(std::move(table)) {
  TouchScreen::Options o;
  o.width = width;
  o.height = height;
  o.settings = settings;
  o.rotation = rotation;
  auto s = TouchScreen::open(o);
  if (!s) throw std::runtime_error(s.error());
  screen_ = std::move(*s);
  screen_->show(table_.snapshot());
  screen_->draw_if_needed();
}

const Frame& Harness::frame() {
  screen_->draw_if_needed();
  return screen_->frame();
}

bool Harness::can_see(const std::string& id) { return frame().find(id) != nullptr; }

void Harness::tap(const std::string& id) {
  const Target* t = frame().find(id);
  ASSERT_NE(t, nullptr) << "no target '" << id << "' on the screen";
  // The touch arrives the way the kernel's touchscreen driver delivers it: finger down, finger up, in
  // coordinates normalised to the panel (turned, when the panel is).
  const UnitPoint at =
      layout_to_panel(screen_->canvas().rotation(),
                      {(static_cast<float>(t->rect.cx()) + 0.5f) / static_cast<float>(frame().width()),
                       (static_cast<float>(t->rect.cy()) + 0.5f) / static_cast<float>(frame().height())});
  push_finger_tap(at);
  handle(screen_->pump());
}

void push_finger_tap(UnitPoint at) {
  SDL_Event e{};
  e.type = SDL_FINGERDOWN;
  e.tfinger.touchId = 1;
  e.tfinger.fingerId = 1;
  e.tfinger.x = at.x;
  e.tfinger.y = at.y;
  e.tfinger.pressure = 1.0f;
  ASSERT_EQ(SDL_PushEvent(&e), 1) << SDL_GetError();
  e.type = SDL_FINGERUP;
  ASSERT_EQ(SDL_PushEvent(&e), 1) << SDL_GetError();
}

Snapshot Harness::snapshot() const {
  Snapshot s = table_.snapshot();
  s.table_question = question_;
  s.version += asked_ << 32;
  return s;
}

void Harness::ask(std::optional<TableQuestion> question) {
  question_ = std::move(question);
  ++asked_;
  screen_->show(snapshot());
  screen_->draw_if_needed();
}

void Harness::card(int seat) {
  const rules::PlayerId player{seat};
  const auto& ps = table_.game().state().players.at(player.index());
  handle(screen_->card(ps.card, player));
}

void Harness::card_uid(const std::string& uid) { handle(screen_->card(uid, std::nullopt)); }

void Harness::handle(std::vector<Intent> in) {
  for (auto& i : in) {
    if (const auto* a = std::get_if<ApplyInput>(&i)) {
      auto r = table_.apply(a->input, a->reason);
      if (r)
        ++applied;
      else
        refusals.push_back(r.error());
      EXPECT_TRUE(table_.game().is_consistent());
    }
    intents.push_back(std::move(i));
  }
  screen_->show(snapshot());
  screen_->draw_if_needed();
  const auto bad = screen_->invariant_violations();
  EXPECT_TRUE(bad.empty()) << bad.front();
}

}  // namespace bb::display::testing
