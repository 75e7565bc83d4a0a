// Game: starting a game, applying an input (the Engine does the work, rules/engine.h), undo, and the
// questions the screens ask of a game (worth, wording, legality).
#include "rules/game.h"

#include <fmt/format.h>

#include <algorithm>

#include "rules/engine.h"

namespace bb::rules {

// ------------------------------------------------------------------ Game

std::string_view question_name(QuestionKind kind) {
  switch (kind) {
    case QuestionKind::buy:
      return "buy";
    case QuestionKind::tax:
      return "tax";
    case QuestionKind::jail:
      return "jail";
    case QuestionKind::mortgaged_transfer:
      return "mortgaged_transfer";
    case QuestionKind::debt:
      return "debt";
    case QuestionKind::draw:
      return "draw";
    case QuestionKind::roll:
      return "roll";
    case QuestionKind::draft:
      return "draft";
  }
  return "?";
}

std::string_view Game::option_name(const QuestionOption& option) const {
  return edition_->option_name(option);
}

std::optional<QuestionOption> Game::parse_option(const Question& question, std::string_view text) const {
  for (const QuestionOption& o : question.options)
    if (option_name(o) == text) return o;
  return std::nullopt;
}

std::vector<std::string> Game::option_names(const Question& question) const {
  std::vector<std::string> names;
  names.reserve(question.options.size());
  for (const QuestionOption& o : question.options) names.emplace_back(option_name(o));
  return names;
}

std::expected<Game, std::string> Game::start(std::shared_ptr<const Edition> edition, const Setup& setup) {
  if (!edition) return std::unexpected("no edition");
  if (edition->group_spaces.size() != edition->groups.size())
    return std::unexpected(
        "the edition's groups are not indexed: call Edition::index_groups() after building it");
  if (edition->spaces.size() > static_cast<std::size_t>(kMaxBoardSpaces))
    return std::unexpected(fmt::format("a board has at most {} spaces", kMaxBoardSpaces));
  if (setup.players.size() < 2) return std::unexpected("a game needs at least two players");
  if (setup.players.size() > 8) return std::unexpected("a game has at most eight players");
  auto rules = edition->rules_with(setup.options);
  if (!rules) return std::unexpected(rules.error());
  Game g;
  g.edition_ = std::move(edition);
  g.rules_ = *rules;
  g.setup_ = setup;
  g.rng_ = setup.seed ^ 0x626f617264ULL;  // "board": different seeds never share a stream with the bots'
  const Edition& ed = *g.edition_;
  GameState& st = g.state_;
  st.players.reserve(setup.players.size());
  for (const auto& ps : setup.players) {
    if (ps.name.empty()) return std::unexpected("every player needs a name");
    if (ps.name == "bank") return std::unexpected("'bank' is the bank's name: choose another player name");
    for (const auto& other : st.players)
      if (other.name == ps.name) return std::unexpected(fmt::format("two players are named '{}'", ps.name));
    for (const auto& other : st.players)
      if (!ps.card.empty() && card_uid_key(other.card) == card_uid_key(ps.card))
        return std::unexpected(
            fmt::format("{} and {} are both given card {}: each player needs a card of their own", other.name,
                        ps.name, ps.card));
    PlayerState p;
    p.name = ps.name;
    p.token = ps.token;
    p.card = ps.card;
    p.position = ed.start_space;
    st.players.push_back(std::move(p));
  }
  st.spaces.resize(ed.spaces.size());
  g.owned_lots_.assign(st.players.size(), SpaceSet{});
  st.bank_houses = g.rules_.houses;
  st.bank_hotels = g.rules_.hotels;
  st.house_credits.assign(st.players.size(), 0);
  st.hotel_credits.assign(st.players.size(), 0);
  g.decks_.reserve(ed.decks.size());
  for (const auto& deck : ed.decks) {
    std::vector<int> order;
    order.reserve(deck.cards.size());  // (a card's copies: mostly one)
    for (std::size_t c = 0; c < deck.cards.size(); ++c)
      for (int k = 0; k < deck.cards[c].copies; ++k) order.push_back(static_cast<int>(c));
    shuffle(order, g.rng_);
    g.decks_.emplace_back(std::move(order));
  }
  Engine e(g, nullptr);
  st.postings.reserve(st.players.size());
  for (PlayerId p : st.players.ids())
    e.post(Account::bank(), p, g.rules_.start_cash, Memo::start_cash, std::nullopt);
  if (g.rules_.deal_deeds > 0) {
    std::vector<SpaceId> deeds;
    for (const auto& sp : ed.spaces)
      if (is_ownable(sp)) deeds.push_back(SpaceId{sp.index});
    // The deeds the setup hands out leave the pile before the rest is shuffled and dealt.
    std::vector<bool> dealt_by_setup(ed.spaces.size(), false);
    for (const auto& ps : setup.players)
      for (SpaceId s : ps.deeds) {
        if (s.number() < 0 || s.index() >= ed.spaces.size() || !is_ownable(ed.spaces[s]))
          return std::unexpected(
              fmt::format("{} was dealt space {}, which is not a title deed", ps.name, s.number()));
        if (dealt_by_setup[s.index()])
          return std::unexpected(fmt::format("{} was dealt twice", ed.spaces[s].name));
        dealt_by_setup[s.index()] = true;
      }
    std::erase_if(deeds, [&](SpaceId s) { return dealt_by_setup[s.index()]; });
    shuffle(deeds, g.rng_);
    for (PlayerId p : st.players.ids()) {
      std::vector<SpaceId> mine = setup.players[p.index()].deeds;
      while (static_cast<int>(mine.size()) < g.rules_.deal_deeds && !deeds.empty()) {
        mine.push_back(deeds.back());
        deeds.pop_back();
      }
      for (SpaceId s : mine) {
        e.set_owner(s, p);
        if (g.rules_.deals_paid) e.post(p, Account::bank(), ed.spaces[s].price, Memo::deal, s);
      }
    }
  }
  if (g.rules_.draft_sets) {
    // Ships Short Game rule 1: "the highest score chooses the first set ... If there are four players or
    // less, they then choose a second set but in reverse order". The players are listed in the order of that
    // throw (the setup's turn order), so the draft runs in setup order, then back.
    for (PlayerId p : st.players.ids()) st.draft_picks.push_back(p);
    if (static_cast<int>(st.players.size()) <= g.rules_.draft_second_round_max_players)
      st.draft_picks.insert(st.draft_picks.end(), st.draft_picks.rbegin(), st.draft_picks.rend());
    e.ask_draft();
  }
  return g;
}

std::expected<Outcome, std::string> Game::apply(const Input& input) {
  Outcome outcome;
  outcome.first_posting = state_.postings.size();
  if (std::holds_alternative<Undo>(input)) {
    if (input_count() == 0) return std::unexpected("there is nothing to undo");
    if (!has_history()) {
      return std::unexpected(
          "this game was restored from a snapshot without its earlier inputs: replay it from its log to "
          "undo");
    }
    auto rebuilt = Game::start(edition_, setup_);
    assert(rebuilt);
    rebuilt->fast_paths_ = fast_paths_;  // replayed the way it was played
    for (std::size_t i = 0; i + 1 < inputs_.size(); ++i) {
      auto ok = rebuilt->apply(inputs_[i]);
      assert(ok && "an input accepted once must replay");
      (void)ok;
    }
    auto [begin, end] = postings_by_input_.back();
    std::vector<Posting> journal = std::move(state_.postings);
    std::vector<std::pair<std::size_t, std::size_t>> ranges = std::move(postings_by_input_);
    ranges.pop_back();
    int undone_input = static_cast<int>(inputs_.size()) - 1;
    *this = std::move(*rebuilt);
    for (std::size_t i = begin; i < end; ++i) {
      Posting rev = journal[i];
      std::swap(rev.from, rev.to);
      rev.seq = static_cast<std::int64_t>(journal.size()) + 1;
      rev.memo = Memo::undo;
      rev.input = undone_input;
      journal.push_back(std::move(rev));
    }
    state_.postings = std::move(journal);
    postings_by_input_ = std::move(ranges);
    outcome.events.push_back(Event{.kind = Event::Kind::undone});
    return outcome;
  }
  outcome.events.reserve(8);  // a throw causes a few events: one allocation instead of one per doubling
  if (auto result = run_input(input, &outcome); !result) return std::unexpected(result.error());
  return outcome;
}

std::expected<void, std::string> Game::play(const Input& input) {
  if (std::holds_alternative<Undo>(input)) {
    auto undone = apply(input);
    if (!undone) return std::unexpected(undone.error());
    return {};
  }
  return run_input(input, nullptr);
}

std::expected<void, std::string> Game::run_input(const Input& input, Outcome* outcome) {
  Engine e(*this, outcome);  // no outcome: the engine words and keeps no events
  // Validation happens before any change inside each handler, so a refused input leaves the state as it was.
  return e.as_input(input, [&] { return std::visit([&](const auto& in) { return e.handle(in); }, input); });
}

void Game::recount_owned_lots() {
  owned_lots_.assign(state_.players.size(), SpaceSet{});
  mortgaged_lots_ = SpaceSet{};
  for (SpaceId s : state_.spaces.ids())
    if (state_.spaces[s].mortgaged) mortgaged_lots_.insert(s);
  for (SpaceId s : state_.spaces.ids())
    if (const PlayerOrNobody owner = state_.spaces[s].owner; owner && owner->index() < owned_lots_.size())
      owned_lots_[*owner].insert(s);
}

void Game::forget_history() {
  keep_history_ = false;
  history_offset_ += inputs_.size();
  inputs_.clear();
  postings_by_input_.clear();
}

void Game::forget_journal() {
  forget_history();
  keep_journal_ = false;
  forgotten_postings_ += state_.postings.size();
  state_.postings.clear();
  state_.postings.shrink_to_fit();  // a copy of this game then allocates nothing for a journal
}

void Game::deal_hidden_cards_anew(std::uint64_t seed) {
  std::uint64_t stream = seed ^ 0x6465636b73ULL;  // "decks": not the dice's or the bots' stream of that seed
  for (DeckState& deck : decks_) {
    std::vector<int> cards = deck.order();
    std::sort(cards.begin(), cards.end());  // the game's own order must not show through
    shuffle(cards, stream);
    deck = DeckState(std::move(cards));
  }
  rng_ = splitmix64(stream);
}

bool Game::between_moves() const {
  return state_.pending.empty() && !state_.auction && steps_.empty() && !state_.ended;
}

Game::Game() = default;
Game::Game(const Game&) = default;
Game::Game(Game&&) noexcept = default;
Game& Game::operator=(const Game&) = default;
Game& Game::operator=(Game&&) noexcept = default;
Game::~Game() = default;

Money Game::worth(PlayerId player) const {
  Money w = state_.players[player].cash;
  for (SpaceId s : lots_of(player)) {
    const SpaceState& ss = state_.spaces[s];
    const Space& sp = edition_->spaces[s];
    w += lot_value(s) - (ss.mortgaged ? sp.price - sp.price / 2 : 0);
  }
  return w;
}

Money Game::lot_value(SpaceId space) const {
  const SpaceState& ss = state_.spaces[space];
  const Space& sp = edition_->spaces[space];
  int houses = ss.hotel ? rules_.houses_for_hotel + 1 : ss.houses;
  if (rules_.house_with_lot && houses > 0 && sp.kind == Space::Kind::property) --houses;
  return sp.price + sp.house_cost * houses;
}

Money Game::tax_worth(PlayerId player) const {
  Money w = state_.players[player].cash;
  for (SpaceId s : lots_of(player)) {
    const SpaceState& ss = state_.spaces[s];
    const Space& sp = edition_->spaces[s];
    w += sp.price;
    w += ss.hotel ? sp.house_cost * (rules_.houses_for_hotel + 1) : sp.house_cost * ss.houses;
  }
  return w;
}

std::optional<PlayerId> Game::player_named(const std::string& player_name) const {
  for (PlayerId p : state_.players.ids())
    if (state_.players[p].name == player_name) return p;
  return std::nullopt;
}

std::string Game::account_name(Account account) const {
  if (account.is_bank()) return "bank";
  if (PlayerId p = *account.player(); p.index() < state_.players.size()) return state_.players[p].name;
  return "?";
}

std::string Game::memo_text(const Posting& p) const {
  Engine e(const_cast<Game&>(*this), nullptr);
  return e.memo_words(p.memo, p.space, p.card);
}

std::string Game::describe(const Event& e) const {
  const Edition& ed = *edition_;
  auto who = [&](std::optional<PlayerId> p) { return p ? account_name(*p) : std::string("?"); };
  auto where = [&](std::optional<SpaceId> s) {
    return s && s->number() >= 0 && s->index() < ed.spaces.size() ? ed.spaces[*s].name : std::string("?");
  };
  auto group_name = [&](int group) {
    return group >= 0 && static_cast<std::size_t>(group) < ed.groups.size()
               ? ed.groups[static_cast<std::size_t>(group)].name
               : std::string("?");
  };
  auto item = [&](Auction::Item auctioned, std::optional<SpaceId> s) {
    switch (auctioned) {
      case Auction::Item::property:
        return where(s);
      case Auction::Item::house:
        return std::string("a house");
      case Auction::Item::hotel:
        return std::string("a hotel");
    }
    return std::string("?");
  };
  switch (e.kind) {
    case Event::Kind::moved:
      if (e.from_space == e.to_space) return fmt::format("{} stays on {}", who(e.player), where(e.to_space));
      if (e.jumped) return fmt::format("{} goes straight to {}", who(e.player), where(e.to_space));
      return fmt::format("{} moves from {} to {}", who(e.player), where(e.from_space), where(e.to_space));
    case Event::Kind::jailed:
      return fmt::format("{} goes to {}", who(e.player), where(ed.jail_space));
    case Event::Kind::released:
      return fmt::format("{} is out of {}", who(e.player), where(ed.jail_space));
    case Event::Kind::card_drawn:
      return fmt::format("{} draws: {}", who(e.player),
                         e.card ? (e.card->text.empty() ? e.card->id : e.card->text) : "?");
    case Event::Kind::bought:
      return fmt::format("{} buys {} for {}", who(e.player), where(e.space), ed.format_money(e.amount));
    case Event::Kind::auction_started:
      if (e.auctioned == Auction::Item::property && e.series_piece > 0 && e.space)  // FINANCE (1932)
        return fmt::format("Auction: {}, {}", item(e.auctioned, e.space),
                           finance::piece_words(edition(), *e.space, e.series_piece));
      return fmt::format("Auction: {}", item(e.auctioned, e.space));
    case Event::Kind::auction_won:
      return fmt::format("{} wins the auction of {} for {}", who(e.player), item(e.auctioned, e.space),
                         ed.format_money(e.amount));
    case Event::Kind::auction_unsold:
      return fmt::format("No bids for {}: nobody buys", item(e.auctioned, e.space));
    case Event::Kind::built:
      return fmt::format("{} builds a {} on {}", who(e.player),
                         e.piece == Event::Piece::hotel ? ed.words.hotel : ed.words.house, where(e.space));
    case Event::Kind::sold: {
      auto houses = [&](int n) { return ed.words.count_houses(n); };
      switch (e.piece) {
        case Event::Piece::hotel:
          return fmt::format("{} sells the {} on {} for {}", who(e.player), ed.words.hotel, where(e.space),
                             houses(e.houses_left));
        case Event::Piece::group_sale_lot:
          return fmt::format("{} sells the {} on {}: {} left", who(e.player),
                             e.had_hotel ? ed.words.hotel : ed.words.houses, where(e.space),
                             houses(e.houses_left));
        case Event::Piece::lot_to_bank:
          return fmt::format("{} sells {} back to the bank", who(e.player), where(e.space));
        case Event::Piece::house:
          break;
      }
      return fmt::format("{} sells a {} on {}", who(e.player), ed.words.house, where(e.space));
    }
    case Event::Kind::mortgaged:
      return fmt::format("{} mortgages {} for {}", who(e.player), where(e.space), ed.format_money(e.amount));
    case Event::Kind::unmortgaged:
      return fmt::format("{} lifts the mortgage on {}", who(e.player), where(e.space));
    case Event::Kind::traded:
      return fmt::format("{} and {} trade", who(e.player), who(e.other_player));
    case Event::Kind::bankrupt:
      return fmt::format("{} is bankrupt; everything goes to {}", who(e.player),
                         e.creditor.is_bank() ? std::string("the bank") : who(e.creditor.player()));
    case Event::Kind::game_over: {
      if (!e.player) return std::string("The game is over");
      if (e.winners <= 1) return fmt::format("The game is over: {} wins", who(e.player));
      std::string others;
      for (PlayerId w : state_.winners)
        if (w != e.player) others += (others.empty() ? "" : " and ") + who(w);
      if (others.empty()) return fmt::format("The game is over: {} shares the win in a tie", who(e.player));
      return fmt::format("The game is over: a tie, {} shares the win with {}", who(e.player), others);
    }
    case Event::Kind::turn:
      return fmt::format("{}'s turn", who(e.player));
    case Event::Kind::undone:
      return "The last input is taken back";
    case Event::Kind::three_doubles:
      return fmt::format("{} throws a third double in a row", who(e.player));
    case Event::Kind::stays_in_jail:
      return fmt::format("{} stays in {}", who(e.player), where(ed.jail_space));
    case Event::Kind::insured:
      return fmt::format("{} is insured and stays out of jail", who(e.player));
    case Event::Kind::adopted:
      return fmt::format("{}'s position on the table is adopted", who(e.player));
    case Event::Kind::free_ride:
      return fmt::format("{} uses a free ride on {}", who(e.player), where(e.space));
    case Event::Kind::salary_earned:
      return fmt::format("{} may claim a salary of {} this turn", who(e.player), ed.format_money(e.amount));
    case Event::Kind::partnership:
      return fmt::format("{} and {} share the {}: {} holds the leases and pays {} {}% of every income",
                         who(e.player), who(e.other_player), group_name(e.group), who(e.player),
                         who(e.other_player), e.share_percent);
    case Event::Kind::withdrawn:
      return fmt::format("{} leaves the game with {}", where(e.space), who(e.player));
    case Event::Kind::salary_forfeit:
      return fmt::format("{} forgot to claim {} and it is forfeit", who(e.player), ed.format_money(e.amount));
    case Event::Kind::drafted:
      return fmt::format("{} chooses the {} deeds", who(e.player), group_name(e.group));
  }
  return "?";
}

std::optional<Refusal> Game::refusal_to_build(PlayerId player, SpaceId space, bool hotel) const {
  Engine e(const_cast<Game&>(*this), nullptr);
  if (auto no = e.refuse_player_space(player, space)) return no;
  return e.refuse_build(player, space, hotel);
}
std::optional<SpaceId> Game::first_lot_to_build(PlayerId player, const SpaceSet& among, Money budget) const {
  Engine e(const_cast<Game&>(*this), nullptr);
  if (!e.seated(player)) return std::nullopt;  // refusal_to_build: no such player
  return e.first_lot_to_build(player, among, budget);
}
std::optional<Refusal> Game::refusal_to_sell(PlayerId player, SpaceId space) const {
  Engine e(const_cast<Game&>(*this), nullptr);
  if (auto no = e.refuse_player_space(player, space)) return no;
  return e.refuse_sell(player, space);
}
std::optional<Refusal> Game::refusal_to_mortgage(PlayerId player, SpaceId space) const {
  Engine e(const_cast<Game&>(*this), nullptr);
  if (auto no = e.refuse_player_space(player, space)) return no;
  return e.refuse_mortgage(player, space);
}
std::optional<Refusal> Game::refusal_to_unmortgage(PlayerId player, SpaceId space) const {
  Engine e(const_cast<Game&>(*this), nullptr);
  if (auto no = e.refuse_player_space(player, space)) return no;
  return e.refuse_unmortgage(player, space);
}
std::string Game::explain(const Refusal& refusal) const {
  return Engine(const_cast<Game&>(*this), nullptr).explain(refusal);
}

std::optional<std::string> Game::why_not_build(PlayerId player, SpaceId space) const {
  Engine e(const_cast<Game&>(*this), nullptr);
  if (auto err = e.check_space(space)) return err;
  if (auto err = e.check_player(player)) return err;
  return e.why_not_build(player, space, false);
}
std::optional<std::string> Game::why_not_sell(PlayerId player, SpaceId space) const {
  Engine e(const_cast<Game&>(*this), nullptr);
  if (auto err = e.check_space(space)) return err;
  if (auto err = e.check_player(player)) return err;
  return e.why_not_sell(player, space);
}
std::expected<SalePlan, std::string> Game::sale_plan(PlayerId player, SpaceId space) const {
  Engine e(const_cast<Game&>(*this), nullptr);
  if (auto err = e.check_space(space)) return std::unexpected(*err);
  if (auto err = e.check_player(player)) return std::unexpected(*err);
  return e.sale_plan(player, space);
}

bool SalePlan::changes_other_lots() const {
  return std::any_of(lots.begin(), lots.end(), [&](const LotSale& lot) { return lot.space != space; });
}

std::optional<std::string> Game::why_not_mortgage(PlayerId player, SpaceId space) const {
  Engine e(const_cast<Game&>(*this), nullptr);
  if (auto err = e.check_space(space)) return err;
  if (auto err = e.check_player(player)) return err;
  return e.why_not_mortgage(player, space);
}
std::expected<SpaceId, std::string> Game::lease_to_sell_early() const {
  Engine e(const_cast<Game&>(*this), nullptr);
  return e.lease_to_sell_early();
}
std::optional<int> Game::series_piece(SpaceId space) const {
  if (space.number() < 0 || space.index() >= state_.spaces.size()) return std::nullopt;
  return finance::series_piece(*edition_, rules_, state_, space);
}
std::optional<std::string> Game::why_not_insure(PlayerId player, bool against_card) const {
  Engine e(const_cast<Game&>(*this), nullptr);
  return e.why_not_insure(Insure{player, against_card});
}
std::optional<std::string> Game::why_not_partner(const Partner& partner) const {
  Engine e(const_cast<Game&>(*this), nullptr);
  if (auto err = e.check_player(partner.holder)) return err;
  if (auto err = e.check_player(partner.partner)) return err;
  return finance::why_not_partner(*edition_, rules_, state_, partner);
}
std::optional<std::string> Game::why_not_unmortgage(PlayerId player, SpaceId space) const {
  Engine e(const_cast<Game&>(*this), nullptr);
  if (auto err = e.check_space(space)) return err;
  if (auto err = e.check_player(player)) return err;
  return e.why_not_unmortgage(player, space);
}

}  // namespace bb::rules
