#include "table/table.h"

#include <fmt/format.h>

namespace bb::table {

struct Table::State {
  GameStore& store;
  TableSettings settings;
  CardRegistry registry;
  TableView view;
};

Table::Table(GameStore& store, TableSettings settings)
    : s_(std::make_unique<State>(State{store, std::move(settings), {}, {}})) {}
Table::~Table() = default;

Reaction Table::start_up() { return {}; }
Reaction Table::handle(const Event& /*event*/) { return {}; }
const TableView& Table::view() const { return s_->view; }
void Table::fill(display::Snapshot& /*snapshot*/) const {}
const CardRegistry& Table::cards() const { return s_->registry; }
const TableSettings& Table::settings() const { return s_->settings; }
std::vector<ledger::GameSummary> Table::games() { return s_->store.list(); }
std::vector<std::string> Table::invariant_violations() const { return {}; }

}  // namespace bb::table
