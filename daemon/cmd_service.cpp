#include <fmt/format.h>
#include <termios.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <filesystem>
#include <iostream>

#include "daemon/commands.h"
#include "daemon/config.h"
#include "daemon/config_report.h"
#include "daemon/service.h"

namespace bb::daemon {

namespace {

[[noreturn]] void fail(const std::string& verb, const std::string& message, int code = 1) {
  std::cerr << "boardbank " << verb << ": " << message << "\n";
  throw CLI::RuntimeError(code);
}

// Reads one line from stdin; on a terminal without echoing it.
std::string read_secret_line(const char* prompt) {
  const bool terminal = isatty(STDIN_FILENO) != 0;
  termios saved{};
  if (terminal) {
    std::cerr << prompt << std::flush;
    tcgetattr(STDIN_FILENO, &saved);
    termios quiet = saved;
    quiet.c_lflag &= ~static_cast<tcflag_t>(ECHO);
    tcsetattr(STDIN_FILENO, TCSANOW, &quiet);
  }
  std::string line;
  std::getline(std::cin, line);
  if (terminal) {
    tcsetattr(STDIN_FILENO, TCSANOW, &saved);
    std::cerr << "\n";
  }
  return line;
}

void check_config(const std::string& file) {
  auto config = load_config(file);
  if (!config) {
    for (const auto& problem : config.error()) std::cout << problem.to_string() << "\n";
    fail("check-config",
         fmt::format(
             "{} in {}; fix {} and run check-config again",
             config.error().size() == 1 ? "1 problem" : fmt::format("{} problems", config.error().size()),
             file, config.error().size() == 1 ? "it" : "them"),
         1);
  }
  const ConfigReport report = describe_config(*config);
  for (const auto& line : report.lines) std::cout << line << "\n";
  for (const auto& warning : report.warnings) std::cout << file << ": warning: " << warning << "\n";
  std::cout << fmt::format(
      "{}: good{}\n", file,
      report.warnings.empty() ? "" : fmt::format(" ({} warnings)", report.warnings.size()));
}

void hash_pin_command() {
  const std::string pin = read_secret_line("Banker's PIN: ");
  if (pin.size() < 4 || pin.find_first_not_of("0123456789") != std::string::npos)
    fail("hash-pin", "the PIN must be at least 4 digits (the screen's keypad has digits only)", 2);
  if (isatty(STDIN_FILENO) != 0) {
    const std::string again = read_secret_line("Again: ");
    if (again != pin) fail("hash-pin", "the two PINs differ; nothing was made", 2);
  }
  std::cout << "# in [banker] of " << Config::kDefaultFile << ":\n";
  std::cout << "pin_hash = \"" << hash_pin(pin).text << "\"\n";
}

struct RunArgs {
  std::string config = Config::kDefaultFile;
  bool headless = false;
  std::string db;
  std::string backup_dir;
  std::string editions;
};

int run_service(const RunArgs& args) {
  auto config = load_config(args.config);
  if (!config) {
    for (const auto& problem : config.error()) std::cerr << problem.to_string() << "\n";
    fail("run", "the configuration has problems; nothing was started (boardbank check-config explains them)",
         2);
  }
  if (!args.db.empty()) config->ledger.path = args.db;
  if (!args.backup_dir.empty()) config->ledger.backup_dir = args.backup_dir;
  if (!args.editions.empty()) config->editions_dir = args.editions;
  ServiceSetup setup;
  setup.config = std::move(*config);
  setup.headless = args.headless;
  auto service = Service::create(std::move(setup));
  if (!service) fail("run", service.error(), 1);
  return (*service)->run();
}

}  // namespace

void add_run_command(CLI::App& app) {
  auto args = std::make_shared<RunArgs>();
  auto* run = app.add_subcommand("run", "Run the table: devices, camera, touchscreen, ledger (the service)");
  run->add_option("--config", args->config, "the configuration file (default /etc/boardbank/boardbank.toml)");
  run->add_flag("--headless", args->headless, "draw offscreen, no sound; print a line per committed input");
  run->add_option("--db", args->db, "the ledger file instead of [ledger] path");
  run->add_option("--backup-dir", args->backup_dir, "the backup folder instead of [ledger] backup_dir");
  run->add_option("--editions", args->editions, "the editions folder instead of [editions] dir")
      ->check(CLI::ExistingDirectory);
  run->callback([args] {
    const int code = run_service(*args);
    if (code != 0) throw CLI::RuntimeError(code);
  });
}

void add_service_commands(CLI::App& app) {
  auto file = std::make_shared<std::string>(Config::kDefaultFile);
  auto* check = app.add_subcommand(
      "check-config", "Check the service's configuration file and explain every problem with its line");
  check->add_option("file", *file, "the file (default /etc/boardbank/boardbank.toml)");
  check->callback([file] { check_config(*file); });

  auto* hash = app.add_subcommand(
      "hash-pin",
      "Read the banker's PIN from the terminal (or stdin) and print its salted hash for the "
      "configuration file");
  hash->callback([] { hash_pin_command(); });

  add_run_command(app);
}

}  // namespace bb::daemon
