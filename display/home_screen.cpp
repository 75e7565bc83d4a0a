#include "display/home_screen.h"

#include <fmt/format.h>

#include <algorithm>

#include "display/choice_dialog.h"
#include "display/dice_dialog.h"
#include "display/frame_builder.h"
#include "display/palette.h"
#include "display/partnership_dialog.h"
#include "display/ui_context.h"
#include "display/widgets.h"
#include "display/wording.h"

namespace bb::display {
namespace {

struct QuestionChoice {
  std::string id, label;
  Colour colour;
  std::function<void()> tap;
};

void draw_die(FrameBuilder& fb, Rect r, int value) {
  fb.fill(r, {250, 250, 250});
  if (value < 1 || value > 6) {
    fb.text(r, "?", FontFace::bold, r.h * 2 / 3, {40, 40, 40}, Align::centre);
    return;
  }
  const int d = std::max(4, r.w / 5);
  auto pip = [&](int gx, int gy) {  // grid -1..1
    const int cx = r.cx() + gx * r.w * 3 / 10, cy = r.cy() + gy * r.h * 3 / 10;
    fb.circle({cx - d / 2, cy - d / 2, d, d}, {20, 20, 20});
  };
  if (value % 2 == 1) pip(0, 0);
  if (value >= 2) pip(-1, -1), pip(1, 1);
  if (value >= 4) pip(1, -1), pip(-1, 1);
  if (value == 6) pip(-1, 0), pip(1, 0);
}

// FINANCE (1932), before the throw: jail insurance, a partnership, the Auctioneer's early sale; each offered
// only where the rules would accept it now.
void add_finance_choices(const rules::Game& game, UiContext& ui, rules::PlayerId player,
                         std::vector<QuestionChoice>& choices) {
  const auto& r = game.rules();
  const std::string name = game.account_name(player);
  const std::string& jail = game.edition().words.jail;
  if (r.jail_insurance > 0 || r.jail_insurance_card > 0) {
    // "Players may insure against going to Jail by paying $25 to the Bank on approaching the "Go to Jail"
    // corner. The $25 must be paid before throwing the dice." "$5 insures against going to jail by a Chance
    // card."
    std::vector<ChoiceDialog::Choice> kinds;
    std::vector<bool> against_card;
    std::vector<std::string> questions;
    for (bool card : {false, true}) {
      const rules::Money cost = card ? r.jail_insurance_card : r.jail_insurance;
      if (cost == 0 || game.why_not_insure(player, card)) continue;
      kinds.push_back({card
                           ? fmt::format("Against a Go to {} card: {}", jail, Wording::money(game, cost))
                           : fmt::format("Against the Go to {} corner: {}", jail, Wording::money(game, cost)),
                       Colour{0, 0, 0, 0}});
      against_card.push_back(card);
      questions.push_back(fmt::format("{} pays {} to insure against going to {} {}?", name,
                                      Wording::money(game, cost), jail,
                                      card ? "by a card" : "from the corner, before throwing"));
    }
    if (!kinds.empty())
      choices.push_back(
          {"home.insure", fmt::format("Insure against {}", jail), Palette::accept,
           [&ui, kinds, against_card, questions, player, jail] {
             ui.open_dialog(std::make_unique<ChoiceDialog>(
                 fmt::format("Insure against {} for this throw", jail), kinds,
                 [&ui, against_card, questions, player](int i) {
                   const auto at = static_cast<std::size_t>(i);
                   ui.confirm({questions[at], "Insure", player,
                               ApplyInput{rules::Insure{player, against_card[at]}, {}, std::nullopt, {}},
                               nullptr});
                 }));
           }});
  }
  if (r.partnerships)
    choices.push_back({"home.partner", "Partnership", Palette::primary,
                       [&ui] { ui.open_dialog(std::make_unique<PartnershipDialog>()); }});
  if (r.early_lease_sale_max > 0)
    if (auto lease = game.lease_to_sell_early()) {
      // "The Auctioneer may sell the last 3 or 4 properties without waiting for them to be stopped on if
      // their non-sale delays the game. ... Sell the lowest number first." The table agrees; the screen
      // confirms.
      const std::string lot = Wording::space_name(game, *lease);
      choices.push_back({"home.sell_lease", "Sell a lease early", Palette::primary, [&ui, lot] {
                           ui.confirm({fmt::format("Auction {} now, the lowest lease unsold?", lot),
                                       "Auction it", std::nullopt,
                                       ApplyInput{rules::AuctionLease{}, {}, std::nullopt, {}}, nullptr});
                         }});
    }
}

}  // namespace

void HomeScreen::build(FrameBuilder& fb, UiContext& ui) {
  const auto& l = fb.layout();
  fb.fill({0, 0, l.width, l.height}, Palette::background);
  if (!ui.snapshot().game) {
    build_no_game(fb, ui);
    return;
  }
  const int players_bottom = build_players(fb, ui);
  const int nav_top = build_nav(fb, ui);
  const int question_h = l.s(128);
  const int question_top = nav_top - l.pad - question_h;
  build_dice_and_news(fb, ui, players_bottom + l.pad, question_top - l.pad);
  build_question(fb, ui, question_top, question_top + question_h);
}

void HomeScreen::build_no_game(FrameBuilder& fb, UiContext& ui) {
  const auto& l = fb.layout();
  fb.text({0, l.s(40), l.width, l.s(60)}, "boardbank", FontFace::bold, l.font_huge * 3 / 2, Palette::text,
          Align::centre);
  fb.text({0, l.s(110), l.width, l.s(40)}, ui.message().empty() ? "No game is running" : ui.message(),
          FontFace::regular, l.font_large, ui.message().empty() ? Palette::muted : Palette::highlight,
          Align::centre);
  const int w = l.s(300);
  int y = l.s(180);
  fb.button("home.setup", {(l.width - w) / 2, y, w, l.button_h + l.s(8)}, "Set up a new game",
            Palette::primary, [&ui] { ui.go(ScreenId::setup); });
  y += l.button_h + l.s(8) + l.pad * 2;
  if (ui.snapshot().unfinished_game)
    fb.button("home.resume", {(l.width - w) / 2, y, w, l.button_h + l.s(8)}, "Resume the last game",
              Palette::accept, [&ui] { ui.emit(ResumeGame{}); });
  y += l.button_h + l.s(8) + l.pad * 2;
  fb.button("nav.devices", {(l.width - w) / 2, y, w, l.button_h}, "Devices", Palette::panel_light,
            [&ui] { ui.go(ScreenId::devices); });
}

int HomeScreen::build_players(FrameBuilder& fb, UiContext& ui) {
  const auto& l = fb.layout();
  const auto& snap = ui.snapshot();
  const auto& game = *snap.game;
  const auto& st = game.state();
  const int n = static_cast<int>(st.players.size());
  // At most four cards side by side, each wide enough for a name beside its badge and turn mark (a portrait
  // screen holds two a row).
  const int most_per_row = std::clamp((l.width - l.pad) / (l.s(180) + l.pad), 1, 4);
  const int rows = (n + most_per_row - 1) / std::max(1, most_per_row);
  const int per_row = (n + rows - 1) / rows;
  const int card_h = rows == 1 ? l.s(100) : l.s(72);
  const int card_w = (l.width - (per_row + 1) * l.pad) / std::max(1, per_row);
  for (rules::PlayerId seat : st.players.ids()) {
    const int i = seat.number();
    const auto& p = st.players[seat];
    const Rect r{l.pad + (i % per_row) * (card_w + l.pad), l.pad + (i / per_row) * (card_h + l.pad), card_w,
                 card_h};
    const bool turn = seat == st.current && !st.ended;
    const Colour c = Widgets::player_colour(snap, seat);
    fb.fill(r, p.bankrupt ? Palette::disabled : Palette::panel);
    const int stripe = l.s(10);
    fb.fill({r.x, r.y, stripe, r.h}, c);
    if (turn) fb.outline(r, Palette::highlight, l.s(4));
    const int inner_x = r.x + stripe + l.s(8);
    const int inner_w = r.right() - inner_x - l.s(8);
    const int badge = rows == 1 ? l.s(30) : l.s(26);
    const int name_h = rows == 1 ? l.s(34) : l.s(28);
    Widgets::player_badge(fb, {inner_x, r.y + l.s(6) + (name_h - badge) / 2, badge, badge}, snap, seat);
    std::string tag;
    const std::string standing = st.ended ? Wording::standing(game, seat) : std::string();
    if (!standing.empty())
      tag = standing;  // "winner", "tie" or "bankrupt" once the game is over
    else if (p.bankrupt)
      tag = "bankrupt";
    else if (p.in_jail)
      tag = "in " + game.edition().words.jail;
    else if (turn)
      tag = "\u25B6 turn";
    const int tag_w =
        tag.empty() ? 0 : std::min(inner_w / 3, fb.measure().measure(tag, FontFace::bold, l.font_small).w);
    fb.text({inner_x + badge + l.s(6), r.y + l.s(6), inner_w - badge - l.s(6) - tag_w - l.s(4), name_h},
            p.name, FontFace::bold, l.font_body, Palette::text, Align::left, l.s(14));
    if (!tag.empty())
      fb.text({r.right() - l.s(8) - tag_w, r.y + l.s(6), tag_w, name_h}, tag, FontFace::bold, l.font_small,
              turn || standing == "winner" || standing == "tie" ? Palette::highlight : Palette::muted,
              Align::right, l.s(12));
    const int money_top = r.y + l.s(6) + name_h;
    fb.text({inner_x, money_top, inner_w, r.bottom() - money_top - l.s(4)}, Wording::money(game, p.cash),
            FontFace::bold, rows == 1 ? l.font_huge + l.s(6) : l.font_huge,
            p.bankrupt ? Palette::muted : Palette::text, Align::left, l.font_body);
    fb.area(fmt::format("home.player.{}", i), r, [&ui, seat] {
      ui.focus_player(seat);
      ui.go(ScreenId::properties);
    });
  }
  return l.pad + rows * card_h + (rows - 1) * l.pad;
}

void HomeScreen::build_dice_and_news(FrameBuilder& fb, UiContext& ui, int top, int bottom) {
  const auto& l = fb.layout();
  const auto& game = *ui.snapshot().game;
  const auto& st = game.state();
  const int h = bottom - top;
  const int left_w = l.s(200);
  fb.fill({l.pad, top, left_w, h}, Palette::panel);
  const int die = std::min(l.s(60), h - l.s(44));
  const int dice_y = top + l.s(8);
  draw_die(fb, {l.pad + left_w / 2 - die - l.s(6), dice_y, die, die}, st.last_d1);
  draw_die(fb, {l.pad + left_w / 2 + l.s(6), dice_y, die, die}, st.last_d2);
  const std::string thrown = st.last_d1 > 0 ? fmt::format("threw {}{}", st.last_d1 + st.last_d2,
                                                          st.last_d1 == st.last_d2 ? ", doubles" : "")
                                            : std::string("no throw yet");
  fb.text({l.pad + l.s(6), dice_y + die + l.s(4), left_w - l.s(12), bottom - dice_y - die - l.s(8)}, thrown,
          FontFace::regular, l.font_body, Palette::muted, Align::centre);

  const Rect news{l.pad * 2 + left_w, top, l.width - 3 * l.pad - left_w, h};
  fb.fill(news, Palette::panel);
  const int line_h = l.s(30);
  if (st.ended) {
    build_standings(fb, ui, news, line_h);
    return;
  }
  int y = news.y + l.s(4);
  if (!ui.message().empty()) {
    fb.text({news.x + l.s(10), y, news.w - l.s(20), line_h}, ui.message(), FontFace::bold, l.font_body,
            Palette::highlight);
    y += line_h;
  }
  const int lines = std::max(0, (news.bottom() - y - l.s(4)) / line_h);
  const auto& postings = st.postings;
  int shown = 0;
  for (auto it = postings.rbegin(); it != postings.rend() && shown < lines; ++it, ++shown) {
    fb.text({news.x + l.s(10), y, news.w - l.s(20), line_h}, Wording::posting(game, *it), FontFace::regular,
            l.font_body, shown == 0 ? Palette::text : Palette::muted, Align::left, l.font_body);
    y += line_h;
  }
  if (postings.empty())
    fb.text({news.x + l.s(10), y, news.w - l.s(20), line_h}, "No payments yet", FontFace::regular,
            l.font_body, Palette::muted);
}

// The final standings: every player by worth as the edition values it, the winners marked, a tie said.
void HomeScreen::build_standings(FrameBuilder& fb, UiContext& ui, Rect panel, int line_h) {
  const auto& l = fb.layout();
  const auto& game = *ui.snapshot().game;
  const auto& st = game.state();
  std::vector<rules::PlayerId> order;
  for (rules::PlayerId p : st.players.ids()) order.push_back(p);
  // Winners first, then the others still in the game by worth, the bankrupt last.
  auto rank = [&](rules::PlayerId p) {
    const std::string s = Wording::standing(game, p);
    return s == "winner" || s == "tie" ? 0 : s == "bankrupt" ? 2 : 1;
  };
  std::stable_sort(order.begin(), order.end(), [&](rules::PlayerId a, rules::PlayerId b) {
    if (rank(a) != rank(b)) return rank(a) < rank(b);
    return game.worth(a) > game.worth(b);
  });
  int y = panel.y + l.s(4);
  fb.text({panel.x + l.s(10), y, panel.w - l.s(20), line_h},
          st.winners.size() > 1 ? "Final standings: a tie" : "Final standings", FontFace::bold, l.font_body,
          Palette::text);
  y += line_h;
  const int money_w = l.s(130), tag_w = l.s(110);
  int place = 0;
  for (std::size_t k = 0; k < order.size() && y + line_h <= panel.bottom(); ++k) {
    const rules::PlayerId p = order[k];
    const auto& pl = st.players[p];
    // Equal winners share first place.
    if (k == 0 || rank(p) != 0) place = static_cast<int>(k) + 1;
    const std::string standing = Wording::standing(game, p);
    const bool won = standing == "winner" || standing == "tie";
    const Colour colour = won ? Palette::highlight : pl.bankrupt ? Palette::muted : Palette::text;
    const int x = panel.x + l.s(10);
    fb.text({x, y, l.s(34), line_h}, pl.bankrupt ? "-" : fmt::format("{}.", place), FontFace::bold,
            l.font_body, colour);
    fb.fill({x + l.s(36), y + l.s(6), l.s(8), line_h - l.s(12)}, Widgets::player_colour(ui.snapshot(), p));
    fb.text({x + l.s(50), y, panel.w - l.s(80) - money_w - tag_w, line_h}, pl.name, FontFace::bold,
            l.font_body, colour, Align::left, l.s(12));
    fb.text({panel.right() - l.s(10) - tag_w - money_w, y, money_w, line_h},
            pl.bankrupt ? std::string() : Wording::money(game, game.worth(p)), FontFace::regular, l.font_body,
            colour, Align::right);
    fb.text({panel.right() - l.s(10) - tag_w, y, tag_w, line_h}, standing, FontFace::bold, l.font_small,
            colour, Align::right);
    y += line_h;
  }
}

void HomeScreen::build_question(FrameBuilder& fb, UiContext& ui, int top, int bottom) {
  const auto& l = fb.layout();
  const auto& game = *ui.snapshot().game;
  const auto& st = game.state();
  const Rect panel{l.pad, top, l.width - 2 * l.pad, bottom - top};
  fb.fill(panel, Palette::panel_light);
  const int pad = l.s(10);
  const Rect buttons{panel.x + pad, panel.bottom() - pad - l.button_h, panel.w - 2 * pad, l.button_h};
  const Rect text_box{panel.x + pad, panel.y + l.s(6), panel.w - 2 * pad, buttons.y - panel.y - l.s(10)};

  std::vector<QuestionChoice> choices;
  std::string text;
  bool payment = false;              // an option moves money: say how it will be confirmed
  rules::PlayerId who = st.current;  // whose colour marks the question

  if (st.ended) {
    text = Wording::game_over(game);
    choices.push_back(
        {"home.charts", "See the charts", Palette::primary, [&ui] { ui.go(ScreenId::charts); }});
  } else if (st.auction) {
    const auto& a = *st.auction;
    const std::string lot = a.item == rules::Auction::Item::property ? Wording::space_name(game, a.space)
                            : a.item == rules::Auction::Item::house  ? "a house"
                                                                     : "a hotel";
    text = a.high_bidder ? fmt::format("Auction of {}: {} bids {}", lot, game.account_name(*a.high_bidder),
                                       Wording::money(game, a.high_bid))
                         : fmt::format("Auction of {}: no bids yet", lot);
    choices.push_back(
        {"home.auction", "Open the auction", Palette::primary, [&ui] { ui.go(ScreenId::auction); }});
  } else if (!st.pending.empty()) {
    const auto& q = st.pending.front();
    who = q.player;
    text = Wording::question(game, q);
    const rules::PlayerId player = q.player;
    const auto kind = q.kind;
    if (kind == rules::QuestionKind::draft) {
      // The draft page: every set still free, with its deeds and colour, one tap to choose it.
      std::vector<ChoiceDialog::Choice> sets;
      for (const auto& opt : q.options) {
        const auto* group = game.edition().group(std::string(game.option_name(opt)));
        sets.push_back(
            {Wording::option(game, q, opt), group ? Palette::parse_hex(group->colour) : Colour{0, 0, 0, 0}});
      }
      const rules::QuestionOptions offered = q.options;
      const std::string title = Wording::question(game, q);
      // Taking a set is the chooser's decision: confirmed by their card, like a purchase.
      std::vector<std::string> questions;
      for (const auto& opt : q.options)
        questions.push_back(
            fmt::format("{} takes {}?", game.account_name(player), Wording::option(game, q, opt)));
      choices.push_back(
          {"home.draft", fmt::format("Choose a set ({} left)", offered.size()), Palette::primary,
           [&ui, sets, offered, title, questions, player] {
             ui.open_dialog(
                 std::make_unique<ChoiceDialog>(title, sets, [&ui, offered, questions, player](int i) {
                   const auto at = static_cast<std::size_t>(i);
                   ui.confirm({questions[at], "Take this set", player,
                               ApplyInput{rules::Choose{player, offered[at]}, {}, std::nullopt, {}},
                               nullptr});
                 }));
           }});
    }
    for (const auto& option : kind == rules::QuestionKind::draft ? rules::QuestionOptions{} : q.options) {
      using rules::Answer;
      const std::string opt(game.option_name(option));
      const rules::Choose choose{player, option};
      const std::string label = Wording::option(game, q, option);
      const bool pays = rules::moves_money(option.answer);
      payment = payment || pays;
      if (rules::is_throw(option.answer)) {
        choices.push_back({"home.option.roll", label, Palette::primary,
                           [&ui, player] { ui.open_dialog(std::make_unique<DiceDialog>(player)); }});
      } else if (pays) {
        const std::string name = game.account_name(player);
        std::string question = fmt::format("{}: {}?", name, label);
        if (option.answer == Answer::buy)
          question = fmt::format("{} buys {} for {}?", name, Wording::space_name(game, q.space),
                                 Wording::money(game, q.amount));
        else if (option.answer == Answer::pay_fine)
          question = fmt::format("{} pays {} to leave {}?", name, Wording::money(game, q.amount),
                                 game.edition().words.jail);
        else if (option.answer == Answer::lift)
          question =
              fmt::format("{} lifts the mortgage on {} now?", name, Wording::space_name(game, q.space));
        else if (option.answer == Answer::keep)
          question = fmt::format("{} keeps {} mortgaged and pays the interest?", name,
                                 Wording::space_name(game, q.space));
        choices.push_back(
            {"home.option." + opt, label, Palette::accept, [&ui, choose, label, question, player] {
               ui.confirm({question, label, player, ApplyInput{choose, {}, std::nullopt, {}}, nullptr});
             }});
      } else {
        choices.push_back({"home.option." + opt, label, Palette::primary, [&ui, choose] {
                             ui.emit(ApplyInput{choose, {}, std::nullopt, {}});
                           }});
      }
    }
    if (kind == rules::QuestionKind::debt) {
      choices.push_back({"home.debt.properties", "Sell or mortgage", Palette::primary, [&ui, player] {
                           ui.focus_player(player);
                           ui.go(ScreenId::properties);
                         }});
      choices.push_back({"home.debt.trade", "Trade", Palette::primary, [&ui, player] {
                           ui.focus_player(player);
                           ui.go(ScreenId::trade);
                         }});
      const std::string name = game.account_name(player);
      choices.push_back({"home.debt.bankrupt", "Go bankrupt", Palette::danger, [&ui, player, name] {
                           ui.confirm({fmt::format("{} gives up and goes bankrupt?", name), "Bankrupt",
                                       player, ApplyInput{rules::Bankrupt{player}, {}, std::nullopt, {}},
                                       nullptr});
                         }});
    } else if (kind == rules::QuestionKind::draw) {
      const rules::DeckId deck = *q.deck;
      choices.push_back({"home.draw", "Draw the card", Palette::primary, [&ui, deck] {
                           ui.emit(ApplyInput{rules::Draw{deck, std::nullopt}, {}, std::nullopt, {}});
                         }});
    } else if (kind == rules::QuestionKind::roll) {
      choices.push_back({"home.roll", "Enter the dice", Palette::primary,
                         [&ui, player] { ui.open_dialog(std::make_unique<DiceDialog>(player)); }});
    }
  } else {
    text = fmt::format("{}: throw the dice", game.account_name(st.current));
    const rules::PlayerId player = st.current;
    choices.push_back({"home.roll", "Enter the dice by hand", Palette::panel,
                       [&ui, player] { ui.open_dialog(std::make_unique<DiceDialog>(player)); }});
    add_finance_choices(game, ui, player, choices);
  }
  fb.fill({panel.x, panel.y, l.s(8), panel.h}, Widgets::player_colour(ui.snapshot(), who));
  // One line in large type where it fits; a long question (a debt and its reason) takes two smaller lines.
  const bool one_line = fb.measure().measure(text, FontFace::bold, l.font_large).w <= text_box.w;
  fb.paragraph(text_box, text, FontFace::bold, one_line ? l.font_large : l.font_body, Palette::text);
  const int n = static_cast<int>(choices.size());
  const int max_w = l.s(220);
  const int bw = std::min(max_w, (buttons.w - (n - 1) * l.pad) / std::max(1, n));
  int x = buttons.right() - n * bw - (n - 1) * l.pad;
  if (payment && ui.cards_confirm() && x - buttons.x > l.s(120))
    fb.paragraph({buttons.x + l.s(4), buttons.y, x - buttons.x - l.pad, buttons.h},
                 "then tap your card to confirm", FontFace::regular, l.font_small, Palette::muted);
  for (auto& c : choices) {
    fb.button(c.id, {x, buttons.y, bw, buttons.h}, c.label, c.colour, c.tap);
    x += bw + l.pad;
  }
}

int HomeScreen::build_nav(FrameBuilder& fb, UiContext& ui) {
  const auto& l = fb.layout();
  struct Item {
    const char* id;
    const char* label;
    ScreenId screen;
  };
  static const Item items[] = {{"nav.properties", "Property", ScreenId::properties},
                               {"nav.trade", "Trade", ScreenId::trade},
                               {"nav.ledger", "Ledger", ScreenId::ledger},
                               {"nav.charts", "Charts", ScreenId::charts},
                               {"nav.board", "Board", ScreenId::board},
                               {"nav.setup", "Setup", ScreenId::setup},
                               {"nav.devices", "Devices", ScreenId::devices}};
  const int n = static_cast<int>(std::size(items));
  const int gap = l.s(4), h = l.nav_h - l.s(6);
  auto width_for = [&](int per_row) { return (l.width - (per_row + 1) * gap) / per_row; };
  const bool one_row =
      std::ranges::all_of(items, [&](const Item& it) { return fb.label_fits(width_for(n), h, it.label); });
  const int rows = one_row ? 1 : 2;
  const int per_row = (n + rows - 1) / rows;
  const int w = width_for(per_row);
  const int top = l.height - rows * l.nav_h;
  for (int i = 0; i < n; ++i) {
    const auto& it = items[i];
    const ScreenId s = it.screen;
    const int row = i / per_row, col = i % per_row;
    fb.button(it.id, {gap + col * (w + gap), top + row * l.nav_h + l.s(2), w, h}, it.label, Palette::panel,
              [&ui, s] {
                if (s == ScreenId::properties) ui.focus_player(ui.snapshot().game->state().current);
                ui.go(s);
              });
  }
  return top;
}

}  // namespace bb::display
