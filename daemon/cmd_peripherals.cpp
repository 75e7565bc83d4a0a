#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <fstream>
#include <iostream>
#include <memory>

#include "daemon/commands.h"
#include "daemon/stop_request.h"
#include "peripherals/device_factory.h"
#include "peripherals/edge_device.h"
#include "peripherals/gpio.h"
#include "peripherals/probe.h"
#include "peripherals/simulated_edge_source.h"
#include "peripherals/simulated_rc522_device.h"
#include "peripherals/trace.h"
#include "peripherals/wiegand_decoder.h"

namespace bb::daemon {

namespace {

namespace pp = bb::peripherals;

struct ProbeOptions {
  std::string trace;
  std::string device = "wiegand";
  std::string chip = "gpiochip0";
  std::string lines;
  bool simulate = false;
  std::string spi = "/dev/spidev0.0";
  std::string reset = "GPIO22";
  double seconds = 0;
};

// One file descriptor, closed at the end of its scope.
class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  ~UniqueFd() { reset(); }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  int get() const { return fd_; }
  void reset(int fd = -1) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }

 private:
  int fd_ = -1;
};

// The simulator watches its input with epoll, which takes a terminal or a pipe but refuses a regular file
// ("probe --simulate < commands.txt"). A file's commands are handed over through a pipe instead, filled at
// once (a command file is small: at most the pipe's size, 1 MiB). Returns the fd to read commands from, or
// why the input cannot be used. `keep` owns the pipe's read end.
std::expected<int, std::string> simulator_input(UniqueFd& keep) {
  struct stat info {};
  if (::fstat(STDIN_FILENO, &info) != 0) return std::unexpected(std::string("cannot examine standard input"));
  if (S_ISFIFO(info.st_mode) || S_ISSOCK(info.st_mode) || isatty(STDIN_FILENO)) return STDIN_FILENO;
  // /dev/null: no commands, as an empty file.
  const bool null_device = S_ISCHR(info.st_mode) && info.st_rdev == makedev(1, 3);
  if (null_device) info.st_size = 0;
  if (!S_ISREG(info.st_mode) && !null_device) {
    return std::unexpected(std::string(
        "standard input is a device that is not a terminal (for example /dev/zero): give the simulator's "
        "commands from a terminal, a pipe or a file"));
  }
  constexpr off_t kMaxCommandBytes = 1 << 20;
  if (info.st_size > kMaxCommandBytes) {
    return std::unexpected(fmt::format("the command file on standard input is {} bytes; at most {} are read",
                                       info.st_size, kMaxCommandBytes));
  }
  int ends[2];
  if (::pipe2(ends, O_CLOEXEC) != 0)
    return std::unexpected(std::string("cannot make a pipe for the commands"));
  keep.reset(ends[0]);
  UniqueFd writer(ends[1]);
  if (info.st_size > 65536 && ::fcntl(writer.get(), F_SETPIPE_SZ, static_cast<int>(kMaxCommandBytes)) < 0)
    return std::unexpected(std::string("the command file is larger than this system's pipes take"));
  std::string text(static_cast<std::size_t>(info.st_size), '\0');
  std::size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::read(STDIN_FILENO, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // the file shrank meanwhile: what was read is what there is
    done += static_cast<std::size_t>(n);
  }
  for (std::size_t written = 0; written < done;) {
    ssize_t n = ::write(writer.get(), text.data() + written, done - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return std::unexpected(std::string("cannot hand the commands to the simulator"));
    written += static_cast<std::size_t>(n);
  }
  return keep.get();  // the writer closes here: the simulator reads the commands, then the end
}

int run_probe(const ProbeOptions& o) {
  auto print = [](const pp::PeripheralEvent& event) {
    fmt::print("{}\n", pp::to_json_line(event));
    std::fflush(stdout);
  };
  if (!o.trace.empty()) {
    auto trace = pp::load_trace(o.trace);
    if (!trace) {
      fmt::print(stderr, "boardbank probe: {}\n", trace.error());
      return 2;
    }
    auto events = pp::decode_trace(*trace);
    if (!events) {
      fmt::print(stderr, "boardbank probe: {}\n", events.error());
      return 2;
    }
    for (const auto& event : *events) print(event);
    return 0;
  }
  pp::DeviceConfig config;
  config.kind = o.device;
  config.chip = o.chip;
  config.spi_device = o.spi;
  config.reset_line = o.reset;
  if (!o.lines.empty()) {
    auto lines = pp::parse_line_list(o.device, o.lines);
    if (!lines) {
      fmt::print(stderr, "boardbank probe: {}\n", lines.error());
      return 2;
    }
    config.lines = *lines;
  }
  UniqueFd command_pipe;
  if (o.simulate) {
    config.backend = "simulated";
    auto input = simulator_input(command_pipe);
    if (!input) {
      fmt::print(stderr, "boardbank probe: {}\n", input.error());
      return 2;
    }
    config.input_fd = *input;
    if (isatty(STDIN_FILENO)) {
      fmt::print(stderr, "simulated {}: type {} (Ctrl-D ends)\n", o.device,
                 o.device == "wiegand" ? "'card 1A2B3C'"
                 : o.device == "dice"  ? "'roll 3 4', 'rolling' or 'unplug'"
                 : o.device == "rc522" ? "'tap 04A1B2C3D4E5F6', 'card HEX', 'remove HEX' or 'clear'"
                                       : "'press'");
    }
  }
  auto device = pp::open_device(config);
  if (!device) {
    fmt::print(stderr, "boardbank probe: {}\n", device.error());
    return 2;
  }
  if (!o.simulate)
    fmt::print(stderr, "probing {} via {} (Ctrl-C ends)\n", o.device, pp::gpio_backend_description());
  StopRequest stop;
  const pp::Nanoseconds start = pp::monotonic_now();
  const auto limit = static_cast<pp::Nanoseconds>(o.seconds * 1e9);
  pp::Nanoseconds input_closed_at = 0;
  auto keep_going = [&] {
    if (stop.requested() || (limit > 0 && pp::monotonic_now() - start >= limit)) return false;
    // Piped commands: once the input ends, give the last frame time to finish (Wiegand gap, dice strobe).
    if (o.simulate) {
      auto* edge_device = dynamic_cast<pp::EdgeDevice*>(device->get());
      auto* simulated =
          edge_device ? dynamic_cast<pp::SimulatedEdgeSource*>(&edge_device->source()) : nullptr;
      auto* reader = dynamic_cast<pp::SimulatedRc522Device*>(device->get());
      if ((simulated && simulated->input_closed()) || (reader && reader->input_closed())) {
        if (input_closed_at == 0) input_closed_at = pp::monotonic_now();
        return pp::monotonic_now() - input_closed_at < 300 * pp::kMillisecond;
      }
    }
    return true;
  };
  auto ran = pp::run_devices({device->get()}, print, keep_going);
  if (!ran) {
    fmt::print(stderr, "boardbank probe: {}\n", ran.error());
    return 1;
  }
  return 0;
}

struct RecordOptions {
  std::string device = "wiegand";
  std::string chip = "gpiochip0";
  std::string lines;
  std::string spi = "/dev/spidev0.0";
  std::string reset = "GPIO22";
  std::string out;
  double seconds = 0;
};

// The RC522 speaks SPI: its trace holds the driver's transfers, recorded while the driver reads cards as
// the daemon would; the taps go to stderr so whoever holds the cards sees each one was read.
int run_record_rc522(const RecordOptions& o, std::ostream& out, StopRequest& stop) {
  pp::Rc522RecordRequest request;
  request.spi_device = o.spi;
  request.chip = o.chip;
  request.reset_line = o.reset;
  auto recorded = pp::record_rc522_on_pi(
      request, static_cast<pp::Nanoseconds>(o.seconds * 1e9), out,
      [](const pp::PeripheralEvent& event) { fmt::print(stderr, "{}\n", pp::to_json_line(event)); },
      [&stop] { return !stop.requested(); });
  if (!recorded) {
    fmt::print(stderr, "boardbank record-gpio: {}\n", recorded.error());
    return 2;
  }
  fmt::print(stderr, "recorded {} SPI transfers\n", *recorded);
  return 0;
}

int run_record(const RecordOptions& o) {
  pp::EdgeLinesRequest request;
  request.chip = o.chip;
  request.consumer = "boardbank-record";
  if (o.device == "rc522") {
    // An SPI device: --lines does not apply, --spi and --reset say where it is.
  } else if (o.lines.empty()) {
    request.lines = pp::default_lines(o.device);
  } else {
    auto lines = pp::parse_line_list(o.device, o.lines);
    if (!lines) {
      fmt::print(stderr, "boardbank record-gpio: {}\n", lines.error());
      return 2;
    }
    request.lines = *lines;
  }
  std::ofstream file;
  if (!o.out.empty() && o.out != "-") {
    file.open(o.out);
    if (!file) {
      fmt::print(stderr, "boardbank record-gpio: cannot write {}: check the path\n", o.out);
      return 2;
    }
  }
  std::ostream& out = file.is_open() ? static_cast<std::ostream&>(file) : std::cout;
  StopRequest stop;
  if (o.device == "rc522") return run_record_rc522(o, out, stop);
  auto recorded = pp::record_gpio(o.device, request, static_cast<pp::Nanoseconds>(o.seconds * 1e9), out,
                                  [&stop] { return !stop.requested(); });
  if (!recorded) {
    fmt::print(stderr, "boardbank record-gpio: {}\n", recorded.error());
    return 2;
  }
  fmt::print(stderr, "recorded {} edges\n", *recorded);
  return 0;
}

}  // namespace

