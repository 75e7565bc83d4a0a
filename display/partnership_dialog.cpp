#include "display/partnership_dialog.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "display/frame_builder.h"
#include "display/palette.h"
#include "display/ui_context.h"
#include "display/widgets.h"

namespace bb::display {
namespace {

// The groups whose income may be shared: "Two players cannot share income on any other properties" than the
// railroads and the power companies.
std::vector<int> shareable_groups(const rules::Edition& ed) {
  std::vector<int> groups;
  for (int g = 0; g < static_cast<int>(ed.groups.size()); ++g) {
    const auto& members = ed.members_of(g);
    if (!members.empty() && std::all_of(members.begin(), members.end(), [&](rules::SpaceId s) {
          const auto kind = ed.spaces[s].kind;
          return kind == rules::Space::Kind::railroad || kind == rules::Space::Kind::utility;
        }))
      groups.push_back(g);
  }
  return groups;
}

}  // namespace

void PartnershipDialog::agree(UiContext& ui, int side) {
  const auto* game = ui.snapshot().game;
  if (!game) return;
  if (!holder_ || !partner_) return;  // build() chooses both before any button or card can agree
  const rules::Partner deal{*holder_, *partner_, group_, share_};
  if (auto why = game->why_not_partner(deal)) {
    ui.say(*why);
    ui.cue(Cue::refused);
    return;
  }
  agreed_[side] = true;
  if (!(agreed_[0] && agreed_[1])) return;
  ui.emit(ApplyInput{deal, {}, std::nullopt, {}});
  ui.cue(Cue::payment);
  ui.say("");
  ui.close_dialog();
}

bool PartnershipDialog::on_card(const std::string& /*uid*/, std::optional<rules::PlayerId> player,
                                UiContext& ui) {
  if (player && player == holder_) {
    agree(ui, 0);
  } else if (player && player == partner_) {
    agree(ui, 1);
  } else {
    ui.say("Only the holder's and the partner's cards agree to this partnership");
    ui.cue(Cue::refused);
  }
  return true;
}

void PartnershipDialog::build(FrameBuilder& fb, UiContext& ui) {
  const auto& l = fb.layout();
  const auto* game = ui.snapshot().game;
  if (!game) return;
  const auto& ed = game->edition();
  const auto& st = game->state();
  const int n = static_cast<int>(st.players.size());
  const std::vector<int> groups = shareable_groups(ed);
  if (groups.empty()) return;
  if (std::find(groups.begin(), groups.end(), group_) == groups.end()) group_ = groups.front();
  if (!holder_ || holder_->number() >= n) holder_ = st.current;
  if (!partner_ || partner_->number() >= n || partner_ == holder_)
    partner_ = rules::PlayerId{(holder_->number() + 1) % n};

  const Rect p = Widgets::dialog(fb, l.width - 2 * l.s(20), l.height - 2 * l.s(10));
  const int pad = l.s(12);
  const int label_w = l.s(150);
  fb.text({p.x + pad, p.y + l.s(6), p.w - 2 * pad, l.s(34)}, "Partnership: share the full income",
          FontFace::bold, l.font_large, Palette::text);
  int y = p.y + l.s(42);
  const int row_h = l.button_h;
  auto row_label = [&](const std::string& label) {
    fb.text({p.x + pad, y, label_w, row_h}, label, FontFace::bold, l.font_body, Palette::muted, Align::left,
            l.font_small);
  };
  const int choices_x = p.x + pad + label_w;
  const int choices_w = p.right() - pad - choices_x;

  row_label("Leases");
  {
    const int gw =
        (choices_w - (static_cast<int>(groups.size()) - 1) * l.s(8)) / static_cast<int>(groups.size());
    int x = choices_x;
    for (int g : groups) {
      const bool on = g == group_;
      fb.button(fmt::format("partner.group.{}", g), {x, y, gw, row_h},
                ed.groups[static_cast<std::size_t>(g)].name, on ? Palette::primary : Palette::panel_light,
                [this, g] {
                  group_ = g;
                  changed();
                });
      x += gw + l.s(8);
    }
  }
  y += row_h + l.s(8);

  // The players: one button each, their colour down its edge and the name beside it.
  auto player_row = [&](const char* id, const std::string& label, std::optional<rules::PlayerId>& chosen,
                        std::optional<rules::PlayerId>& other) {
    row_label(label);
    const int pw = (choices_w - (n - 1) * l.s(6)) / std::max(1, n);
    for (rules::PlayerId seat : st.players.ids()) {
      const int i = seat.number();
      const Rect r{choices_x + i * (pw + l.s(6)), y, pw, row_h};
      const bool out = st.players[seat].bankrupt;
      fb.swatch_button(
          fmt::format("partner.{}.{}", id, i), r, Widgets::player_colour(ui.snapshot(), seat),
          st.players[seat].name, seat == chosen ? Palette::primary : Palette::panel_light,
          [this, seat, &chosen, &other] {
            if (seat == other) other = chosen;  // choosing the other side's player swaps the two
            chosen = seat;
            changed();
          },
          !out, "That player is out of the game");
    }
    y += row_h + l.s(8);
  };
  player_row("holder", "Holder", holder_, partner_);
  player_row("partner", "Partner", partner_, holder_);

  // The split: the partner's share of every income, in steps.
  row_label("Split");
  {
    const int bw = l.s(70);
    fb.button(
        "partner.share.minus", {choices_x, y, bw, row_h}, "\u2212", Palette::panel_light,
        [this] {
          share_ = std::max(kShareStep, share_ - kShareStep);
          changed();
        },
        share_ > kShareStep, "The partner's share is at least 5%");
    const std::string holder = st.players[*holder_].name;
    const std::string partner = st.players[*partner_].name;
    fb.text({choices_x + bw + l.s(8), y, choices_w - 2 * bw - l.s(16), row_h},
            fmt::format("{} {}% \u00B7 {} {}%", holder, 100 - share_, partner, share_), FontFace::bold,
            l.font_large, Palette::text, Align::centre, l.font_small);
    fb.button(
        "partner.share.plus", {choices_x + choices_w - bw, y, bw, row_h}, "+", Palette::panel_light,
        [this] {
          share_ = std::min(100, share_ + kShareStep);
          changed();
        },
        share_ < 100, "The partner's share is at most the whole income");
  }
  y += row_h + l.s(4);

  // What the deal means, in the text's words, or why the rules refuse it.
  const rules::Partner deal{*holder_, *partner_, group_, share_};
  const auto why = game->why_not_partner(deal);
  const std::string holder = st.players[*holder_].name;
  const std::string partner = st.players[*partner_].name;
  const std::string note =
      why ? *why
          : fmt::format(
                "{} hands the leases to {}, who holds them all and guarantees {}% of every income; the "
                "leases never change hands again.",
                partner, holder, share_);
  const int agree_top = p.bottom() - pad - l.button_h;
  fb.paragraph({p.x + pad, y, p.w - 2 * pad, agree_top - y - l.s(4)},
               ui.message().empty() ? note : ui.message(), FontFace::regular, l.font_small,
               why || !ui.message().empty() ? Palette::highlight : Palette::muted);

  // Both agree: by card where a reader works, else on the screen.
  const int cancel_w = l.s(130);
  fb.button("partner.cancel", {p.x + pad, agree_top, cancel_w, l.button_h}, "Cancel", Palette::panel_light,
            [&ui] {
              ui.say("");
              ui.close_dialog();
            });
  const int aw = (p.w - 3 * pad - cancel_w - l.s(8)) / 2;
  const rules::PlayerId sides[2] = {*holder_, *partner_};
  for (int side = 0; side < 2; ++side) {
    const std::string who = st.players[sides[side]].name;
    const Rect r{p.x + 2 * pad + cancel_w + side * (aw + l.s(8)), agree_top, aw, l.button_h};
    if (agreed_[side]) {
      fb.fill(r, Palette::accept);
      fb.text(r, who + " agreed \u2713", FontFace::bold, l.font_body, Palette::text, Align::centre,
              l.font_small);
    } else if (ui.cards_confirm()) {
      const Colour c = Widgets::player_colour(ui.snapshot(), sides[side]);
      fb.fill(r, c);
      fb.text(r.inset(l.s(4)), who + ": tap your card", FontFace::bold, l.font_body, Palette::text_on(c),
              Align::centre, l.font_small);
    } else {
      fb.button(
          fmt::format("partner.agree.{}", side == 0 ? "holder" : "partner"), r, who + " agrees",
          Palette::accept, [this, &ui, side] { agree(ui, side); }, !why, why.value_or(""));
    }
  }
}

}  // namespace bb::display
