// Pictures through bb_imageio (libjpeg-turbo, libpng) instead of OpenCV's imgcodecs, and video files through
// the camera module (boardbank_capture.so, loaded with dlopen from this build tree).
#include "vision/image_files.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "imageio/image_codec.h"
#include "vision/image_sequence_source.h"
#include "vision/source_opener.h"
#include "vision/video_file_writer.h"
#include "vision_test_support.h"

using namespace bb::vision;
using bb::imageio::ImageError;

namespace {

class TempFolder {
 public:
  TempFolder()
      : path_(std::filesystem::temp_directory_path() / ("bb_image_files_" + std::to_string(::getpid()))) {
    std::filesystem::create_directories(path_);
  }
  ~TempFolder() { std::filesystem::remove_all(path_); }
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// A rendered table: the pictures the demo's virtual camera makes.
cv::Mat rendered_frame() {
  cv::Mat frame;
  bb::vision::testing::renderer().render(TableScene{}, frame);
  return frame;
}

cv::Mat pattern(int type) {
  cv::Mat image(97, 131, type);  // odd sizes: rows are not a multiple of any block
  cv::randu(image, cv::Scalar::all(0), cv::Scalar::all(255));
  cv::GaussianBlur(image, image, cv::Size(5, 5), 0);
  return image;
}

bool same(const cv::Mat& a, const cv::Mat& b) {
  return a.size() == b.size() && a.type() == b.type() && cv::norm(a, b, cv::NORM_INF) == 0;
}

TEST(ImageFiles, JpegRoundTripIsOpenCVsBitForBit) {
  for (int quality : {35, 75, 92}) {
    for (const cv::Mat& original : {rendered_frame(), pattern(CV_8UC3), pattern(CV_8UC1)}) {
      std::vector<uchar> bytes;
      ASSERT_TRUE(cv::imencode(".jpg", original, bytes, {cv::IMWRITE_JPEG_QUALITY, quality}));
      const cv::Mat theirs =
          cv::imdecode(bytes, original.channels() == 1 ? cv::IMREAD_GRAYSCALE : cv::IMREAD_COLOR);
      cv::Mat ours = original.clone();
      ASSERT_TRUE(jpeg_round_trip(ours, quality));
      EXPECT_TRUE(same(ours, theirs)) << "quality " << quality << ", " << original.channels() << " channels";
      EXPECT_FALSE(same(ours, original)) << "a JPEG round trip loses something";
    }
  }
}

TEST(ImageFiles, PngIsLosslessInEveryFormat) {
  TempFolder folder;
  for (int type : {CV_8UC1, CV_8UC3, CV_8UC4}) {
    const cv::Mat original = pattern(type);
    const auto path = folder.file("picture.png");
    ASSERT_TRUE(write_image(path, original));
    const auto header = bb::imageio::read_header_of_file(path);
    ASSERT_TRUE(header);
    EXPECT_EQ(header->format, bb::imageio::FileFormat::png);
    EXPECT_EQ(header->width, 131);
    EXPECT_EQ(header->height, 97);
    if (type == CV_8UC4) {
      const auto back = bb::imageio::read_image(path, bb::imageio::PixelFormat::bgra);
      ASSERT_TRUE(back);
      EXPECT_TRUE(std::equal(back->pixels.begin(), back->pixels.end(), original.data));
      continue;
    }
    cv::Mat read;
    ASSERT_TRUE(read_image(path, type == CV_8UC1 ? ImageColour::grey : ImageColour::colour, read));
    EXPECT_TRUE(same(read, original));
    // OpenCV reads what we wrote as the same picture.
    EXPECT_TRUE(same(cv::imread(path, type == CV_8UC1 ? cv::IMREAD_GRAYSCALE : cv::IMREAD_COLOR), original));
  }
}

TEST(ImageFiles, JpegFileReadsBackCloseAndItsHeaderGivesTheSize) {
  TempFolder folder;
  const cv::Mat original = rendered_frame();
  const auto path = folder.file("frame.JPG");
  ASSERT_TRUE(write_image(path, original, {.jpeg_quality = 95}));
  const auto header = bb::imageio::read_header_of_file(path);
  ASSERT_TRUE(header);
  EXPECT_EQ(header->format, bb::imageio::FileFormat::jpeg);
  EXPECT_EQ(header->width, original.cols);
  EXPECT_EQ(header->height, original.rows);
  cv::Mat read;
  ASSERT_TRUE(read_image(path, ImageColour::colour, read));
  ASSERT_EQ(read.size(), original.size());
  EXPECT_LT(cv::norm(read, original, cv::NORM_L1) / static_cast<double>(original.total() * 3), 3.0);
  // Read as grey, a colour JPEG gives its luminance.
  cv::Mat grey;
  ASSERT_TRUE(read_image(path, ImageColour::grey, grey));
  EXPECT_EQ(grey.type(), CV_8UC1);
}

TEST(ImageFiles, DamagedOrForeignFilesAreErrorsThatNameTheFile) {
  TempFolder folder;
  const auto text = folder.file("notes.png");
  std::ofstream(text) << "not a picture at all";
  cv::Mat image;
  auto read = read_image(text, ImageColour::colour, image);
  ASSERT_FALSE(read);
  EXPECT_EQ(read.error().kind, ImageError::Kind::not_an_image);
  EXPECT_NE(read.error().message.find(text), std::string::npos);

  // A JPEG start followed by rubbish, and a PNG cut in its middle.
  const auto jpeg = folder.file("broken.jpg");
  std::ofstream(jpeg, std::ios::binary) << "\xFF\xD8\xFF\xE0garbage that is no segment";
  read = read_image(jpeg, ImageColour::colour, image);
  ASSERT_FALSE(read);
  EXPECT_EQ(read.error().kind, ImageError::Kind::damaged);

  const auto png = folder.file("cut.png");
  ASSERT_TRUE(write_image(png, pattern(CV_8UC3)));
  std::filesystem::resize_file(png, std::filesystem::file_size(png) / 2);
  read = read_image(png, ImageColour::colour, image);
  ASSERT_FALSE(read);
  EXPECT_EQ(read.error().kind, ImageError::Kind::damaged);

  read = read_image(folder.file("absent.png"), ImageColour::colour, image);
  ASSERT_FALSE(read);
  EXPECT_EQ(read.error().kind, ImageError::Kind::cannot_read);
}

TEST(ImageFiles, WritingRefusesUnknownExtensionsAndUnwritableFolders) {
  TempFolder folder;
  auto written = write_image(folder.file("picture.bmp"), pattern(CV_8UC3));
  ASSERT_FALSE(written);
  EXPECT_EQ(written.error().kind, ImageError::Kind::bad_argument);
  EXPECT_NE(written.error().message.find(".png"), std::string::npos);
  written = write_image(folder.file("no/such/folder/picture.png"), pattern(CV_8UC3));
  ASSERT_FALSE(written);
  EXPECT_EQ(written.error().kind, ImageError::Kind::cannot_write);
  // Nothing half-written is left behind.
  written = write_image(folder.file("ok.png"), pattern(CV_8UC3));
  ASSERT_TRUE(written);
  int files = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(folder.path())) ++files;
  EXPECT_EQ(files, 1);
}

TEST(ImageFiles, APictureLargerThanAllowedIsRefusedBeforeAnyPixelIsAllocated) {
  TempFolder folder;
  for (const char* name : {"big.png", "big.jpg"}) {
    const auto path = folder.file(name);
    ASSERT_TRUE(write_image(path, pattern(CV_8UC3)));
    bool allocated = false;
    const auto read = bb::imageio::read_image(path, bb::imageio::PixelFormat::bgr,
                                              [&allocated](int, int) {
                                                allocated = true;
                                                return bb::imageio::MutableImageView{};
                                              },
                                              {.max_pixels = 1000});
    ASSERT_FALSE(read) << name;
    EXPECT_EQ(read.error().kind, ImageError::Kind::too_large) << name;
    EXPECT_FALSE(allocated) << name;
  }
}

TEST(ImageFiles, AFolderSourcePassesOverADamagedPictureSayingWhich) {
  TempFolder folder;
  ASSERT_TRUE(write_image(folder.file("frame_0.png"), pattern(CV_8UC3)));
  std::ofstream(folder.file("frame_1.jpg"), std::ios::binary) << "\xFF\xD8\xFF\xE0rubbish";
  ASSERT_TRUE(write_image(folder.file("frame_2.jpg"), pattern(CV_8UC3)));
  auto source = open_source(folder.path().string(), {});
  ASSERT_TRUE(source) << source.error();
  cv::Mat frame;
  EXPECT_EQ((*source)->grab(frame).status, FrameSource::Status::frame);
  const auto damaged = (*source)->grab(frame);
  EXPECT_EQ(damaged.status, FrameSource::Status::skipped);
  EXPECT_NE(damaged.message.find("frame_1.jpg"), std::string::npos) << damaged.message;
  EXPECT_EQ((*source)->grab(frame).status, FrameSource::Status::frame);
  EXPECT_EQ(frame.size(), cv::Size(131, 97));
  EXPECT_EQ((*source)->grab(frame).status, FrameSource::Status::end);
}

// The camera module of this build tree is found and loaded: a video written through it reads back through
// open_source (the camera thread's way in), frame by frame, then ends.
TEST(CaptureModule, AVideoFileIsWrittenAndReadThroughTheModule) {
  TempFolder folder;
  const auto path = folder.file("clip.avi");
  const cv::Mat original = rendered_frame();
  {
    auto writer = VideoFileWriter::open(path, 10, original.cols, original.rows);
    ASSERT_TRUE(writer) << writer.error();
    for (int i = 0; i < 4; ++i) writer->write(original);
  }
  auto source = open_source(path, {});
  ASSERT_TRUE(source) << source.error();
  cv::Mat frame;
  int frames = 0;
  while ((*source)->grab(frame).status == FrameSource::Status::frame) {
    ++frames;
    ASSERT_EQ(frame.size(), original.size());
    EXPECT_LT(cv::norm(frame, original, cv::NORM_L1) / static_cast<double>(original.total() * 3), 6.0);
  }
  EXPECT_EQ(frames, 4);
}

}  // namespace
