// Exact counting of Hamiltonian paths and cycles by a frontier dynamic programme (the
// "mate" method behind simpath/ZDD counting): vertices are taken in a fixed order and
// each partial edge set is summarised by the degrees and pairings of the vertices still on
// the frontier, so all the partial paths that look alike from the unprocessed side are
// counted together. Cost grows with the frontier width (about twice the board width for
// knight graphs in row-major order), not with the number of paths. The same tables also
// decide existence and rebuild one path or cycle. Generic over any graph.
#pragma once
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "tansaku/core/count.h"
#include "tansaku/core/deadline.h"
#include "tansaku/core/progress.h"

namespace tansaku::knights {

using u128 = unsigned __int128;

struct HamiltonOptions {
  bool closed = false;  // count cycles instead of paths
  int endpoint = -1;    // open paths: a vertex that must be one end (-1: any)
  unsigned threads = 1;
  std::uint64_t memory = std::numeric_limits<std::uint64_t>::max();  // bytes for the tables
  const Deadline* deadline = nullptr;
  Progress* progress = nullptr;
};

struct HamiltonStats {
  mpz_class count = 0;           // paths (undirected, each once) or cycles
  std::uint64_t states = 0;      // frontier states summed over all steps
  std::uint64_t widest = 0;      // largest number of states in one step
  int frontier = 0;              // largest number of frontier vertices
  std::uint64_t table_bytes = 0; // largest size of the state tables of one step
};

// Largest frontier of the vertex order 0..n-1 (the DP needs it <= kMaxFrontier).
int frontier_width(const std::vector<std::vector<int>>& adj);
inline constexpr int kMaxFrontier = 24;

// Number of Hamiltonian paths (open) or cycles (closed) of the graph. Vertices are
// processed in index order, so number them along the graph's narrow direction.
// Throws InputError if the frontier is too wide, LimitError on memory or deadline.
HamiltonStats count_hamiltonian(const std::vector<std::vector<int>>& adj, const HamiltonOptions& o);

// One Hamiltonian path (starting at o.endpoint when given) or cycle (starting at vertex
// o.endpoint, or 0), or nullopt when none exists. Keeps every step's states in memory.
std::optional<std::vector<int>> find_hamiltonian(const std::vector<std::vector<int>>& adj, const HamiltonOptions& o,
                                                 HamiltonStats* stats = nullptr);

}  // namespace tansaku::knights
