// The press system A x = start + goal over GF(2) solved two ways, both ending in M4RI:
// dense elimination of the whole R*C x R*C matrix (small boards, cross-checks), and light
// chasing, which leaves only the presses no cell can determine as unknowns (a square system
// of F variables, F about C for Lights Out and R + C - 1 for the 8-flip). Either way the
// answer is a particular press set plus a basis of the null space (the quiet patterns), all
// as full board-sized press vectors.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <m4ri/m4ri.h>

#include "flip/bitvec.h"
#include "flip/board.h"
#include "tansaku/core/deadline.h"
#include "tansaku/search/limits.h"

namespace tansaku::flip {

// Frees an M4RI matrix held in a std::unique_ptr.
struct MzdFree {
  void operator()(mzd_t* m) const { mzd_free(m); }
};

struct LinearResult {
  bool solvable = false;
  std::int64_t rank = 0;     // rank of A (the press matrix of the whole board)
  std::int64_t nullity = 0;  // dimension of its null space
  Bits particular;           // one press set solving the system (when solvable)
  std::vector<Bits> kernel;  // a basis of the null space (quiet patterns), when asked for
  std::int64_t unknowns = 0; // variables of the system handed to M4RI
  std::string method;        // how it was reduced and solved
};

// The algorithmic choice; the budget (memory, deadline) comes as search::Limits.
struct LinearOptions {
  bool want_kernel = true;  // build the full quiet patterns
};

// Dense Gaussian elimination (M4RI) of the R*C x (R*C + 1) augmented matrix.
LinearResult solve_dense(const Board& board, const Bits& rhs, const LinearOptions& opt, const search::Limits& lim = {});

// Light chasing: presses are fixed one at a time, each by the one cell whose last undecided
// press it is; the presses left free (F of them) and the cells left over (F equations) form
// the reduced system, eliminated by M4RI. Of the 8 scan orders (row- or column-major, from
// any corner) the one with the fewest free presses is used.
LinearResult solve_chase(const Board& board, const Bits& rhs, const LinearOptions& opt, const search::Limits& lim = {});

// The result of bringing an augmented matrix (vars columns + 1) to reduced row echelon form.
struct Rref {
  bool consistent = true;
  std::int64_t rank = 0;     // pivots among the variable columns
  Bits particular;           // free variables 0, pivots from the right-hand side
  std::vector<Bits> kernel;  // one vector per non-pivot column
};
// Eliminates M in place (M4RI, full echelon form). Throws LimitError if the kernel would not
// fit `memory`.
Rref eliminate(mzd_t* M, std::int64_t vars, bool want_kernel, std::uint64_t memory);

}  // namespace tansaku::flip
