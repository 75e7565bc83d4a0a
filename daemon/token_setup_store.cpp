#include "daemon/token_setup_store.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "daemon/camera_token_names.h"

namespace bb::daemon {

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

std::string picture_of(const std::string& json_path) { return json_path + ".reference.png"; }

std::expected<std::string, std::string> read_whole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::unexpected("cannot read " + path);
  std::stringstream text;
  text << in.rdbuf();
  if (in.bad()) return std::unexpected("cannot read " + path);
  return text.str();
}

// FNV-1a, 64 bits: enough to tell the picture written with a JSON from another one (no secret).
std::uint64_t fnv1a(const std::string& bytes) {
  std::uint64_t h = 1469598103934665603ULL;
  for (const unsigned char c : bytes) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}

std::expected<void, std::string> sync_path(const std::string& path, bool directory) {
  const int fd = ::open(path.c_str(), (directory ? O_RDONLY | O_DIRECTORY : O_RDONLY) | O_CLOEXEC);
  if (fd < 0)
    return std::unexpected(fmt::format("cannot open {} to sync it: {}", path, std::strerror(errno)));
  const int rc = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  if (rc != 0) return std::unexpected(fmt::format("cannot sync {}: {}", path, std::strerror(err)));
  return {};
}

std::expected<void, std::string> write_synced(const std::string& path, const std::string& text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return std::unexpected(fmt::format("cannot write {}: {}", path, std::strerror(errno)));
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = errno;
      ::close(fd);
      return std::unexpected(fmt::format("cannot write {}: {}", path, std::strerror(err)));
    }
    done += static_cast<std::size_t>(n);
  }
  const int rc = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  if (rc != 0) return std::unexpected(fmt::format("cannot sync {}: {}", path, std::strerror(err)));
  return {};
}

// The file spells players by seat number.
std::vector<int> seat_numbers(const std::vector<rules::PlayerId>& players) {
  std::vector<int> out;
  for (const rules::PlayerId p : players) out.push_back(p.number());
  return out;
}

}  // namespace

std::expected<void, std::string> TokenSetupStore::keep(const SetupWriter& write,
                                                       const KeptLearning& learning) const {
  const std::string temporary = path_ + ".new";
  if (auto written = write(temporary); !written) return written;
  auto text = read_whole(temporary);
  if (!text) return std::unexpected(text.error());
  auto picture = read_whole(picture_of(temporary));
  if (!picture) return std::unexpected(picture.error());
  Json j;
  try {
    j = Json::parse(*text);
  } catch (const std::exception& e) {
    return std::unexpected(fmt::format("the camera's set-up came out unreadable ({})", e.what()));
  }
  Json kept;
  if (learning.game) kept["game"] = *learning.game;
  kept["players"] = learning.players;
  kept["one_at_a_time"] = learning.one_at_a_time;
  kept["unwatched"] = seat_numbers(learning.unwatched);
  kept["reference_bytes"] = picture->size();
  kept["reference_fnv1a"] = fmt::format("{:016x}", fnv1a(*picture));
  j["learning"] = kept;
  if (auto w = write_synced(temporary, j.dump(2) + "\n"); !w) return w;
  if (auto s = sync_path(picture_of(temporary), false); !s) return s;
  std::error_code ec;
  fs::rename(picture_of(temporary), picture_of(path_), ec);
  if (ec) return std::unexpected(fmt::format("cannot put {} in place: {}", picture_of(path_), ec.message()));
  fs::rename(temporary, path_, ec);
  if (ec) return std::unexpected(fmt::format("cannot put {} in place: {}", path_, ec.message()));
  const fs::path folder = fs::path(path_).parent_path();
  return sync_path(folder.empty() ? std::string(".") : folder.string(), true);
}

std::expected<KeptSetup, std::string> TokenSetupStore::read() const {
  auto text = read_whole(path_);
  if (!text) return std::unexpected(text.error());
  KeptSetup out;
  try {
    const Json j = Json::parse(*text);
    if (j.contains("tokens"))
      for (const auto& t : j.at("tokens")) {
        ++out.tokens;
        const auto p = t.contains("name") ? player_of_token(t.at("name").get<std::string>()) : std::nullopt;
        if (p) out.learned.push_back(*p);
      }
    std::sort(out.learned.begin(), out.learned.end());
    out.learned.erase(std::unique(out.learned.begin(), out.learned.end()), out.learned.end());
    if (!j.contains("learning")) return out;
    const Json& kept = j.at("learning");
    if (kept.contains("game")) out.learning.game = kept.at("game").get<std::int64_t>();
    out.learning.players = kept.value("players", 0);
    out.learning.one_at_a_time = kept.value("one_at_a_time", false);
    // A number that is no seat is dropped (the table also ignores players it has not seated).
    for (const int p : kept.value("unwatched", std::vector<int>{}))
      if (const auto player = rules::player_from_wire(p)) out.learning.unwatched.push_back(*player);
    // The picture beside it must be the one written with it (a cut between the two renames leaves the
    // new picture beside the old JSON).
    auto picture = read_whole(picture_of(path_));
    if (!picture) return std::unexpected(picture.error() + "; the tokens are learned again");
    if (picture->size() != kept.at("reference_bytes").get<std::size_t>() ||
        fmt::format("{:016x}", fnv1a(*picture)) != kept.at("reference_fnv1a").get<std::string>())
      return std::unexpected(fmt::format(
          "{} is not the picture kept with {} (cut off while it was kept); the tokens are learned again",
          picture_of(path_), path_));
  } catch (const std::exception& e) {
    return std::unexpected(
        fmt::format("{} cannot be read ({}); the tokens are learned again", path_, e.what()));
  }
  return out;
}

}  // namespace bb::daemon
