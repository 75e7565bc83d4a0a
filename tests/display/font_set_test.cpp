// A font folder named on purpose (a `dir` given to FontSet::open, or BOARDBANK_FONT_DIR) without both faces
// is refused in one set of words, FontSet::why_not_open's: open() refuses with them and check-config quotes
// them (tests/daemon/cli_refusals_test.sh holds check-config to the same words).
#include "display/font_set.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

namespace bb::display {
namespace {

// Each test with a folder of its own (removed at the end) and BOARDBANK_FONT_DIR put back as it was.
class FontSetFolders : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (std::filesystem::path(::testing::TempDir()) / "bb-fonts-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    folder_ = pattern;
    if (const char* was = std::getenv("BOARDBANK_FONT_DIR")) was_ = was;
    unsetenv("BOARDBANK_FONT_DIR");
  }
  void TearDown() override {
    std::error_code ignored;
    std::filesystem::remove_all(folder_, ignored);
    if (was_)
      setenv("BOARDBANK_FONT_DIR", was_->c_str(), 1);
    else
      unsetenv("BOARDBANK_FONT_DIR");
  }
  // A folder inside the test's own, made empty.
  std::string folder(const std::string& name) const {
    const auto path = std::filesystem::path(folder_) / name;
    std::filesystem::create_directories(path);
    return path.string();
  }

 private:
  std::string folder_;
  std::optional<std::string> was_;
};

TEST_F(FontSetFolders, ANamedFolderWithoutBothFacesIsRefusedInWhyNotOpensWords) {
  const std::string empty = folder("empty"), regular_only = folder("regular-only");
  std::ofstream(regular_only + "/DejaVuSans.ttf") << "not a font";
  for (const std::string& dir : {empty, regular_only}) {
    const auto why = FontSet::why_not_open(dir);
    ASSERT_TRUE(why.has_value()) << dir;
    EXPECT_NE(why->find(dir + " holds no DejaVuSans.ttf and DejaVuSans-Bold.ttf"), std::string::npos) << *why;
    const auto opened = FontSet::open(dir);
    ASSERT_FALSE(opened.has_value()) << dir;
    EXPECT_EQ(opened.error(), *why);
  }
}

TEST_F(FontSetFolders, ABoardbankFontDirWithoutBothFacesIsRefusedInWhyNotOpensWords) {
  const std::string empty = folder("empty");
  setenv("BOARDBANK_FONT_DIR", empty.c_str(), 1);
  const auto why = FontSet::why_not_open();
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("BOARDBANK_FONT_DIR is set to " + empty + ", which holds no DejaVuSans.ttf"),
            std::string::npos)
      << *why;
  const auto opened = FontSet::open();
  ASSERT_FALSE(opened.has_value());
  EXPECT_EQ(opened.error(), *why);
}

TEST_F(FontSetFolders, AFolderHoldingBothFacesOrNoneNamedHasNoReasonAgainstIt) {
  EXPECT_EQ(FontSet::why_not_open(), std::nullopt);
  auto fonts = FontSet::open();
  ASSERT_TRUE(fonts.has_value()) << fonts.error();
  EXPECT_EQ(FontSet::why_not_open((*fonts)->directory()), std::nullopt);
  // A folder given is looked at, not the environment: a bad BOARDBANK_FONT_DIR is no reason against it.
  setenv("BOARDBANK_FONT_DIR", folder("empty").c_str(), 1);
  EXPECT_EQ(FontSet::why_not_open((*fonts)->directory()), std::nullopt);
  EXPECT_TRUE(FontSet::open((*fonts)->directory()).has_value());
}

}  // namespace
}  // namespace bb::display
