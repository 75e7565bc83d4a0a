#pragma once
#include <string>

#include "display/frame.h"
#include "display/layout.h"
#include "display/text_measure.h"

namespace bb::display {

// Something the family must see although the screen cannot move on: the service cannot store the game (a
// failing or full SD card). It is laid over the last picture drawn, which stays exactly as it was, so the
// notice never shows anything the disk does not hold yet.
struct ScreenNotice {
  std::string title;  // "The game cannot be saved"
  std::string body;   // why, that nothing is lost, and what to do
};

// `last` (the frame drawn last) with the notice over it: the picture shaded, the notice in a box across its
// middle. The targets are left out: a finger on the shaded picture does nothing while the notice shows (the
// service does not read touches then). Pure layout; any thread, with its own `measure`.
Frame frame_with_notice(const Frame& last, const Layout& layout, TextMeasure& measure,
                        const ScreenNotice& notice);

}  // namespace bb::display
