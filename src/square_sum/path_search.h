// Exact search for rows (Hamiltonian paths) and rings (Hamiltonian cycles) of the
// square-sum graph, by the graph module's backtracking (Warnsdorff order, dead-end
// pruning; ties to the larger number). Complete: with no budget it proves that no row /
// ring exists, counts them, or lists them.
#pragma once
#include <cstdint>
#include <vector>

#include "tansaku/search/limits.h"

namespace tansaku::square_sum {

enum class Mode { First, Count, All };
enum class Status { Found, None, Budget };

// The search's own knobs; the budgets (deadline, progress, the memory that bounds an --all
// listing) come as search::Limits.
struct SearchOptions {
  Mode mode = Mode::First;
  bool ring = false;
  std::uint64_t node_budget = UINT64_MAX;  // First mode: give up (Budget) beyond this
};

struct SearchResult {
  Status status = Status::None;
  std::vector<int> sequence;               // First: one row / ring (search orientation)
  std::uint64_t count = 0;                 // Count / All: rows once per reversal, rings once
                                           // per rotation and reflection
  std::vector<std::vector<int>> all;       // All: canonical orientation, sorted
  std::uint64_t nodes = 0;
};

// All mode throws LimitError when the listing outgrows lim.memory.
SearchResult search(int n, const SearchOptions& o, const search::Limits& lim = {});

}  // namespace tansaku::square_sum
