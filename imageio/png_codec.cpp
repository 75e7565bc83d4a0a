// PNG through libpng's simplified interface (png_image_*, libpng 1.6.29 or newer): it reports errors in the
// png_image's message instead of longjmp'ing through our frames, and converts any stored colour type and
// bit depth to the 8-bit format asked for.
#include <fmt/format.h>
#include <png.h>

#include "imageio/image_codec.h"

namespace bb::imageio {

namespace {

png_uint_32 png_format(PixelFormat format) {
  switch (format) {
    case PixelFormat::gray:
      return PNG_FORMAT_GRAY;
    case PixelFormat::bgr:
      return PNG_FORMAT_BGR;
    case PixelFormat::rgb:
      return PNG_FORMAT_RGB;
    case PixelFormat::bgra:
      return PNG_FORMAT_BGRA;
    case PixelFormat::rgba:
      return PNG_FORMAT_RGBA;
  }
  return PNG_FORMAT_RGB;
}

// Frees what libpng allocated for an image on every way out.
struct ImageGuard {
  png_image* image;
  ~ImageGuard() { png_image_free(image); }
};

}  // namespace

std::expected<std::vector<std::uint8_t>, ImageError> encode_png(const ImageView& view, bool fast) {
  if (view.pixels == nullptr || view.width <= 0 || view.height <= 0)
    return std::unexpected(ImageError{ImageError::Kind::bad_argument, "there is no picture to encode"});
  const auto row = static_cast<std::size_t>(view.width * channels(view.format));
  if (view.stride < row)
    return std::unexpected(ImageError{ImageError::Kind::bad_argument, "the rows overlap (stride too small)"});
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  image.width = static_cast<png_uint_32>(view.width);
  image.height = static_cast<png_uint_32>(view.height);
  image.format = png_format(view.format);
  image.flags = fast ? PNG_IMAGE_FLAG_FAST : 0;
  ImageGuard guard{&image};
  // The stride counts components; with 8-bit components that is bytes.
  const auto stride = static_cast<png_int_32>(view.stride);
  png_alloc_size_t size = 0;
  if (!png_image_write_to_memory(&image, nullptr, &size, 0, view.pixels, stride, nullptr))
    return std::unexpected(
        ImageError{ImageError::Kind::bad_argument, std::string("PNG encoder: ") + image.message});
  std::vector<std::uint8_t> out(size);
  if (!png_image_write_to_memory(&image, out.data(), &size, 0, view.pixels, stride, nullptr))
    return std::unexpected(
        ImageError{ImageError::Kind::bad_argument, std::string("PNG encoder: ") + image.message});
  out.resize(size);
  return out;
}

std::expected<void, ImageError> decode_png(std::span<const std::uint8_t> bytes, PixelFormat format,
                                           const Allocate& allocate, DecodeLimits limits) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  ImageGuard guard{&image};
  if (!png_image_begin_read_from_memory(&image, bytes.data(), bytes.size()))
    return std::unexpected(
        ImageError{ImageError::Kind::not_an_image, std::string("not a PNG: ") + image.message});
  const long long width = image.width, height = image.height;
  if (width * height > limits.max_pixels)
    return std::unexpected(ImageError{
        ImageError::Kind::too_large,
        fmt::format("the PNG is {}x{} pixels, more than the {} allowed", width, height, limits.max_pixels)});
  image.format = png_format(format);
  const MutableImageView out = allocate(static_cast<int>(width), static_cast<int>(height));
  if (out.pixels == nullptr || out.width < width || out.height < height || out.format != format)
    return std::unexpected(
        ImageError{ImageError::Kind::bad_argument, "no room was given for the decoded pixels"});
  // Composited on white where the format asked for has no alpha: a transparent screenshot reads as paper.
  const png_color white{255, 255, 255};
  if (!png_image_finish_read(&image, &white, out.pixels, static_cast<png_int_32>(out.stride), nullptr))
    return std::unexpected(
        ImageError{ImageError::Kind::damaged, std::string("damaged PNG: ") + image.message});
  return {};
}

}  // namespace bb::imageio
