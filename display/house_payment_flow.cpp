#include "display/house_payment_flow.h"

#include <fmt/format.h>

#include <memory>
#include <vector>

#include "display/choice_dialog.h"
#include "display/keypad_dialog.h"
#include "display/widgets.h"

namespace bb::display {
namespace {
const std::vector<std::string> kReasons = {"Free Parking jackpot", "Lost a bet", "Loan repaid",
                                           "Agreed at the table"};

void ask_reason(UiContext& ui, rules::Account from, rules::Account to, rules::Money amount) {
  std::vector<ChoiceDialog::Choice> choices;
  for (const auto& r : kReasons) choices.push_back({r, {0, 0, 0, 0}});
  ui.open_dialog(
      std::make_unique<ChoiceDialog>("What is it for?", std::move(choices), [&ui, from, to, amount](int i) {
        ui.emit(RequestHousePayment{from, to, amount, kReasons[static_cast<std::size_t>(i)]});
        ui.cue(Cue::tap);
      }));
}

void ask_amount(UiContext& ui, rules::Account from, rules::Account to) {
  const auto* game = ui.snapshot().game;
  KeypadDialog::Request req;
  req.mode = KeypadDialog::Mode::amount;
  req.title = fmt::format("{} pays {}: how much?", game->account_name(from), game->account_name(to));
  req.on_amount = [&ui, from, to](rules::Money amount) { ask_reason(ui, from, to, amount); };
  ui.open_dialog(std::make_unique<KeypadDialog>(std::move(req)));
}
}  // namespace

void start_house_payment(UiContext& ui, rules::PlayerId player) {
  const auto* game = ui.snapshot().game;
  if (!game) return;
  const rules::PlayerId payer = player;
  std::vector<ChoiceDialog::Choice> choices;
  std::vector<std::pair<rules::Account, rules::Account>> payments;  // from, to
  const std::string who = game->account_name(payer);
  choices.push_back({fmt::format("{} pays the bank", who), Widgets::player_colour(ui.snapshot(), player)});
  payments.emplace_back(payer, rules::Account::bank());
  choices.push_back({fmt::format("The bank pays {}", who), Widgets::player_colour(ui.snapshot(), player)});
  payments.emplace_back(rules::Account::bank(), payer);
  for (rules::PlayerId other : game->state().players.ids()) {
    if (other == payer || game->state().players[other].bankrupt) continue;
    choices.push_back({fmt::format("{} pays {}", who, game->account_name(other)),
                       Widgets::player_colour(ui.snapshot(), other)});
    payments.emplace_back(payer, other);
  }
  ui.open_dialog(
      std::make_unique<ChoiceDialog>("House-rule payment", std::move(choices), [&ui, payments](int i) {
        const auto [from, to] = payments[static_cast<std::size_t>(i)];
        ask_amount(ui, from, to);
      }));
}

}  // namespace bb::display
