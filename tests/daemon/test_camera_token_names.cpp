// The camera's names of the players' tokens: the one spelling the camera thread, the service and the kept
// set-up share.
#include <gtest/gtest.h>

#include "daemon/camera_token_names.h"

namespace bb::daemon {
namespace {

TEST(CameraTokenNames, APlayersTokenIsTNumberedFromOneInTurnOrder) {
  EXPECT_EQ(token_of_player(rules::PlayerId{0}), "T1");
  EXPECT_EQ(token_of_player(rules::PlayerId{2}), "T3");
  EXPECT_EQ(token_of_player(rules::PlayerId{11}), "T12");
}

TEST(CameraTokenNames, EveryPlayersNameReadsBackAsThatPlayer) {
  for (const rules::PlayerId p : rules::IdRange<rules::PlayerId>{12})
    EXPECT_EQ(player_of_token(token_of_player(p)), p) << token_of_player(p);
}

TEST(CameraTokenNames, ANameThatIsNoPlayersIsNobody) {
  for (const char* name : {"", "T", "T0", "t1", "X1", "1", "T1b", "T 1", "T+1", "T-1", "dog", "T99999999999"})
    EXPECT_EQ(player_of_token(name), std::nullopt) << '"' << name << '"';
}

}  // namespace
}  // namespace bb::daemon
