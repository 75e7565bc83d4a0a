#pragma once
#include <functional>
#include <string>
#include <vector>

#include "display/geometry.h"
#include "display/view.h"

namespace bb::display {

// A list of large choices, in pages (reasons for a correction, a property to search for).
class ChoiceDialog : public View {
 public:
  struct Choice {
    std::string label;
    Colour swatch{0, 0, 0, 0};  // drawn beside the label when not transparent
  };
  ChoiceDialog(std::string title, std::vector<Choice> choices, std::function<void(int)> on_choose)
      : title_(std::move(title)), choices_(std::move(choices)), on_choose_(std::move(on_choose)) {}
  void build(FrameBuilder& fb, UiContext& ui) override;

 private:
  std::string title_;
  std::vector<Choice> choices_;
  std::function<void(int)> on_choose_;
  int page_ = 0;
};

}  // namespace bb::display
