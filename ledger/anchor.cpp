#include "ledger/anchor.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "ledger/chain_hash.h"
#include "ledger/database.h"

namespace bb::ledger {

namespace {

constexpr const char* kHeader = "boardbank ledger anchor 1";
// An anchor holds a line per game (about 50 bytes): a family's lifetime of games is far below this. A larger
// file is not an anchor this program wrote.
constexpr std::uintmax_t kMaxAnchorBytes = 16u * 1024 * 1024;

std::string digest_of(const std::vector<AnchorHead>& heads) {
  ChainHash hash;
  hash.add(kHeader);
  for (const AnchorHead& h : heads) hash.add(h.game).add(h.inputs).add(h.chain);
  return hash.hex();
}

std::string errno_text() { return std::strerror(errno); }

}  // namespace

std::string Anchor::path_for(const std::string& database_path) { return database_path + kSuffix; }

std::vector<AnchorHead> Anchor::heads(Database& db) {
  std::vector<AnchorHead> heads;
  Statement q = db.prepare(R"sql(
    SELECT g.id,
           (SELECT count(*) FROM inputs i WHERE i.game = g.id),
           coalesce((SELECT i.chain FROM inputs i WHERE i.game = g.id ORDER BY i.seq DESC LIMIT 1), g.chain)
    FROM games g ORDER BY g.id)sql");
  while (q.step()) heads.push_back({q.column_int64(0), q.column_int64(1), q.column_text(2)});
  return heads;
}

std::expected<void, std::string> Anchor::write(const std::string& path, const std::vector<AnchorHead>& heads,
                                               Durability durability) {
  std::string text = std::string(kHeader) + "\n";
  for (const AnchorHead& h : heads) text += fmt::format("game {} {} {}\n", h.game, h.inputs, h.chain);
  text += fmt::format("digest {}\n", digest_of(heads));
  std::string temporary = path + ".new";
  int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return std::unexpected(fmt::format("cannot write {}: {}", temporary, errno_text()));
  std::size_t written = 0;
  while (written < text.size()) {
    ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      std::string why = errno_text();
      ::close(fd);
      ::unlink(temporary.c_str());
      return std::unexpected(fmt::format("cannot write {}: {}", temporary, why));
    }
    written += static_cast<std::size_t>(n);
  }
  // Synced before the rename: after a power cut the anchor is the old one or the new one, never a torn one.
  if (durability == Durability::synced && ::fsync(fd) != 0) {
    std::string why = errno_text();
    ::close(fd);
    ::unlink(temporary.c_str());
    return std::unexpected(fmt::format("cannot sync {}: {}", temporary, why));
  }
  ::close(fd);
  if (::rename(temporary.c_str(), path.c_str()) != 0) {
    std::string why = errno_text();
    ::unlink(temporary.c_str());
    return std::unexpected(fmt::format("cannot replace {}: {}", path, why));
  }
  // The directory is not synced: a lost rename leaves the previous anchor, which the check accepts.
  return {};
}

std::expected<std::optional<std::vector<AnchorHead>>, std::string> Anchor::read(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  auto status = fs::status(path, ec);
  if (ec || status.type() == fs::file_type::not_found) return std::optional<std::vector<AnchorHead>>{};
  if (status.type() != fs::file_type::regular)
    return std::unexpected(fmt::format("{} is not a regular file", path));
  auto size = fs::file_size(path, ec);
  if (ec) return std::unexpected(fmt::format("cannot read {}: {}", path, ec.message()));
  if (size > kMaxAnchorBytes)
    return std::unexpected(
        fmt::format("{} is {} bytes, larger than any anchor ({} at most)", path, size, kMaxAnchorBytes));
  std::ifstream in(path);
  if (!in) return std::unexpected(fmt::format("cannot read {}", path));
  std::string line;
  if (!std::getline(in, line) || line != kHeader)
    return std::unexpected(fmt::format("{} does not start with '{}'", path, kHeader));
  std::vector<AnchorHead> heads;
  std::optional<std::string> digest;
  int number = 1;
  while (std::getline(in, line)) {
    ++number;
    std::istringstream fields(line);
    std::string word;
    fields >> word;
    AnchorHead h;
    std::string rest;
    if (word == "game" && !digest && (fields >> h.game >> h.inputs >> h.chain) && !(fields >> rest) &&
        h.game > 0 && h.inputs >= 0 && (heads.empty() || h.game > heads.back().game)) {
      heads.push_back(std::move(h));
    } else if (word == "digest" && !digest && (fields >> rest)) {
      digest = rest;
    } else {
      return std::unexpected(fmt::format("{} line {}: not an anchor line", path, number));
    }
  }
  if (!digest) return std::unexpected(fmt::format("{} is cut short (no digest line)", path));
  if (*digest != digest_of(heads))
    return std::unexpected(fmt::format("{}: its lines do not match its digest (edited or damaged)", path));
  return std::optional<std::vector<AnchorHead>>(std::move(heads));
}

std::vector<std::string> Anchor::verify(Database& db, const std::vector<AnchorHead>& anchored) {
  std::vector<std::string> problems;
  Statement game = db.prepare("SELECT chain FROM games WHERE id = ?1");
  Statement input = db.prepare("SELECT chain FROM inputs WHERE game = ?1 AND seq = ?2");
  for (const AnchorHead& h : anchored) {
    game.bind(1, h.game);
    bool present = game.step();
    std::string game_chain = present ? game.column_text(0) : "";
    game.reset();
    if (!present) {
      problems.push_back(fmt::format(
          "game {}: it is missing from the file, but its anchor says it held {} input(s): it was removed",
          h.game, h.inputs));
      continue;
    }
    std::string stored;
    bool found = true;
    if (h.inputs == 0) {
      stored = game_chain;
    } else {
      input.bind(1, h.game).bind(2, h.inputs - 1);
      found = input.step();
      if (found) stored = input.column_text(0);
      input.reset();
    }
    if (!found) {
      problems.push_back(fmt::format(
          "game {}: its anchor says it held {} input(s), the file holds fewer: its end was cut off", h.game,
          h.inputs));
    } else if (stored != h.chain) {
      problems.push_back(
          fmt::format("game {}: the chain hash at its anchored input {} differs from the anchor: its history "
                      "was rewritten",
                      h.game, h.inputs));
    }
  }
  return problems;
}

}  // namespace bb::ledger
