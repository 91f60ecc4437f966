// Optimal solutions of permutation puzzles through the engine's searches: bidirectional BFS
// over the ranked space (small spaces), IDA* over pattern databases (one solution: the
// in-place parallel IDA*; --all / --count: the generic one). Consecutive moves that never
// both appear in an optimal sequence (same base move) are not generated; for one solution
// commuting moves are also tried in one order only.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "perm/pdb.h"
#include "tansaku/puzzles/puzzle.h"
#include "tansaku/search/ida_star.h"
#include "tansaku/search/limits.h"
#include "tansaku/search/stats.h"

namespace tansaku::perm {

struct SolveRequest {
  const Definition* d = nullptr;
  const MoveSet* ms = nullptr;
  Position start, goal;
  std::string algorithm;  // a name of solvers() ("" = the automatic choice)
  search::SolutionMode mode = search::SolutionMode::First;
  std::uint64_t pdb_budget = std::uint64_t{1} << 25;  // states per pattern database
  std::uint64_t bibfs_limit = std::uint64_t{1} << 22;  // automatic choice: bibfs up to this many states
  bool use_cache = true;  // IDA*: the cached piece tables of the instance when there are any
  search::IdaOptions knobs;  // --weight, --beam-width for the non-optimal searches
  int max_length = 0;        // two-phase: stop at a solution of at most this many moves (0: its default rule)
  int prune_depth = 0;       // IDA* for one solution: redundant move strings up to this length (0: by memory)
};

struct SolveResult {
  search::PathResult<int> path;
  std::string algorithm;
  bool proved_unreachable = false;
  std::string reason;
  std::vector<std::string> heuristics;  // pattern databases used
  std::uint64_t table_bytes = 0;        // their bytes (cached tables: together)
  std::optional<std::uint64_t> tables_read;  // cached tables: the bytes read from their files (0: all kept loaded)
  std::vector<std::string> notes;       // cached tables left out and why (the caller tells the user)
  std::string hint;                     // for a person at a terminal: how the next solve gets faster
  std::vector<int> phases;              // two-phase: the lengths of its two phases
  int prune_depth = 0;                  // IDA*: redundant move strings skipped up to this length (0: none said)
  bool from_inverse = false;            // IDA*: found searching from the start's inverse (the moves inverted since)
};

SolveResult solve(const SolveRequest& req, const search::Limits& lim);

// The searches of `solve` (--algorithm), in the order of the automatic choice.
std::vector<SolverSpec> solvers();

// Replays `moves` from `start`: every move exists, the end is `goal`. Throws
// std::logic_error otherwise (a wrong solution is never printed).
void verify(const Definition& d, const MoveSet& ms, const Position& start, const Position& goal,
            const std::vector<int>& moves);

}  // namespace tansaku::perm
