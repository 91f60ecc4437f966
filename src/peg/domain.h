// Peg solitaire as search domains for the generic IDA* with a transposition table:
//  - MoveDomain: one edge per *move* (a run of jumps by one peg), so every edge costs 1 and
//    the lower bound may count every peg (no peg is in the middle of a run between moves);
//  - JumpDomain: one edge per jump (the `--metric jumps` question: can it be done at all).
// A state is the bitboard; the table key is its canonical form under the symmetries that
// fix the goal, so a bound proved for one position serves all its images.
#pragma once
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <vector>

#include "peg/board.h"
#include "peg/bounds.h"
#include "peg/pagoda.h"
#include "peg/symmetry.h"
#include "tansaku/search/domain.h"

namespace tansaku::peg {

// What counts as finished: one peg on a hole of `finishers` (anywhere), or exactly `pegs`.
struct Goal {
  bool anywhere = true;
  Bits pegs = 0;       // exact goal position when !anywhere
  Bits finishers = 0;  // anywhere: holes the last peg can end on (position classes)
  bool reached(Bits b) const { return anywhere ? (std::has_single_bit(b) && (b & finishers)) : b == pegs; }
  int pegs_left() const { return anywhere ? 1 : std::popcount(pegs); }
};

constexpr int kImpossible = search::kDeadEnd;

// How scattered a position is: 1000 per isolated peg (no peg next to it along the lattice)
// plus one per peg next to an empty hole, per direction. Not a bound: an order to try moves in.
class Compactness {
 public:
  explicit Compactness(const Board& bd) : near_(static_cast<std::size_t>(bd.n), 0) {
    for (const Jump& j : bd.jumps) near_[j.from] |= bd.bit(j.over);
  }
  int operator()(Bits b) const {
    int isolated = 0, edges = 0;
    for (Bits rest = b; rest; rest &= rest - 1) {
      const Bits near = near_[static_cast<std::size_t>(std::countr_zero(rest))];
      isolated += (near & b) == 0;
      edges += std::popcount(near & ~b);
    }
    return isolated * 1000 + edges;
  }

 private:
  std::vector<Bits> near_;  // by hole: its neighbours along the lattice
};

class MoveDomain {
 public:
  using State = Bits;
  struct Move {
    std::uint8_t from;
    Bits after;  // the position after the run (the jumps are recovered by chain_of)
  };

  MoveDomain(const Board& bd, const Symmetry& goal_sym, const Goal& goal, const DemandBound& bound)
      : bd_(bd), sym_(goal_sym), goal_(goal), bound_(bound), goal_pegs_(goal.pegs_left()), shape_(bd) {}
  // The order a depth-first search tries moves in (search::depth_first): fewer isolated pegs
  // first, then fewer peg-hole boundaries; compact positions reduce more often.
  int guide(Bits b) const { return shape_(b); }

  bool is_goal(Bits b) const { return goal_.reached(b); }
  std::uint64_t key(Bits b) const { return sym_.canonical(b); }
  int h(Bits b) const {
    const int p = std::popcount(b);
    if (p < goal_pegs_) return kImpossible;
    if (p == goal_pegs_) return goal_.reached(b) ? 0 : kImpossible;
    return std::max(1, bound_(b));
  }
  // Pagoda functions: moves into positions they prove dead are not generated (such a
  // position would only return an infinite bound; a run through one stays dead). Null: none.
  void set_prune(const PagodaPrune* p) { prune_ = p && p->active() ? p : nullptr; }

  template <class F>
  void for_each_move(Bits b, F&& f) const {
    Bits buf[kBuf];
    PagodaPrune::Block lanes[PagodaPrune::kMaxBlocks];
    if (prune_) prune_->values(b, lanes);
    for (Bits rest = b; rest; rest &= rest - 1) {
      const int p = std::countr_zero(rest);
      int n = 0;
      run(b, p, static_cast<std::uint8_t>(p), n, buf, lanes, f);
    }
  }

