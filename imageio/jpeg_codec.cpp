// JPEG through libjpeg-turbo's libjpeg 6.2 interface. libjpeg reports errors by calling error_exit, which
// must not return: it longjmps back to the function that set the jump. Only trivially destructible objects
// live between a setjmp and its longjmp here, so nothing is skipped that needed destroying.
#include <fmt/format.h>

// clang-format off
#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <jpeglib.h>
// clang-format on

#include "imageio/image_codec.h"

namespace bb::imageio {

namespace {

static_assert(JCS_EXTENSIONS, "libjpeg-turbo's extended colour spaces (JCS_EXT_BGR) are needed");

struct ErrorManager {
  jpeg_error_mgr base;
  std::jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
};

void on_error(j_common_ptr info) {
  auto* manager = reinterpret_cast<ErrorManager*>(info->err);
  (*info->err->format_message)(info, manager->message);
  std::longjmp(manager->jump, 1);
}

// Corrupt-data warnings are not fatal for libjpeg; a frame with a damaged tail still decodes, as with OpenCV.
void on_message(j_common_ptr /*info*/, int /*level*/) {}

J_COLOR_SPACE colour_space(PixelFormat format) {
  switch (format) {
    case PixelFormat::gray:
      return JCS_GRAYSCALE;
    case PixelFormat::bgr:
      return JCS_EXT_BGR;
    case PixelFormat::rgb:
      return JCS_RGB;
    default:
      return JCS_UNKNOWN;
  }
}

// Plain data only: the caller turns it into an ImageError.
struct EncodeResult {
  unsigned char* bytes = nullptr;  // malloc'd by libjpeg
  unsigned long size = 0;
  bool failed = false;
  char message[JMSG_LENGTH_MAX] = {};
};

void encode_raw(const ImageView& view, int quality, EncodeResult& result) {
  jpeg_compress_struct info{};
  ErrorManager errors{};
  info.err = jpeg_std_error(&errors.base);
  errors.base.error_exit = on_error;
  errors.base.emit_message = on_message;
  if (setjmp(errors.jump)) {
    std::snprintf(result.message, sizeof result.message, "%s", errors.message);
    result.failed = true;
    jpeg_destroy_compress(&info);
    std::free(result.bytes);
    result.bytes = nullptr;
    return;
  }
  jpeg_create_compress(&info);
  jpeg_mem_dest(&info, &result.bytes, &result.size);
  info.image_width = static_cast<JDIMENSION>(view.width);
  info.image_height = static_cast<JDIMENSION>(view.height);
  info.input_components = channels(view.format);
  info.in_color_space = colour_space(view.format);
  jpeg_set_defaults(&info);
  jpeg_set_quality(&info, quality, TRUE);
  jpeg_start_compress(&info, TRUE);
  while (info.next_scanline < info.image_height) {
    // libjpeg's interface takes non-const rows; it only reads them.
    auto* row = const_cast<JSAMPLE*>(view.pixels + info.next_scanline * view.stride);
    jpeg_write_scanlines(&info, &row, 1);
  }
  jpeg_finish_compress(&info);
  jpeg_destroy_compress(&info);
}

enum class DecodeStop { done, failed, refused, too_large };

struct DecodeState {
  DecodeStop stop = DecodeStop::done;
  char message[JMSG_LENGTH_MAX] = {};
  long long width = 0;
  long long height = 0;
};

// `allocate` is called between setjmp and any longjmp that could follow it only through a pointer; the
// std::function itself lives in the caller's frame.
void decode_raw(std::span<const std::uint8_t> bytes, PixelFormat format, const Allocate* allocate,
                long long max_pixels, DecodeState& state) {
  jpeg_decompress_struct info{};
  ErrorManager errors{};
  info.err = jpeg_std_error(&errors.base);
  errors.base.error_exit = on_error;
  errors.base.emit_message = on_message;
  if (setjmp(errors.jump)) {
    std::snprintf(state.message, sizeof state.message, "%s", errors.message);
    state.stop = DecodeStop::failed;
    jpeg_destroy_decompress(&info);
    return;
  }
  jpeg_create_decompress(&info);
  jpeg_mem_src(&info, bytes.data(), static_cast<unsigned long>(bytes.size()));
  jpeg_read_header(&info, TRUE);
  state.width = info.image_width;
  state.height = info.image_height;
  if (state.width * state.height > max_pixels) {
    state.stop = DecodeStop::too_large;
    jpeg_destroy_decompress(&info);
    return;
  }
  info.out_color_space = colour_space(format);
  jpeg_start_decompress(&info);
  const MutableImageView out =
      (*allocate)(static_cast<int>(info.output_width), static_cast<int>(info.output_height));
  if (out.pixels == nullptr || out.width < static_cast<int>(info.output_width) ||
      out.height < static_cast<int>(info.output_height) || out.format != format) {
    state.stop = DecodeStop::refused;
    jpeg_destroy_decompress(&info);
    return;
  }
  while (info.output_scanline < info.output_height) {
    JSAMPROW row = out.pixels + info.output_scanline * out.stride;
    jpeg_read_scanlines(&info, &row, 1);
  }
  jpeg_finish_decompress(&info);
  jpeg_destroy_decompress(&info);
}

}  // namespace

std::expected<std::vector<std::uint8_t>, ImageError> encode_jpeg(const ImageView& view, int quality) {
  if (view.pixels == nullptr || view.width <= 0 || view.height <= 0)
    return std::unexpected(ImageError{ImageError::Kind::bad_argument, "there is no picture to encode"});
  if (quality < 1 || quality > 100)
    return std::unexpected(
        ImageError{ImageError::Kind::bad_argument, fmt::format("JPEG quality {} is not 1..100", quality)});
  if (colour_space(view.format) == JCS_UNKNOWN)
    return std::unexpected(ImageError{ImageError::Kind::bad_argument,
                                      "JPEG stores grey or colour pictures, without an alpha channel"});
  if (view.stride < static_cast<std::size_t>(view.width * channels(view.format)))
    return std::unexpected(ImageError{ImageError::Kind::bad_argument, "the rows overlap (stride too small)"});
  EncodeResult result;
  encode_raw(view, quality, result);
  if (result.failed)
    return std::unexpected(
        ImageError{ImageError::Kind::bad_argument, std::string("JPEG encoder: ") + result.message});
  std::vector<std::uint8_t> out(result.bytes, result.bytes + result.size);
  std::free(result.bytes);
  return out;
}

std::expected<void, ImageError> decode_jpeg(std::span<const std::uint8_t> bytes, PixelFormat format,
                                            const Allocate& allocate, DecodeLimits limits) {
  if (colour_space(format) == JCS_UNKNOWN)
    return std::unexpected(
        ImageError{ImageError::Kind::bad_argument, "a JPEG decodes to grey, BGR or RGB pixels"});
  if (bytes.size() < 3 || bytes[0] != 0xFF || bytes[1] != 0xD8)
    return std::unexpected(
        ImageError{ImageError::Kind::not_an_image, "not a JPEG (no start-of-image marker)"});
  DecodeState state;
  decode_raw(bytes, format, &allocate, limits.max_pixels, state);
  switch (state.stop) {
    case DecodeStop::done:
      return {};
    case DecodeStop::failed:
      return std::unexpected(
          ImageError{ImageError::Kind::damaged, std::string("damaged JPEG: ") + state.message});
    case DecodeStop::too_large:
      return std::unexpected(ImageError{ImageError::Kind::too_large,
                                        fmt::format("the JPEG is {}x{} pixels, more than the {} allowed",
                                                    state.width, state.height, limits.max_pixels)});
    case DecodeStop::refused:
      break;
  }
  return std::unexpected(
      ImageError{ImageError::Kind::bad_argument, "no room was given for the decoded pixels"});
}

}  // namespace bb::imageio
