#pragma once
#include <cstdint>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "ledger/ledger_types.h"

namespace bb::ledger::testing {

LedgerOptions options_for(const std::string& db_path, const std::string& backup_dir = "");

// How many of a sweep to run: the environment variable when set, else `normal`, or `sanitized` in an
// ASan/UBSan build (its slower runs must fit the CI budget).
int sweep_size(const char* env, int normal, int sanitized);

// The ids stored for each game, with how many times each is stored, read without writing to the file.
std::map<std::string, int> stored_id_counts(const std::string& db_path);

// "ACK <line> <id>" lines of a crash_player's output.
std::vector<std::string> acked_ids(const std::string& out);
std::string line_value(const std::string& out, const std::string& key);  // the rest of the line after "KEY "

}  // namespace bb::ledger::testing
