// The outer loop every IDA* shares (plain, with a bound table, in place and parallel): probe
// the space under a cost bound, then raise the bound, until a probe finds a solution, none
// can exist, a probe gives up, or the bound passes Limits::max_cost. Each search brings only
// its probe.
#pragma once
#include <algorithm>
#include <limits>
#include <string_view>

#include "tansaku/search/limits.h"
#include "tansaku/search/stats.h"

namespace tansaku::search {

// What a probe returns besides a cost: nothing costs more than the bound (no solution
// exists: the search is exhausted), or the probe gave up (a node budget) and the search ends.
inline constexpr int kNothingBeyond = std::numeric_limits<int>::max();
inline constexpr int kGaveUp = std::numeric_limits<int>::min();

// Runs probe(bound) from `bound` on. A probe sets res.found (and the path) when it finds a
// solution, and returns the least cost it saw beyond the bound, or one of the two above. The
// next bound is that cost, and at least `step` more (rounded up to a multiple of `step`
// where every solution's cost has a known parity). `name` heads the progress line.
template <class Move, class Probe>
void deepen(std::string_view name, int bound, int step, const Limits& lim, PathResult<Move>& res, Probe&& probe) {
  while (true) {
    if (lim.progress) lim.progress->update("{}: bound {}, {} nodes", name, bound, res.stats.expanded);
    if (lim.proved) lim.proved->raise(bound);  // every solution costs at least the bound searched
    const int next = probe(bound);
    if (res.found || next == kGaveUp) return;
    if (next == kNothingBeyond) {
      res.exhausted = true;  // nothing beyond the bound: no solution exists
      return;
    }
    const int raised = bound + std::max(step, (next - bound + step - 1) / step * step);
    if (raised > lim.max_cost) return;
    bound = raised;
  }
}

}  // namespace tansaku::search