  // The holes visited by the run `m` from position b: [from, to, to, ...].
  std::vector<int> chain_of(Bits b, const Move& m) const {
    std::vector<int> path = {m.from};
    if (!find_chain(b, m.from, m.after, path)) path.clear();
    return path;
  }

 private:
  static constexpr int kBuf = 256;

  // Every distinct position reachable by a run of jumps of the peg that started at `from`
  // (now at pos). Positions met twice (a loop run either way round) are reported once while
  // the buffer lasts; past it, duplicates are reported (harmless).
  template <class F>
  void run(Bits cur, int pos, std::uint8_t from, int& n, Bits* buf, const PagodaPrune::Block* lanes, F& f) const {
    PagodaPrune::Block next[PagodaPrune::kMaxBlocks];
    for (int ji : bd_.jumps_from[pos]) {
      const Jump& j = bd_.jumps[ji];
      if (!((cur >> j.over) & 1) || ((cur >> j.to) & 1)) continue;
      const Bits nb = cur ^ j.mask;
      if (prune_ && prune_->step(lanes, ji, next)) continue;
      bool seen = false;
      for (int i = 0; i < n && !seen; ++i) seen = buf[i] == nb;
      if (seen) continue;
      if (n < kBuf) buf[n++] = nb;
      f(Move{from, nb}, nb);
      run(nb, j.to, from, n, buf, next, f);
    }
  }
  bool find_chain(Bits cur, int pos, Bits target, std::vector<int>& path) const {
    if (cur == target && path.size() > 1) return true;
    if (std::popcount(cur) <= std::popcount(target)) return false;
    for (int ji : bd_.jumps_from[pos]) {
      const Jump& j = bd_.jumps[ji];
      if (!((cur >> j.over) & 1) || ((cur >> j.to) & 1)) continue;
      path.push_back(j.to);
      if (find_chain(cur ^ j.mask, j.to, target, path)) return true;
      path.pop_back();
    }
    return false;
  }

  const Board& bd_;
  const Symmetry& sym_;
  Goal goal_;
  const DemandBound& bound_;
  int goal_pegs_;
  const PagodaPrune* prune_ = nullptr;
  Compactness shape_;
};

class JumpDomain {
 public:
  using State = Bits;
  using Move = std::uint16_t;  // index of the jump

  JumpDomain(const Board& bd, const Symmetry& goal_sym, const Goal& goal)
      : bd_(bd), sym_(goal_sym), goal_(goal), goal_pegs_(goal.pegs_left()), shape_(bd) {}

  bool is_goal(Bits b) const { return goal_.reached(b); }
  std::uint64_t key(Bits b) const { return sym_.canonical(b); }
  int h(Bits b) const {
    const int p = std::popcount(b);
    if (p < goal_pegs_ || (p == goal_pegs_ && !goal_.reached(b))) return kImpossible;
    return p - goal_pegs_;
  }
  int guide(Bits b) const { return shape_(b); }  // as MoveDomain's
  void set_prune(const PagodaPrune* p) { prune_ = p && p->active() ? p : nullptr; }
  template <class F>
  void for_each_move(Bits b, F&& f) const {
    PagodaPrune::Block lanes[PagodaPrune::kMaxBlocks];
    if (prune_) prune_->values(b, lanes);
    for (std::size_t i = 0; i < bd_.jumps.size(); ++i) {
      const Jump& j = bd_.jumps[i];
      if (((b >> j.from) & 1) && ((b >> j.over) & 1) && !((b >> j.to) & 1)) {
        if (prune_ && prune_->dead_after(lanes, static_cast<int>(i))) continue;  // a dead position
        f(static_cast<Move>(i), static_cast<Bits>(b ^ j.mask));
      }
    }
  }

 private:
  const Board& bd_;
  const Symmetry& sym_;
  Goal goal_;
  int goal_pegs_;
  const PagodaPrune* prune_ = nullptr;
  Compactness shape_;
};

}  // namespace tansaku::peg
