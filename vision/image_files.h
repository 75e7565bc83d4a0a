#pragma once

// OpenCV images through bb_imageio (libjpeg-turbo, libpng) instead of OpenCV's imgcodecs, which would load
// some 140 shared libraries into the service. Owns nothing; never touches a file it was not named.
// Any thread may call these on its own images.

#include <expected>
#include <string>

#include "imageio/image_codec.h"

namespace cv {
class Mat;
}

namespace bb::vision {

enum class ImageColour { colour, grey };  // 8-bit BGR (CV_8UC3) or 8-bit grey (CV_8UC1)

// Reads a PNG or JPEG into `image` (reallocated only when its size or type differ).
std::expected<void, imageio::ImageError> read_image(const std::string& path, ImageColour colour,
                                                    cv::Mat& image, imageio::DecodeLimits limits = {});
// Writes an 8-bit grey, BGR or BGRA image as .png, .jpg or .jpeg (by the path's extension).
std::expected<void, imageio::ImageError> write_image(const std::string& path, const cv::Mat& image,
                                                     imageio::WriteOptions options = {});
// Encodes `image` (8-bit grey or BGR) as JPEG at `quality` and decodes it back into `image`: what a camera's
// MJPEG stream does to a picture, bit for bit as OpenCV's imencode/imdecode do it.
std::expected<void, imageio::ImageError> jpeg_round_trip(cv::Mat& image, int quality);

}  // namespace bb::vision
