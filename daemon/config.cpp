#include "daemon/config.h"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include "daemon/text_file.h"

namespace bb::daemon {

const char* backend_name(Backend backend) {
  switch (backend) {
    case Backend::real:
      return "real";
    case Backend::simulated:
      return "simulated";
    case Backend::replay:
      return "replay";
    case Backend::off:
      return "off";
  }
  return "off";
}

std::string ConfigProblem::to_string() const {
  if (line > 0) return fmt::format("{}:{}: {}", file, line, message);
  return fmt::format("{}: {}", file, message);
}

namespace {

// Reads one table of the file, recording a problem for each key that is wrong or unknown, so that one
// run of check-config names them all.
class TableReader {
 public:
  TableReader(const toml::table& table, std::string section, std::string file,
              std::vector<ConfigProblem>& problems)
      : table_(table), section_(std::move(section)), file_(std::move(file)), problems_(problems) {}

  ~TableReader() {
    for (const auto& [key, node] : table_) {
      if (known_.contains(std::string(key.str()))) continue;
      problem(node, fmt::format("[{}] has no key '{}' (known: {}); remove it or fix its spelling", section_,
                                key.str(), fmt::join(known_, ", ")));
    }
  }
  TableReader(const TableReader&) = delete;
  TableReader& operator=(const TableReader&) = delete;

  void text(const char* key, std::string& out) {
    known_.insert(key);
    const toml::node* node = table_.get(key);
    if (!node) return;
    if (auto v = node->value<std::string>()) {
      out = *v;
      return;
    }
    problem(*node, fmt::format("[{}] {} must be text in quotes", section_, key));
  }
  void flag(const char* key, bool& out) {
    known_.insert(key);
    const toml::node* node = table_.get(key);
    if (!node) return;
    if (auto v = node->value_exact<bool>()) {
      out = *v;
      return;
    }
    problem(*node, fmt::format("[{}] {} must be true or false", section_, key));
  }
  void number(const char* key, int& out, int min, int max) {
    known_.insert(key);
    const toml::node* node = table_.get(key);
    if (!node) return;
    auto v = node->value_exact<std::int64_t>();
    if (!v || *v < min || *v > max) {
      problem(*node, fmt::format("[{}] {} must be a whole number from {} to {}", section_, key, min, max));
      return;
    }
    out = static_cast<int>(*v);
  }
  void real(const char* key, double& out, double min) {
    known_.insert(key);
    const toml::node* node = table_.get(key);
    if (!node) return;
    auto v = node->value<double>();
    if (!v || *v < min) {
      problem(*node, fmt::format("[{}] {} must be a number of at least {}", section_, key, min));
      return;
    }
    out = *v;
  }
  const toml::node* raw(const char* key) {
    known_.insert(key);
    return table_.get(key);
  }
  void problem(const toml::node& node, std::string message) {
    problems_.push_back(ConfigProblem{file_, static_cast<int>(node.source().begin.line), std::move(message)});
  }
  void problem_here(std::string message) { problem(table_, std::move(message)); }
  const std::string& section() const { return section_; }

