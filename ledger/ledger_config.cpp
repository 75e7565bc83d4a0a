#include "ledger/ledger_config.h"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <filesystem>

namespace bb::ledger {

std::expected<LedgerConfig, std::string> LedgerConfig::load(const std::string& file) {
  LedgerConfig config;
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) return config;
  toml::table root;
  try {
    root = toml::parse_file(file);
  } catch (const toml::parse_error& e) {
    return std::unexpected(fmt::format("{}:{}: {}", file, e.source().begin.line, e.description()));
  }
  const toml::table* ledger = root["ledger"].as_table();
  if (!ledger) return config;
  if (auto v = (*ledger)["path"].value<std::string>()) config.path = *v;
  if (auto v = (*ledger)["backup_dir"].value<std::string>()) config.backup_dir = *v;
  if (auto v = (*ledger)["backup_every_minutes"].value<int>()) config.backup_every_minutes = *v;
  if (auto v = (*ledger)["keep_backups"].value<int>()) config.keep_backups = *v;
  if (auto v = (*ledger)["resume_budget_ms"].value<double>()) config.resume_budget_ms = *v;
  if (config.resume_budget_ms < 0) {
    return std::unexpected(fmt::format(
        "{}: [ledger] resume_budget_ms must be 0 (no snapshots) or a number of milliseconds", file));
  }
  if (config.keep_backups < 1)
    return std::unexpected(fmt::format("{}: [ledger] keep_backups must be at least 1", file));
  if (config.backup_every_minutes < 0) {
    return std::unexpected(fmt::format("{}: [ledger] backup_every_minutes must be 0 (off) or more", file));
  }
  return config;
}

}  // namespace bb::ledger
