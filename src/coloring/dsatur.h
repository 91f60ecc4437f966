// DSATUR (Brelaz): the greedy colouring that gives the first upper bound, and the exact
// search "is there a colouring with K colours?" by DSATUR branching with forward checking,
// colours introduced in order (colour symmetry) after fixing a clique to 1..q, on the
// K-core of the graph (vertices of degree < K are peeled off and coloured last).
#pragma once
#include <cstdint>
#include <vector>

#include "coloring/graph.h"
#include "tansaku/search/limits.h"

namespace tansaku::coloring {

// Colours 1..k for every vertex (k = number used).
std::vector<int> dsatur_greedy(const Graph& g);

// Peeling: vertices removed (in order) because fewer than K neighbours remained; the rest
// is the K-core. Any K-colouring of the core extends to the graph (reverse removal order).
struct Peel {
  std::vector<int> core;     // vertices of g, ascending
  std::vector<int> removed;  // removal order
};
Peel peel(const Graph& g, int K);
// Colours the removed vertices greedily in reverse removal order; `colours` (size g.n)
// holds the core's colours. Throws std::logic_error if a removed vertex finds no colour.
void extend_peeled(const Graph& g, const Peel& p, int K, std::vector<int>& colours);

enum class Decision { Found, None, Budget };

struct DecideResult {
  Decision status = Decision::Budget;
  std::vector<int> colours;  // size g.n, 1..K, when Found
  std::uint64_t nodes = 0;
};

// Exact: a K-colouring of g (a graph whose `clique` vertices are pairwise adjacent), or a
// proof that none exists. Stops with Budget after `node_budget` nodes. Polls lim.deadline
// (LimitError) and updates lim.progress.
DecideResult dsatur_decide(const Graph& g, int K, const std::vector<int>& clique, std::uint64_t node_budget,
                           const search::Limits& lim = {});

}  // namespace tansaku::coloring
