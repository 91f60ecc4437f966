// Counting proper colourings with colours 1..K (the chromatic polynomial at K), and listing
// them. The count runs per connected component (counts multiply) over colourings in which
// colours appear in order of first use, each standing for K(K-1)...(K-m+1) labelled ones.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "coloring/graph.h"
#include "tansaku/core/count.h"
#include "tansaku/search/limits.h"

namespace tansaku::coloring {

struct CountResult {
  mpz_class total;  // proper colourings with colours 1..K
  std::uint64_t nodes = 0;
};

// Polls lim.deadline and updates lim.progress.
CountResult count_colourings(const Graph& g, int K, const search::Limits& lim = {});

// Every proper colouring with colours 1..K (vertex order = lexicographic); throws
// LimitError when there are more than `limit`; `nodes`, if given, receives the search nodes.
std::vector<std::vector<int>> all_colourings(const Graph& g, int K, std::uint64_t limit, const search::Limits& lim = {},
                                             std::uint64_t* nodes = nullptr);

}  // namespace tansaku::coloring
