// Finding one row / ring of 1..N: the exact search with a small budget (it proves "none"
// for small N), then the Warnsdorff + Posa heuristic, then the exact search without limit.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tansaku/core/deadline.h"
#include "tansaku/core/progress.h"
#include "tansaku/graph/warnsdorff_posa.h"

namespace tansaku::square_sum {

struct FindResult {
  bool found = false;          // false = proved that none exists
  std::vector<int> sequence;   // verified, canonical orientation
  std::string method;          // "dfs" or "warnsdorff+posa"
  std::uint64_t nodes = 0;     // search nodes (+ heuristic steps)
};

FindResult find_sequence(int n, bool ring, Deadline* deadline, Progress* progress);

// The large-N method: the graph module's Warnsdorff + Posa walk from a vertex of least
// degree (the largest such number), ties to the larger number, free to turn around and
// work on its other end; a ring is closed by rotations. A row (or ring) of 1..n, or nullopt when `work_budget` (moves,
// scanned neighbours and reversed entries, for the walk and again for closing) is spent.
// Deterministic for a given seed.
std::optional<std::vector<int>> posa_search(int n, bool ring, std::uint64_t work_budget, std::uint64_t seed,
                                            Deadline* deadline, graph::PosaStats* stats = nullptr);

// Bytes the searches need for N (for the memory budget).
std::uint64_t search_bytes(std::uint64_t n);

}  // namespace tansaku::square_sum
