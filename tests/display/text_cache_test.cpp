// The label textures the canvas keeps between frames stay within their budget however many different
// labels a game shows (balances, times, messages), and a frame's own labels are never dropped mid-frame.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "display/canvas.h"
#include "display/font_set.h"
#include "display_test_support.h"

namespace bb::display {
namespace {

Frame labels(int first, int count) {
  Frame frame(1024, 600);
  for (int i = 0; i < count; ++i) {
    DrawOp op;
    op.kind = DrawOp::Kind::text;
    op.rect = {10 + (i % 4) * 250, 10 + (i / 4) * 22 % 560, 240, 22};
    op.text = fmt::format("Ann pays Bob ${} rent", first + i);
    op.px = 20;
    frame.ops.push_back(op);
  }
  return frame;
}

TEST(TextCache, ManyDifferentLabelsStayWithinTheBudget) {
  auto canvas = Canvas::offscreen(1024, 600, testing::fonts());
  ASSERT_TRUE(canvas) << canvas.error();
  std::size_t largest = 0;
  for (int frame = 0; frame < 200; ++frame) {
    (*canvas)->draw(labels(frame * 40, 40));  // 40 labels never seen before, each frame
    largest = std::max(largest, (*canvas)->cached_text_bytes());
  }
  // Without a bound the 8,000 labels would hold far more (each is some 200x24 pixels: about 150 MB).
  EXPECT_LE(largest, Canvas::kTextCacheBytes + 40u * 250 * 30 * 4);
  EXPECT_GT((*canvas)->cached_texts(), 40u);  // kept between frames, not dropped every frame
}

TEST(TextCache, AFrameLargerThanTheBudgetIsDrawnWhole) {
  auto canvas = Canvas::offscreen(1024, 600, testing::fonts());
  ASSERT_TRUE(canvas) << canvas.error();
  (*canvas)->draw(labels(0, 2000));  // more than the budget in one frame: all of them are kept while drawn
  EXPECT_EQ((*canvas)->cached_texts(), 2000u);
  (*canvas)->draw(labels(5000, 1));  // the next frame drops what it does not draw
  EXPECT_EQ((*canvas)->cached_texts(), 1u);
}

}  // namespace
}  // namespace bb::display
