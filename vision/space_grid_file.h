#pragma once

#include <expected>
#include <optional>
#include <string>

#include "vision/space_map.h"

namespace bb::vision {

// The space map as adjusted on the calibration screen, kept in the set-up file (the JSON `boardbank track
// --setup` writes, with the learned tokens beside it). Only its `space_map` key is touched; everything else
// in the file stays as it was.
class SpaceGridFile {
 public:
  // Writes `map` (its grid) into the file, creating the file when there is none yet. The new file is
  // written beside the old one, flushed to the card and renamed over it, so a pulled plug leaves either
  // the old file or the new one, never half of one.
  static std::expected<void, std::string> save(const std::string& setup_path, const SpaceMap& map);
  // The stored space map, or nullopt when the file does not exist or holds no space map yet.
  static std::expected<std::optional<SpaceMap>, std::string> load(const std::string& setup_path);
};

}  // namespace bb::vision
