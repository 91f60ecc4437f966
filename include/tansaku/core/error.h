// Errors that map onto the CLI's exit codes: bad input (2) and a limit reached (3).
// Proven unsolvability is not an error: it is a result (solvable = false, exit 1).
#pragma once
#include <stdexcept>
#include <string>

namespace tansaku {

// Bad input or usage: the message names the problem in one line; exit code 2.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A budget (memory, --timeout, an exactness limit) stopped the work; exit code 3.
struct LimitError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace tansaku
