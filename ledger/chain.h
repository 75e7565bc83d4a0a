#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace bb::ledger {

class Database;

// The rows the chain hash covers, as stored.
struct StoredPosting {
  std::int64_t seq = 0;
  std::optional<std::int64_t> input_seq;  // none: made by the setup
  std::int64_t from = 0;
  std::int64_t to = 0;
  std::int64_t amount = 0;
  std::string memo;
  std::optional<std::int64_t> space;
  std::optional<std::string> card;
};

// Every posting of one game as stored, in order, or only those of the input at `input_seq`: the one reader of
// the postings table.
std::vector<StoredPosting> stored_postings(Database& db, std::int64_t game,
                                           std::optional<std::int64_t> input_seq = std::nullopt);

struct StoredInput {
  std::int64_t seq = 0;
  std::string input_id;
  std::string source;
  std::string kind;
  std::string body;
  std::string outcome;
  std::optional<std::string> authorised_by;
  std::optional<std::string> reason;
  std::string recorded_at;
};

struct StoredGame {
  std::int64_t id = 0;
  std::string edition;
  std::string setup;
  std::optional<std::string> origin;
  std::string started_at;
};

// How each row's hash is made; shared by the writer, the checker and the migration that introduced it.
class Chain {
 public:
  static std::string game_hash(const StoredGame& game, const std::vector<StoredPosting>& setup_postings);
  static std::string input_hash(const std::string& previous, const StoredInput& input,
                                const std::vector<StoredPosting>& postings);
  // Recomputes every chain in the file; one message per game whose rows do not match their hashes.
  static std::vector<std::string> verify(Database& db);
  // Writes the hashes of rows stored before the chain existed (the migration to schema 3).
  static void fill(Database& db);
};

}  // namespace bb::ledger
