// An explore's layers into its report, the same way for every family: the states, the depth,
// the histogram and the farthest positions, each written through the family's notation.
#pragma once
#include <utility>

#include "tansaku/puzzles/puzzle.h"

namespace tansaku {

// `res`: the engine's search::ExploreResult or a family's own result with the same fields
// (states, depth, histogram, farthest_count, farthest); `name(f)`: a farthest position as
// the family writes it. The figures (nodes, table_bytes) are the family's to set.
template <class Result, class Name>
void report_layers(const Result& res, Name&& name, ExploreReport& r) {
  r.states = res.states;
  r.depth = res.depth;
  r.histogram = res.histogram;
  r.farthest_count = res.farthest_count;
  for (const auto& f : res.farthest) r.farthest.push_back(name(f));
}

}  // namespace tansaku
