#pragma once
#include "display/ui_context.h"

namespace bb::display {

// A payment outside the rules (the Free Parking jackpot and the like), entered on the screen: who pays whom
// (this player and the bank or another player), the amount, the reason. It goes out as RequestHousePayment;
// the table then waits for the payer's card (the banker's for a payout from the bank).
void start_house_payment(UiContext& ui, rules::PlayerId player);

}  // namespace bb::display
