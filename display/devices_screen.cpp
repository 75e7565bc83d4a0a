#include "display/devices_screen.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "display/frame_builder.h"
#include "display/palette.h"
#include "display/ui_context.h"
#include "display/widgets.h"

namespace bb::display {

void DevicesScreen::build(FrameBuilder& fb, UiContext& ui) {
  const auto& l = fb.layout();
  fb.fill({0, 0, l.width, l.height}, Palette::background);
  const Rect body = Widgets::top_bar(fb, ui, "Devices");
  const auto& snap = ui.snapshot();
  // Camera view, 4:3, with what the vision found drawn over it.
  const int cam_h = body.h - 2 * l.pad - l.button_h - l.pad;
  const int cam_w = std::min(cam_h * 4 / 3, l.width / 2);
  const Rect cam{l.pad, body.y + l.pad, cam_w, cam_w * 3 / 4};
  fb.fill(cam, Palette::panel);
  if (snap.camera && snap.camera->width > 0 && snap.camera->height > 0 &&
      snap.camera->rgb.size() >= static_cast<std::size_t>(snap.camera->width * snap.camera->height * 3)) {
    const auto& c = *snap.camera;
    fb.image(cam, Image{c.width, c.height, &c.rgb});
    auto sx = [&](int x) { return cam.x + x * cam.w / c.width; };
    auto sy = [&](int y) { return cam.y + y * cam.h / c.height; };
    for (const auto& cell : c.grid)
      for (int k = 0; k < 4; ++k)
        fb.line(sx(cell.x[k]), sy(cell.y[k]), sx(cell.x[(k + 1) % 4]), sy(cell.y[(k + 1) % 4]),
                {86, 180, 233});
    for (const auto& m : c.markers) {
      const int half = std::max(4, m.size * cam.w / c.width / 2);
      const Rect mr{sx(m.x) - half, sy(m.y) - half, 2 * half, 2 * half};
      fb.outline(mr, Palette::highlight, 3);
      fb.text({mr.x, mr.bottom(), l.s(60), l.s(18)}, fmt::format("#{}", m.id), FontFace::bold, l.s(14),
              Palette::highlight, Align::left, l.s(11));
    }
    fb.text({cam.x, cam.bottom() + l.s(2), cam.w, l.s(24)},
            fmt::format("{} markers, {} spaces located", c.markers.size(), c.grid.size()), FontFace::regular,
            l.font_small, Palette::muted);
  } else {
    fb.paragraph(cam.inset(l.s(16)), "No camera picture. The bank works without it: move tokens by the dice.",
                 FontFace::regular, l.font_body, Palette::muted, Align::centre);
  }
  // Three buttons under the picture: find the board again, drag the space grid onto it, sounds.
  // Side by side where their labels fit, else one above the other (a portrait screen's narrow column).
  const bool sound = ui.settings().sound;
  const std::string sound_label = sound ? "Sounds: on" : "Sounds: off";
  const int third = (cam.w - 2 * l.pad) / 3;
  const bool in_a_row =
      std::ranges::all_of(std::array<std::string, 3>{"Recalibrate", "Adjust grid", sound_label},
                          [&](const std::string& s) { return fb.label_fits(third, l.button_h, s); });
  auto place = [&](int k) -> Rect {
    if (in_a_row)
      return {cam.x + k * (third + l.pad), l.height - l.pad - l.button_h,
              k == 2 ? cam.w - 2 * (third + l.pad) : third, l.button_h};
    return {cam.x, l.height - (3 - k) * (l.button_h + l.pad), cam.w, l.button_h};
  };
  fb.button(
      "devices.recalibrate", place(0), "Recalibrate", Palette::primary, [&ui] { ui.emit(Recalibrate{}); },
      snap.camera != nullptr, "The camera is not connected");
  fb.button(
      "devices.grid", place(1), "Adjust grid", Palette::panel_light, [&ui] { ui.go(ScreenId::calibration); },
      snap.calibration != nullptr, "The camera has not found the board yet: tap Recalibrate first");
  fb.button("devices.sound", place(2), sound_label, sound ? Palette::accept : Palette::panel_light, [&ui] {
    ui.mutable_settings().sound = !ui.settings().sound;
    ui.emit(SetSound{ui.settings().sound});
  });

  // Device list.
  const Rect list{cam.right() + l.pad, body.y + l.pad, l.width - cam.right() - 2 * l.pad, body.h - 2 * l.pad};
  int y = list.y;
  if (snap.devices.empty())
    fb.paragraph({list.x, y, list.w, l.s(80)}, "No devices reported yet", FontFace::regular, l.font_body,
                 Palette::muted);
  const int each =
      snap.devices.empty() ? 0 : std::min(l.s(140), list.h / static_cast<int>(snap.devices.size()));
  for (const auto& d : snap.devices) {
    const Rect r{list.x, y, list.w, each - l.pad};
    fb.fill(r, Palette::panel);
    const bool ok = d.state == DeviceStatus::State::ok;
    const Colour pill = ok                                        ? Palette::accept
                        : d.state == DeviceStatus::State::missing ? Palette::danger
                                                                  : Colour{180, 40, 40};
    const int pw = l.s(96);
    fb.text({r.x + l.s(8), r.y + l.s(4), r.w - pw - l.s(20), l.s(28)}, d.name, FontFace::bold, l.font_body,
            Palette::text);
    const Rect pr{r.right() - pw - l.s(6), r.y + l.s(6), pw, l.s(24)};
    fb.fill(pr, pill);
    fb.text(pr,
            ok                                        ? "OK"
            : d.state == DeviceStatus::State::missing ? "MISSING"
                                                      : "ERROR",
            FontFace::bold, l.font_small, Palette::text_on(pill), Align::centre, l.s(11));
    const std::string info =
        ok ? d.detail : (d.detail.empty() ? d.what_to_do : d.detail + ". " + d.what_to_do);
    fb.paragraph({r.x + l.s(8), r.y + l.s(34), r.w - l.s(16), r.h - l.s(38)}, info, FontFace::regular,
                 l.font_small, ok ? Palette::muted : Palette::text);
    y += each;
  }
}

}  // namespace bb::display
