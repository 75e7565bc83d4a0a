#include "display/ledger_screen.h"

#include <fmt/format.h>

#include <algorithm>

#include "display/choice_dialog.h"
#include "display/frame_builder.h"
#include "display/keypad_dialog.h"
#include "display/palette.h"
#include "display/ui_context.h"
#include "display/widgets.h"
#include "display/wording.h"

namespace bb::display {

void LedgerScreen::start_correction(UiContext& ui) {
  KeypadDialog::Request req;
  req.mode = KeypadDialog::Mode::pin;
  req.title = "Banker: PIN or card to undo the last input";
  req.on_pin = [&ui](const std::string& pin) -> std::string {
    if (!ui.settings().is_banker_pin(pin)) return "Wrong PIN";
    static const std::vector<std::string> reasons = {
        "Wrong dice entered", "Wrong button pressed", "Card tapped by mistake",
        "The table agreed to take it back", "Rules dispute settled"};
    std::vector<ChoiceDialog::Choice> choices;
    for (const auto& r : reasons) choices.push_back({r, {0, 0, 0, 0}});
    ui.open_dialog(
        std::make_unique<ChoiceDialog>("Why undo the last input?", std::move(choices), [&ui](int i) {
          ui.emit(ApplyInput{rules::Undo{}, reasons[static_cast<std::size_t>(i)], std::nullopt, "pin"});
          ui.cue(Cue::payment);
          ui.say("Undone: " + reasons[static_cast<std::size_t>(i)]);
        }));
    return {};
  };
  ui.open_dialog(std::make_unique<KeypadDialog>(std::move(req)));
}

void LedgerScreen::build(FrameBuilder& fb, UiContext& ui) {
  const auto& l = fb.layout();
  fb.fill({0, 0, l.width, l.height}, Palette::background);
  const Rect body = Widgets::top_bar(fb, ui, "Ledger");
  const auto* game = ui.snapshot().game;
  if (!game) return;
  const auto& st = game->state();
  const int n = static_cast<int>(st.players.size());
  if (player_ && player_->number() >= n) player_.reset();

  // Filters and the correction.
  const int fy = body.y + l.pad;
  const int fw = (l.width - 5 * l.pad) / 4;
  fb.button(
      "ledger.who", {l.pad, fy, fw, l.button_h},
      !player_ ? std::string("Who: everyone \u25BE") : "Who: " + game->account_name(*player_) + " \u25BE",
      !player_ ? Palette::panel_light : Widgets::player_colour(ui.snapshot(), *player_), [this, &ui, n] {
        std::vector<ChoiceDialog::Choice> c{{"Everyone", {0, 0, 0, 0}}};
        for (rules::PlayerId seat : ui.snapshot().game->state().players.ids())
          c.push_back({ui.snapshot().game->account_name(seat), Widgets::player_colour(ui.snapshot(), seat)});
        // The choice's place in the list: 0 is everyone, then the players in turn order.
        ui.open_dialog(std::make_unique<ChoiceDialog>("Show the postings of", std::move(c), [this, n](int k) {
          player_ = k >= 1 && k <= n ? std::optional<rules::PlayerId>{rules::PlayerId{k - 1}} : std::nullopt;
          page_ = 0;
        }));
      });
  fb.button(
      "ledger.where", {2 * l.pad + fw, fy, fw, l.button_h},
      !space_ ? std::string("Where: anywhere \u25BE") : Wording::space_name(*game, space_) + " \u25BE",
      Palette::panel_light, [this, &ui] {
        const auto& ed = ui.snapshot().game->edition();
        std::vector<ChoiceDialog::Choice> c{{"Anywhere", {0, 0, 0, 0}}};
        // The choice's place in the list: 0 is anywhere, then the spaces listed.
        std::vector<std::optional<rules::SpaceId>> index{std::nullopt};
        for (const auto& sp : ed.spaces) {
          if (sp.price <= 0 && sp.on_land.empty()) continue;
          const auto* g = ed.group(sp.group);
          c.push_back({sp.name, g ? Palette::parse_hex(g->colour) : Colour{0, 0, 0, 0}});
          index.push_back(rules::SpaceId{sp.index});
        }
        ui.open_dialog(std::make_unique<ChoiceDialog>("Postings about", std::move(c), [this, index](int k) {
          space_ = k >= 0 && static_cast<std::size_t>(k) < index.size() ? index[static_cast<std::size_t>(k)]
                                                                        : std::nullopt;
          page_ = 0;
        }));
      });
  fb.button(
      "ledger.undo", {3 * l.pad + 2 * fw, fy, fw, l.button_h}, "Undo last\u2026", Palette::danger,
      [this, &ui] { start_correction(ui); }, game->input_count() > 0, "Nothing to undo yet");
  // The family agrees to stop (a time-limit game's time is up, or bedtime): every player's worth is counted
  // and the richest wins. Anyone at the table confirms it on the screen.
  fb.button(
      "ledger.end", {4 * l.pad + 3 * fw, fy, fw, l.button_h}, "End the game\u2026", Palette::danger,
      [&ui] {
        ui.confirm({"End the game now? Every player's worth is counted and the richest wins.", "End it",
                    std::nullopt, ApplyInput{rules::End{}, {}, std::nullopt, {}},
                    [&ui] { ui.go(ScreenId::home); }});
      },
      !st.ended, "The game is over");

  // The postings, newest first.
  std::vector<const rules::Posting*> shown;
  for (auto it = st.postings.rbegin(); it != st.postings.rend(); ++it) {
    if (player_ && !it->from.is(*player_) && !it->to.is(*player_)) continue;
    if (space_ && it->space != space_) continue;
    shown.push_back(&*it);
  }
  const int top = fy + l.button_h + l.pad;
  const int pager_h = l.target;
  const int line_h = l.s(34);
  const int rows = std::max(1, (l.height - top - pager_h - 2 * l.pad) / line_h);
  const int pages = (static_cast<int>(shown.size()) + rows - 1) / rows;
  page_ = std::clamp(page_, 0, std::max(0, pages - 1));
  const int seq_w = l.s(64), amount_w = l.s(120);
  for (int i = 0; i < rows; ++i) {
    const int k = page_ * rows + i;
    if (k >= static_cast<int>(shown.size())) break;
    const auto& p = *shown[static_cast<std::size_t>(k)];
    const Rect r{l.pad, top + i * line_h, l.width - 2 * l.pad, line_h - l.s(2)};
    fb.fill(r, i % 2 ? Palette::background : Palette::panel);
    const bool correction = p.memo == rules::Memo::undo;
    fb.text({r.x + l.s(6), r.y, seq_w, r.h}, fmt::format("#{}", p.seq), FontFace::regular, l.font_small,
            Palette::muted);
    std::string sentence = Wording::posting(*game, p);
    if (correction) {
      const auto& reasons = ui.snapshot().undo_reasons;
      if (auto it = reasons.find(p.input); it != reasons.end()) sentence += " \u2014 " + it->second;
    }
    fb.text({r.x + seq_w + l.s(6), r.y, r.w - seq_w - amount_w - l.s(18), r.h}, sentence,
            correction ? FontFace::bold : FontFace::regular, l.font_body,
            correction ? Palette::highlight : Palette::text, Align::left, l.s(14));
    fb.text({r.right() - amount_w - l.s(6), r.y, amount_w, r.h}, Wording::money(*game, p.amount),
            FontFace::bold, l.font_body, Palette::text, Align::right);
  }
  if (shown.empty())
    fb.text({l.pad, top, l.width - 2 * l.pad, line_h}, "No postings match", FontFace::regular, l.font_body,
            Palette::muted);
  Widgets::pager(fb, "ledger.page", {l.pad, l.height - l.pad - pager_h, l.width - 2 * l.pad, pager_h}, page_,
                 pages);
  fb.text({l.pad + l.s(80), l.height - l.pad - pager_h, l.s(260), pager_h},
          fmt::format("{} postings", shown.size()), FontFace::regular, l.font_small, Palette::muted);
}

}  // namespace bb::display
