// Engine: payments, debts and what they are for, ownership and rent.
#include "rules/engine.h"

namespace bb::rules {

namespace {
// The card id of a payment no card caused. At namespace scope: a function's static was a guard tested on
// every payment.
const std::string kNoPaymentCard;
}  // namespace

void Engine::post(Account from, Account to, Money amount, Memo memo, std::optional<SpaceId> space,
                  const std::string& card) {
  if (amount <= 0 || from == to) return;
  if (g.keep_journal_) return post_to_journal(from, to, amount, memo, space, card);
  // A playout: the same cash moves, and only the count of postings is kept.
  if (auto payer = from.player()) st.players[*payer].cash -= amount;
  if (auto payee = to.player()) st.players[*payee].cash += amount;
  assert(from.is_bank() || st.players[*from.player()].cash >= 0);
  ++g.forgotten_postings_;
}

void Engine::post_to_journal(Account from, Account to, Money amount, Memo memo, std::optional<SpaceId> space,
                             const std::string& card) {
  Posting p;
  p.seq = static_cast<std::int64_t>(g.posting_count()) + 1;
  p.from = from;
  p.to = to;
  p.amount = amount;
  p.memo = memo;
  p.space = space;
  p.input = g.input_index_;
  p.card = card;
  if (auto payer = from.player()) st.players[*payer].cash -= amount;
  if (auto payee = to.player()) st.players[*payee].cash += amount;
  assert(from.is_bank() || st.players[*from.player()].cash >= 0);
  st.postings.push_back(std::move(p));
}

void Engine::pay(Account from, Account to, Money amount, Memo memo, std::optional<SpaceId> space,
                 const Card* card) {
  if (amount <= 0) return;
  // The card's id by reference: a copy was an allocation for every id past the string's own buffer.
  const std::string& card_id = card ? card->id : kNoPaymentCard;
  const std::optional<PlayerId> payer = from.player();
  if (payer && to.is_bank() && (memo == Memo::card || memo == Memo::tax) && is_pauper(*payer)) {
    // FINANCE (1932): a pauper's payments to the bank are reversed in his favour.
    post(Account::bank(), from, amount, memo, space, card_id);
    return;
  }
  if (!payer || st.players[*payer].cash >= amount) {
    post(from, to, amount, memo, space, card_id);
    return;
  }
  // Debts come before every other question: nothing else happens at the table until they are settled. Built
  // in place (mostly at the end: no other question waits), not moved in.
  auto first_other = std::find_if(st.pending.begin(), st.pending.end(),
                                  [](const Question& other) { return other.kind != QuestionKind::debt; });
  Question& q = *st.pending.emplace(first_other);
  q.player = *payer;
  q.kind = QuestionKind::debt;
  q.amount = amount;
  q.creditor = to;
  q.space = space;
  q.memo = memo;
  q.card = card_id;
  // Words for the screens: a game without a journal (a playout's) shows no screen and is never restored, so
  // its questions go unworded.
  if (g.keep_journal_) q.reason = memo_words(memo, space, card_id);
}

std::string Engine::memo_words(Memo memo, std::optional<SpaceId> space, const std::string& card) const {
  // Every debt words its reason: the space's name is read in place and joined without fmt::format.
  const std::string_view where = space && space->number() >= 0 && space->number() < board_size()
                                     ? space_name(*space)
                                     : std::string_view();
  auto with = [&](std::string_view what) {
    if (where.empty()) return std::string(what);
    std::string words;
    words.reserve(what.size() + 1 + where.size());
    words.append(what).append(" ").append(where);
    return words;
  };
  switch (memo) {
    case Memo::start_cash:
      return "starting cash";
    case Memo::salary:
      return "salary";
    case Memo::buy:
      return with("bought");
    case Memo::auction:
      return with("auction");
    case Memo::rent:
      return with("rent");
    case Memo::tax:
      return where.empty() ? "tax" : std::string(where);
    case Memo::card:
      return fmt::format("card {}", card);
    case Memo::jail_fine:
      return "jail fine";
    case Memo::build:
      return with("building on");
    case Memo::sell_building:
      return with("building sold on");
    case Memo::mortgage:
      return with("mortgage");
    case Memo::unmortgage:
      return with("mortgage lifted on");
    case Memo::interest:
      return with("mortgage interest on");
    case Memo::trade:
      return "trade";
    case Memo::bankruptcy:
      return "bankruptcy";
    case Memo::adopt:
      return "adopt";
    case Memo::undo:
      return "undo";
    case Memo::fare:
      return with("fare");
    case Memo::sweepstakes:
      return "sweepstakes";
    case Memo::insurance:
      return "jail insurance";
    case Memo::space:
      return std::string(where);
    case Memo::deal:
      return with("dealt");
    case Memo::seat:
      return "theatre seats";
    case Memo::house_rule:
      return card.empty() ? std::string("house rule") : fmt::format("house rule: {}", card);
    case Memo::partnership:
      return with("partner's share");
  }
  return "?";
}

Money Engine::rent_for(SpaceId s, int dice_total) const {
  const Space& sp = ed.spaces[s];
  const SpaceState& ss = st.spaces[s];
  assert(ss.owner);  // rent is asked of an owned lot only
  const PlayerId owner = *ss.owner;
  switch (sp.rent.kind) {
    case RentRule::Kind::table:
      if (ss.hotel) return sp.rent.amounts.back();
      if (ss.houses > 0) return sp.rent.amounts[ss.houses];
      return sp.rent.amounts[0] * (doubles_rent(owner, sp.group_index) ? 2 : 1);
    case RentRule::Kind::doubling: {
      if (ss.houses <= 1) return sp.rent.amounts[0];
      return sp.rent.amounts[0] << (ss.houses - 1);
    }
    case RentRule::Kind::by_count: {
      int n = owned_in_group(owner, sp.group_index);
      return sp.rent.amounts[std::clamp(n, 1, static_cast<int>(sp.rent.amounts.size())) - 1];
    }
    case RentRule::Kind::dice: {
      int n = owned_in_group(owner, sp.group_index);
      return sp.rent.amounts[std::clamp(n, 1, static_cast<int>(sp.rent.amounts.size())) - 1] * dice_total;
    }
    case RentRule::Kind::none:
      return 0;
  }
  return 0;
}

}  // namespace bb::rules
