#pragma once
#include <string>
#include <vector>

namespace bb::ledger::testing {

// Runs a program with arguments, capturing its standard output.
struct ChildResult {
  bool killed = false;  // ended by SIGKILL
  int exit_code = -1;   // when it exited normally
  std::string out;
};
ChildResult run_child(const std::string& program, const std::vector<std::string>& args);

}  // namespace bb::ledger::testing
