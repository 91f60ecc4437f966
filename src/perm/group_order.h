// The order of the group the moves generate, by the Schreier-Sims algorithm on the
// stickers (position, orientation) the moves permute. Exact (GMP integers).
#pragma once
#include <string>

#include "perm/generators.h"

namespace tansaku::perm {

// Decimal order of <moves of ms> acting on (position, orientation) pairs.
std::string group_order(const Definition& d, const MoveSet& ms);

}  // namespace tansaku::perm
