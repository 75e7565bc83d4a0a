// Images as files: the format by signature (reading) or by extension (writing), headers read without
// decoding, a file written whole through a temporary beside it.
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <filesystem>
#include <fstream>

#include "imageio/image_codec.h"

namespace bb::imageio {

namespace {

// A file larger than this is not a camera frame or a set-up picture; it is refused before it is read.
constexpr std::uintmax_t kMaxFileBytes = 256u * 1024u * 1024u;

bool is_png(std::span<const std::uint8_t> b) {
  return b.size() >= 8 && b[0] == 0x89 && b[1] == 'P' && b[2] == 'N' && b[3] == 'G' && b[4] == '\r' &&
         b[5] == '\n' && b[6] == 0x1A && b[7] == '\n';
}
bool is_jpeg(std::span<const std::uint8_t> b) { return b.size() >= 3 && b[0] == 0xFF && b[1] == 0xD8; }

ImageError not_an_image() { return ImageError{ImageError::Kind::not_an_image, "not a PNG or JPEG picture"}; }

// The JPEG frame header (SOFn) holds the size; it follows the application segments. `read(at, n, out)`
// reads n bytes at offset `at`, false past the end.
template <typename Read>
std::expected<ImageHeader, ImageError> jpeg_header(Read read) {
  std::size_t at = 2;
  for (int segment = 0; segment < 64; ++segment) {
    std::array<std::uint8_t, 4> marker{};
    if (!read(at, 4, marker.data()) || marker[0] != 0xFF)
      return std::unexpected(ImageError{ImageError::Kind::damaged, "damaged JPEG: no frame header"});
    const int type = marker[1];
    const std::size_t length = static_cast<std::size_t>((marker[2] << 8) | marker[3]);
    const bool frame_header = type >= 0xC0 && type <= 0xCF && type != 0xC4 && type != 0xC8 && type != 0xCC;
    if (frame_header) {
      std::array<std::uint8_t, 5> sof{};
      if (!read(at + 4, 5, sof.data()))
        return std::unexpected(ImageError{ImageError::Kind::damaged, "damaged JPEG: short frame header"});
      return ImageHeader{FileFormat::jpeg, (sof[3] << 8) | sof[4], (sof[1] << 8) | sof[2]};
    }
    if (length < 2)
      return std::unexpected(ImageError{ImageError::Kind::damaged, "damaged JPEG: bad segment"});
    at += 2 + length;
  }
  return std::unexpected(
      ImageError{ImageError::Kind::damaged, "damaged JPEG: no frame header in 64 segments"});
}

long long be32(const std::uint8_t* p) {
  return (static_cast<long long>(p[0]) << 24) | (p[1] << 16) | (p[2] << 8) | p[3];
}

std::string lower_extension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext;
}

ImageError with_path(ImageError error, const std::string& path) {
  error.message = path + ": " + error.message;
  return error;
}

}  // namespace

int channels(PixelFormat format) {
  switch (format) {
    case PixelFormat::gray:
      return 1;
    case PixelFormat::bgr:
    case PixelFormat::rgb:
      return 3;
    case PixelFormat::bgra:
    case PixelFormat::rgba:
      return 4;
  }
  return 3;
}

ImageView Image::view() const {
  return ImageView{pixels.data(), width, height, static_cast<std::size_t>(width * channels(format)), format};
}

std::expected<ImageHeader, ImageError> read_header(std::span<const std::uint8_t> bytes) {
  if (is_png(bytes)) {
    if (bytes.size() < 24)
      return std::unexpected(ImageError{ImageError::Kind::damaged, "damaged PNG: short header"});
    return ImageHeader{FileFormat::png, be32(bytes.data() + 16), be32(bytes.data() + 20)};
  }
  if (!is_jpeg(bytes)) return std::unexpected(not_an_image());
  return jpeg_header([&](std::size_t at, std::size_t n, std::uint8_t* out) {
    if (at + n > bytes.size()) return false;
    std::copy_n(bytes.data() + at, n, out);
    return true;
  });
}

