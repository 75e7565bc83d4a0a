// The camera's set-up kept with the learning's progress: read back as written, whole or not at all.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "daemon/token_setup_store.h"
#include "service_test_support.h"

namespace bb::daemon {
namespace {

using service_test::TempFolder;

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Stands in for vision::TokenTracker::save_setup: the JSON with the tokens' names, the picture beside it.
TokenSetupStore::SetupWriter writer(std::vector<std::string> names, std::string picture) {
  return [names = std::move(names),
          picture = std::move(picture)](const std::string& path) -> std::expected<void, std::string> {
    std::string tokens;
    for (const auto& n : names)
      tokens += (tokens.empty() ? "" : ",") + std::string("{\"name\": \"") + n + "\"}";
    write_file(path, "{\"space_map\": {}, \"tokens\": [" + tokens + "], \"positions\": []}\n");
    write_file(path + ".reference.png", picture);
    return {};
  };
}

TEST(TokenSetupStore, KeepsTheSetUpWithTheLearningsProgressAndReadsItBack) {
  TempFolder dir;
  const TokenSetupStore store(dir.file("ledger.db.tokens.json"));
  KeptLearning learning;
  learning.game = 3;
  learning.players = 4;
  learning.one_at_a_time = true;
  learning.unwatched = {rules::PlayerId{1}};
  ASSERT_TRUE(store.keep(writer({"T1", "T3"}, "picture one"), learning).has_value());
  auto kept = store.read();
  ASSERT_TRUE(kept.has_value()) << kept.error();
  EXPECT_EQ(kept->learning, learning);
  EXPECT_EQ(kept->learned, (std::vector<rules::PlayerId>{rules::PlayerId{0}, rules::PlayerId{2}}));
  EXPECT_EQ(kept->tokens, 2);
  EXPECT_EQ(read_file(store.path() + ".reference.png"), "picture one");
  // No temporary file is left behind.
  EXPECT_FALSE(std::filesystem::exists(store.path() + ".new"));
  EXPECT_FALSE(std::filesystem::exists(store.path() + ".new.reference.png"));
  // Kept again as the learning goes on: the newer replaces it.
  learning.unwatched = {rules::PlayerId{1}, rules::PlayerId{3}};
  ASSERT_TRUE(store.keep(writer({"T1", "T3", "T4"}, "picture two"), learning).has_value());
  kept = store.read();
  ASSERT_TRUE(kept.has_value()) << kept.error();
  EXPECT_EQ(kept->learning.unwatched, (std::vector<rules::PlayerId>{rules::PlayerId{1}, rules::PlayerId{3}}));
  EXPECT_EQ(kept->learned,
            (std::vector<rules::PlayerId>{rules::PlayerId{0}, rules::PlayerId{2}, rules::PlayerId{3}}));
}

TEST(TokenSetupStore, AJsonBesideAPictureItWasNotKeptWithIsRefused) {
  TempFolder dir;
  const TokenSetupStore store(dir.file("tokens.json"));
  KeptLearning learning;
  learning.game = 1;
  learning.players = 2;
  ASSERT_TRUE(store.keep(writer({"T1"}, "the first empty board"), learning).has_value());
  const std::string first_json = read_file(store.path());
  ASSERT_TRUE(store.keep(writer({"T1", "T2"}, "a later empty board"), learning).has_value());
  // A power cut between the two renames: the new picture beside the old JSON.
  write_file(store.path(), first_json);
  const auto kept = store.read();
  ASSERT_FALSE(kept.has_value());
  EXPECT_NE(kept.error().find("cut off while it was kept"), std::string::npos) << kept.error();
}

TEST(TokenSetupStore, ASetUpKeptBeforeProgressWasReadsAsALearningOfNoGame) {
  TempFolder dir;
  const TokenSetupStore store(dir.file("tokens.json"));
  write_file(store.path(),
             R"({"space_map": {}, "tokens": [{"name": "T1"}, {"name": "T2"}], "positions": [0, 0]})");
  const auto kept = store.read();
  ASSERT_TRUE(kept.has_value()) << kept.error();
  EXPECT_FALSE(kept->learning.game.has_value());
  EXPECT_EQ(kept->learned, (std::vector<rules::PlayerId>{rules::PlayerId{0}, rules::PlayerId{1}}));
  EXPECT_EQ(kept->tokens, 2);
}

// The file spells players by number: a number that is no seat (a hand-edited or damaged file) is dropped
// where the file is read, never handed on as a player.
TEST(TokenSetupStore, NumbersThatAreNoSeatAreDroppedWhereTheFileIsRead) {
  TempFolder dir;
  const TokenSetupStore store(dir.file("tokens.json"));
  KeptLearning learning;
  learning.game = 4;
  learning.players = 3;
  learning.unwatched = {rules::PlayerId{2}};
  ASSERT_TRUE(store.keep(writer({"T0", "T2", "X"}, "board"), learning).has_value());
  auto json = nlohmann::json::parse(read_file(store.path()));
  json["learning"]["unwatched"] = {-1, 2};
  write_file(store.path(), json.dump(2));
  const auto kept = store.read();
  ASSERT_TRUE(kept.has_value()) << kept.error();
  EXPECT_EQ(kept->tokens, 3);
  EXPECT_EQ(kept->learned, std::vector<rules::PlayerId>{rules::PlayerId{1}}) << "T0 and X are no player's";
  EXPECT_EQ(kept->learning.unwatched, std::vector<rules::PlayerId>{rules::PlayerId{2}});
}

TEST(TokenSetupStore, AFailedWriteLeavesWhatWasKeptAndAnUnreadableFileIsSaid) {
  TempFolder dir;
  const TokenSetupStore store(dir.file("tokens.json"));
  KeptLearning learning;
  learning.game = 2;
  learning.players = 2;
  ASSERT_TRUE(store.keep(writer({"T1"}, "board"), learning).has_value());
  const auto failed = store.keep(
      [](const std::string&) -> std::expected<void, std::string> { return std::unexpected("disk full"); },
      learning);
  ASSERT_FALSE(failed.has_value());
  EXPECT_EQ(failed.error(), "disk full");
  auto kept = store.read();
  ASSERT_TRUE(kept.has_value()) << kept.error();
  EXPECT_EQ(kept->learned, std::vector<rules::PlayerId>{rules::PlayerId{0}});
  write_file(store.path(), "not json");
  kept = store.read();
  ASSERT_FALSE(kept.has_value());
  EXPECT_NE(kept.error().find("learned again"), std::string::npos) << kept.error();
  EXPECT_FALSE(TokenSetupStore(dir.file("missing.json")).read().has_value());
}

}  // namespace
}  // namespace bb::daemon
