// Exact counting of Hamiltonian paths and cycles by a frontier dynamic programme (the
// "mate" method behind simpath/ZDD counting): vertices are taken in a fixed order and
// each partial edge set is summarised by the degrees and pairings of the vertices still on
// the frontier, so all the partial paths that look alike from the unprocessed side are
// counted together. Cost grows with the frontier width (about twice the board width for
// knight graphs in row-major order), not with the number of paths. The same tables also
// decide existence and rebuild one path or cycle. Generic over any graph.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tansaku/core/count.h"
#include "tansaku/graph/graph.h"
#include "tansaku/search/limits.h"

namespace tansaku::graph {

struct FrontierOptions {
  bool closed = false;  // count cycles instead of paths
  int endpoint = -1;    // open paths: a vertex that must be one end (-1: any)
};

struct FrontierStats {
  mpz_class count = 0;           // paths (undirected, each once) or cycles
  std::uint64_t states = 0;      // frontier states summed over all steps
  std::uint64_t widest = 0;      // largest number of states in one step
  int frontier = 0;              // largest number of frontier vertices
  std::uint64_t table_bytes = 0; // largest size of the state tables of one step
};

// Largest frontier of the vertex order 0..n-1 (the DP needs it <= kMaxFrontier).
int frontier_width(const AdjacencyGraph& g);
inline constexpr int kMaxFrontier = 24;

// Number of Hamiltonian paths (open) or cycles (closed) of the graph. Vertices are
// processed in index order, so number them along the graph's narrow direction. Uses
// limits.threads, memory (for the tables), deadline and progress.
// Throws InputError if the frontier is too wide, LimitError on memory or deadline.
FrontierStats count_hamiltonian(const AdjacencyGraph& g, const FrontierOptions& o, const search::Limits& limits = {});

// One Hamiltonian path (starting at o.endpoint when given) or cycle (starting at vertex
// o.endpoint, or 0), or nullopt when none exists. Keeps every step's states in memory.
std::optional<std::vector<int>> find_hamiltonian(const AdjacencyGraph& g, const FrontierOptions& o,
                                                 const search::Limits& limits = {}, FrontierStats* stats = nullptr);

}  // namespace tansaku::graph
