// The knight-swap verifier: replays a solution from the start, checking that each move
// takes a knight to an empty square a knight's move away, and that the goal is reached.
#pragma once
#include <vector>

#include "knights/board.h"
#include "knights/swap_domain.h"

namespace tansaku::knights {

// Throws std::logic_error naming the first fault. Returns the positions after each move.
std::vector<Cells> verify_swap(const Board& b, const Cells& start, const Cells& goal, const std::vector<SwapMove>& moves);

}  // namespace tansaku::knights
