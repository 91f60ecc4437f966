// What every search reports: nodes expanded and generated, and the outcome.
#pragma once
#include <cstdint>
#include <vector>

#include "tansaku/core/count.h"

namespace tansaku::search {

struct Stats {
  std::uint64_t expanded = 0;   // nodes whose successors were generated ("nodes")
  std::uint64_t generated = 0;  // successor states produced
  std::uint64_t stored = 0;     // states kept in memory at the peak (tables, hash sets)
};

// A path search's answer. found == false with exhausted == true is a proof that no
// solution exists (within the bound, if one was given).
template <class Move>
struct PathResult {
  bool found = false;
  bool exhausted = false;
  int cost = -1;              // length in the domain's metric
  std::vector<Move> moves;    // one optimal solution
  std::vector<std::vector<Move>> all;  // every optimal solution (when asked)
  mpz_class count = 0;                 // number of optimal solutions (when asked)
  // A non-optimal search's answer (best_first.h, beam_search.h): `cost` is not proved least;
  // bound > 0: it is at most `bound` times the least (weighted A*).
  bool optimal = true;
  double bound = 0;
  Stats stats;
};

}  // namespace tansaku::search
