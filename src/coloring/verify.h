// The colouring verifier: every colouring is checked here before it is reported.
#pragma once
#include <vector>

#include "coloring/graph.h"

namespace tansaku::coloring {

// Returns the number of distinct colours used. Throws std::logic_error unless `colours`
// gives every vertex a colour in 1..K and adjacent vertices different colours.
int verify_colouring(const Graph& g, const std::vector<int>& colours, int K);

// True when `clique` is a set of distinct, pairwise adjacent vertices (checked likewise).
void verify_clique(const Graph& g, const std::vector<int>& clique);

}  // namespace tansaku::coloring
