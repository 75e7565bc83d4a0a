#pragma once
#include <expected>
#include <string>

namespace bb::ledger {

// The [ledger] table of /etc/boardbank/boardbank.toml. A missing file or key keeps the default.
struct LedgerConfig {
  static constexpr const char* kDefaultFile = "/etc/boardbank/boardbank.toml";

  std::string path = "/var/lib/boardbank/ledger.db";
  std::string backup_dir = "/var/lib/boardbank/backups";
  int backup_every_minutes = 30;
  int keep_backups = 20;
  double resume_budget_ms = 100;  // resuming a game should take no longer; 0: no snapshots

  // Reads `file`; a file that does not exist gives the defaults, a file that does not parse is an error.
  static std::expected<LedgerConfig, std::string> load(const std::string& file);
};

}  // namespace bb::ledger
