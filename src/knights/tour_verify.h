// The knight's tour verifier: every square exactly once, each step a knight's move, the
// right first square, and (closed tours) a knight's move home. Every tour is checked here
// before it is reported.
#pragma once
#include <cstdint>
#include <vector>

#include "knights/board.h"

namespace tansaku::knights {

// Throws std::logic_error naming the first fault.
void verify_tour(const Board& b, const std::vector<std::int32_t>& tour, std::int64_t from, bool closed);

}  // namespace tansaku::knights