 private:
  const toml::table& table_;
  std::string section_;
  std::string file_;
  std::vector<ConfigProblem>& problems_;
  std::set<std::string> known_;
};

void read_backend(TableReader& reader, Backend& out) {
  std::string text = backend_name(out);
  const toml::node* node = reader.raw("backend");
  if (!node) return;
  auto v = node->value<std::string>();
  if (v == "real")
    out = Backend::real;
  else if (v == "simulated")
    out = Backend::simulated;
  else if (v == "replay")
    out = Backend::replay;
  else if (v == "off")
    out = Backend::off;
  else
    reader.problem(*node, fmt::format("[{}] backend must be \"real\", \"simulated\", \"replay\" or \"off\"",
                                      reader.section()));
}

void read_lines(TableReader& reader, const std::string& kind, std::vector<std::string>& out) {
  const toml::node* node = reader.raw("lines");
  if (!node) return;
  std::string text;
  if (auto v = node->value<std::string>()) {
    text = *v;
  } else if (const toml::array* list = node->as_array()) {
    std::vector<std::string> names;
    for (const auto& item : *list) {
      auto name = item.value<std::string>();
      if (!name) {
        reader.problem(
            item, fmt::format("[{}] lines must list line names in quotes, e.g. \"GPIO5\"", reader.section()));
        return;
      }
      names.push_back(*name);
    }
    text = fmt::format("{}", fmt::join(names, ","));
  } else {
    reader.problem(*node, fmt::format("[{}] lines must be a list of line names, e.g. [\"GPIO5\", \"GPIO6\"]",
                                      reader.section()));
    return;
  }
  auto parsed = peripherals::parse_line_list(kind, text);
  if (!parsed) {
    reader.problem(*node, fmt::format("[{}] lines: {}", reader.section(), parsed.error()));
    return;
  }
  out = std::move(*parsed);
}

// A Wiegand reader's `bits`: 26 or 34 (the one length it sends: a frame ends at its last bit) or "any"
// (ended by the 25 ms silence after it).
void read_frame_bits(TableReader& reader, int& out) {
  const toml::node* node = reader.raw("bits");
  if (!node) return;
  if (auto any = node->value<std::string>(); any && *any == "any") {
    out = 0;
    return;
  }
  if (auto v = node->value_exact<std::int64_t>(); v && (*v == 26 || *v == 34)) {
    out = static_cast<int>(*v);
    return;
  }
  reader.problem(*node, fmt::format("[{}] bits must be 26, 34 or \"any\" (the frame length the reader sends; "
                                    "see its label or probe it with boardbank probe)",
                                    reader.section()));
}

// A Wiegand reader's `frames`: "repeated" (it may send its frame again and again while a card lies on it) or
// "once" (one frame per presentation: every frame is a tap).
void read_frames(TableReader& reader, bool& one_frame_per_tap) {
  const toml::node* node = reader.raw("frames");
  if (!node) return;
  if (auto v = node->value<std::string>(); v && (*v == "repeated" || *v == "once")) {
    one_frame_per_tap = *v == "once";
    return;
  }
  reader.problem(*node,
                 fmt::format("[{}] frames must be \"repeated\" or \"once\" (\"once\" only for a reader "
                             "that sends one frame per tap however long the card stays; boardbank probe "
                             "shows it: hold a card on it for 3 s)",
                             reader.section()));
}

void read_gpio_device(const toml::table& table, const std::string& section, const std::string& kind,
                      const std::string& file, std::vector<ConfigProblem>& problems, GpioDeviceConfig& out) {
  TableReader reader(table, section, file, problems);
  reader.text("name", out.name);
  read_backend(reader, out.backend);
  reader.text("chip", out.chip);
  read_lines(reader, kind, out.lines);
  reader.text("trace", out.trace);
  if (kind == "wiegand") {
    read_frame_bits(reader, out.frame_bits);
    read_frames(reader, out.one_frame_per_tap);
  }
  if (out.backend == Backend::replay && out.trace.empty())
    reader.problem_here(
        fmt::format("[{}] backend \"replay\" needs trace = \"FILE\" (boardbank record-gpio "
                    "makes one)",
                    section));
  if (out.name.empty()) reader.problem_here(fmt::format("[{}] name must not be empty", section));
}

const toml::table* section_table(const toml::table& root, const char* key, const std::string& file,
                                 std::vector<ConfigProblem>& problems) {
  const toml::node* node = root.get(key);
  if (!node) return nullptr;
  if (const toml::table* table = node->as_table()) return table;
  problems.push_back(
      ConfigProblem{file, static_cast<int>(node->source().begin.line),
                    fmt::format("'{}' must be a table: write [{}] on a line of its own", key, key)});
  return nullptr;
}

Config read_root(const toml::table& root, const std::string& file, std::vector<ConfigProblem>& problems) {
  Config config;
  config.file = file;
  config.dice.backend = Backend::off;
  static const std::set<std::string> kSections{"screen", "dice",        "button", "wiegand",
                                               "rc522",  "camera",      "ledger", "editions",
                                               "banker", "house_rules", "odds"};
  for (const auto& [key, node] : root) {
    if (kSections.contains(std::string(key.str()))) continue;
    problems.push_back(
        ConfigProblem{file, static_cast<int>(node.source().begin.line),
                      fmt::format("unknown section '{}' (known: {}); remove it or fix its spelling",
                                  key.str(), fmt::join(kSections, ", "))});
  }

  if (const toml::table* t = section_table(root, "screen", file, problems)) {
    TableReader r(*t, "screen", file, problems);
    r.number("width", config.screen.width, 320, 7680);
    r.number("height", config.screen.height, 240, 4320);
    int rotation = display::degrees(config.screen.rotation);
    r.number("rotation", rotation, 0, 270);
    if (auto turned = display::rotation_from_degrees(rotation)) {
      config.screen.rotation = *turned;
    } else {
      r.problem(*t->get("rotation"),
                "[screen] rotation must be 0, 90, 180 or 270 (degrees the picture is turned clockwise)");
    }
    r.flag("fullscreen", config.screen.fullscreen);
    r.flag("window", config.screen.window);
    r.flag("sound", config.screen.sound);
    r.text("font_dir", config.screen.font_dir);
  }
  if (const toml::table* t = section_table(root, "dice", file, problems))
    read_gpio_device(*t, "dice", "dice", file, problems, config.dice);
  if (const toml::table* t = section_table(root, "button", file, problems))
    read_gpio_device(*t, "button", "button", file, problems, config.button);
  if (const toml::node* node = root.get("wiegand")) {
    const toml::array* readers = node->as_array();
    if (!readers || !readers->is_array_of_tables()) {
      problems.push_back(ConfigProblem{file, static_cast<int>(node->source().begin.line),
                                       "each Wiegand reader is its own [[wiegand]] table (two brackets)"});
    } else {
      std::set<std::string> names;
      for (const auto& item : *readers) {
        GpioDeviceConfig reader{.name = "wiegand"};
        read_gpio_device(*item.as_table(), "[wiegand]", "wiegand", file, problems, reader);
        if (!names.insert(reader.name).second) {
          problems.push_back(ConfigProblem{
              file, static_cast<int>(item.source().begin.line),
              fmt::format("two Wiegand readers are named '{}': give each its own name = \"...\"",
                          reader.name)});
        }
        config.wiegand.push_back(std::move(reader));
      }
    }
  }
  if (const toml::table* t = section_table(root, "rc522", file, problems)) {
    TableReader r(*t, "rc522", file, problems);
    r.text("name", config.rc522.name);
    read_backend(r, config.rc522.backend);
    r.text("spi_device", config.rc522.spi_device);
    r.text("chip", config.rc522.chip);
    r.text("reset_line", config.rc522.reset_line);
    r.text("trace", config.rc522.trace);
    r.number("poll_ms", config.rc522.poll_ms, 20, 1000);
    if (config.rc522.backend == Backend::replay && config.rc522.trace.empty())
      r.problem_here("[rc522] backend \"replay\" needs trace = \"FILE\"");
    if (config.rc522.backend == Backend::real && config.rc522.spi_device.rfind("/dev/spidev", 0) != 0)
      r.problem_here("[rc522] spi_device must be a /dev/spidevB.C device (enable SPI with raspi-config)");
  }
  if (const toml::table* t = section_table(root, "camera", file, problems)) {
    TableReader r(*t, "camera", file, problems);
    r.text("source", config.camera.source);
    r.text("setup", config.camera.setup);
    r.number("width", config.camera.width, 160, 7680);
    r.number("height", config.camera.height, 120, 4320);
  }
  if (const toml::table* t = section_table(root, "ledger", file, problems)) {
    TableReader r(*t, "ledger", file, problems);
    r.text("path", config.ledger.path);
    r.text("backup_dir", config.ledger.backup_dir);
    r.number("backup_every_minutes", config.ledger.backup_every_minutes, 0, 24 * 60);
    r.number("keep_backups", config.ledger.keep_backups, 1, 10000);
    r.real("resume_budget_ms", config.ledger.resume_budget_ms, 0);
    if (config.ledger.path.empty()) r.problem_here("[ledger] path must name the database file");
  }
  if (const toml::table* t = section_table(root, "editions", file, problems)) {
    TableReader r(*t, "editions", file, problems);
    r.text("dir", config.editions_dir);
    if (config.editions_dir.empty()) r.problem_here("[editions] dir must name the editions folder");
  }
  if (const toml::table* t = section_table(root, "banker", file, problems)) {
    TableReader r(*t, "banker", file, problems);
    r.text("pin_hash", config.banker_pin.text);
    r.text("card", config.banker_card);
    if (!config.banker_pin.empty()) {
      if (auto why = pin_hash_problem(config.banker_pin.text))
        r.problem(*t->get("pin_hash"), fmt::format("[banker] pin_hash: {}", *why));
    }
    std::transform(config.banker_card.begin(), config.banker_card.end(), config.banker_card.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    if (config.banker_card.find_first_not_of("0123456789ABCDEF") != std::string::npos)
      r.problem(*t->get("card"),
                "[banker] card must be the card's UID in hex, as `boardbank probe` shows it");
  }
  if (const toml::table* t = section_table(root, "odds", file, problems)) {
    TableReader r(*t, "odds", file, problems);
    r.flag("enabled", config.odds.enabled);
    r.number("threads", config.odds.threads, 0, 64);
    r.number("playouts", config.odds.playouts, 100, 1'000'000);
  }
  if (const toml::table* t = section_table(root, "house_rules", file, problems)) {
    TableReader r(*t, "house_rules", file, problems);
    auto& rules = config.house_rules;
    r.flag("automatic_bank_payments", rules.automatic_bank_payments);
    r.flag("virtual_decks", rules.virtual_decks);
    r.number("auction_countdown_s", rules.auction_countdown_s, 0, 600);
    if (const toml::node* node = r.raw("options")) {
      if (const toml::table* options = node->as_table()) {
        for (const auto& [name, value] : *options) {
          if (auto on = value.value_exact<bool>()) {
            rules.options[std::string(name.str())] = *on;
          } else {
            r.problem(value, fmt::format("[house_rules.options] {} must be true or false", name.str()));
          }
        }
      } else {
        r.problem(*node, "[house_rules] options must be a table: [house_rules.options] then name = true");
      }
    }
  }
  return config;
}

}  // namespace

std::expected<Config, std::vector<ConfigProblem>> parse_config(const std::string& text,
                                                               const std::string& name) {
  toml::table root;
  try {
    root = toml::parse(text, name);
  } catch (const toml::parse_error& e) {
    return std::unexpected(std::vector<ConfigProblem>{ConfigProblem{
        name, static_cast<int>(e.source().begin.line),
        fmt::format("{} (the file is not valid TOML; nothing else was checked)", e.description())}});
  }
  std::vector<ConfigProblem> problems;
  Config config = read_root(root, name, problems);
  if (!problems.empty()) {
    std::stable_sort(problems.begin(), problems.end(),
                     [](const ConfigProblem& a, const ConfigProblem& b) { return a.line < b.line; });
    return std::unexpected(std::move(problems));
  }
  return config;
}

std::expected<Config, std::vector<ConfigProblem>> load_config(const std::string& file) {
  auto text = read_text_file(file, "the configuration file", kMaxConfigFileBytes);
  if (!text)
    return std::unexpected(std::vector<ConfigProblem>{
        ConfigProblem{file, 0,
                      text.error().kind == TextFileError::Kind::missing
                          ? text.error().message + " (the package installs /etc/boardbank/boardbank.toml)"
                          : text.error().message}});
  return parse_config(*text, file);
}

std::vector<peripherals::DeviceConfig> Config::device_configs() const {
  std::vector<peripherals::DeviceConfig> out;
  auto add_gpio = [&out](const GpioDeviceConfig& device, const char* kind) {
    if (device.backend == Backend::off) return;
    peripherals::DeviceConfig c;
    c.kind = kind;
    c.name = device.name;
    c.backend = backend_name(device.backend);
    c.chip = device.chip;
    c.lines = device.lines;
    c.trace_path = device.trace;
    c.wiegand_bits = device.frame_bits;
    c.wiegand_taps.one_frame_per_tap = device.one_frame_per_tap;
    out.push_back(std::move(c));
  };
  add_gpio(dice, "dice");
  add_gpio(button, "button");
  for (const auto& reader : wiegand) add_gpio(reader, "wiegand");
  if (rc522.backend != Backend::off) {
    peripherals::DeviceConfig c;
    c.kind = "rc522";
    c.name = rc522.name;
    c.backend = backend_name(rc522.backend);
    c.chip = rc522.chip;
    c.spi_device = rc522.spi_device;
    c.reset_line = rc522.reset_line;
    c.trace_path = rc522.trace;
    c.poll_ms = rc522.poll_ms;
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace bb::daemon
