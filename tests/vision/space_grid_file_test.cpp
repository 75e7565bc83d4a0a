#include "vision/space_grid_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "vision_test_support.h"

// The grid dragged on the calibration screen, stored in the set-up file beside what the tracker learned.
namespace bb::vision {
namespace {

namespace fs = std::filesystem;

class GridFile : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = fs::temp_directory_path() / ("bb_grid_" + std::to_string(::getpid()) + "_" +
                                           ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(folder_);
    path_ = (folder_ / "setup.json").string();
  }
  void TearDown() override { fs::remove_all(folder_); }

  static SpaceMap adjusted() {
    SpaceMap map(10);
    map.set_grid({Point2{0.03, 0.028}, Point2{0.972, 0.03}, Point2{0.968, 0.962}, Point2{0.032, 0.966}});
    return map;
  }
  std::string read() const {
    std::ifstream in(path_);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  void write(const std::string& text) const { std::ofstream(path_) << text; }
  // Only the set-up file: no temporary file is left behind.
  size_t files() const { return static_cast<size_t>(std::distance(fs::directory_iterator(folder_), {})); }

  fs::path folder_;
  std::string path_;
};

TEST_F(GridFile, ASavedGridLoadsAsTheSameSpaceMap) {
  const SpaceMap map = adjusted();
  ASSERT_TRUE(SpaceGridFile::save(path_, map).has_value());  // no file yet: created
  EXPECT_EQ(files(), 1u);
  auto loaded = SpaceGridFile::load(path_);
  ASSERT_TRUE(loaded.has_value()) << loaded.error();
  ASSERT_TRUE(loaded->has_value());
  const SpaceMap& back = **loaded;
  EXPECT_EQ(back.space_count(), map.space_count());
  for (size_t k = 0; k < 4; ++k) {
    EXPECT_DOUBLE_EQ(back.grid()[k].x, map.grid()[k].x);
    EXPECT_DOUBLE_EQ(back.grid()[k].y, map.grid()[k].y);
  }
  for (int s = 0; s < map.space_count(); ++s) {
    EXPECT_NEAR(back.centre(s).x, map.centre(s).x, 1e-12);
    EXPECT_NEAR(back.centre(s).y, map.centre(s).y, 1e-12);
  }
  EXPECT_EQ(back.invariant_problem(), "");
  // Saved again with another grid: replaced, still one file.
  SpaceMap other(10);
  ASSERT_TRUE(SpaceGridFile::save(path_, other).has_value());
  EXPECT_EQ(files(), 1u);
  EXPECT_DOUBLE_EQ((**SpaceGridFile::load(path_)).grid()[0].x, 0.0);
}

TEST_F(GridFile, NoFileOrNoGridIsNotAnError) {
  auto none = SpaceGridFile::load(path_);
  ASSERT_TRUE(none.has_value());
  EXPECT_FALSE(none->has_value());
  write(R"({"tokens": []})");
  auto empty = SpaceGridFile::load(path_);
  ASSERT_TRUE(empty.has_value());
  EXPECT_FALSE(empty->has_value());
}

TEST_F(GridFile, EverythingElseInTheFileIsKept) {
  write(R"({"space_map": {"spaces_per_side": 10, "corner_ratio": 1.6}, "tokens": [{"name": "T1"}],
            "positions": [5], "note": "kept"})");
  ASSERT_TRUE(SpaceGridFile::save(path_, adjusted()).has_value());
  const auto j = nlohmann::json::parse(read());
  EXPECT_EQ(j.at("tokens"), nlohmann::json::parse(R"([{"name": "T1"}])"));
  EXPECT_EQ(j.at("positions"), nlohmann::json::parse("[5]"));
  EXPECT_EQ(j.at("note"), "kept");
  EXPECT_DOUBLE_EQ(j.at("space_map").at("grid").at(0).at(0).get<double>(), 0.03);
}

TEST_F(GridFile, AMalformedFileIsRefusedNamingIt) {
  write("{\"space_map\": {\"spaces_per_side\": 10,");  // cut short
  auto saved = SpaceGridFile::save(path_, adjusted());
  ASSERT_FALSE(saved.has_value());
  EXPECT_NE(saved.error().find(path_), std::string::npos) << saved.error();
  EXPECT_EQ(read(), "{\"space_map\": {\"spaces_per_side\": 10,");  // left as it was
  auto loaded = SpaceGridFile::load(path_);
  ASSERT_FALSE(loaded.has_value());
  EXPECT_NE(loaded.error().find(path_), std::string::npos) << loaded.error();
  write("[1, 2]");
  auto not_object = SpaceGridFile::save(path_, adjusted());
  ASSERT_FALSE(not_object.has_value());
  EXPECT_NE(not_object.error().find(path_), std::string::npos);
  write(R"({"space_map": {"spaces_per_side": 99, "corner_ratio": 1.6}})");
  auto impossible = SpaceGridFile::load(path_);
  ASSERT_FALSE(impossible.has_value());
  EXPECT_NE(impossible.error().find(path_), std::string::npos);
}

// A tracker that learned its tokens, then the grid adjusted on the calibration screen: the learned tokens,
// their places and the empty-board reference still load, under the new grid.
TEST_F(GridFile, TheLearnedTokensSurviveAGridSave) {
  using namespace testing;
  TableScript script(renderer(), scene(Condition::clean, 21), 4, 21);
  TokenTracker tracker(renderer().space_map(), {});
  Feeder feed{renderer(), tracker};
  feed.run(script.opening());
  ASSERT_TRUE(tracker.learned());
  ASSERT_TRUE(tracker.save_setup(path_).has_value());

  SpaceMap map = renderer().space_map();
  map.set_grid({Point2{0.004, 0.002}, Point2{0.997, 0.003}, Point2{0.996, 0.998}, Point2{0.002, 0.996}});
  ASSERT_TRUE(SpaceGridFile::save(path_, map).has_value());

  auto stored = SpaceGridFile::load(path_);
  ASSERT_TRUE(stored.has_value() && stored->has_value());
  EXPECT_DOUBLE_EQ((*stored)->grid()[2].y, 0.998);
  TokenTracker restarted(**stored, {});
  auto loaded = restarted.load_setup(path_);
  ASSERT_TRUE(loaded.has_value()) << loaded.error();
  EXPECT_EQ(restarted.positions(), tracker.positions());
  ASSERT_EQ(restarted.tokens().size(), tracker.tokens().size());
  for (size_t t = 0; t < tracker.tokens().size(); ++t)
    EXPECT_EQ(restarted.tokens()[t].name, tracker.tokens()[t].name);
  EXPECT_DOUBLE_EQ(restarted.space_map().grid()[2].y, 0.998);
}

// The grid may be saved on the calibration screen before any token was learned; the tracker then learns
// them as usual and keeps the grid.
TEST_F(GridFile, AGridSavedBeforeLearningLoadsAsNothingLearnedYet) {
  ASSERT_TRUE(SpaceGridFile::save(path_, adjusted()).has_value());
  TokenTracker tracker(adjusted(), {});
  auto loaded = tracker.load_setup(path_);
  ASSERT_TRUE(loaded.has_value()) << loaded.error();
  EXPECT_FALSE(tracker.learned());
}

}  // namespace
}  // namespace bb::vision
