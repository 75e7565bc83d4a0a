// The libgpiod layer, compiled and linked against the real libgpiod, on a machine without GPIO: every
// error path a family can hit says what to do.
#include "peripherals/gpio.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>

#include "peripherals/device_factory.h"
#include "peripherals/gpio_diagnostics.h"

namespace bb::peripherals {
namespace {

bool has_gpio_chip() { return access("/dev/gpiochip0", F_OK) == 0; }

TEST(Gpio, NoChipSaysHowToFindOne) {
  EdgeLinesRequest request;
  request.chip = "gpiochip-that-does-not-exist";
  request.lines = {"GPIO5", "GPIO6"};
  const auto lines = open_edge_lines(request);
  ASSERT_FALSE(lines);
  EXPECT_NE(lines.error().find("not found"), std::string::npos) << lines.error();
  EXPECT_NE(lines.error().find("gpiodetect"), std::string::npos) << lines.error();
  const auto output = open_output_line("gpiochip-that-does-not-exist", "GPIO22", "test", true);
  ASSERT_FALSE(output);
  EXPECT_NE(output.error().find("gpiodetect"), std::string::npos);
}

TEST(Gpio, TheDefaultChipOnAMachineWithoutGpio) {
  if (has_gpio_chip()) GTEST_SKIP() << "this machine has GPIO";
  DeviceConfig config;
  config.kind = "wiegand";
  const auto device = open_device(config);
  ASSERT_FALSE(device);
  EXPECT_NE(device.error().find("/dev/gpiochip0 does not exist"), std::string::npos) << device.error();
}

TEST(Gpio, AFileThatIsNotAChip) {
  EdgeLinesRequest request;
  request.chip = "/dev/null";
  request.lines = {"GPIO17"};
  const auto lines = open_edge_lines(request);
  ASSERT_FALSE(lines);
  EXPECT_NE(lines.error().find("not a GPIO character device"), std::string::npos) << lines.error();
}

TEST(Gpio, KernelDebounceIsRefusedWhereItWouldSwallowPulses) {
  EdgeLinesRequest request;
  request.chip = "gpiochip0";
  request.lines = {"GPIO5", "GPIO6"};
  request.kernel_debounce = 1 * kMillisecond;
  request.shortest_pulse = 20 * kMicrosecond;
  const auto lines = open_edge_lines(request);
  ASSERT_FALSE(lines);
  EXPECT_NE(lines.error().find("swallow"), std::string::npos) << lines.error();
  EXPECT_FALSE(kernel_debounce_error(5 * kMicrosecond, 20 * kMicrosecond));
  EXPECT_FALSE(kernel_debounce_error(0, 20 * kMicrosecond));
  EXPECT_TRUE(kernel_debounce_error(20 * kMicrosecond, 20 * kMicrosecond));
}

TEST(Gpio, MessagesForBusyLinesPermissionAndUnknownLines) {
  const auto busy = line_request_error("gpiochip0", "GPIO17", EBUSY, "pigpiod");
  EXPECT_NE(busy.find("used by another process ('pigpiod')"), std::string::npos) << busy;
  EXPECT_NE(line_request_error("gpiochip0", "GPIO17", EBUSY, "").find("gpioinfo gpiochip0"),
            std::string::npos);
  EXPECT_NE(chip_open_error("gpiochip0", EACCES).find("gpio group"), std::string::npos);
  EXPECT_NE(line_request_error("gpiochip0", "GPIO17", EPERM, "").find("gpio group"), std::string::npos);
  const auto unknown = line_not_found_error("gpiochip0", "GPIO99", 54);
  EXPECT_NE(unknown.find("no line named 'GPIO99' on gpiochip0"), std::string::npos) << unknown;
  EXPECT_NE(line_not_found_error("gpiochip0", "60", 54).find("lines 0-53"), std::string::npos);
  EXPECT_EQ(line_offset("17"), 17u);
  EXPECT_FALSE(line_offset("GPIO17"));
  EXPECT_FALSE(line_offset(""));
  EXPECT_EQ(chip_path("gpiochip4"), "/dev/gpiochip4");
  EXPECT_EQ(chip_path("0"), "/dev/gpiochip0");
  EXPECT_EQ(chip_path("/dev/gpiochip0"), "/dev/gpiochip0");
}

TEST(Gpio, DescribesTheLibgpiodItWasBuiltWith) {
  const auto description = gpio_backend_description();
  EXPECT_NE(description.find("libgpiod"), std::string::npos);
  EXPECT_NE(description.find("API"), std::string::npos);
}

}  // namespace
}  // namespace bb::peripherals
