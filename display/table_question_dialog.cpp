#include "display/table_question_dialog.h"

#include <fmt/format.h>

#include "display/choice_dialog.h"
#include "display/dice_dialog.h"
#include "display/frame_builder.h"
#include "display/keypad_dialog.h"
#include "display/palette.h"
#include "display/widgets.h"

namespace bb::display {
namespace {
constexpr std::size_t kButtonsShown = 4;  // more options (the cards of a deck) go to a list

// Asks for the banker's PIN, then answers with `value` + ";" + the PIN.
void ask_pin(UiContext& ui, const TableQuestion& q, const std::string& option, const std::string& value) {
  KeypadDialog::Request req;
  req.mode = KeypadDialog::Mode::pin;
  req.title = "Banker: PIN or card";
  const std::string id = q.id;
  req.on_pin = [&ui, id, option, value](const std::string& pin) -> std::string {
    ui.emit(AnswerQuestion{id, option, value.empty() ? pin : value + ";" + pin});
    ui.cue(Cue::tap);
    ui.close_dialog();
    return {};
  };
  ui.open_dialog(std::make_unique<KeypadDialog>(std::move(req)));
}
}  // namespace

void TableQuestionDialog::choose(UiContext& ui, const TableQuestion& question,
                                 const TableQuestion::Option& option) {
  const std::string id = question.id;
  const std::string key = option.key;
  if (option.needs_dice) {
    const TableQuestion q = question;
    const bool pin = option.needs_pin;
    // The question's player, or the first (the table's "the dice were wrong" is asked of nobody in
    // particular; the dialog only shows a name).
    const rules::PlayerId player = question.player.value_or(rules::PlayerId{0});
    ui.open_dialog(std::make_unique<DiceDialog>(player, [&ui, q, key, pin](int d1, int d2) {
      const std::string dice = fmt::format("{},{}", d1, d2);
      if (pin)
        ask_pin(ui, q, key, dice);
      else
        ui.emit(AnswerQuestion{q.id, key, dice});
    }));
    return;
  }
  if (option.needs_pin) {
    ask_pin(ui, question, key, {});
    return;
  }
  ui.emit(AnswerQuestion{id, key, {}});
  ui.cue(Cue::tap);
  ui.close_dialog();
}

void TableQuestionDialog::build(FrameBuilder& fb, UiContext& ui) {
  const auto& l = fb.layout();
  const Rect p = Widgets::dialog(fb, l.s(640), l.s(400));
  const int pad = l.s(16);
  fb.text({p.x + pad, p.y + pad, p.w - 2 * pad, l.s(36)}, question_.title, FontFace::bold, l.font_large,
          Palette::text);
  fb.paragraph({p.x + pad, p.y + pad + l.s(44), p.w - 2 * pad, l.s(84)}, question_.text, FontFace::regular,
               l.font_body, Palette::text);
  int y = p.y + pad + l.s(132);
  // Who answers by card, where a card answers it.
  const bool by_card = ui.cards_confirm() && (question_.player || question_.banker);
  if (by_card) {
    const auto* game = ui.snapshot().game;
    const std::string who = question_.banker ? std::string("Banker")
                            : game           ? game->account_name(*question_.player)
                                             : std::string("Player");
    const Colour bg =
        question_.banker ? Palette::panel_light : Widgets::player_colour(ui.snapshot(), *question_.player);
    const Rect hint{p.x + pad, y, p.w - 2 * pad, l.s(40)};
    fb.fill(hint, bg);
    fb.text(hint.inset(l.s(4)), fmt::format("{}, tap your card", who), FontFace::bold, l.font_body,
            Palette::text_on(bg), Align::centre);
    y += l.s(46);
  }
  if (!ui.message().empty())
    fb.text({p.x + pad, y, p.w - 2 * pad, l.s(30)}, ui.message(), FontFace::bold, l.font_small,
            Palette::highlight, Align::centre);
  // The options: up to four buttons in two rows; a longer list (a deck's cards) behind one button.
  const auto& options = question_.options;
  const int bw = (p.w - 3 * pad) / 2;
  const int bottom = p.bottom() - pad;
  if (options.size() > kButtonsShown) {
    std::vector<ChoiceDialog::Choice> choices;
    for (const auto& o : options) choices.push_back({o.label, {0, 0, 0, 0}});
    fb.button(
        "question.list", {p.x + pad, bottom - l.button_h, p.w - 2 * pad, l.button_h},
        fmt::format("Choose ({} answers)\u2026", options.size()), Palette::primary, [this, &ui, choices] {
          const TableQuestion q = question_;
          ui.open_dialog(std::make_unique<ChoiceDialog>(
              q.title, choices, [&ui, q](int i) { choose(ui, q, q.options[static_cast<std::size_t>(i)]); }));
        });
    return;
  }
  for (std::size_t i = 0; i < options.size(); ++i) {
    const int row = static_cast<int>((options.size() - 1) / 2 - i / 2);  // the first options on top
    const int col = static_cast<int>(i % 2);
    const bool alone = options.size() % 2 == 1 && i == options.size() - 1;
    const Rect r{p.x + pad + col * (bw + pad), bottom - l.button_h - row * (l.button_h + l.s(8)),
                 alone ? p.w - 2 * pad : bw, l.button_h};
    const auto option = options[i];
    fb.button(fmt::format("question.{}", option.key), r, option.label,
              i == 0 ? Palette::accept : Palette::panel_light,
              [this, &ui, option] { choose(ui, question_, option); });
  }
}

bool TableQuestionDialog::on_card(const std::string& /*uid*/, std::optional<rules::PlayerId> /*player*/,
                                  UiContext& ui) {
  // The table answers its questions from card taps itself; a card reaching the screen now is not the answer.
  ui.say(fmt::format("First: {}", question_.title));
  ui.cue(Cue::refused);
  return true;
}

}  // namespace bb::display
