// Exhaustive backtracking over Hamiltonian paths / cycles from a fixed first vertex, with
// Warnsdorff move ordering (fewest onward moves first) and dead-end pruning: a square with
// no way in is fatal, and every square that has only one way left must be the last one.
// Finds one tour (or proves there is none), lists them all, or counts them. Generic over a
// graph given as adjacency lists.
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

#include "tansaku/core/count.h"
#include "tansaku/core/deadline.h"

namespace tansaku::knights {

struct DfsOptions {
  bool closed = false;                // the last vertex must be adjacent to the first
  int start = 0;                      // first vertex
  std::vector<int> prefix;            // fixed next vertices after start (a knight's path), if any
  std::uint64_t max_nodes = 0;        // give up after this many moves (0 = no limit)
  std::atomic<std::int64_t>* shared_budget = nullptr;  // moves left for all searches together
  const std::vector<std::int64_t>* tie = nullptr;  // among equal degrees, larger first
  Deadline* deadline = nullptr;
};

struct DfsResult {
  bool exhausted = false;       // the whole tree was searched (a count or a proof)
  std::uint64_t nodes = 0;      // moves made
  unsigned __int128 count = 0;  // tours seen (directed, from `start`); the inner loop's counter
};

// Calls on_tour(path) for each tour from o.start (through o.prefix); on_tour returns false
// to stop.
DfsResult tour_dfs(const std::vector<std::vector<int>>& adj, const DfsOptions& o,
                   const std::function<bool(const std::vector<int>&)>& on_tour);

// Directed tours from `start` (every start when start < 0; closed: from square 0), counted
// by backtracking split into many independent tasks (first squares up to the board's
// symmetries, then the first two moves) run in parallel. `symmetry[s]` is the
// representative of s's class under the board's symmetries (-1 when no symmetry is used).
struct DfsCount {
  bool complete = false;  // false: max_nodes ran out first (the count is partial)
  mpz_class count = 0;
  std::uint64_t nodes = 0;
  std::size_t tasks = 0;
};
DfsCount count_tours_dfs(const std::vector<std::vector<int>>& adj, const std::vector<int>& symmetry, int start,
                         bool closed, unsigned threads, const Deadline* deadline, std::uint64_t max_nodes = 0);

}  // namespace tansaku::knights
