// Finding one row / ring of 1..N: the exact search with a small budget (it proves "none"
// for small N), then the Warnsdorff + Posa heuristic, then the exact search without limit.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "tansaku/core/deadline.h"
#include "tansaku/core/progress.h"

namespace tansaku::square_sum {

struct FindResult {
  bool found = false;          // false = proved that none exists
  std::vector<int> sequence;   // verified, canonical orientation
  std::string method;          // "dfs" or "warnsdorff+posa"
  std::uint64_t nodes = 0;     // search nodes (+ heuristic steps)
};

FindResult find_sequence(int n, bool ring, Deadline* deadline, Progress* progress);

// Bytes the searches need for N (for the memory budget).
std::uint64_t search_bytes(std::uint64_t n);

}  // namespace tansaku::square_sum