void add_peripheral_commands(CLI::App& app) {
  auto probe_opts = std::make_shared<ProbeOptions>();
  auto* probe = app.add_subcommand("probe",
                                   "Print what the dice and card readers read, one JSON object per line (a "
                                   "trace, the GPIO lines, or a simulation)");
  probe->add_option("--trace", probe_opts->trace, "Decode a recorded trace file instead of live lines");
  probe->add_option("--device", probe_opts->device, "wiegand, dice, button or rc522")
      ->check(CLI::IsMember({"wiegand", "dice", "button", "rc522"}));
  probe->add_option("--chip", probe_opts->chip, "GPIO chip, as gpiodetect names it");
  probe->add_option("--lines", probe_opts->lines,
                    "Lines in role order (GPIO5,GPIO6) or by role (d0=GPIO5,d1=GPIO6)");
  probe->add_flag("--simulate", probe_opts->simulate,
                  "Simulated device: commands from the terminal or a pipe");
  probe->add_option("--spi", probe_opts->spi, "rc522: the spidev node");
  probe->add_option("--reset", probe_opts->reset, "rc522: its RST line on --chip ('' for none)");
  probe->add_option("--seconds", probe_opts->seconds, "Stop after this long (default: Ctrl-C)")
      ->check(CLI::Range(0.0, 31'536'000.0));
  probe->callback([probe_opts] { std::exit(run_probe(*probe_opts)); });

  auto record_opts = std::make_shared<RecordOptions>();
  auto* record = app.add_subcommand(
      "record-gpio",
      "Record a device's GPIO edges (or an RC522's SPI transfers) as a trace, to replay into tests");
  record->add_option("--device", record_opts->device, "wiegand, dice, button or rc522")
      ->check(CLI::IsMember({"wiegand", "dice", "button", "rc522"}));
  record->add_option("--chip", record_opts->chip, "GPIO chip, as gpiodetect names it");
  record->add_option("--lines", record_opts->lines,
                     "Lines in role order or by role (default: docs/hardware.md)");
  record->add_option("--spi", record_opts->spi, "rc522: the spidev node");
  record->add_option("--reset", record_opts->reset, "rc522: its RST line on --chip ('' for none)");
  record->add_option("-o,--out", record_opts->out, "Trace file to write (default: standard output)");
  record->add_option("--seconds", record_opts->seconds, "Stop after this long (default: Ctrl-C)")
      ->check(CLI::Range(0.0, 31'536'000.0));
  record->callback([record_opts] { std::exit(run_record(*record_opts)); });
}

}  // namespace bb::daemon
