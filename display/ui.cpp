#include "display/ui.h"

#include <fmt/format.h>

#include <algorithm>
#include <cassert>

#include "display/auction_screen.h"
#include "display/board_screen.h"
#include "display/calibration_screen.h"
#include "display/charts_screen.h"
#include "display/confirm_dialog.h"
#include "display/devices_screen.h"
#include "display/frame_builder.h"
#include "display/home_screen.h"
#include "display/ledger_screen.h"
#include "display/properties_screen.h"
#include "display/setup_screen.h"
#include "display/table_question_dialog.h"
#include "display/trade_screen.h"

namespace bb::display {

Ui::Ui(UiSettings settings) : settings_(std::move(settings)), frame_(std::make_unique<Frame>(0, 0)) {}
Ui::~Ui() = default;

View& Ui::screen_view(ScreenId id) {
  auto& slot = screens_[id];
  if (!slot) {
    switch (id) {
      case ScreenId::home:
        slot = std::make_unique<HomeScreen>();
        break;
      case ScreenId::auction:
        slot = std::make_unique<AuctionScreen>();
        break;
      case ScreenId::properties:
        slot = std::make_unique<PropertiesScreen>();
        break;
      case ScreenId::trade:
        slot = std::make_unique<TradeScreen>();
        break;
      case ScreenId::ledger:
        slot = std::make_unique<LedgerScreen>();
        break;
      case ScreenId::charts:
        slot = std::make_unique<ChartsScreen>();
        break;
      case ScreenId::board:
        slot = std::make_unique<BoardScreen>();
        break;
      case ScreenId::setup:
        slot = std::make_unique<SetupScreen>();
        break;
      case ScreenId::devices:
        slot = std::make_unique<DevicesScreen>();
        break;
      case ScreenId::calibration:
        slot = std::make_unique<CalibrationScreen>();
        break;
    }
  }
  return *slot;
}

const Frame& Ui::build(const Snapshot& snapshot, const Layout& layout, TextMeasure& measure,
                       std::uint64_t now_ms) {
  snapshot_ = snapshot;
  layout_ = layout;
  measure_ = &measure;
  now_ms_ = now_ms;
  // An auction the rules opened takes the screen once; when it is over, the table goes home.
  const bool auction = snapshot_.game && snapshot_.game->state().auction.has_value();
  if (auction && !auction_seen_) {
    screen_ = ScreenId::auction;
    auction_seen_ = true;
  } else if (!auction) {
    if (auction_seen_ && screen_ == ScreenId::auction) screen_ = ScreenId::home;
    auction_seen_ = false;
  }
  // The table's status ("Resumed game 3 from input 57") goes to the status line once, when it changes.
  if (snapshot_.table_status != table_status_) {
    table_status_ = snapshot_.table_status;
    if (!table_status_.empty()) message_ = table_status_;
  }
  // The table's own question shows until it is answered; a dialog it opened (dice, PIN) goes first.
  auto* asking = dynamic_cast<TableQuestionDialog*>(dialog_.get());
  const auto& question = snapshot_.table_question;
  if (question && (!dialog_ || (asking && asking->question_id() != question->id)))
    open_dialog(std::make_unique<TableQuestionDialog>(*question));
  else if (question && asking)
    asking->update(*question);  // the same question, its options as the table has them now
  else if (!question && asking)
    close_dialog();
  rebuild();
  return *frame_;
}

void Ui::rebuild() {
  assert(layout_ && measure_);
  auto frame = std::make_unique<Frame>(layout_->width, layout_->height);
  FrameBuilder fb(*frame, *layout_, *measure_);
  ticking_ = false;
  screen_view(screen_).build(fb, *this);
  if (dialog_) {
    fb.set_layer(1);
    dialog_->build(fb, *this);
  }
  frame_ = std::move(frame);
  // The old frame's targets pointed into the retired dialogs; both are gone now.
  retired_.clear();
  built_ms_ = now_ms_;
  built_version_ = snapshot_.version;
  dirty_ = false;
}

void Ui::tap(int x, int y) {
  if (dirty_ && layout_) rebuild();
  const Target* t = frame_->hit(x, y);
  if (!t) return;
  if (!t->enabled) {
    message_ = t->refusal.empty() ? "Not now" : t->refusal;
    cues_.push_back(Cue::refused);
  } else {
    message_.clear();
    cues_.push_back(Cue::tap);
    if (t->on_tap) {
      auto action = t->on_tap;  // the target may be destroyed by what it does
      action();
    }
  }
  dirty_ = true;
}

void Ui::press(int x, int y) {
  if (dirty_ && layout_) rebuild();
  dragging_ = nullptr;
  if (dialog_) return;  // dialogs take taps only
  View& view = screen_view(screen_);
  if (view.on_press(x, y, *this)) {
    dragging_ = &view;
    dirty_ = true;
  }
}

void Ui::drag(int x, int y) {
  if (!dragging_) return;
  dragging_->on_drag(x, y, *this);
  dirty_ = true;
}

bool Ui::release(int x, int y) {
  if (!dragging_) return false;
  View* view = std::exchange(dragging_, nullptr);
  view->on_release(x, y, *this);
  dirty_ = true;
  return true;
}

void Ui::card(const std::string& uid, std::optional<rules::PlayerId> player) {
  if (dirty_ && layout_) rebuild();
  message_.clear();
  bool used = dialog_ && dialog_->on_card(uid, player, *this);
  if (!used) used = screen_view(screen_).on_card(uid, player, *this);
  if (!used) {
    if (player && snapshot_.game) {
      // On any other screen a player's card shows their properties.
      focused_player_ = player;
      screen_ = ScreenId::properties;
    } else if (!player) {
      message_ = "Unknown card: register it on the Setup screen";
    }
  }
  dirty_ = true;
}

std::vector<Intent> Ui::take_intents() { return std::exchange(intents_, {}); }
std::vector<Cue> Ui::take_cues() { return std::exchange(cues_, {}); }

bool Ui::needs_redraw(std::uint64_t now_ms, std::uint64_t snapshot_version) const {
  if (dirty_ || snapshot_version != built_version_) return true;
  return ticking_ && now_ms / 1000 != built_ms_ / 1000;
}

void Ui::go(ScreenId screen) {
  screen_ = screen;
  dragging_ = nullptr;
  dirty_ = true;
}

void Ui::open_dialog(std::unique_ptr<View> dialog) {
  if (dialog_) retired_.push_back(std::move(dialog_));
  dialog_ = std::move(dialog);
  dirty_ = true;
}

void Ui::close_dialog() {
  if (dialog_) retired_.push_back(std::move(dialog_));
  dirty_ = true;
}

void Ui::confirm(Confirmation request) { open_dialog(std::make_unique<ConfirmDialog>(std::move(request))); }

void Ui::emit(Intent intent) {
  intents_.push_back(std::move(intent));
  dirty_ = true;
}

void Ui::cue(Cue c) { cues_.push_back(c); }

bool Ui::cards_confirm() const {
  // A tap confirms while any card reader works (several may be configured).
  return std::any_of(snapshot_.devices.begin(), snapshot_.devices.end(), [](const DeviceStatus& d) {
    return d.kind == DeviceStatus::Kind::card_reader && d.state == DeviceStatus::State::ok;
  });
}

std::vector<std::string> Ui::invariant_violations() const {
  std::vector<std::string> out;
  if (!frame_) {
    out.push_back("no frame");
    return out;
  }
  const int top = dialog_ ? 1 : 0;
  for (std::size_t i = 0; i < frame_->targets.size(); ++i) {
    const auto& a = frame_->targets[i];
    if (a.layer != top) continue;
    if (a.id.rfind("dialog.backdrop", 0) == 0) continue;
    for (std::size_t j = i + 1; j < frame_->targets.size(); ++j) {
      const auto& b = frame_->targets[j];
      if (b.layer != top || b.id.rfind("dialog.backdrop", 0) == 0) continue;
      if (a.rect.overlaps(b.rect)) out.push_back(fmt::format("targets {} and {} overlap", a.id, b.id));
    }
  }
  if (dialog_ && !dirty_ && std::none_of(frame_->targets.begin(), frame_->targets.end(), [](const Target& t) {
        return t.layer == 1 && t.id.rfind("dialog.backdrop", 0) != 0;
      }))
    out.push_back("a dialog is open but offers nothing to press");
  return out;
}

}  // namespace bb::display
