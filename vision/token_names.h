#pragma once
// The names the tracker gives the tokens it learns, "T1", "T2", ... in the order it learns them (on the
// start space, from the one nearest the board's corner; one at a time, in the order they are put down). This
// is the one place that spells that rule: the tracker, the learning, the scripted table and its evaluator
// here, and the daemon, which pairs each player with a token by it. Plain functions: any thread.

#include <optional>
#include <string>
#include <string_view>

namespace bb::vision {

// The name of the learned token at `index` (from 0): "T1" for 0.
std::string learned_token_name(int index);

// The index of a learned token's name ("T3": 2); nullopt for a name of any other form ("T", "T0", "T03",
// "T3b", "car", more than four digits): a name the family gave, or a typing error in a script.
std::optional<int> learned_token_index(std::string_view name);

}  // namespace bb::vision
