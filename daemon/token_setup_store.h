#pragma once
#include <cstdint>
#include <expected>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "rules/ids.h"

namespace bb::daemon {

// How far the learning of the tokens had come when the camera's set-up was kept: for which game, how, and
// whom the family left to the dice. The tokens themselves (and so which players' tokens are learned: the
// tracker names them T<player + 1>) are the set-up's own.
struct KeptLearning {
  std::optional<std::int64_t>
      game;                    // the ledger's game they were learned for (none: a file kept before this)
  int players = 0;             // that game's players
  bool one_at_a_time = false;  // learned one at a time: the learned tokens stand where they were put
  std::vector<rules::PlayerId> unwatched;  // players the family chose to leave to the dice
  bool operator==(const KeptLearning&) const = default;
};

// What a kept set-up says when read back.
struct KeptSetup {
  KeptLearning learning;
  std::vector<rules::PlayerId> learned;  // players whose tokens it holds, in order (from the tokens' names)
  int tokens = 0;                        // tokens it holds (some may carry names that are no player's)
};

// Keeps the camera's learned set-up (vision::TokenTracker::save_setup: the JSON at `path`, the empty-board
// picture at `<path>.reference.png`) with the learning's progress, so that a pulled plug in the middle of
// learning loses nothing learned. Written whole or not at all: both files are written under temporary names,
// synced, the picture renamed into place, then the JSON, which names the picture by its size and hash (a
// JSON beside a picture it was not written with, after a cut between the two renames, is refused when read);
// then the folder is synced. Why a file and not the ledger: the picture is hundreds of KB, made on the
// camera thread, which may write files but never touches the ledger's connection (the loop's), and it is
// vision's cache of the table, not the game's history that every backup copies.
// Owns: the two files' names and the "learning" key of the JSON. Must never: touch the tracker (the caller
// hands a writer) or the ledger. Thread: any one thread at a time (the service's camera thread).
class TokenSetupStore {
 public:
  // Writes the set-up at the path it is given (JSON there, the picture at `<that path>.reference.png`).
  using SetupWriter = std::function<std::expected<void, std::string>(const std::string& json_path)>;

  explicit TokenSetupStore(std::string path) : path_(std::move(path)) {}

  const std::string& path() const { return path_; }
  // The set-up (written by `write`) and `learning`, in place of what was kept before, whole or not at all.
  std::expected<void, std::string> keep(const SetupWriter& write, const KeptLearning& learning) const;
  // What the kept set-up holds. A file kept before progress was kept (no "learning" key) reads as a learning
  // of no game. An error says why it cannot be used (unreadable, cut off between its two files).
  std::expected<KeptSetup, std::string> read() const;

 private:
  std::string path_;
};

}  // namespace bb::daemon
