#pragma once
#include <string>

#include "display/frame_builder.h"
#include "display/snapshot.h"

namespace bb::display {

class UiContext;

// Pieces every screen shares, so that the way back, dialogs and paging look and work the same everywhere.
class Widgets {
 public:
  // The bar at the top of every screen but home: the way back, the title, the status message. Returns the
  // area below it.
  // show_message: false where the screen shows messages beside what caused them.
  static Rect top_bar(FrameBuilder& fb, UiContext& ui, const std::string& title, bool show_message = true);
  static Colour player_colour(const Snapshot& snap, rules::PlayerId player);
  // Darkens the screen and returns a centred panel for a dialog (layer 1 from here on).
  static Rect dialog(FrameBuilder& fb, int w, int h);
  // Previous/next page buttons in `area` (two squares at its ends) with "2 / 5" between them.
  static void pager(FrameBuilder& fb, const std::string& id, Rect area, int& page, int pages);
  // A filled square in the player's colour with the token's first letter, so colour is never the only cue.
  static void player_badge(FrameBuilder& fb, Rect square, const Snapshot& snap, rules::PlayerId player);
};

}  // namespace bb::display
