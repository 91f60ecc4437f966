// The order of the group the moves generate, by the Schreier-Sims algorithm on the
// stickers (position, orientation) the moves permute. Exact (GMP integers).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "perm/generators.h"
#include "tansaku/core/deadline.h"

namespace tansaku::perm {

// Decimal order of <moves of ms> acting on (position, orientation) pairs.
std::string group_order(const Definition& d, const MoveSet& ms);
// The same for any generators (a subgroup's: R2 rather than R).
std::string group_order(const Definition& d, const std::vector<Perm>& generators);

// `count` positions drawn uniformly from those the moves reach from `goal` (its orbit under
// the group): goal moved by a uniformly random group element (from the same stabiliser
// chain; each orbit member is the image of |stabiliser| elements). Reproducible for a seed.
// `deadline` (if any) is checked for each position (LimitError).
std::vector<Position> random_positions(const Definition& d, const MoveSet& ms, const Position& goal, std::uint64_t seed,
                                       std::size_t count, const Deadline* deadline = nullptr);

// Whether some product of the moves takes `goal` to `p`, by sifting the permutation of the
// stickers that does it through the stabiliser chain (membership test). nullopt when the goal
// repeats a piece within a set (several permutations would do: a coset question this does not
// settle).
// `order`, when given, receives the group's order (decimal) when the answer is true: with
// distinct pieces, the number of positions the moves reach from `goal`. `deadline` (if any)
// stops the stabiliser chain's construction (LimitError).
std::optional<bool> reachable(const Definition& d, const MoveSet& ms, const Position& goal, const Position& p,
                              std::string* order = nullptr, const Deadline* deadline = nullptr);

}  // namespace tansaku::perm
