#include "table_test_support.h"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "ledger/database.h"
#include "ledger/statement.h"
#include "ledger_test_support.h"

namespace bb::table::testing {

TableTest::TableTest() : db(dir.file("table.db")) { open(default_settings()); }
TableTest::~TableTest() = default;

TableSettings TableTest::default_settings() const {
  TableSettings s;
  s.cards.push_back({kBankerCard, {CardRole::Kind::banker, std::nullopt, {}, {}}});
  s.banker_pin_ok = [](const std::string& pin) { return pin == kPin; };
  return s;
}

void TableTest::open(TableSettings s) {
  table.reset();
  store.reset();
  ledger.reset();
  settings = std::move(s);
  auto options = ledger::testing::options_for(db);
  options.edition_dirs.push_back(dir.path());
  options.vfs = vfs;
  options.snapshot_every_inputs = snapshot_every_inputs;
  auto opened = ledger::Ledger::open(options);
  ASSERT_TRUE(opened) << opened.error().message;
  ledger.emplace(std::move(*opened));
  store = std::make_unique<LedgerGameStore>(*ledger);
  table = std::make_unique<Table>(*store, settings);
}

void TableTest::restart() {
  auto s = table ? table->settings() : settings;
  open(s);
  table->start_up();
}

Reaction TableTest::start(std::vector<std::string> names, std::vector<std::string> cards,
                          const std::string& edition) {
  display::StartGame sg;
  sg.setup.edition = edition;
  sg.setup.seed = 7;
  for (std::size_t i = 0; i < names.size(); ++i)
    sg.setup.players.push_back({names[i],
                                i == 0   ? "car"
                                : i == 1 ? "dog"
                                         : "hat",
                                i < cards.size() ? cards[i] : "",
                                {}});
  return touch(sg);
}

Reaction TableTest::event(Event e) {
  Reaction r = table->handle(e);
  const auto bad = table->invariant_violations();
  EXPECT_TRUE(bad.empty()) << bad.front();
  if (store->game()) {
    EXPECT_TRUE(store->game()->is_consistent());
    const auto ledger_bad = ledger->invariant_violations();
    EXPECT_TRUE(ledger_bad.empty()) << ledger_bad.front();
  }
  return r;
}

Reaction TableTest::dice(int d1, int d2, std::string id) {
  if (id.empty()) id = fmt::format("dice:unit:{}", next_id++);
  return event(DiceThrown{d1, d2, id, "dice"});
}

Reaction TableTest::tap(const std::string& uid, std::string id, std::int64_t at_ms) {
  if (id.empty()) id = fmt::format("wiegand:reader:{}", next_id++);
  return event(CardTapped{uid, "wiegand", id, at_ms});
}

Reaction TableTest::touch(display::Intent intent) {
  return event(ScreenIntent{std::move(intent), fmt::format("touch:{}", next_id++)});
}

Reaction TableTest::answer(const std::string& option, const std::string& value) {
  EXPECT_TRUE(question()) << "no question to answer with " << option;
  return touch(display::AnswerQuestion{question() ? question()->id : "", option, value});
}

Reaction TableTest::seen(int player, int space, TokenReport::Kind kind) {
  TokenReport t;
  t.kind = kind;
  t.player = rules::PlayerId{player};
  t.to = rules::SpaceId{space};
  if (kind == TokenReport::Kind::unsure) t.candidates = {rules::SpaceId{space}};
  t.id = fmt::format("camera:{}:{}", next_id++, player);
  return event(t);
}

const rules::Game& TableTest::game() const {
  const auto* g = store->game();
  EXPECT_NE(g, nullptr);
  return *g;
}

rules::Money TableTest::cash(int player) const {
  return game().state().players.at(rules::PlayerId{player}.index()).cash;
}

void TableTest::write_timed_edition(int seconds) {
  std::ifstream in(std::string(EDITIONS_DIR) + "/classic.toml");
  std::stringstream text;
  text << in.rdbuf();
  std::string s = text.str();
  s.replace(s.find("id = \"classic\""), 14, "id = \"timed\"");
  s.replace(s.find("[rules]\n"), 8,
            fmt::format("[rules]\nauction_timer_min_s = {0}\nauction_timer_max_s = {0}\n", seconds));
  ledger::testing::write_file(dir.file("timed.toml"), s);
}

bool contains(const std::vector<std::string>& messages, const std::string& part) {
  for (const auto& m : messages)
    if (m.find(part) != std::string::npos) return true;
  return false;
}

}  // namespace bb::table::testing

namespace bb::table::testing {
std::vector<std::string> stored_authorisations(const std::string& db_path) {
  std::vector<std::string> out;
  ledger::Database db(db_path, ledger::Database::Mode::read_only);
  ledger::Statement q = db.prepare(
      "SELECT coalesce(authorised_by, '') || '|' || coalesce(reason, '') FROM inputs ORDER BY game, seq");
  while (q.step()) out.push_back(q.column_text(0));
  return out;
}
}  // namespace bb::table::testing
