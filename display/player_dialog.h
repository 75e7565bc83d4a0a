#pragma once
#include <functional>
#include <string>
#include <vector>

#include "display/view.h"

namespace bb::display {

// Registers a player at setup: a name typed on an on-screen keyboard, then a colour and a token.
class PlayerDialog : public View {
 public:
  struct Result {
    std::string name;
    int colour = 0;
    std::string token;
    std::string card;
  };
  PlayerDialog(std::string card, std::vector<int> free_colours, std::vector<std::string> tokens,
               std::function<void(Result)> on_done);
  void build(FrameBuilder& fb, UiContext& ui) override;

 private:
  void build_name(FrameBuilder& fb, UiContext& ui);
  void build_looks(FrameBuilder& fb, UiContext& ui);
  Result result_;
  std::vector<int> colours_;
  std::vector<std::string> tokens_;
  std::function<void(Result)> on_done_;
  bool naming_ = true;
  bool shift_ = true;
};

}  // namespace bb::display
