// The layered engine: every jump removes one peg, so the positions reachable after k jumps
// form disjoint layers and the state graph is a DAG from layer to layer. Each layer is a
// set of canonical bitboards (under a group H of symmetries fixing the start), built in
// parallel from the previous one into a concurrent hash table, then sorted. On top of it:
//  - explore: positions per jump count with and without symmetry reduction, and a backward
//    pass that finds, for every position, the holes its last peg can end on;
//  - count: the number of jump sequences from the start to the goal (exact, 128-bit), by
//    forward accumulation of orbit totals;
//  - moves: the exact minimum number of moves by dynamic programming over the layers: for
//    each position the least number of moves reaching it and the set of holes the last
//    run may have ended on (a run can continue from those for free); then one optimal path
//    is walked back through the stored layers.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "peg/board.h"
#include "peg/domain.h"
#include "peg/pagoda.h"
#include "peg/symmetry.h"
#include "tansaku/core/count.h"
#include "tansaku/core/deadline.h"
#include "tansaku/core/progress.h"
#include "tansaku/search/limits.h"

namespace tansaku::peg {

struct LayerStats {
  std::uint64_t generated = 0;   // successor positions produced (the "nodes" signature)
  std::uint64_t peak_bytes = 0;  // tables and stored layers at the peak
};

struct ExploreLayers {
  std::vector<std::uint64_t> reduced, full;  // positions per jump count: up to symmetry, all
  // Positions from which one peg can be left (anywhere / on the --finish hole), per jump count.
  std::vector<std::uint64_t> finish_any_reduced, finish_any_full, finish_at_reduced, finish_at_full;
  std::vector<Bits> last;  // the deepest layer's canonical positions, ascending (up to keep)
  LayerStats stats;
};

// `finish`: also count positions that can end with one peg on that hole. `backward`: run the
// can-finish pass at all.
ExploreLayers explore_layers(const Board& bd, const Symmetry& H, Bits start, std::optional<int> finish, bool backward,
                             std::size_t keep, const search::Limits& lim);

struct CountResult {
  mpz_class count = 0;  // accumulated in 128-bit table counters
  std::uint64_t positions = 0;  // canonical positions visited
  LayerStats stats;
};
// `prune`: pagoda functions (built for the engine's group H); successors they prove dead are
// not stored (count and moves only; explore keeps every position). Null: none.
CountResult count_layers(const Board& bd, const Symmetry& H, Bits start, const Goal& goal, const search::Limits& lim,
                         const PagodaPrune* prune = nullptr);

struct MovesResult {
  bool found = false;
  int moves = -1;
  std::vector<int> jumps;  // jump indices of one optimal solution, in order
  std::uint64_t positions = 0;
  LayerStats stats;
};
MovesResult min_moves_layers(const Board& bd, const Symmetry& H, Bits start, const Goal& goal, const search::Limits& lim,
                             const PagodaPrune* prune = nullptr);

}  // namespace tansaku::peg
