// Errors that map onto the CLI's exit codes: bad input (2) and a limit reached (3).
// Proven unsolvability is not an error: it is a result (solvable = false, exit 1).
#pragma once
#include <stdexcept>
#include <string>

namespace tansaku {

// Bad input or usage: the message names the problem in one line; exit code 2.
// A NUL byte in the message (from untrusted text) is written \x00: what() is a C string, and
// the message must not stop there.
inline std::string error_message(std::string m) {
  for (std::size_t i = m.find('\0'); i != std::string::npos; i = m.find('\0', i + 4)) m.replace(i, 1, "\\x00");
  return m;
}

struct InputError : std::runtime_error {
  explicit InputError(const std::string& m) : std::runtime_error(error_message(m)) {}
  explicit InputError(const char* m) : std::runtime_error(m) {}
};

// A budget (memory, --timeout, an exactness limit) stopped the work; exit code 3.
struct LimitError : std::runtime_error {
  explicit LimitError(const std::string& m) : std::runtime_error(error_message(m)) {}
  explicit LimitError(const char* m) : std::runtime_error(m) {}
};

}  // namespace tansaku
