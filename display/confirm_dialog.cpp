#include "display/confirm_dialog.h"

#include <fmt/format.h>

#include "display/frame_builder.h"
#include "display/palette.h"
#include "display/widgets.h"

namespace bb::display {

void ConfirmDialog::build(FrameBuilder& fb, UiContext& ui) {
  const auto& l = fb.layout();
  // Lines under the question (each lot of a sale) make the dialog taller; the question and buttons keep
  // their places.
  const int line_h = l.s(30);
  const int lines_h = static_cast<int>(request_.details.size()) * line_h;
  const Rect p = Widgets::dialog(fb, l.s(600), l.s(300) + lines_h + (lines_h > 0 ? l.s(8) : 0));
  const int pad = l.s(16);
  fb.paragraph({p.x + pad, p.y + pad, p.w - 2 * pad, l.s(100)}, request_.question, FontFace::bold,
               l.font_large, Palette::text, Align::centre);
  int below = p.y + pad + l.s(100);
  if (!request_.details.empty()) {
    fb.fill({p.x + pad, below, p.w - 2 * pad, lines_h + l.s(8)}, Palette::panel_light);
    for (std::size_t i = 0; i < request_.details.size(); ++i)
      fb.text({p.x + pad + l.s(10), below + l.s(4) + static_cast<int>(i) * line_h, p.w - 2 * pad - l.s(20),
               line_h},
              request_.details[i], FontFace::regular, l.font_body, Palette::text, Align::left, l.font_small);
    below += lines_h + l.s(8);
  }
  const bool by_card = ui.cards_confirm() && request_.payer;
  if (by_card) {
    const auto* game = ui.snapshot().game;
    const std::string who = game ? game->account_name(*request_.payer) : "Player";
    const Rect hint{p.x + pad, below + l.s(8), p.w - 2 * pad, l.s(40)};
    fb.fill(hint, Widgets::player_colour(ui.snapshot(), *request_.payer));
    fb.text(hint.inset(l.s(4)), fmt::format("{}, tap your card to confirm", who), FontFace::bold, l.font_body,
            Palette::text_on(Widgets::player_colour(ui.snapshot(), *request_.payer)), Align::centre);
  }
  if (!ui.message().empty())
    fb.text({p.x + pad, below + l.s(52), p.w - 2 * pad, l.s(30)}, ui.message(), FontFace::bold, l.font_small,
            Palette::highlight, Align::centre);
  const bool by_card_only = ui.cards_confirm() && request_.payer;
  const int bw = (p.w - 3 * pad) / 2;
  const Rect cancel{by_card_only ? p.x + (p.w - bw) / 2 : p.x + pad, p.bottom() - pad - l.button_h, bw,
                    l.button_h};
  fb.button("confirm.cancel", cancel, "Cancel", Palette::panel_light, [&ui] {
    ui.say("Cancelled");
    ui.close_dialog();
  });
  if (!by_card) {
    const Rect ok{cancel.right() + pad, cancel.y, bw, l.button_h};
    fb.button("confirm.ok", ok, request_.confirm_label.empty() ? "Confirm" : request_.confirm_label,
              Palette::accept, [this, &ui] { accept(ui, std::nullopt); });
  }
}

bool ConfirmDialog::on_card(const std::string& /*uid*/, std::optional<rules::PlayerId> player,
                            UiContext& ui) {
  if (!request_.payer) return false;
  if (player != request_.payer) {
    const auto* game = ui.snapshot().game;
    if (game && player)
      ui.say(fmt::format("That is {}'s card: {} must tap", game->account_name(*player),
                         game->account_name(*request_.payer)));
    else
      ui.say("That card belongs to nobody in this game");
    ui.cue(Cue::refused);
    return true;
  }
  accept(ui, player);
  return true;
}

void ConfirmDialog::accept(UiContext& ui, std::optional<rules::PlayerId> confirmed_by) {
  ApplyInput action = request_.action;
  action.confirmed_by = confirmed_by;
  auto after = request_.after;
  ui.emit(std::move(action));
  ui.cue(Cue::payment);
  ui.say("");
  ui.close_dialog();
  if (after) after();
}

}  // namespace bb::display
