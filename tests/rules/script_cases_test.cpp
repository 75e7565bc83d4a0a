// Every scripts/*.jsonl is replayed through `replay_script`; its .expect.json (a subset of the state dump)
// must match, or its .error names the line and reason the script must stop with.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "rules/replay.h"
#include "rules/script.h"

namespace bb::rules {
namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Every key of `expected` must be in `actual` with the same value; arrays match element by element.
void expect_subset(const nlohmann::json& expected, const nlohmann::json& actual, const std::string& where) {
  if (expected.is_object()) {
    ASSERT_TRUE(actual.is_object()) << where;
    for (const auto& [k, v] : expected.items()) {
      ASSERT_TRUE(actual.contains(k)) << where << "." << k << " missing";
      expect_subset(v, actual[k], where + "." + k);
    }
  } else if (expected.is_array()) {
    ASSERT_TRUE(actual.is_array()) << where;
    ASSERT_EQ(expected.size(), actual.size()) << where;
    for (std::size_t i = 0; i < expected.size(); ++i)
      expect_subset(expected[i], actual[i], where + "[" + std::to_string(i) + "]");
  } else {
    EXPECT_EQ(expected, actual) << where;
  }
}

class ScriptCase : public ::testing::TestWithParam<std::string> {};

TEST_P(ScriptCase, ReplaysToTheExpectedState) {
  fs::path script = fs::path(SCRIPTS_DIR) / (GetParam() + ".jsonl");
  fs::path expect = fs::path(SCRIPTS_DIR) / (GetParam() + ".expect.json");
  fs::path error = fs::path(SCRIPTS_DIR) / (GetParam() + ".error");
  auto result = replay_script(read(script), script.filename().string(), {EDITIONS_DIR}, false);
  ASSERT_TRUE(result.game);
  EXPECT_TRUE(result.game->is_consistent());
  if (fs::exists(error)) {
    ASSERT_EQ(result.errors.size(), 1u);
    std::string want = read(error);
    while (!want.empty() && want.back() == '\n') want.pop_back();
    EXPECT_EQ(result.errors[0], want);
  } else {
    ASSERT_TRUE(result.errors.empty()) << result.errors.front();
  }
  if (fs::exists(expect))
    expect_subset(nlohmann::json::parse(read(expect)), nlohmann::json::parse(state_to_json(*result.game)),
                  "state");
}

std::vector<std::string> cases() {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(SCRIPTS_DIR))
    if (e.path().extension() == ".jsonl") out.push_back(e.path().stem().string());
  std::sort(out.begin(), out.end());
  return out;
}

INSTANTIATE_TEST_SUITE_P(Scripts, ScriptCase, ::testing::ValuesIn(cases()), [](const auto& param_info) {
  std::string n = param_info.param;
  for (auto& c : n)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
});

}  // namespace
}  // namespace bb::rules
