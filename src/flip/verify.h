// The flip verifier: what a press set does to a board, computed bit-parallel by shifting the
// whole press vector once per mask offset (independent of the solvers' chasing and
// elimination), and the check that a press set turns the start into the goal.
#pragma once
#include <cstdint>
#include <vector>

#include "flip/bitvec.h"
#include "flip/board.h"

namespace tansaku::flip {

// Replays press sets on one board; the edge masks are built once.
class Replayer {
 public:
  explicit Replayer(const Board& board);
  // The configuration toggled by pressing every cell of `presses` once (A x over GF(2)).
  Bits effect(const Bits& presses) const;

 private:
  struct Shift {
    std::int64_t amount;  // bits
    Bits mask;            // cells that take their source from this shift
  };
  bool torus_;
  std::vector<std::vector<Shift>> parts_;  // per offset: one shift (plain) or two (torus wrap)
};

// One-off Replayer(board).effect(presses).
Bits effect(const Board& board, const Bits& presses);

// Throws std::logic_error unless start + effect(presses) == goal.
void verify_solution(const Replayer& replay, const Bits& start, const Bits& goal, const Bits& presses);
void verify_solution(const Board& board, const Bits& start, const Bits& goal, const Bits& presses);

}  // namespace tansaku::flip
