#pragma once

// Finds and loads the camera module (boardbank_capture.so, see capture_module_abi.h) the first time a
// camera, a video file or a video to write is asked for, and keeps it loaded for the life of the process.
// Where it looks, in order:
//   1. the file named by the environment variable BOARDBANK_CAPTURE_MODULE, when set (and nowhere else);
//   2. beside the installed binary: <folder of the running program>/<kCaptureModuleFromBinary>
//      (/usr/bin/boardbank -> /usr/lib/<multiarch>/boardbank/boardbank_capture.so in the package);
//   3. a program inside the build tree it was built in: that build's modules/ folder.
// A module that is missing, unloadable or from another build is an error naming each file tried and what
// to do (when /proc/self/exe cannot be read, say in a chroot without /proc, there is no file to try: the
// error says the program cannot tell where it lives, to mount /proc or to set BOARDBANK_CAPTURE_MODULE); the
// caller (the camera thread, `track`, `render-table`) reports it like a camera that is gone. Any thread may
// call it; the first call loads, the others wait for it and share its answer.

#include <expected>
#include <string>
#include <vector>

#include "vision/capture_module_abi.h"

namespace bb::vision {

std::expected<const capture_module::Module*, std::string> capture_module_loaded();

// The candidates above for this process, in order (what an error message lists).
std::vector<std::string> capture_module_candidates();

}  // namespace bb::vision
