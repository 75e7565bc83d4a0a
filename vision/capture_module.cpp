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

constexpr const char* kRunningProgramLink = "/proc/self/exe";
// Where the Debian package puts the program (CPACK_PACKAGING_INSTALL_PREFIX /usr, cmake/packaging.cmake): the
// module's place in the package, named when the running program's own place cannot be told.
constexpr const char* kPackagedProgramFolder = "/usr/bin";

// Where this program's file is (the module is found beside it), or why that cannot be told.
std::expected<std::filesystem::path, std::string> running_program() {
  std::error_code ec;
  auto path = std::filesystem::read_symlink(kRunningProgramLink, ec);
  if (ec) return std::unexpected(ec.message());
  return path;
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
  if (const auto program = running_program(); candidates.empty() && !program) {
    // No BOARDBANK_CAPTURE_MODULE and no program location: there is no file to try, and a bare "missing"
    // would send the user to reinstall a package that is fine.
    return std::unexpected(fmt::format(
        "the camera module boardbank_capture.so (cameras and video files) cannot be found: this program "
        "cannot tell where it is installed, as {} cannot be read ({}); mount /proc "
        "(mount -t proc proc /proc; in a chroot, before running boardbank there), or name the module "
        "with {}={} (where the package puts it)",
        kRunningProgramLink, program.error(), kEnvironment,
        (std::filesystem::path(kPackagedProgramFolder) / BOARDBANK_CAPTURE_MODULE_FROM_BINARY)
            .lexically_normal()
            .string()));
  }
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
  if (program) {
    out.push_back(
        (program->parent_path() / BOARDBANK_CAPTURE_MODULE_FROM_BINARY).lexically_normal().string());
    const std::filesystem::path build_tree(BOARDBANK_BUILD_TREE);
    if (inside(*program, build_tree))
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
