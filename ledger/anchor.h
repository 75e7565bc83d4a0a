#pragma once
#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <vector>

namespace bb::ledger {

class Database;

// The head of one game's hash chain: how many inputs it held and the chain hash after the last of them (the
// game row's own hash when it held none).
struct AnchorHead {
  std::int64_t game = 0;
  std::int64_t inputs = 0;
  std::string chain;
};

// The heads of every game's chain, kept in a small file beside the database (`<database>.anchor`) and beside
// every backup. The hash chain inside the file shows a changed row, but not a row cut off the end of a game
// nor a whole game removed, since the rows that would show it are gone. The anchor remembers them: the file
// must still hold every anchored game with at least its anchored inputs, the input at the anchored head
// carrying the anchored hash.
//
// The ledger rewrites it (a new file renamed over the old one) at a game's start, after an input once
// LedgerOptions::anchor_every_ms has passed, and synced at open, checkpoint, a game's end, each backup and
// the close. A pulled plug thus leaves an anchor behind the file; the check accepts any anchor the file
// extends, so that is never taken for tampering. A torn anchor relies on the file system replacing a file by
// rename whole (ext4, the Raspberry Pi OS default, does: auto_da_alloc). It guards against rows removed with
// the sqlite3 tool; someone who rewrites the database and its anchor together (or removes both) is not
// detected: the hash is FNV-1a, not a signature. Owns nothing but the file's format; never writes the
// database. Called from the ledger's thread.
class Anchor {
 public:
  static std::string path_for(const std::string& database_path);
  // The heads as the database holds them now (works on a read-only connection).
  static std::vector<AnchorHead> heads(Database& db);
  enum class Durability {
    synced,      // on the card before write() returns (fsync of the new file, then the rename)
    page_cache,  // renamed into place; the kernel writes it within seconds
  };
  // Replaces the anchor file at `path` by rename. Errors say what failed.
  static std::expected<void, std::string> write(const std::string& path, const std::vector<AnchorHead>& heads,
                                                Durability durability = Durability::synced);
  // nullopt: there is no anchor file. An error: the file is there but is not a whole anchor.
  static std::expected<std::optional<std::vector<AnchorHead>>, std::string> read(const std::string& path);
  // One message per anchored game the database does not extend (removed, cut short, or rewritten).
  static std::vector<std::string> verify(Database& db, const std::vector<AnchorHead>& anchored);

  static constexpr const char* kSuffix = ".anchor";
  // Set as the file's SQLite application_id once it has an anchor, so that a missing anchor is noticed (a
  // ledger from before anchors has none, and gets its first at the next Ledger::open).
  static constexpr std::int64_t kApplicationId = 0x4242'4c41;  // "BBLA"
};

}  // namespace bb::ledger