std::expected<ImageHeader, ImageError> read_header_of_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return std::unexpected(
        ImageError{ImageError::Kind::cannot_read, path + ": cannot be opened for reading"});
  std::array<std::uint8_t, 24> head{};
  in.read(reinterpret_cast<char*>(head.data()), head.size());
  const auto got = static_cast<std::size_t>(in.gcount());
  const std::span<const std::uint8_t> start(head.data(), got);
  if (is_png(start) || !is_jpeg(start)) {
    auto header = read_header(start);
    if (!header) return std::unexpected(with_path(header.error(), path));
    return header;
  }
  in.clear();
  auto header = jpeg_header([&](std::size_t at, std::size_t n, std::uint8_t* out) {
    in.clear();
    in.seekg(static_cast<std::streamoff>(at));
    return static_cast<bool>(in.read(reinterpret_cast<char*>(out), static_cast<std::streamsize>(n)));
  });
  if (!header) return std::unexpected(with_path(header.error(), path));
  return header;
}

std::expected<void, ImageError> decode_image(std::span<const std::uint8_t> bytes, PixelFormat format,
                                             const Allocate& allocate, DecodeLimits limits) {
  if (is_png(bytes)) return decode_png(bytes, format, allocate, limits);
  if (is_jpeg(bytes)) return decode_jpeg(bytes, format, allocate, limits);
  return std::unexpected(not_an_image());
}

std::expected<Image, ImageError> decode_image(std::span<const std::uint8_t> bytes, PixelFormat format,
                                              DecodeLimits limits) {
  Image image;
  auto done = decode_image(
      bytes, format,
      [&image, format](int width, int height) {
        image.width = width;
        image.height = height;
        image.format = format;
        const auto stride = static_cast<std::size_t>(width * channels(format));
        image.pixels.resize(stride * static_cast<std::size_t>(height));
        return MutableImageView{image.pixels.data(), width, height, stride, format};
      },
      limits);
  if (!done) return std::unexpected(done.error());
  return image;
}

std::expected<std::vector<std::uint8_t>, ImageError> read_file_bytes(const std::string& path) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec)
    return std::unexpected(
        ImageError{ImageError::Kind::cannot_read, path + ": cannot be read: " + ec.message()});
  if (size > kMaxFileBytes)
    return std::unexpected(ImageError{ImageError::Kind::too_large,
                                      fmt::format("{}: {} bytes, more than a picture may have", path, size)});
  std::ifstream in(path, std::ios::binary);
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(size));
  if (!in || !in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size())))
    return std::unexpected(ImageError{ImageError::Kind::cannot_read, path + ": cannot be read"});
  return bytes;
}

std::expected<void, ImageError> read_image(const std::string& path, PixelFormat format,
                                           const Allocate& allocate, DecodeLimits limits) {
  auto bytes = read_file_bytes(path);
  if (!bytes) return std::unexpected(bytes.error());
  auto done = decode_image(*bytes, format, allocate, limits);
  if (!done) return std::unexpected(with_path(done.error(), path));
  return {};
}

std::expected<Image, ImageError> read_image(const std::string& path, PixelFormat format,
                                            DecodeLimits limits) {
  auto bytes = read_file_bytes(path);
  if (!bytes) return std::unexpected(bytes.error());
  auto image = decode_image(*bytes, format, limits);
  if (!image) return std::unexpected(with_path(image.error(), path));
  return image;
}

std::expected<void, ImageError> write_image(const std::string& path, const ImageView& view,
                                            WriteOptions options) {
  const std::string ext = lower_extension(path);
  std::expected<std::vector<std::uint8_t>, ImageError> encoded;
  if (ext == ".png")
    encoded = encode_png(view, options.fast_png);
  else if (ext == ".jpg" || ext == ".jpeg")
    encoded = encode_jpeg(view, options.jpeg_quality);
  else
    return std::unexpected(
        ImageError{ImageError::Kind::bad_argument,
                   fmt::format("{}: a picture is written as .png, .jpg or .jpeg, not '{}'", path, ext)});
  if (!encoded) return std::unexpected(with_path(encoded.error(), path));
  namespace fs = std::filesystem;
  const fs::path target(path);
  fs::path temporary = target;
  temporary += fmt::format(".{}.partial", ::getpid());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out ||
        !out.write(reinterpret_cast<const char*>(encoded->data()),
                   static_cast<std::streamsize>(encoded->size())) ||
        !out.flush()) {
      std::error_code ignored;
      fs::remove(temporary, ignored);
      return std::unexpected(
          ImageError{ImageError::Kind::cannot_write,
                     path + ": cannot be written; check the folder exists and is writable"});
    }
  }
  std::error_code ec;
  fs::rename(temporary, target, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(temporary, ignored);
    return std::unexpected(
        ImageError{ImageError::Kind::cannot_write, path + ": cannot be written: " + ec.message()});
  }
  return {};
}

}  // namespace bb::imageio
