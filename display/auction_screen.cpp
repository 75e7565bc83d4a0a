#include "display/auction_screen.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "display/frame_builder.h"
#include "display/keypad_dialog.h"
#include "display/palette.h"
#include "display/ui_context.h"
#include "display/widgets.h"
#include "display/wording.h"
#include "rules/finance_1932.h"

namespace bb::display {

void AuctionScreen::track(UiContext& ui) {
  const auto& st = ui.snapshot().game->state();
  const auto& a = *st.auction;
  const std::string key =
      fmt::format("{}:{}:{}", static_cast<int>(a.item), rules::space_wire(a.space), st.turns);
  if (key != key_) {
    key_ = key;
    started_ms_ = ui.now_ms();
    bids_.clear();
    bidder_.reset();
  }
  if (a.high_bidder && (bids_.empty() || bids_.back() != std::make_pair(*a.high_bidder, a.high_bid)))
    bids_.emplace_back(*a.high_bidder, a.high_bid);
}

void AuctionScreen::bid(UiContext& ui, rules::PlayerId player, rules::Money amount) {
  ui.emit(ApplyInput{rules::Bid{player, amount}, {}, std::nullopt, {}});
}

bool AuctionScreen::on_card(const std::string& /*uid*/, std::optional<rules::PlayerId> player,
                            UiContext& ui) {
  const auto* game = ui.snapshot().game;
  if (!game || !game->state().auction) return false;
  if (!player) {
    ui.say("That card belongs to nobody in this game");
    return true;
  }
  // A card tap is the quickest bid: ten steps over the highest.
  const auto& a = *game->state().auction;
  bid(ui, *player, a.high_bid + 10 * std::max<rules::Money>(1, game->rules().bid_increment));
  bidder_ = *player;
  return true;
}

void AuctionScreen::build(FrameBuilder& fb, UiContext& ui) {
  const auto& l = fb.layout();
  fb.fill({0, 0, l.width, l.height}, Palette::background);
  const Rect body = Widgets::top_bar(fb, ui, "Auction");
  const auto* game = ui.snapshot().game;
  if (!game || !game->state().auction) {
    fb.text({0, body.y + l.s(40), l.width, l.s(40)}, "No auction is running", FontFace::bold, l.font_large,
            Palette::muted, Align::centre);
    return;
  }
  track(ui);
  const auto& st = game->state();
  const auto& a = *st.auction;
  const auto& snap = ui.snapshot();
  const rules::Money step = std::max<rules::Money>(1, game->rules().bid_increment);

  // The lot.
  const Rect lot{l.pad, body.y + l.pad, l.s(300) + (l.width - l.s(800)) / 3, body.h - 2 * l.pad};
  fb.fill(lot, Palette::panel);
  std::string lot_name = "a house";
  Colour band = Palette::panel_light;
  std::string price;
  if (a.item == rules::Auction::Item::hotel) lot_name = "a hotel";
  if (a.item == rules::Auction::Item::property && a.space) {
    const auto& sp = game->edition().spaces[*a.space];
    lot_name = sp.name;
    if (const auto* g = game->edition().group(sp.group)) band = Palette::parse_hex(g->colour);
    price = "Printed price " + Wording::money(*game, sp.price);
    // FINANCE (1932): "the Auctioneer must announce whether it is the 1st, 2nd or 3rd piece in that series".
    if (auto piece = game->series_piece(*a.space)) {
      price = rules::finance::piece_words(game->edition(), *a.space, *piece);
      if (!price.empty()) price[0] = static_cast<char>(price[0] - 'a' + 'A');
    }
  }
  const int pad = l.s(10);
  fb.fill({lot.x, lot.y, lot.w, l.s(12)}, band);
  fb.paragraph({lot.x + pad, lot.y + l.s(18), lot.w - 2 * pad, l.s(64)}, lot_name, FontFace::bold,
               l.font_large, Palette::text, Align::centre);
  fb.text({lot.x + pad, lot.y + l.s(84), lot.w - 2 * pad, l.s(24)}, price, FontFace::regular, l.font_small,
          Palette::muted, Align::centre);
  const int hb_y = lot.y + l.s(112);
  if (a.high_bidder) {
    fb.text({lot.x + pad, hb_y, lot.w - 2 * pad, l.s(48)}, Wording::money(*game, a.high_bid), FontFace::bold,
            l.font_huge + l.s(8), Palette::text, Align::centre);
    fb.fill({lot.x + pad, hb_y + l.s(52), lot.w - 2 * pad, l.s(32)},
            Widgets::player_colour(snap, *a.high_bidder));
    fb.text({lot.x + pad, hb_y + l.s(52), lot.w - 2 * pad, l.s(32)},
            fmt::format("{} is highest", game->account_name(*a.high_bidder)), FontFace::bold, l.font_body,
            Palette::text_on(Widgets::player_colour(snap, *a.high_bidder)), Align::centre);
  } else {
    fb.text({lot.x + pad, hb_y, lot.w - 2 * pad, l.s(48)}, "No bids yet", FontFace::bold, l.font_large,
            Palette::muted, Align::centre);
  }
  // The countdown: the edition's random deal timer, or the optional one from the settings.
  const int timer = a.timer_s > 0 ? a.timer_s : ui.settings().auction_countdown_s;
  if (timer > 0) {
    const auto elapsed = static_cast<int>((ui.now_ms() - started_ms_) / 1000);
    const int left = std::max(0, timer - elapsed);
    ui.set_ticking(left > 0);
    const Rect clock{lot.x + pad, lot.bottom() - pad - l.s(56), lot.w - 2 * pad, l.s(56)};
    fb.fill(clock, left > 0 ? Palette::background : Palette::danger);
    fb.text(clock, left > 0 ? fmt::format("{}:{:02}", left / 60, left % 60) : std::string("Time! Close it"),
            FontFace::bold, l.font_huge, Palette::text, Align::centre);
  }
  // Recent bids.
  const int bids_top = hb_y + l.s(92);
  const int bids_bottom = timer > 0 ? lot.bottom() - pad - l.s(60) : lot.bottom() - pad;
  int y = bids_top;
  for (auto it = bids_.rbegin(); it != bids_.rend() && y + l.s(24) <= bids_bottom; ++it) {
    fb.text({lot.x + pad, y, lot.w - 2 * pad, l.s(24)},
            fmt::format("{} bid {}", game->account_name(it->first), Wording::money(*game, it->second)),
            FontFace::regular, l.font_small, Palette::muted, Align::centre);
    y += l.s(24);
  }

  // Bidders and bids.
  const Rect right{lot.right() + l.pad, lot.y, l.width - lot.right() - 2 * l.pad, lot.h};
  fb.text({right.x, right.y, right.w, l.s(28)}, "Who bids? (or tap your card)", FontFace::bold, l.font_body,
          Palette::text);
  const int n = static_cast<int>(st.players.size());
  const int cols = n <= 4 ? 2 : 3;
  const int bw = (right.w - (cols - 1) * l.pad) / cols;
  const int bh = l.button_h;
  int row_y = right.y + l.s(32);
  if (bidder_ && (bidder_->number() >= n || st.players[*bidder_].bankrupt)) bidder_.reset();
  for (rules::PlayerId seat : st.players.ids()) {
    const int i = seat.number();
    const auto& p = st.players[seat];
    const Rect r{right.x + (i % cols) * (bw + l.pad), row_y + (i / cols) * (bh + l.pad), bw, bh};
    fb.button(
        fmt::format("auction.bidder.{}", i), r, p.name, Widgets::player_colour(snap, seat),
        [this, seat] { bidder_ = seat; }, !p.bankrupt, "Bankrupt players cannot bid");
    if (bidder_ == seat) fb.outline(r.inset(-3), Palette::text, l.s(4));
  }
  row_y += ((n + cols - 1) / cols) * (bh + l.pad) + l.s(4);
  const bool chosen = bidder_.has_value();
  const rules::Money steps[3] = {step, 10 * step, 50 * step};
  // Three raises and "Other" in a row where their labels fit, else two rows of two (a portrait screen).
  std::array<std::string, 4> labels{"", "", "", "Other"};
  for (int k = 0; k < 3; ++k)
    labels[static_cast<std::size_t>(k)] = Wording::money(*game, a.high_bid + steps[k]);
  const int quarter = (right.w - 3 * l.pad) / 4;
  const bool in_a_row =
      std::ranges::all_of(labels, [&](const std::string& s) { return fb.label_fits(quarter, bh, s); });
  const int per_row = in_a_row ? 4 : 2;
  const int qw = in_a_row ? quarter : (right.w - l.pad) / 2;
  auto place = [&](int k) -> Rect {
    return {right.x + (k % per_row) * (qw + l.pad), row_y + (k / per_row) * (bh + l.pad), qw, bh};
  };
  for (int k = 0; k < 3; ++k) {
    const rules::Money amount = a.high_bid + steps[k];
    fb.button(
        fmt::format("auction.raise.{}", k), place(k), Wording::money(*game, amount), Palette::primary,
        [this, &ui, amount] {
          if (bidder_) bid(ui, *bidder_, amount);
        },
        chosen, "First tap who bids");
  }
  const std::optional<rules::PlayerId> bidder = bidder_;
  fb.button(
      "auction.keypad", place(3), "Other", Palette::primary,
      [&ui, this, bidder] {
        if (!bidder) return;  // greyed until a bidder is chosen
        const rules::PlayerId who = *bidder;
        KeypadDialog::Request req;
        req.mode = KeypadDialog::Mode::amount;
        req.title = fmt::format("{} bids", ui.snapshot().game->account_name(who));
        req.on_amount = [this, &ui, who](rules::Money m) { bid(ui, who, m); };
        ui.open_dialog(std::make_unique<KeypadDialog>(std::move(req)));
      },
      chosen, "First tap who bids");
  // The auctioneer's close.
  const Rect close{right.x, right.bottom() - bh, right.w, bh};
  const std::string name = Wording::space_name(*game, a.space);
  const std::string question = a.high_bidder
                                   ? fmt::format("Sold to {} for {}?", game->account_name(*a.high_bidder),
                                                 Wording::money(*game, a.high_bid))
                                   : std::string("Close with no sale? The bank keeps it.");
  const std::optional<rules::PlayerId> payer = a.high_bidder;
  fb.button(
      "auction.close", close, a.high_bidder ? "Close: sold!" : "Close: no sale", Palette::danger,
      [&ui, question, payer] {
        ui.confirm({question, "Close", payer, ApplyInput{rules::Close{}, {}, std::nullopt, {}}, nullptr});
      });
}

}  // namespace bb::display
