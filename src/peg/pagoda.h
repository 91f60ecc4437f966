// Pagoda functions: a weight w(h) per hole such that every jump (from a over b into c) has
// w(c) <= w(a) + w(b). A jump removes the pegs of a and b and adds one at c, so the weighted
// sum of the pegs, P(position), never increases. Hence a position with P(pos) < P(goal)
// cannot finish (for "one peg anywhere" P(goal) is the least weight of a possible last hole):
//  - before any search, a function with P(start) < P(goal) proves the problem impossible;
//    whether one exists is a linear programme, solved by GLPK (simplex, then its exact
//    rational simplex from that basis); the solution is scaled, rounded and checked exactly
//    in integers, so the proof never rests on floating point;
//  - during a search, a few functions prune dead positions. They are found from positions of
//    random playouts: one LP per sampled position asks for the function that separates it
//    from the goal by the widest margin (weights in [-1, 1]); the integer functions that pass
//    the exact check are then chosen greedily by how many samples they (with their images
//    under the goal's symmetries) refute.
// Every function kept satisfies the jump inequality on every jump of the board, checked in
// integer arithmetic; anything else is discarded. TANSAKU_PEG_PAGODA=0 turns them off;
// TANSAKU_PEG_PAGODA_DEBUG=1 prints what the construction found on stderr.
#pragma once
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "peg/board.h"
#include "peg/symmetry.h"

namespace tansaku::peg {

struct Goal;

using Weights = std::vector<int>;  // one integer weight per hole

// Whether w(to) <= w(from) + w(over) for every jump of the board (exact).
bool is_pagoda(const Board& bd, const Weights& w);
// The weighted sum of the pegs.
long pagoda_value(const Weights& w, Bits pegs);
// The least value a finished position can have: the goal's sum, or (one peg anywhere) the
// least weight of a possible last hole.
long pagoda_goal_value(const Weights& w, const Goal& goal);
// The function as text: the weights in hole order.
std::string format_weights(const Weights& w);

// A linear programme: maximise c.x subject to rows a.x <= b (b >= 0) and 0 <= x <= upper
// (the origin is feasible), solved by GLPK: glp_simplex, then glp_exact from its basis.
struct LinearProgram {
  int vars = 0;
  std::vector<double> c, upper;
  std::vector<std::vector<std::pair<int, double>>> rows;  // sparse rows
  std::vector<double> rhs;
};
struct LpSolution {
  bool optimal = false;  // false: unbounded or the iteration limit was reached
  double value = 0;
  std::vector<double> x;
  int pivots = 0;  // simplex iterations (GLPK's count)
};
LpSolution solve_lp(const LinearProgram& lp, int max_pivots = 20000);

// Makes a real-valued function integral: the smallest scale s (up to a bound) at which the
// rounded function s*w, lowered where a jump inequality fails, is a pagoda function whose
// margin P(goal) - P(pegs) is positive; divided by the gcd of its weights. nullopt if none.
std::optional<Weights> integral_pagoda(const Board& bd, const std::vector<double>& w, Bits pegs, const Goal& goal,
                                       int max_weight = 255);

// The function of largest margin P(goal) - P(pegs) with weights in [-1, 1], made integral
// (scaled, rounded up, reduced) and checked exactly; nullopt when no function separates
// `pegs` from the goal (or the rounding lost the separation).
std::optional<Weights> separating_pagoda(const Board& bd, Bits pegs, const Goal& goal, int* pivots = nullptr,
                                         int max_weight = 255);

struct PagodaOptions {
  int max_functions = 8;   // distinct functions up to the goal's symmetries
  int max_lanes = 64;      // functions evaluated per position, images included
  int playouts = 96;       // random playouts sampled for dead positions
  int max_lps = 160;       // separating LPs solved at most
  int max_fruitless = 48;  // ... and no more once this many in a row gave no new function
  int max_weight = 255;    // larger integer functions are discarded (sums must fit 16 bits)
  std::uint64_t seed = 0x70a60da;
};

struct PagodaSet {
  std::optional<Weights> proof;  // P(start) < P(goal): the problem is impossible
  std::vector<Weights> functions;  // chosen for pruning, one per orbit under the goal's symmetries
  std::vector<Weights> lanes;      // those functions with their images (what a search evaluates)
  // Construction statistics.
  int samples = 0, refuted = 0, lps = 0, candidates = 0, pivots = 0;
};

// Finds the proof, if one exists, and otherwise the pruning functions for `start -> goal`.
// `group`: the board's automorphisms (images of functions under those fixing the goal are
// used too).
PagodaSet find_pagodas(const Board& bd, const std::vector<Perm>& group, Bits start, const Goal& goal,
                       const PagodaOptions& opt = {});

// Whether TANSAKU_PEG_PAGODA asks for pagoda functions (anything but "0"; default on).
bool pagoda_enabled();

// The fast test a search runs: lanes of 16-bit values P_w(pos) - P_w(goal), one per function,
// in groups; a position is dead when every group has a negative lane. (One group per goal
// image: a layered engine that stores positions up to symmetries H must keep a class while
// any member can reach any image of the goal under H.) A jump changes a lane by a constant,
// so successors are evaluated from their parent's lanes with one subtraction per lane.
// Lanes are processed 16 at a time (GCC/Clang vector extensions: one AVX2 register).
class PagodaPrune {
 public:
  using Block = std::int16_t __attribute__((vector_size(32)));  // 16 lanes
  static constexpr int kMaxLanes = 256;
  static constexpr int kMaxBlocks = kMaxLanes / 16;
  PagodaPrune() = default;  // never prunes
  // `groups[k]`: the functions and their thresholds for goal image k.
  PagodaPrune(const Board& bd, const std::vector<std::vector<std::pair<Weights, long>>>& groups);
  // For a search of start -> goal whose positions are identified up to the symmetries `H`
  // (only the identity for a search over plain positions).
  static PagodaPrune for_search(const Board& bd, const PagodaSet& set, const Goal& goal, const std::vector<Perm>& H);

