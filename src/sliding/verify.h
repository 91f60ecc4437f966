// The sliding-tile verifier: replays a solution from the start, checking that each move takes
// a tile next to the blank, and that the goal is reached. Returns the labels moved.
#pragma once
#include <cstdint>
#include <vector>

#include "sliding/board.h"

namespace tansaku::sliding {

// Throws std::logic_error when the solution is not legal or does not reach the goal.
std::vector<std::uint8_t> verify_solution(const Geometry& geo, const Cells& start, const Cells& goal,
                                          const std::vector<std::uint8_t>& from_cells);

}  // namespace tansaku::sliding
