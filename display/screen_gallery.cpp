#include "display/screen_gallery.h"

#include <SDL.h>
#include <fmt/format.h>

#include <filesystem>
#include <functional>

#include "display/sample_table.h"
#include "display/touch_screen.h"

namespace bb::display {
namespace {

struct Shot {
  const char* file;
  ScreenId screen;
  std::vector<std::string> taps;  // target ids tapped in order before the picture
};

const char* screen_name(ScreenId s) {
  switch (s) {
    case ScreenId::home:
      return "home";
    case ScreenId::auction:
      return "auction";
    case ScreenId::properties:
      return "properties";
    case ScreenId::trade:
      return "trade";
    case ScreenId::ledger:
      return "ledger";
    case ScreenId::charts:
      return "charts";
    case ScreenId::board:
      return "board";
    case ScreenId::setup:
      return "setup";
    case ScreenId::devices:
      return "devices";
    case ScreenId::calibration:
      return "calibration";
  }
  return "screen";
}

}  // namespace

std::expected<std::vector<std::string>, std::string> ScreenGallery::render(const Options& options) {
  std::error_code ec;
  std::filesystem::create_directories(options.out_dir, ec);
  if (ec) return std::unexpected(fmt::format("cannot create {}: {}", options.out_dir, ec.message()));
  auto tables = SampleTable::samples(options.editions_dir);
  if (!tables) return std::unexpected(tables.error());
  std::vector<std::string> written;
  const std::vector<ScreenId> all = {
      ScreenId::home,   ScreenId::auction, ScreenId::properties, ScreenId::trade,   ScreenId::ledger,
      ScreenId::charts, ScreenId::board,   ScreenId::setup,      ScreenId::devices, ScreenId::calibration};
  // Dialogs and selections worth seeing, reached by tapping as a player would.
  const std::vector<std::pair<std::string, std::vector<std::string>>> extras = {
      {"developed", {"home.option.buy"}},
      {"fresh", {"home.roll", "dice.1.3", "dice.2.5"}},
      {"auction", {"auction.bidder.2", "auction.keypad", "keypad.6", "keypad.0"}},
      {"developed", {"nav.properties", "props.space.1"}},
      {"developed", {"nav.properties", "props.space.3", "props.build"}},
      {"developed", {"nav.properties", "props.player.3", "props.space.16"}},
      {"long-ledger", {"nav.ledger", "ledger.undo", "keypad.1"}},
      {"fresh", {"nav.setup", "setup.add", "name.key.Z", "name.key.O", "name.key.E"}},
      {"developed", {"nav.trade", "trade.0.space.1", "trade.1.cash"}},
      {"long-ledger", {"nav.charts", "charts.heat"}},
      {"long-ledger", {"nav.charts", "charts.chances"}},
      {"fresh", {"nav.devices", "devices.grid", "calibration.corner.2"}},
      {"shortage", {"nav.properties", "props.space.9", "props.sell"}},
      {"ships-short-draft", {"home.draft"}},
      {"ships-short-draft", {"home.draft", "choice.0"}},
      {"finance-1932-deals", {"home.insure"}},
      {"finance-1932-deals",
       {"home.partner", "partner.holder.1", "partner.partner.0", "partner.share.minus"}},
  };
  auto open_screen = [&]() -> std::expected<std::unique_ptr<TouchScreen>, std::string> {
    TouchScreen::Options o;
    o.width = options.width;
    o.height = options.height;
    o.font_dir = options.font_dir;
    return TouchScreen::open(o);
  };
  for (auto& table : *tables) {
    // The editions' samples show what differs by edition: the home, board and properties screens.
    const bool edition_sample = table.name().starts_with("edition-") || table.name() == "ships-short-draft" ||
                                table.name() == "finance-1932-deals";
    for (ScreenId s : all) {
      if (s == ScreenId::auction && !table.game().state().auction) continue;
      if (edition_sample && s != ScreenId::home && s != ScreenId::board && s != ScreenId::properties)
        continue;
      auto screen = open_screen();
      if (!screen) return std::unexpected(screen.error());
      (*screen)->show(table.snapshot());
      (*screen)->ui().go(s);
      const auto path =
          (std::filesystem::path(options.out_dir) / fmt::format("{}-{}.png", screen_name(s), table.name()))
              .string();
      if (auto ok = (*screen)->save_png(path); !ok) return std::unexpected(ok.error());
      written.push_back(path);
    }
  }
  int n = 0;
  for (const auto& [name, taps] : extras) {
    SampleTable* table = nullptr;
    for (auto& t : *tables)
      if (t.name() == name) table = &t;
    if (!table) continue;
    auto screen = open_screen();
    if (!screen) return std::unexpected(screen.error());
    (*screen)->show(table->snapshot());
    (*screen)->draw_if_needed();
    std::string last;
    for (const auto& id : taps) {
      const Target* t = (*screen)->frame().find(id);
      if (!t) return std::unexpected(fmt::format("gallery: no target '{}' on the {} sample", id, name));
      (*screen)->ui().tap(t->rect.cx(), t->rect.cy());
      (*screen)->ui().take_intents();
      (*screen)->draw_if_needed();
      last = id;
    }
    for (auto& c : last)
      if (c == '.') c = '-';
    const auto path = (std::filesystem::path(options.out_dir) /
                       fmt::format("{}-{}-{}.png", screen_name((*screen)->ui().screen()), name, last))
                          .string();
    if (auto ok = (*screen)->save_png(path); !ok) return std::unexpected(ok.error());
    written.push_back(path);
    ++n;
  }
  return written;
}

}  // namespace bb::display
