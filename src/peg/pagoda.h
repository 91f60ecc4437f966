// Pagoda functions: a weight w(h) per hole such that every jump (from a over b into c) has
// w(c) <= w(a) + w(b). A jump removes the pegs of a and b and adds one at c, so the weighted
// sum of the pegs, P(position), never increases. Hence a position with P(pos) < P(goal)
// cannot finish (for "one peg anywhere" P(goal) is the least weight of a possible last hole):
//  - before any search, a function with P(start) < P(goal) proves the problem impossible;
//    whether one exists is a linear programme, solved exactly enough by a small dense simplex
//    (the integer function it yields is checked exactly, so the proof never rests on floating
//    point);
//  - during a search, a few functions prune dead positions. They are found from positions of
//    random playouts: one LP per sampled position asks for the function that separates it
//    from the goal by the widest margin (weights in [-1, 1]); the integer functions that pass
//    the exact check are then chosen greedily by how many samples they (with their images
//    under the goal's symmetries) refute.
// Every function kept satisfies the jump inequality on every jump of the board, checked in
// integer arithmetic; anything else is discarded.
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

// A linear programme: maximise c.x subject to rows a.x <= b (b >= 0) and 0 <= x <= upper,
// by a bounded-variable primal simplex on a dense tableau (the origin is feasible).
struct LinearProgram {
  int vars = 0;
  std::vector<double> c, upper;
  std::vector<std::vector<std::pair<int, double>>> rows;  // sparse rows
  std::vector<double> rhs;
};
struct LpSolution {
  bool optimal = false;  // false: unbounded or the pivot limit was reached
  double value = 0;
  std::vector<double> x;
  int pivots = 0;
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
  int max_lps = 48;        // separating LPs solved at most
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
class PagodaPrune {
 public:
  static constexpr int kMaxLanes = 256;
  PagodaPrune() = default;  // never prunes
  // `groups[k]`: the functions and their thresholds for goal image k.
  PagodaPrune(const Board& bd, const std::vector<std::vector<std::pair<Weights, long>>>& groups);
  // For a search of start -> goal whose positions are identified up to the symmetries `H`
  // (only the identity for a search over plain positions).
  static PagodaPrune for_search(const Board& bd, const PagodaSet& set, const Goal& goal, const std::vector<Perm>& H);

  bool active() const { return width_ > 0; }
  int width() const { return width_; }    // padded lanes per group
  int groups() const { return groups_; }
  int functions() const { return functions_; }  // distinct lanes in use

  // out[0 .. groups * width) = the lanes of b.
  void values(Bits b, std::int16_t* out) const {
    const int L = groups_ * width_;
    const std::int16_t* t = base_.data();
    for (int i = 0; i < L; ++i) out[i] = t[i];
    for (int byte = 0; byte < bytes_; ++byte) {
      const std::int16_t* row = &table_[(static_cast<std::size_t>(byte) * 256 + ((b >> (8 * byte)) & 255)) * L];
      for (int i = 0; i < L; ++i) out[i] = static_cast<std::int16_t>(out[i] + row[i]);
    }
  }
  bool dead_values(const std::int16_t* v) const {
    for (int g = 0; g < groups_; ++g) {
      const std::int16_t* p = v + g * width_;
      std::int16_t m = p[0];
      for (int i = 1; i < width_; ++i) m = std::min(m, p[i]);
      if (m >= 0) return false;
    }
    return true;
  }
  bool dead(Bits b) const {
    alignas(32) std::int16_t v[kMaxLanes];
    values(b, v);
    return dead_values(v);
  }
  // out = the lanes after jump j from a position with lanes v; returns whether it is dead.
  bool step(const std::int16_t* v, int j, std::int16_t* out) const {
    const int L = groups_ * width_;
    const std::int16_t* l = &loss_[static_cast<std::size_t>(j) * L];
    for (int i = 0; i < L; ++i) out[i] = static_cast<std::int16_t>(v[i] - l[i]);
    return dead_values(out);
  }
  // Whether the position after jump j is dead (single group: no copy).
  bool dead_after(const std::int16_t* v, int j) const {
    const int L = groups_ * width_;
    const std::int16_t* l = &loss_[static_cast<std::size_t>(j) * L];
    for (int g = 0; g < groups_; ++g) {
      std::int16_t m = 32767;
      for (int i = g * width_; i < (g + 1) * width_; ++i) m = std::min(m, static_cast<std::int16_t>(v[i] - l[i]));
      if (m >= 0) return false;
    }
    return true;
  }

 private:
  int width_ = 0, groups_ = 0, bytes_ = 0, functions_ = 0;
  std::vector<std::int16_t> base_;   // [lane]: -threshold (padding: a large value)
  std::vector<std::int16_t> table_;  // [byte][256][lane]: sum of the weights of that byte's pegs
  std::vector<std::int16_t> loss_;   // [jump][lane]: w(from) + w(over) - w(to) >= 0
};

}  // namespace tansaku::peg
