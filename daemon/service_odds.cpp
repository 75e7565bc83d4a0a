// The service's odds: each player's chance of winning, worked out by odds::OddsWorker beside the table.
#include <fmt/format.h>

#include "daemon/service_impl.h"

namespace bb::daemon {

namespace {
// How long the table must stay unchanged before playouts start: a move and the questions that follow it
// come in bursts, and a position that is gone a moment later is not worth weighing.
constexpr auto kOddsSettle = std::chrono::milliseconds(300);
// While playouts come in, the screen is refreshed at most this often (the last answer always shows).
constexpr auto kOddsShowEvery = std::chrono::milliseconds(250);

std::vector<display::ChancesView::Chance> view_of(const odds::Chances& c) {
  std::vector<display::ChancesView::Chance> out;
  if (c.playouts == 0) return out;
  for (const auto& p : c.players) out.push_back({p.estimate(), p.low(), p.high(), odds::format_chance(p)});
  return out;
}
}  // namespace

void Service::Impl::start_odds() {
  const OddsConfig& config = setup.config.odds;
  if (!config.enabled) return;
  odds = std::make_unique<odds::OddsWorker>(config.threads, [this] {
    // A worker thread: only hand the news over, one post in flight at a time.
    if (odds_news_posted.exchange(true)) return;
    if (!loop->post(
            [this] {
              odds_news_posted = false;
              odds_progress();
            },
            "odds news"))
      odds_news_posted = false;
  });
  log(fmt::format("odds: {} threads, {} playouts a position", odds->threads(), config.playouts));
}

void Service::Impl::stop_odds() {
  if (odds_settle_timer) loop->cancel(*odds_settle_timer);
  odds_settle_timer.reset();
  odds.reset();  // cancels the job under way and joins the threads
}

void Service::Impl::follow_odds() {
  if (!odds) return;
  const rules::Game* game = session->view().game;
  const OddsPosition now{store->current(), game ? game->input_count() : 0};
  if (odds_position == now) return;
  // The position changed: what the worker weighs is stale.
  odds->cancel();
  odds_job = 0;
  const bool same_game = odds_position && odds_position->game == now.game;
  if (!same_game) {
    chances = display::ChancesView{};
  } else if (!chances.now.empty()) {
    // The last estimate of the position before is its point on the line over the game.
    std::vector<double> estimate;
    for (const auto& c : chances.now) estimate.push_back(c.estimate);
    while (!chances.over_game.empty() && chances.over_game.back().turn >= odds_position_turn)
      chances.over_game.pop_back();
    chances.over_game.push_back({odds_position_turn, std::move(estimate)});
  }
  chances.trade.reset();
  chances.refining = false;
  odds_position = now;
  if (!game) return;
  if (game->state().ended) {
    // Nothing left to estimate: the winners have it all (a shared win in equal parts).
    const auto& st = game->state();
    chances.now.assign(st.players.size(), {0, 0, 0, "0%"});
    for (rules::PlayerId w : st.winners) {
      const double share = 1.0 / static_cast<double>(st.winners.size());
      const auto i = w.index();
      if (i < chances.now.size())
        chances.now[i] = {share, share, share, st.winners.size() == 1 ? "won" : "shares the win"};
    }
    chances.playouts = 0;
    return;
  }
  if (odds_settle_timer) {
    loop->rearm(*odds_settle_timer, kOddsSettle, std::chrono::nanoseconds(0));
    return;
  }
  auto timer = loop->add_timer("odds settle", kOddsSettle, std::chrono::nanoseconds(0), [this] {
    const rules::Game* live = session->view().game;
    // A trade being weighed already plays this position out too.
    if (odds_job != 0 && odds_job_has_trade) return;
    if (live && live->between_moves()) start_odds_job(std::nullopt);
  });
  if (timer)
    odds_settle_timer = *timer;
  else
    log("odds: " + timer.error());
}

void Service::Impl::start_odds_job(std::optional<rules::Trade> trade) {
  const rules::Game* live = session->view().game;
  if (!odds || !live || live->state().ended) return;
  const OddsConfig& config = setup.config.odds;
  const bool has_trade = trade.has_value();
  // The seed follows the position, so the same position shows the same odds after a restart.
  const std::uint64_t seed = live->setup().seed * 0x9e3779b97f4a7c15ULL + live->input_count();
  auto job =
      odds->start({*live, std::move(trade), {.playouts = config.playouts, .seed = seed, .turn_cap = 400}});
  if (!job) {
    if (has_trade && chances.trade) chances.trade->refused = job.error();
    show_chances();
    return;
  }
  odds_job = *job;
  odds_job_has_trade = has_trade;
  odds_position_turn = live->state().turns;
  chances.refining = true;
}

void Service::Impl::odds_progress() {
  if (!odds || odds_job == 0) return;
  const odds::OddsProgress p = odds->progress();
  if (p.job != odds_job) return;
  const auto now = std::chrono::steady_clock::now();
  if (!p.done && now - odds_shown < kOddsShowEvery) return;
  odds_shown = now;
  chances.now = view_of(p.without_trade);
  chances.playouts = p.without_trade.playouts;
  chances.refining = !p.done;
  if (odds_job_has_trade && p.with_trade && chances.trade) {
    auto& advice = *chances.trade;
    advice.without_trade = chances.now;
    advice.with_trade = view_of(*p.with_trade);
    advice.playouts = p.with_trade->playouts;
    advice.refining = !p.done;
    const auto& st = session->view().game->state();
    std::vector<std::string> sides;
    for (rules::PlayerId side : {advice.trade.from, advice.trade.to}) {
      if (side.index() < p.without_trade.players.size() && side.index() < p.with_trade->players.size())
        sides.push_back(odds::format_change(st.players[side].name, p.without_trade.players[side],
                                            p.with_trade->players[side]));
    }
    advice.summary = fmt::format("{}", fmt::join(sides, ", "));
  }
  show_chances();
}

void Service::Impl::show_chances() {
  if (screen_waits_for_ledger()) {
    picture_due = true;  // the live game is ahead of the disk: the picture comes once the sync is done
    return;
  }
  const display::ScreenId shown = screen->ui().screen();
  if (shown == display::ScreenId::charts || shown == display::ScreenId::trade) refresh_snapshot();
}

void Service::Impl::weigh_trade(const rules::Trade& trade) {
  if (!odds) return;
  const rules::Game* live = session->view().game;
  if (!live || live->state().ended) return;
  // The same trade asked again (the screen asks once per snapshot until it sees it): already in hand.
  if (chances.trade && display::same_trade(chances.trade->trade, trade) &&
      ((odds_job != 0 && odds_job_has_trade) || !chances.trade->refused.empty()))
    return;
  display::ChancesView::TradeAdvice advice;
  advice.trade = trade;
  chances.trade = std::move(advice);
  start_odds_job(trade);
  show_chances();
}

}  // namespace bb::daemon
