#include <SDL.h>
#include <SDL_image.h>
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "display/canvas.h"
#include "display_test_support.h"

// A few screens compared with reviewed reference images, with a tolerance for font rasteriser differences.
// BB_UPDATE_REFERENCE=1 rewrites them (look at every one before committing it).
namespace bb::display {
namespace {

struct Reference {
  const char* sample;
  ScreenId screen;
  const char* file;
};

const Reference kReferences[] = {
    {"developed", ScreenId::home, "home-developed.png"},
    {"auction", ScreenId::auction, "auction-auction.png"},
    {"long-ledger", ScreenId::ledger, "ledger-long-ledger.png"},
    {"debt", ScreenId::board, "board-debt.png"},
    {"fresh", ScreenId::calibration, "calibration-fresh.png"},
};

// Share of pixels that differ by more than `threshold` in any channel.
double difference(SDL_Surface* a, SDL_Surface* b, int threshold) {
  SDL_Surface* x = SDL_ConvertSurfaceFormat(a, SDL_PIXELFORMAT_RGB24, 0);
  SDL_Surface* y = SDL_ConvertSurfaceFormat(b, SDL_PIXELFORMAT_RGB24, 0);
  long long differ = 0;
  for (int row = 0; row < x->h; ++row) {
    const auto* p = static_cast<const Uint8*>(x->pixels) + row * x->pitch;
    const auto* q = static_cast<const Uint8*>(y->pixels) + row * y->pitch;
    for (int i = 0; i < x->w; ++i) {
      bool d = false;
      for (int c = 0; c < 3; ++c) d = d || std::abs(p[i * 3 + c] - q[i * 3 + c]) > threshold;
      differ += d;
    }
  }
  const double share = static_cast<double>(differ) / (static_cast<double>(x->w) * x->h);
  SDL_FreeSurface(x);
  SDL_FreeSurface(y);
  return share;
}

TEST(ReferenceImages, ScreensLookAsReviewed) {
  const bool update = std::getenv("BB_UPDATE_REFERENCE") != nullptr;
  const auto tmp = std::filesystem::temp_directory_path() / fmt::format("bb-ref-{}", ::getpid());
  std::filesystem::create_directories(tmp);
  for (const auto& ref : kReferences) {
    testing::Harness h(testing::sample(ref.sample));
    h.screen().ui().go(ref.screen);
    const auto out = (tmp / ref.file).string();
    ASSERT_TRUE(h.screen().save_png(out).has_value());
    const auto expected = std::filesystem::path(REFERENCE_DIR) / ref.file;
    if (update) {
      std::filesystem::copy_file(out, expected, std::filesystem::copy_options::overwrite_existing);
      continue;
    }
    ASSERT_TRUE(std::filesystem::exists(expected)) << expected << " is missing; see the comment at the top";
    SDL_Surface* want = IMG_Load(expected.c_str());
    SDL_Surface* got = IMG_Load(out.c_str());
    ASSERT_NE(want, nullptr) << IMG_GetError();
    ASSERT_NE(got, nullptr) << IMG_GetError();
    ASSERT_EQ(want->w, got->w);
    ASSERT_EQ(want->h, got->h);
    const double share = difference(want, got, 48);
    EXPECT_LT(share, 0.01) << ref.file << ": " << share * 100 << "% of pixels differ; the new picture is "
                           << out;
    SDL_FreeSurface(want);
    SDL_FreeSurface(got);
  }
  if (!::testing::Test::HasFailure()) std::filesystem::remove_all(tmp);
}

// A pixel check that does not depend on the references: the current player's card has the highlight frame.
TEST(ReferenceImages, TheCurrentPlayerIsFramedInTheHighlightColour) {
  testing::Harness h(testing::sample("fresh"));
  h.frame();
  const Target* ann = h.frame().find("home.player.0");
  ASSERT_NE(ann, nullptr);
  const Colour c = h.screen().canvas().pixel(ann->rect.x + ann->rect.w / 2, ann->rect.y + 1);
  EXPECT_EQ(c, (Colour{240, 228, 66}));
  const Target* bob = h.frame().find("home.player.1");
  EXPECT_NE(h.screen().canvas().pixel(bob->rect.x + bob->rect.w / 2, bob->rect.y + 1),
            (Colour{240, 228, 66}));
}

}  // namespace
}  // namespace bb::display
