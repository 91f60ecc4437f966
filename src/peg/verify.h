// The peg-solitaire verifier: replays a solution given as moves [from, to, to, ...] and
// checks every jump against the board's rules. Every solution is replayed before it is
// reported; a failure is an internal error (std::logic_error), never printed as a result.
#pragma once
#include <optional>
#include <vector>

#include "peg/board.h"

namespace tansaku::peg {

struct Replay {
  Bits end = 0;   // the final position
  int moves = 0;  // runs of jumps by one peg (a move starting where the last ended joins it)
  int jumps = 0;
};

Replay replay(const Board& bd, Bits start, const std::vector<std::vector<int>>& moves);

// The position after one move [from, to, to, ...]; nullopt when a jump of it is not legal
// there (or is no jump of the board).
std::optional<Bits> apply_move(const Board& bd, Bits b, const std::vector<int>& move);

// Groups a sequence of jumps into moves: consecutive jumps by the same peg form one move.
std::vector<std::vector<int>> group_jumps(const Board& bd, const std::vector<int>& jump_indices);

}  // namespace tansaku::peg
