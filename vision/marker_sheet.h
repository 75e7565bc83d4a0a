#pragma once

#include <expected>
#include <string>

#include "vision/marker_layout.h"

namespace bb::vision {

// The printable sheet of the four corner markers at their true size for a given board, with cutting lines
// and a 50 mm scale bar to check the printer did not scale the page. PDF (vector, exact size) or PNG at a
// stated DPI, chosen by the file's extension.
struct MarkerSheet {
  MarkerLayout layout;
  double board_side_mm = 508;  // the classic board is 20 inches across
  int dpi = 300;               // PNG only

  double marker_mm() const { return layout.size * board_side_mm; }
  double margin_mm() const { return layout.inset * board_side_mm; }
  std::expected<void, std::string> write(const std::string& path) const;
  std::expected<void, std::string> write_png(const std::string& path) const;
  std::expected<void, std::string> write_pdf(const std::string& path) const;
};

}  // namespace bb::vision
