#include "vision/marker_sheet.h"

#include <fmt/format.h>

#include <array>
#include <fstream>
#include <opencv2/imgproc.hpp>
#include <sstream>
#include <vector>

#include "vision/image_files.h"
#include "vision/marker_detector.h"

namespace bb::vision {

namespace {
constexpr double page_w_mm = 210, page_h_mm = 297;  // A4
constexpr std::array<const char*, 4> corner_names{"GO corner", "Jail corner", "Free Parking corner",
                                                  "Go To Jail corner"};

// Where marker `id`'s black square starts on the page, in mm from the top-left.
std::pair<double, double> marker_origin(int id) { return {30.0 + (id % 2) * 90.0, 40.0 + (id / 2) * 110.0}; }
}  // namespace

std::expected<void, std::string> MarkerSheet::write(const std::string& path) const {
  if (path.size() > 4 && path.substr(path.size() - 4) == ".pdf") return write_pdf(path);
  if (path.size() > 4 && path.substr(path.size() - 4) == ".png") return write_png(path);
  return std::unexpected("the marker sheet is written as .pdf or .png; name the file accordingly");
}

std::expected<void, std::string> MarkerSheet::write_png(const std::string& path) const {
  if (dpi < 72 || dpi > 1200) return std::unexpected("choose a DPI between 72 and 1200");
  const double px = dpi / 25.4;
  cv::Mat page(static_cast<int>(page_h_mm * px), static_cast<int>(page_w_mm * px), CV_8U, cv::Scalar(255));
  const int side = static_cast<int>(std::lround(marker_mm() * px));
  for (int id = 0; id < MarkerLayout::count; ++id) {
    const auto [x, y] = marker_origin(id);
    cv::Mat marker;
    MarkerDetector::draw(id, side, marker);
    marker.copyTo(page(cv::Rect(static_cast<int>(x * px), static_cast<int>(y * px), side, side)));
    // Cutting marks: short ticks pointing away from the cut square's corners. A closed outline this close
    // to the marker would be taken for the marker's own border by the detector.
    const double m = margin_mm(), lo_x = x - m, lo_y = y - m, hi_x = x + marker_mm() + m,
                 hi_y = y + marker_mm() + m;
    auto tick = [&](double x0, double y0, double x1, double y1) {
      cv::line(page, cv::Point(static_cast<int>(x0 * px), static_cast<int>(y0 * px)),
               cv::Point(static_cast<int>(x1 * px), static_cast<int>(y1 * px)), cv::Scalar(0),
               std::max(1, dpi / 150));
    };
    for (const auto& [cx, cy, dx, dy] : std::array<std::array<double, 4>, 4>{
             {{lo_x, lo_y, -1, -1}, {hi_x, lo_y, 1, -1}, {hi_x, hi_y, 1, 1}, {lo_x, hi_y, -1, 1}}}) {
      tick(cx + dx * 1, cy, cx + dx * 5, cy);
      tick(cx, cy + dy * 1, cx, cy + dy * 5);
    }
    cv::putText(page, fmt::format("marker {}: {}", id, corner_names[static_cast<size_t>(id)]),
                cv::Point(static_cast<int>((x - m) * px), static_cast<int>((y + marker_mm() + m + 9) * px)),
                cv::FONT_HERSHEY_SIMPLEX, px * 0.12, cv::Scalar(0), std::max(1, dpi / 150), cv::LINE_AA);
  }
  cv::line(page, cv::Point(static_cast<int>(30 * px), static_cast<int>(270 * px)),
           cv::Point(static_cast<int>(80 * px), static_cast<int>(270 * px)), cv::Scalar(0),
           std::max(1, dpi / 100));
  cv::putText(page, fmt::format("50 mm at {} DPI: print at 100% (no fit to page)", dpi),
              cv::Point(static_cast<int>(30 * px), static_cast<int>(278 * px)), cv::FONT_HERSHEY_SIMPLEX,
              px * 0.1, cv::Scalar(0), std::max(1, dpi / 150), cv::LINE_AA);
  if (auto written = write_image(path, page); !written) return std::unexpected(written.error().message);
  return {};
}

std::expected<void, std::string> MarkerSheet::write_pdf(const std::string& path) const {
  // A one-page PDF drawn with filled rectangles: exact size whatever the printer's resolution.
  const double pt = 72.0 / 25.4;
  std::ostringstream content;
  content << "0 g\n";
  const int cells = MarkerDetector::cells_across();
  const double cell_mm = marker_mm() / cells;
  for (int id = 0; id < MarkerLayout::count; ++id) {
    const auto [x, y] = marker_origin(id);
    cv::Mat bits;
    MarkerDetector::draw(id, cells, bits);
    for (int r = 0; r < cells; ++r)
      for (int c = 0; c < cells; ++c)
        if (bits.at<uint8_t>(r, c) < 128)
          content << fmt::format("{:.3f} {:.3f} {:.3f} {:.3f} re f\n", (x + c * cell_mm) * pt,
                                 (page_h_mm - y - (r + 1) * cell_mm) * pt, cell_mm * pt + 0.01,
                                 cell_mm * pt + 0.01);
    const double m = margin_mm(), lo_x = x - m, lo_y = y - m, hi_x = x + marker_mm() + m,
                 hi_y = y + marker_mm() + m;
    content << "0.3 w\n";
    for (const auto& [cx, cy, dx, dy] : std::array<std::array<double, 4>, 4>{
             {{lo_x, lo_y, -1, -1}, {hi_x, lo_y, 1, -1}, {hi_x, hi_y, 1, 1}, {lo_x, hi_y, -1, 1}}}) {
      content << fmt::format("{:.3f} {:.3f} m {:.3f} {:.3f} l S\n", (cx + dx) * pt, (page_h_mm - cy) * pt,
                             (cx + 5 * dx) * pt, (page_h_mm - cy) * pt);
      content << fmt::format("{:.3f} {:.3f} m {:.3f} {:.3f} l S\n", cx * pt, (page_h_mm - cy - dy) * pt,
                             cx * pt, (page_h_mm - cy - 5 * dy) * pt);
    }
    content << fmt::format("BT /F1 10 Tf {:.3f} {:.3f} Td (marker {}: {}) Tj ET\n", (x - m) * pt,
                           (page_h_mm - y - marker_mm() - m - 9) * pt, id,
                           corner_names[static_cast<size_t>(id)]);
  }
  content << fmt::format("1 w {:.3f} {:.3f} m {:.3f} {:.3f} l S\n", 30 * pt, (page_h_mm - 270) * pt, 80 * pt,
                         (page_h_mm - 270) * pt);
  content << fmt::format("BT /F1 9 Tf {:.3f} {:.3f} Td (50 mm: print at 100%, no fit to page) Tj ET\n",
                         30 * pt, (page_h_mm - 278) * pt);
  const std::string stream = content.str();
  std::vector<std::string> objects{
      "<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      fmt::format("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {:.2f} {:.2f}] /Contents 4 0 R "
                  "/Resources << /Font << /F1 5 0 R >> >> >>",
                  page_w_mm * pt, page_h_mm * pt),
      fmt::format("<< /Length {} >>\nstream\n{}endstream", stream.size(), stream),
      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"};
  std::string pdf = "%PDF-1.4\n";
  std::vector<size_t> offsets;
  for (size_t i = 0; i < objects.size(); ++i) {
    offsets.push_back(pdf.size());
    pdf += fmt::format("{} 0 obj\n{}\nendobj\n", i + 1, objects[i]);
  }
  const size_t xref = pdf.size();
  pdf += fmt::format("xref\n0 {}\n0000000000 65535 f \n", objects.size() + 1);
  for (size_t o : offsets) pdf += fmt::format("{:010d} 00000 n \n", o);
  pdf += fmt::format("trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{}\n%%EOF\n", objects.size() + 1, xref);
  std::ofstream out(path, std::ios::binary);
  out << pdf;
  if (!out) return std::unexpected("cannot write " + path + "; check the folder is writable");
  return {};
}

}  // namespace bb::vision
