// Two-phase solving (Kociemba's algorithm, generically): a subgroup H that the definition's
// companion .pat file declares (pattern_spec.h SubgroupSpec: its generators and the
// projection whose goal class is H) splits a solve in two. Phase 1 takes the start into H
// (IDA* over every move, bounded by small pattern tables of the projection); phase 2 solves
// inside H with H's moves only (IDA* bounded by tables over them). Phase-1 solutions are
// tried in increasing length, each followed by the shortest phase 2 within a cap, and the
// shortest total is kept until the budget is spent: fast, short, not proved least. The
// tables are small: built at the first solve (a tenth of a second for the 3x3x3's), kept for
// the process and in the cache directory (two-phase/) for the next.
#pragma once
#include <string>

#include "perm/definition.h"
#include "perm/generators.h"
#include "perm/solver.h"
#include "tansaku/search/limits.h"

namespace tansaku::perm {

// The folder of the cache directory that holds the two-phase tables.
inline constexpr const char* kTwoPhaseFolder = "two-phase";

// When to stop. Always when no shorter solution can follow (the phase-1 length reaches the
// best total), and at a limit (--timeout) with a solution in hand; besides:
struct TwoPhaseOptions {
  // > 0: at the first solution of at most this many moves; 0: once a solution is in hand
  // and kBudget seconds of search have passed.
  int max_length = 0;
  static constexpr double kBudget = 0.1;
  // The tables from the cache directory's two-phase/ when they are there, and stored there
  // when built (about 1 MB for the 3x3x3); false: built in memory only.
  bool use_cache = true;
};

// Why two-phase cannot solve here ("" = it can): no Subgroup block, a subgroup move left out
// of the move set (--moves, --metric qtm), a goal whose class the subgroup moves do not keep,
// Illegal rules.
std::string two_phase_refusal(const Definition& d, const MoveSet& ms, const Position& goal);

// Fills out (path, heuristics, table_bytes, phases); the start must be reachable. A limit
// (--timeout, --memory) with a solution in hand ends the search with that solution; without
// one it throws LimitError.
void two_phase_solve(const Definition& d, const MoveSet& ms, const Position& start, const Position& goal,
                     const TwoPhaseOptions& opt, const search::Limits& lim, SolveResult& out);

}  // namespace tansaku::perm
