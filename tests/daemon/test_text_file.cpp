// A file named from outside is read whole or refused with its kind and what to do: std::ifstream opens a
// folder on Linux and reads it as empty, and reads an endless device until the memory runs out.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "daemon/config.h"
#include "daemon/text_file.h"

using namespace bb::daemon;

namespace {

struct TextFileTest : ::testing::Test {
  // One folder a test: ctest runs the tests of this suite at the same time.
  std::filesystem::path dir =
      std::filesystem::path(::testing::TempDir()) /
      (std::string("boardbank_text_file_") + ::testing::UnitTest::GetInstance()->current_test_info()->name());
  void SetUp() override {
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir / "a folder");
  }
  void TearDown() override { std::filesystem::remove_all(dir); }
  std::string write(const std::string& name, const std::string& text) {
    std::ofstream(dir / name, std::ios::binary) << text;
    return (dir / name).string();
  }
};

TEST_F(TextFileTest, AFileIsReadWholeEvenAnEmptyOne) {
  using namespace std::string_literals;
  const std::string text = "line one\nline two\0 with a NUL\n"s + std::string(200'000, 'x');
  auto read = read_text_file(write("script.jsonl", text), "the game script", kMaxScriptFileBytes);
  ASSERT_TRUE(read.has_value()) << read.error().message;
  EXPECT_EQ(*read, text);
  auto empty = read_text_file(write("empty.jsonl", ""), "the game script", kMaxScriptFileBytes);
  ASSERT_TRUE(empty.has_value());
  EXPECT_TRUE(empty->empty());
}

TEST_F(TextFileTest, AFolderIsRefusedNotReadAsEmpty) {
  auto read = read_text_file((dir / "a folder").string(), "the game script", kMaxScriptFileBytes);
  ASSERT_FALSE(read.has_value());
  EXPECT_EQ(read.error().kind, TextFileError::Kind::folder);
  EXPECT_NE(read.error().message.find("is a folder, not a file: give the path of the game script"),
            std::string::npos);
}

TEST_F(TextFileTest, AMissingFileNamesThePathAndWhatItShouldBe) {
  const std::string path = (dir / "mistyped.jsonl").string();
  auto read = read_text_file(path, "the game script", kMaxScriptFileBytes);
  ASSERT_FALSE(read.has_value());
  EXPECT_EQ(read.error().kind, TextFileError::Kind::missing);
  EXPECT_EQ(read.error().message, path + " does not exist: check the path to the game script");
}

TEST_F(TextFileTest, MoreThanTheBoundIsRefusedAtTheBoundNotReadToTheEnd) {
  auto big = read_text_file(write("big.toml", std::string(5000, '#')), "the configuration file", 4096);
  ASSERT_FALSE(big.has_value());
  EXPECT_EQ(big.error().kind, TextFileError::Kind::too_large);
  auto at_bound = read_text_file(write("at.toml", std::string(4096, '#')), "the configuration file", 4096);
  EXPECT_TRUE(at_bound.has_value());
  // An endless device: refused after the bound, not read until the memory runs out.
  auto endless = read_text_file("/dev/zero", "the configuration file", kMaxConfigFileBytes);
  ASSERT_FALSE(endless.has_value());
  EXPECT_EQ(endless.error().kind, TextFileError::Kind::too_large);
  EXPECT_NE(endless.error().message.find("is it the right file, or an endless device?"), std::string::npos);
}

// The bug this fixes: a folder given as the configuration was checked as an empty file, which is valid TOML
// with every default, and called good; `boardbank run --config FOLDER` then ran on the defaults.
TEST_F(TextFileTest, AFolderIsNoConfiguration) {
  auto config = load_config((dir / "a folder").string());
  ASSERT_FALSE(config.has_value());
  ASSERT_EQ(config.error().size(), 1u);
  EXPECT_EQ(config.error()[0].line, 0);
  EXPECT_NE(
      config.error()[0].message.find("is a folder, not a file: give the path of the configuration file"),
      std::string::npos);
}

}  // namespace
