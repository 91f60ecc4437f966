// Maximum clique by branch and bound over bit sets with a greedy-colouring bound
// (Tomita's MCQ): the lower bound of the chromatic number, and the vertices the exact
// colouring searches fix to colours 1..q to break colour symmetry.
#pragma once
#include <cstdint>
#include <vector>

#include "coloring/graph.h"
#include "tansaku/search/limits.h"

namespace tansaku::coloring {

struct CliqueResult {
  std::vector<int> clique;  // vertices, pairwise adjacent
  bool exact = false;       // true when the search finished: no larger clique exists
  std::uint64_t nodes = 0;
};

// Stops (exact = false, best clique so far) after `node_budget` search nodes or at
// lim.deadline.
CliqueResult max_clique(const Graph& g, std::uint64_t node_budget, const search::Limits& lim = {});

}  // namespace tansaku::coloring
