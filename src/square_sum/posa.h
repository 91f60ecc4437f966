// The large-N method: a Warnsdorff walk (always to the unvisited neighbour with fewest
// unvisited neighbours) that, when stuck, rotates the path (Posa: the end's neighbour
// p[i] in the path makes p[i+1] the new end after reversing p[i+1..k]) until the new end
// can go on; a ring is closed by the same rotations. Incomplete (it never proves that
// none exists) but linear-ish: N = 100,000 takes a fraction of a second.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "tansaku/core/deadline.h"

namespace tansaku::square_sum {

struct PosaStats {
  std::uint64_t steps = 0, rotations = 0, restarts = 0;
};

// A row (or ring) of 1..n, or nullopt when `work_budget` (vertex moves plus reversed
// entries) is spent. Deterministic for a given seed.
std::optional<std::vector<int>> posa_search(int n, bool ring, std::uint64_t work_budget, std::uint64_t seed,
                                            Deadline* deadline, PosaStats* stats = nullptr);

}  // namespace tansaku::square_sum
