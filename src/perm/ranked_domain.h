// The engine's view of a ranked permutation-puzzle space: a RankedDomain for explore and
// pattern databases (states are ranks' positions; neighbour ranks come from the Space's
// move tables), and a rank-state domain with predecessors for bidirectional search.
#pragma once
#include <cstdint>

#include "perm/space.h"

namespace tansaku::perm {

class RankedDomain {
 public:
  using State = Position;
  using Move = int;
  RankedDomain(const Definition& d, const MoveSet& ms, const Space& sp) : d_(&d), ms_(&ms), sp_(&sp) {}
  bool is_goal(const State& s) const { return s == d_->solved; }
  template <class F>
  void for_each_move(const State& s, F&& f) const {
    Position t;
    for (std::size_t m = 0; m < ms_->gens.size(); ++m) {
      d_->apply(ms_->gens[m].p, s, t);
      f(static_cast<int>(m), t);
    }
  }
  // Every move's inverse is a move: explore may search unseen states backwards.
  bool symmetric() const {
    for (const auto& g : ms_->gens)
      if (g.inverse < 0) return false;
    return true;
  }
  std::uint64_t size() const { return sp_->size(); }
  std::uint64_t rank(const State& s) const { return sp_->rank(s); }
  State unrank(std::uint64_t r) const { return sp_->unrank(r); }
  template <class F>
  void for_each_neighbor_rank(std::uint64_t r, F&& f) const {
    sp_->for_each_neighbor_rank(r, f);
  }
  template <class F, class P>
  std::pair<std::uint64_t, std::uint64_t> for_each_neighbor_rank_batch(const std::uint64_t* r, std::size_t n, F f,
                                                                       P touch) const {
    return sp_->for_each_neighbor_rank_batch(r, n, f, touch);
  }
  template <class F, class P>
  std::pair<std::uint64_t, std::uint64_t> any_neighbor_rank_batch(const std::uint64_t* r, std::size_t n, F pred,
                                                                  P touch) const {
    return sp_->any_neighbor_rank_batch(r, n, pred, touch);
  }

 private:
  const Definition* d_;
  const MoveSet* ms_;
  const Space* sp_;
};

// States are ranks in a Space built from the goal; moves are MoveSet indices.
class RankPathDomain {
 public:
  using State = std::uint64_t;
  using Move = int;
  RankPathDomain(const MoveSet& ms, const Space& sp, std::uint64_t goal) : ms_(&ms), sp_(&sp), goal_(goal) {}
  bool is_goal(State s) const { return s == goal_; }
  State goal() const { return goal_; }
  template <class F>
  void for_each_move(State s, F&& f) const {
    sp_->for_each_move_rank(s, [&](int m, std::uint64_t t) { f(m, t); });
  }
  // prev --m--> s  iff  prev = s after m's inverse.
  template <class F>
  void for_each_predecessor(State s, F&& f) const {
    sp_->for_each_move_rank(s, [&](int m, std::uint64_t t) {
      const int inv = ms_->gens[static_cast<std::size_t>(m)].inverse;
      if (inv >= 0) f(inv, t);
    });
  }

 private:
  const MoveSet* ms_;
  const Space* sp_;
  std::uint64_t goal_;
};

}  // namespace tansaku::perm
