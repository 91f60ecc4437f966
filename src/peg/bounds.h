// What can be proved about a peg position without searching:
//  - position classes: the GF(2) linear functionals that every jump leaves unchanged (a jump
//    toggles three holes), found by Gaussian elimination for any board. Two positions in
//    different classes are not connected: this generalises the "rule of three" of the
//    English board and proves, e.g., that the French board's central game cannot end with
//    one peg;
//  - a lower bound on the number of moves: a "protected set" of holes is one where every
//    jump over one of its holes starts or lands inside the set (a corner hole that no jump
//    passes over; a pair of edge holes like seed 001's). While all its holes hold pegs, the
//    first change among them is a jump by one of those pegs, so some move must start
//    there. Disjoint occupied protected sets need distinct moves: the bound is a maximum
//    packing of them, tabulated per connected group of sets.
#pragma once
#include <bit>
#include <cstdint>
#include <vector>

#include "peg/board.h"
#include "tansaku/core/bits.h"

namespace tansaku::peg {

class PositionClass {
 public:
  explicit PositionClass(const Board& bd);
  int dimension() const { return static_cast<int>(functionals_.size()); }
  // The class of a position: bit i = parity of the pegs on functional i's holes.
  std::uint64_t of(Bits pegs) const;
  const std::vector<Bits>& functionals() const { return functionals_; }

 private:
  std::vector<Bits> functionals_;
};

class DemandBound {
 public:
  // `goal`: the pegs that stay at the end (their sets need no move), or 0 with `anywhere`.
  // `finishers`: holes where the last peg may end when `anywhere` (a corner peg that never
  // moves may be the survivor, which waives one demand).
  DemandBound(const Board& bd, Bits goal, bool anywhere, Bits finishers);
  // Lower bound on the moves from `pegs` (between moves: no peg is in the middle of a run).
  int operator()(Bits pegs) const {
    int h = std::popcount(pegs & singles_);
    for (const auto& g : groups_) h += g.table[bits::extract(pegs, g.mask)];
    if (anywhere_ && (pegs & corners_ & finishers_) && h > 0) --h;
    return h;
  }
  Bits corners() const { return corners_; }
  // The protected sets (for show / tests).
  const std::vector<Bits>& sets() const { return sets_; }

 private:
  struct Group {
    Bits mask;
    std::vector<std::uint8_t> table;  // max packing per occupancy pattern of mask
  };
  std::vector<Group> groups_;
  std::vector<Bits> sets_;
  Bits singles_ = 0;  // protected singletons outside any larger group: one move each
  Bits corners_ = 0, finishers_ = 0;
  bool anywhere_ = false;
};

}  // namespace tansaku::peg
