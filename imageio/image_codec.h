#pragma once

// JPEG (libjpeg-turbo) and PNG (libpng) images to and from plain 8-bit pixel buffers.
//
// Owns nothing but the buffers it returns. It exists so that the service never loads OpenCV's imgcodecs
// (which pulls in some 140 libraries: TIFF, WebP, OpenEXR, GDAL, DICOM, ...) nor SDL2_image: the demo's
// virtual camera round-trips each 720p frame through JPEG here, the display saves its screens as PNG here,
// and the vision module reads and writes its image files here. Must never: include a C library header in this
// header (jpeglib.h, png.h stay in the .cpp files), know about OpenCV or SDL (callers wrap their own pixel
// types in an ImageView), or throw: every failure is an ImageError whose message names the file or says what
// is wrong. Thread safety: every function is reentrant; any thread may call it on its own buffers.

#include <cstddef>
#include <cstdint>
#include <expected>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace bb::imageio {

// 8 bits per channel, channels in the order named (bgr: blue first, as OpenCV keeps them).
enum class PixelFormat : std::uint8_t { gray, bgr, rgb, bgra, rgba };
int channels(PixelFormat format);

enum class FileFormat : std::uint8_t { png, jpeg };

// Pixels the caller owns, rows `stride` bytes apart (at least width * channels).
struct ImageView {
  const std::uint8_t* pixels = nullptr;
  int width = 0;
  int height = 0;
  std::size_t stride = 0;
  PixelFormat format = PixelFormat::bgr;
};

struct MutableImageView {
  std::uint8_t* pixels = nullptr;
  int width = 0;
  int height = 0;
  std::size_t stride = 0;
  PixelFormat format = PixelFormat::bgr;
};

// An image this module decoded: tightly packed rows.
struct Image {
  int width = 0;
  int height = 0;
  PixelFormat format = PixelFormat::bgr;
  std::vector<std::uint8_t> pixels;
  ImageView view() const;
};

struct ImageError {
  enum class Kind : std::uint8_t {
    cannot_read,   // the file is missing or unreadable
    cannot_write,  // the file or its folder cannot be written
    not_an_image,  // neither PNG nor JPEG by its first bytes
    damaged,       // the decoder gave up part way
    too_large,     // more pixels than the caller allows
    bad_argument,  // an empty view, a quality out of range, a format the codec cannot store
  };
  Kind kind;
  std::string message;
};

// Decoding allocates the caller's pixels once the size is known: `allocate(width, height)` returns where the
// decoded rows go (the format asked for, at least that size). Returning a view with null pixels refuses.
using Allocate = std::function<MutableImageView(int width, int height)>;

struct DecodeLimits {
  long long max_pixels = 100'000'000;  // refused before any pixel buffer is allocated
};

// The width, height and format from a file's first bytes, without decoding it; an error when the bytes are
// not a PNG or JPEG header.
struct ImageHeader {
  FileFormat format = FileFormat::png;
  long long width = 0;
  long long height = 0;
};
std::expected<ImageHeader, ImageError> read_header(std::span<const std::uint8_t> bytes);
std::expected<ImageHeader, ImageError> read_header_of_file(const std::string& path);

// quality 1..100, as libjpeg (and OpenCV's IMWRITE_JPEG_QUALITY) count it; 4:2:0 chroma, baseline.
// `view.format` gray, bgr or rgb.
std::expected<std::vector<std::uint8_t>, ImageError> encode_jpeg(const ImageView& view, int quality);
// `format` gray, bgr or rgb; the decoder's defaults (accurate integer DCT, smooth upsampling), as OpenCV's.
std::expected<void, ImageError> decode_jpeg(std::span<const std::uint8_t> bytes, PixelFormat format,
                                            const Allocate& allocate, DecodeLimits limits = {});

// Any format; `fast` trades size for speed (zlib level 1 instead of the default).
std::expected<std::vector<std::uint8_t>, ImageError> encode_png(const ImageView& view, bool fast = false);
std::expected<void, ImageError> decode_png(std::span<const std::uint8_t> bytes, PixelFormat format,
                                           const Allocate& allocate, DecodeLimits limits = {});

// PNG or JPEG by the bytes' signature.
std::expected<void, ImageError> decode_image(std::span<const std::uint8_t> bytes, PixelFormat format,
                                             const Allocate& allocate, DecodeLimits limits = {});
std::expected<Image, ImageError> decode_image(std::span<const std::uint8_t> bytes, PixelFormat format,
                                              DecodeLimits limits = {});

// Files. Reading goes by the file's signature, writing by its extension (.png, .jpg, .jpeg; any case);
// an unknown extension is refused with the ones known. A file is written whole or not at all (a
// temporary beside it is renamed into place).
std::expected<std::vector<std::uint8_t>, ImageError> read_file_bytes(const std::string& path);
std::expected<void, ImageError> read_image(const std::string& path, PixelFormat format,
                                           const Allocate& allocate, DecodeLimits limits = {});
std::expected<Image, ImageError> read_image(const std::string& path, PixelFormat format,
                                            DecodeLimits limits = {});
struct WriteOptions {
  int jpeg_quality = 95;  // OpenCV's default for imwrite
  bool fast_png = false;
};
std::expected<void, ImageError> write_image(const std::string& path, const ImageView& view,
                                            WriteOptions options = {});

}  // namespace bb::imageio
