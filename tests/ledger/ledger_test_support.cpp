#include "ledger_test_support.h"

#include <sstream>

#include "ledger/database.h"

namespace bb::ledger::testing {

LedgerOptions options_for(const std::string& db_path, const std::string& backup_dir) {
  LedgerOptions options;
  options.path = db_path;
  options.edition_dirs = {EDITIONS_DIR};
  options.backup_dir = backup_dir;
  return options;
}

int sweep_size(const char* env, int normal, int sanitized) {
  if (const char* value = std::getenv(env)) return std::atoi(value);
#if defined(__SANITIZE_ADDRESS__)
  (void)normal;
  return sanitized;
#else
  (void)sanitized;
  return normal;
#endif
}

std::map<std::string, int> stored_id_counts(const std::string& db_path) {
  std::map<std::string, int> counts;
  Database db(db_path, Database::Mode::read_only);
  if (db.query_int64("SELECT count(*) FROM sqlite_schema WHERE name = 'inputs'") == 0) return counts;
  Statement q = db.prepare("SELECT game || ':' || input_id FROM inputs");
  while (q.step()) counts[q.column_text(0)]++;
  return counts;
}

std::vector<std::string> acked_ids(const std::string& out) {
  std::vector<std::string> ids;
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.starts_with("ACK ")) continue;
    auto space = line.find(' ', 4);
    ids.push_back(line.substr(space + 1));
  }
  return ids;
}

std::string line_value(const std::string& out, const std::string& key) {
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    if (line.starts_with(key + " ")) return line.substr(key.size() + 1);
  }
  return {};
}

}  // namespace bb::ledger::testing