  bool active() const { return blocks_ > 0; }
  int width() const { return blocks_ * 16; }  // padded lanes per group
  int groups() const { return groups_; }
  int functions() const { return functions_; }  // distinct lanes in use

  // out[0 .. groups * width / 16) = the lanes of b.
  void values(Bits b, Block* out) const {
    const int B = groups_ * blocks_;
    for (int k = 0; k < B; ++k) out[k] = base_[static_cast<std::size_t>(k)];
    for (int byte = 0; byte < bytes_; ++byte) {
      const Block* row = &table_[(static_cast<std::size_t>(byte) * 256 + ((b >> (8 * byte)) & 255)) * B];
      for (int k = 0; k < B; ++k) out[k] += row[k];
    }
  }
  // Whether the position is dead: every group has a negative lane.
  bool dead(Bits b) const {
    const int B = groups_ * blocks_;
    for (int g = 0; g < groups_; ++g) {
      bool neg = false;
      for (int k = g * blocks_; k < (g + 1) * blocks_ && !neg; ++k) {
        Block acc = base_[static_cast<std::size_t>(k)];
        for (int byte = 0; byte < bytes_; ++byte)
          acc += table_[(static_cast<std::size_t>(byte) * 256 + ((b >> (8 * byte)) & 255)) * B + k];
        neg = any_negative(acc);
      }
      if (!neg) return false;
    }
    return true;
  }
  // out = the lanes after jump j from a position with lanes v; returns whether that is dead.
  bool step(const Block* v, int j, Block* out) const {
    const int B = groups_ * blocks_;
    const Block* l = &loss_[static_cast<std::size_t>(j) * B];
    for (int k = 0; k < B; ++k) out[k] = v[k] - l[k];
    for (int g = 0; g < groups_; ++g) {
      bool neg = false;
      for (int k = g * blocks_; k < (g + 1) * blocks_ && !neg; ++k) neg = any_negative(out[k]);
      if (!neg) return false;
    }
    return true;
  }
  // Whether the position after jump j is dead, from its parent's lanes v.
  bool dead_after(const Block* v, int j) const {
    const int B = groups_ * blocks_;
    const Block* l = &loss_[static_cast<std::size_t>(j) * B];
    for (int g = 0; g < groups_; ++g) {
      bool neg = false;
      for (int k = g * blocks_; k < (g + 1) * blocks_ && !neg; ++k) neg = any_negative(v[k] - l[k]);
      if (!neg) return false;
    }
    return true;
  }

 private:
  static bool any_negative(Block x) {
    using U = std::uint64_t __attribute__((vector_size(32)));
    const U s = (U)x & U{0x8000800080008000ull, 0x8000800080008000ull, 0x8000800080008000ull,
                                            0x8000800080008000ull};
    return (s[0] | s[1] | s[2] | s[3]) != 0;
  }
  int blocks_ = 0, groups_ = 0, bytes_ = 0, functions_ = 0;
  std::vector<Block> base_;   // [group block]: -threshold (padding: a large value)
  std::vector<Block> table_;  // [byte][256][block]: sum of the weights of that byte's pegs
  std::vector<Block> loss_;   // [jump][block]: w(from) + w(over) - w(to) >= 0
};

}  // namespace tansaku::peg
