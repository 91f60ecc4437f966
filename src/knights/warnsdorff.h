// Knight's tours on boards of any size, fast: Warnsdorff's rule (go to the square with the
// fewest onward moves) with ties broken towards the edge of the board (Roth), repaired by
// Pósa rotations when it runs into a dead end, closed by rotations of the path's end, and
// retried with other tie-breaks and first squares. A heuristic: it never proves that no
// tour exists. Works on the board geometry directly (no adjacency lists), so 1000 x 1000
// boards take a fraction of a second.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "knights/board.h"
#include "tansaku/core/deadline.h"

namespace tansaku::knights {

struct WarnsdorffStats {
  std::uint64_t steps = 0;      // squares placed, including re-extensions after repairs
  std::uint64_t rotations = 0;  // Pósa rotations (path reversals)
  int attempts = 0;             // runs started
  std::string method;           // how the tour was found
};

// A tour from `from` (closed: returning to it), or nullopt when the heuristics fail.
std::optional<std::vector<std::int32_t>> warnsdorff_tour(const Board& b, std::int64_t from, bool closed,
                                                         Deadline* deadline, WarnsdorffStats* stats = nullptr);

}  // namespace tansaku::knights
