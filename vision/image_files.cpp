#include "vision/image_files.h"

#include <opencv2/core.hpp>

namespace bb::vision {

namespace {

std::expected<imageio::ImageView, imageio::ImageError> view_of(const cv::Mat& image) {
  imageio::PixelFormat format;
  if (image.type() == CV_8UC1)
    format = imageio::PixelFormat::gray;
  else if (image.type() == CV_8UC3)
    format = imageio::PixelFormat::bgr;
  else if (image.type() == CV_8UC4)
    format = imageio::PixelFormat::bgra;
  else
    return std::unexpected(imageio::ImageError{imageio::ImageError::Kind::bad_argument,
                                               "only 8-bit grey, BGR or BGRA pictures are written"});
  if (image.empty() || image.dims != 2)
    return std::unexpected(
        imageio::ImageError{imageio::ImageError::Kind::bad_argument, "there is no picture to write"});
  return imageio::ImageView{image.data, image.cols, image.rows, image.step[0], format};
}

imageio::Allocate into(cv::Mat& image, ImageColour colour) {
  const auto format = colour == ImageColour::grey ? imageio::PixelFormat::gray : imageio::PixelFormat::bgr;
  const int type = colour == ImageColour::grey ? CV_8UC1 : CV_8UC3;
  return [&image, format, type](int width, int height) {
    image.create(height, width, type);
    return imageio::MutableImageView{image.data, width, height, image.step[0], format};
  };
}

}  // namespace

std::expected<void, imageio::ImageError> read_image(const std::string& path, ImageColour colour,
                                                    cv::Mat& image, imageio::DecodeLimits limits) {
  const auto format = colour == ImageColour::grey ? imageio::PixelFormat::gray : imageio::PixelFormat::bgr;
  return imageio::read_image(path, format, into(image, colour), limits);
}

std::expected<void, imageio::ImageError> write_image(const std::string& path, const cv::Mat& image,
                                                     imageio::WriteOptions options) {
  auto view = view_of(image);
  if (!view) {
    auto error = view.error();
    error.message = path + ": " + error.message;
    return std::unexpected(error);
  }
  return imageio::write_image(path, *view, options);
}

std::expected<void, imageio::ImageError> jpeg_round_trip(cv::Mat& image, int quality) {
  auto view = view_of(image);
  if (!view) return std::unexpected(view.error());
  auto jpeg = imageio::encode_jpeg(*view, quality);
  if (!jpeg) return std::unexpected(jpeg.error());
  return imageio::decode_jpeg(*jpeg, view->format,
                              into(image, image.type() == CV_8UC1 ? ImageColour::grey : ImageColour::colour));
}

}  // namespace bb::vision
