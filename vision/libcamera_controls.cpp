#include "vision/libcamera_controls.h"

#include <dlfcn.h>
#include <fmt/format.h>

#include <chrono>
#include <cstdint>
#include <thread>

namespace bb::vision {

namespace {

// The few GStreamer and GObject calls needed, looked up in the libraries already on the system (OpenCV's
// GStreamer backend loads the same ones). Opaque pointers stand for the C types.
struct GValueStorage {  // GValue: a type id and two 8-byte data words
  std::size_t type = 0;
  std::uint64_t data[2] = {0, 0};
};

struct Gst {
  using Pointer = void*;
  int (*init_check)(int*, char***, Pointer*) = nullptr;
  Pointer (*factory_make)(const char*, const char*) = nullptr;
  void (*object_unref)(Pointer) = nullptr;
  Pointer (*parse_launch)(const char*, Pointer*) = nullptr;
  Pointer (*bin_get_by_name)(Pointer, const char*) = nullptr;
  int (*set_state)(Pointer, int) = nullptr;
  int (*get_state)(Pointer, int*, int*, std::uint64_t) = nullptr;
  unsigned (*array_get_size)(const GValueStorage*) = nullptr;
  const GValueStorage* (*array_get_value)(const GValueStorage*, unsigned) = nullptr;
  std::size_t (*array_get_type)() = nullptr;
  Pointer (*find_property)(Pointer, const char*) = nullptr;
  void (*get_property)(Pointer, const char*, GValueStorage*) = nullptr;
  GValueStorage* (*value_init)(GValueStorage*, std::size_t) = nullptr;
  void (*value_unset)(GValueStorage*) = nullptr;
  int (*value_get_int)(const GValueStorage*) = nullptr;
  float (*value_get_float)(const GValueStorage*) = nullptr;
  std::size_t (*type_from_name)(const char*) = nullptr;
  std::string missing;

  static const Gst& get() {
    static const Gst gst = load();
    return gst;
  }

