#include <fmt/format.h>

#include "daemon/service_impl.h"
#include "peripherals/device_factory.h"

namespace bb::daemon {

namespace {

std::string display_name(const peripherals::DeviceConfig& config) {
  if (config.kind == "dice") return "Dice unit";
  if (config.kind == "button") return "Roll button";
  if (config.kind == "rc522") return "Card reader (RC522)";
  return fmt::format("Card reader ({})", config.name.empty() ? config.kind : config.name);
}

display::DeviceStatus::Kind device_kind(const peripherals::DeviceConfig& config) {
  if (config.kind == "dice") return display::DeviceStatus::Kind::dice;
  if (config.kind == "button") return display::DeviceStatus::Kind::roll_button;
  return display::DeviceStatus::Kind::card_reader;
}

std::string what_to_do(const peripherals::DeviceConfig& config) {
  if (config.kind == "dice" || config.kind == "button")
    return "check its cable and docs/hardware.md; meanwhile enter the dice on the screen";
  return "check its cable and docs/hardware.md; meanwhile confirm on the screen";
}

}  // namespace

void Service::Impl::open_devices() {
  const auto configs =
      setup.devices_from_config && setup.devices.empty() ? setup.config.device_configs() : setup.devices;
  for (auto config : configs) {
    // The table judges a Wiegand card seen again within the reader's same-card window (a quick deliberate
    // re-tap, or the reader repeating its frame while the card lies there): it knows what waits for the card.
    if (config.kind == "wiegand") config.wiegand_taps.report_repeats = true;
    devices.push_back(OpenDevice{config, nullptr});
  }
  for (std::size_t i = 0; i < devices.size(); ++i) try_open(i, true);
}

void Service::Impl::try_open(std::size_t index, bool first) {
  OpenDevice& d = devices[index];
  if (d.device) return;
  auto opened = peripherals::open_device(
      d.config, [this](const std::string& uid) { return session->cards().find(uid).has_value(); });
  display::DeviceStatus status;
  status.kind = device_kind(d.config);
  status.name = display_name(d.config);
  if (!opened) {
    if (first)
      log(fmt::format("{} ({}): {} — the table goes on without it", status.name, d.config.backend,
                      opened.error()));
    if (!first) return;  // still missing: said once
    status.state = display::DeviceStatus::State::missing;
    status.detail = opened.error();
    status.what_to_do = what_to_do(d.config);
    handle(table::DeviceHealth{status});
    return;
  }
  d.device = std::move(*opened);
  const int fd = d.device->fd();
  auto watched = loop->watch(fd, status.name, [this, index] { read_device(index); });
  if (!watched) {
    log(watched.error());
    d.device.reset();
    return;
  }
  status.state = display::DeviceStatus::State::ok;
  status.detail = d.config.backend == "real" ? "ready" : d.config.backend;
  if (!first) log(status.name + " is back");
  handle(table::DeviceHealth{status});
}

void Service::Impl::retry_missing() {
  for (std::size_t i = 0; i < devices.size(); ++i) try_open(i, false);
}

void Service::Impl::read_device(std::size_t index) {
  OpenDevice& d = devices[index];
  if (!d.device) return;
  auto events = d.device->read_events();
  for (const auto& e : events) {
    switch (e.kind) {
      case peripherals::EventKind::card:
      case peripherals::EventKind::unknown_card:
        ++readings_heard_count;
        handle(table::CardTapped{e.uid, e.device, e.id, e.ts_ns / 1'000'000, e.repeat});
        break;
      case peripherals::EventKind::dice:
        ++readings_heard_count;
        handle(table::DiceThrown{e.dice[0], e.dice[1], e.id, e.device});
        break;
      case peripherals::EventKind::rejected:
        log(fmt::format("{}: {}", e.device, e.why));
        break;
      case peripherals::EventKind::status: {
        display::DeviceStatus status;
        status.kind = device_kind(d.config);
        status.name = display_name(d.config);
        const bool back = e.why.find("back") != std::string::npos;
        status.state = back ? display::DeviceStatus::State::ok : display::DeviceStatus::State::error;
        status.detail = e.why;
        if (!back) status.what_to_do = what_to_do(d.config);
        log(fmt::format("{}: {}", status.name, e.why));
        handle(table::DeviceHealth{status});
        break;
      }
    }
  }
  if (d.device->finished()) {  // a replay that has delivered everything
    loop->unwatch(d.device->fd());
    d.device.reset();
    d.config.backend = "off";
  }
}

void Service::Impl::close_devices() {
  for (auto& d : devices)
    if (d.device) loop->unwatch(d.device->fd());
  devices.clear();
}

}  // namespace bb::daemon
