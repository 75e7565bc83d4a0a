#include "vision/capture_module.h"

#include <dlfcn.h>
#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <vector>

namespace bb::vision {

namespace {

constexpr const char* kEnvironment = "BOARDBANK_CAPTURE_MODULE";

std::filesystem::path running_program() {
  std::error_code ec;
  auto path = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::path{} : path;
}

// True when `path` lies under `folder` (both absolute and normal).
bool inside(const std::filesystem::path& path, const std::filesystem::path& folder) {
  auto p = path.begin();
  for (auto f = folder.begin(); f != folder.end(); ++f, ++p) {
    if (f->empty()) continue;  // a trailing separator
    if (p == path.end() || *p != *f) return false;
  }
  return true;
}

std::expected<const capture_module::Module*, std::string> load() {
  const auto candidates = capture_module_candidates();
  std::string tried;
  for (const auto& file : candidates) {
    std::error_code ec;
    if (!std::filesystem::exists(file, ec)) {
      tried += fmt::format("\n  {}: not there", file);
      continue;
    }
    // RTLD_LOCAL: nothing of it is visible to libraries loaded later; it is never closed (see the ABI).
    void* handle = ::dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      const char* why = ::dlerror();
      tried += fmt::format("\n  {}: cannot be loaded: {}", file, why ? why : "unknown reason");
      continue;
    }
    using Entry = const capture_module::Module* (*)();
    auto entry = reinterpret_cast<Entry>(::dlsym(handle, kCaptureModuleEntry));
    const capture_module::Module* module = entry ? entry() : nullptr;
    if (module == nullptr || module->abi_version != capture_module::kAbiVersion) {
      tried += fmt::format("\n  {}: from another build of boardbank (interface {}, this program needs {})",
                           file, module ? module->abi_version : -1, capture_module::kAbiVersion);
      ::dlclose(handle);
      continue;
    }
    return module;
  }
  return std::unexpected(fmt::format(
      "the camera module boardbank_capture.so (cameras and video files, through OpenCV's videoio) is "
      "missing or unusable; reinstall the boardbank package (or build the target boardbank_capture). "
      "Looked for:{}",
      tried));
}

}  // namespace

std::vector<std::string> capture_module_candidates() {
  if (const char* named = std::getenv(kEnvironment); named != nullptr && *named != '\0') return {named};
  std::vector<std::string> out;
  const auto program = running_program();
  if (!program.empty()) {
    out.push_back((program.parent_path() / BOARDBANK_CAPTURE_MODULE_FROM_BINARY).lexically_normal().string());
    const std::filesystem::path build_tree(BOARDBANK_BUILD_TREE);
    if (inside(program, build_tree))
      out.push_back((build_tree / "modules" / BOARDBANK_CAPTURE_MODULE_FILE).string());
  }
  return out;
}

std::expected<const capture_module::Module*, std::string> capture_module_loaded() {
  static std::once_flag once;
  static std::expected<const capture_module::Module*, std::string> loaded;
  std::call_once(once, [] { loaded = load(); });
  return loaded;
}

}  // namespace bb::vision