 private:
  template <typename F>
  static void bind(void* library, const char* name, F& function, std::string& missing) {
    function = library ? reinterpret_cast<F>(::dlsym(library, name)) : nullptr;
    if (!function && missing.empty()) missing = name;
  }
  static Gst load() {
    Gst g;
    // Kept loaded for the life of the process, as GStreamer expects.
    void* gst = ::dlopen("libgstreamer-1.0.so.0", RTLD_NOW | RTLD_GLOBAL);
    void* gobject = ::dlopen("libgobject-2.0.so.0", RTLD_NOW | RTLD_GLOBAL);
    if (!gst || !gobject) {
      g.missing = "GStreamer is not installed";
      return g;
    }
    bind(gst, "gst_init_check", g.init_check, g.missing);
    bind(gst, "gst_element_factory_make", g.factory_make, g.missing);
    bind(gst, "gst_object_unref", g.object_unref, g.missing);
    bind(gst, "gst_parse_launch", g.parse_launch, g.missing);
    bind(gst, "gst_bin_get_by_name", g.bin_get_by_name, g.missing);
    bind(gst, "gst_element_set_state", g.set_state, g.missing);
    bind(gst, "gst_element_get_state", g.get_state, g.missing);
    bind(gst, "gst_value_array_get_size", g.array_get_size, g.missing);
    bind(gst, "gst_value_array_get_value", g.array_get_value, g.missing);
    bind(gst, "gst_value_array_get_type", g.array_get_type, g.missing);
    bind(gobject, "g_object_class_find_property", g.find_property, g.missing);
    bind(gobject, "g_object_get_property", g.get_property, g.missing);
    bind(gobject, "g_value_init", g.value_init, g.missing);
    bind(gobject, "g_value_unset", g.value_unset, g.missing);
    bind(gobject, "g_value_get_int", g.value_get_int, g.missing);
    bind(gobject, "g_value_get_float", g.value_get_float, g.missing);
    bind(gobject, "g_type_from_name", g.type_from_name, g.missing);
    if (!g.missing.empty()) g.missing = "this GStreamer lacks " + g.missing;
    return g;
  }
};

constexpr int state_null = 1, state_playing = 4, change_failure = 0;

bool has_property(const Gst& gst, void* element, const char* name) {
  void* object_class = *static_cast<void**>(element);  // G_OBJECT_GET_CLASS: the instance's first field
  return gst.find_property(object_class, name) != nullptr;
}

}  // namespace

LibcameraControls::Offered LibcameraControls::probe() {
  Offered o;
  const Gst& gst = Gst::get();
  if (!gst.missing.empty()) {
    o.why = gst.missing;
    return o;
  }
  if (!gst.init_check(nullptr, nullptr, nullptr)) {
    o.why = "GStreamer would not start";
    return o;
  }
  void* element = gst.factory_make("libcamerasrc", nullptr);
  if (!element) {
    o.why = "GStreamer has no libcamerasrc element (install gstreamer1.0-libcamera)";
    return o;
  }
  o.element = true;
  o.ae_enable = has_property(gst, element, "ae-enable");
  o.exposure_time_mode = has_property(gst, element, "exposure-time-mode");
  o.analogue_gain_mode = has_property(gst, element, "analogue-gain-mode");
  o.exposure_time = has_property(gst, element, "exposure-time");
  o.analogue_gain = has_property(gst, element, "analogue-gain");
  o.awb_enable = has_property(gst, element, "awb-enable");
  o.colour_gains = has_property(gst, element, "colour-gains");
  gst.object_unref(element);
  return o;
}

std::expected<LibcameraControls::Settled, std::string> LibcameraControls::settle(int width, int height,
                                                                                 int fps, double seconds) {
  const Gst& gst = Gst::get();
  if (!gst.missing.empty()) return std::unexpected(gst.missing);
  if (!gst.init_check(nullptr, nullptr, nullptr)) return std::unexpected("GStreamer would not start");
  const std::string description = fmt::format(
      "libcamerasrc name=bbcam ! video/x-raw,width={},height={},framerate={}/1 ! fakesink sync=false", width,
      height, fps);
  void* pipeline = gst.parse_launch(description.c_str(), nullptr);
  if (!pipeline) return std::unexpected("cannot build the warm-up pipeline");
  void* camera = gst.bin_get_by_name(pipeline, "bbcam");
  std::expected<Settled, std::string> result = std::unexpected("the camera did not start for the warm-up");
  if (camera && gst.set_state(pipeline, state_playing) != change_failure) {
    int state = 0, pending = 0;
    const bool playing = gst.get_state(pipeline, &state, &pending, 5'000'000'000ULL) != change_failure &&
                         state == state_playing;
    if (playing) {
      std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
      // The element reports the controls of the latest completed frame: where the algorithms settled.
      Settled s;
      GValueStorage value;
      gst.value_init(&value, gst.type_from_name("gint"));
      gst.get_property(camera, "exposure-time", &value);
      s.exposure_us = gst.value_get_int(&value);
      gst.value_unset(&value);
      value = {};
      gst.value_init(&value, gst.type_from_name("gfloat"));
      gst.get_property(camera, "analogue-gain", &value);
      s.analogue_gain = gst.value_get_float(&value);
      gst.value_unset(&value);
      value = {};
      gst.value_init(&value, gst.array_get_type());
      gst.get_property(camera, "colour-gains", &value);
      if (gst.array_get_size(&value) == 2) {
        s.red_gain = gst.value_get_float(gst.array_get_value(&value, 0));
        s.blue_gain = gst.value_get_float(gst.array_get_value(&value, 1));
      }
      gst.value_unset(&value);
      result = s;
    }
  }
  gst.set_state(pipeline, state_null);
  if (camera) gst.object_unref(camera);
  gst.object_unref(pipeline);
  return result;
}

std::string LibcameraControls::source_element(const Offered& offered, const std::optional<Settled>& settled) {
  std::string element = "libcamerasrc";
  if (!settled) return element;
  if (offered.can_lock_exposure() && settled->exposure()) {
    // libcamera 0.5 replaced AeEnable by a mode per control; offer whichever this build has.
    if (offered.exposure_time_mode && offered.analogue_gain_mode)
      element += " exposure-time-mode=1 analogue-gain-mode=1";  // 1: manual, in both enums
    else
      element += " ae-enable=false";
    element +=
        fmt::format(" exposure-time={} analogue-gain={:.3f}", settled->exposure_us, settled->analogue_gain);
  }
  if (offered.can_lock_white_balance() && settled->white_balance())
    element += fmt::format(" awb-enable=false colour-gains=\"<(float){:.4f}, (float){:.4f}>\"",
                           settled->red_gain, settled->blue_gain);
  return element;
}

std::string LibcameraControls::lock_report(const Offered& offered, const std::optional<Settled>& settled,
                                           const std::string& settle_error) {
  if (!offered.element) return fmt::format("white balance and exposure not locked: {}", offered.why);
  if (!offered.can_lock_exposure() && !offered.can_lock_white_balance())
    return "white balance and exposure not lockable: this libcamerasrc has no exposure or white balance "
           "controls (libcamera before late 2024); colours may drift with the light";
  if (!settled)
    return fmt::format("white balance and exposure not locked: the warm-up failed ({})",
                       settle_error.empty() ? "no values" : settle_error);
  const std::string exposure =
      !offered.can_lock_exposure() ? "exposure not lockable by this libcamerasrc"
      : settled->exposure()
          ? fmt::format("exposure locked at {} us, gain {:.2f}", settled->exposure_us, settled->analogue_gain)
          : "exposure not locked (the camera reported no exposure)";
  const std::string balance =
      !offered.can_lock_white_balance() ? "white balance not lockable by this libcamerasrc"
      : settled->white_balance()        ? fmt::format("white balance locked at red {:.2f}, blue {:.2f}",
                                                      settled->red_gain, settled->blue_gain)
                                        : "white balance not locked (the camera reported no colour gains)";
  return balance + ", " + exposure;
}

}  // namespace bb::vision
