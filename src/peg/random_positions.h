// Random solvable peg-solitaire positions: positions from which the goal can be reached,
// drawn uniformly (all peg counts together, or one), for `tansaku random`.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "peg/board.h"
#include "peg/domain.h"
#include "tansaku/search/limits.h"

namespace tansaku::peg {

// `count` positions drawn uniformly from those that reach `goal` (with exactly `pegs` pegs
// when given), reproducible for a seed. The set is listed by reverse jumps from the goal, one
// peg count at a time (a position reaches the goal iff a reverse jump sequence leads from the
// goal to it), each layer sorted; a sample keeps a uniform member of the union by reservoir
// (a layer of L positions replaces it with probability L / (positions so far)). An anywhere
// goal starts from every one-peg position. Throws InputError when no position qualifies,
// LimitError beyond lim.memory or beyond 2^24 positions generated for one layer (the larger
// boards' middle layers: ask for few pegs there).
std::vector<Bits> random_solvable(const Board& bd, const Goal& goal, std::optional<int> pegs, std::uint64_t seed,
                                  std::size_t count, const search::Limits& lim);

}  // namespace tansaku::peg
