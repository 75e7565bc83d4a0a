#include "peripherals/spidev_transport.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <linux/spi/spidev.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace bb::peripherals {

std::string spidev_open_error(const std::string& path, int error_number) {
  switch (error_number) {
    case ENOENT:
      return fmt::format(
          "{} does not exist: enable SPI (sudo raspi-config nonint do_spi 0, or dtparam=spi=on in "
          "/boot/firmware/config.txt) and reboot",
          path);
    case EACCES:
    case EPERM:
      return fmt::format(
          "permission denied opening {}: add the user to the spi group (sudo usermod -aG spi $USER)", path);
    case EBUSY:
      return fmt::format("{} is busy: another program holds the SPI device", path);
    default:
      return fmt::format("cannot open {}: {}", path, std::strerror(error_number));
  }
}

std::expected<std::unique_ptr<SpidevTransport>, std::string> SpidevTransport::open(const std::string& path,
                                                                                   std::uint32_t speed_hz) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) return std::unexpected(spidev_open_error(path, errno));
  std::uint8_t mode = SPI_MODE_0;
  std::uint8_t bits = 8;
  if (ioctl(fd, SPI_IOC_WR_MODE, &mode) != 0 || ioctl(fd, SPI_IOC_WR_BITS_PER_WORD, &bits) != 0 ||
      ioctl(fd, SPI_IOC_WR_MAX_SPEED_HZ, &speed_hz) != 0) {
    const int error = errno;
    ::close(fd);
    return std::unexpected(fmt::format("{} refused SPI mode 0 at {} Hz: {} (is it a spidev node?)", path,
                                       speed_hz, std::strerror(error)));
  }
  return std::unique_ptr<SpidevTransport>(new SpidevTransport(fd, speed_hz));
}

SpidevTransport::~SpidevTransport() { ::close(fd_); }

std::expected<std::vector<std::uint8_t>, std::string> SpidevTransport::transfer(
    std::span<const std::uint8_t> tx) {
  std::vector<std::uint8_t> rx(tx.size(), 0);
  spi_ioc_transfer message{};
  message.tx_buf = reinterpret_cast<std::uintptr_t>(tx.data());
  message.rx_buf = reinterpret_cast<std::uintptr_t>(rx.data());
  message.len = static_cast<std::uint32_t>(tx.size());
  message.speed_hz = speed_hz_;
  message.bits_per_word = 8;
  if (ioctl(fd_, SPI_IOC_MESSAGE(1), &message) < 0) {
    return std::unexpected(fmt::format("SPI transfer failed: {}", std::strerror(errno)));
  }
  return rx;
}

}  // namespace bb::peripherals
