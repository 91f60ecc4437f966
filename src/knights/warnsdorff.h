// Knight's tours on boards of any size, fast: the graph module's Warnsdorff + Posa walk on
// the board's geometry (no adjacency lists), with ties broken towards the edge of the board
// (Roth), then towards the centre, then at random; closed tours are walked from the centre
// and cut open at the first square. A heuristic: it never proves that no tour exists.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "knights/board.h"
#include "tansaku/search/limits.h"

namespace tansaku::knights {

struct WarnsdorffStats {
  std::uint64_t steps = 0;      // squares placed, including re-extensions after repairs
  std::uint64_t rotations = 0;  // Pósa rotations (path reversals)
  int attempts = 0;             // runs started
  std::string method;           // how the tour was found
};

// A tour from `from` (closed: returning to it), or nullopt when the heuristics fail.
// Polls lim.deadline.
std::optional<std::vector<std::int32_t>> warnsdorff_tour(const Board& b, std::int64_t from, bool closed,
                                                         const search::Limits& lim = {},
                                                         WarnsdorffStats* stats = nullptr);

}  // namespace tansaku::knights
