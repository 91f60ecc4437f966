// The concepts a puzzle domain models so the generic algorithms (bfs, bidirectional_bfs,
// iddfs, ida_star, explore) accept it. A domain is a small value type: it knows the
// rules, not the search.
#pragma once
#include <concepts>
#include <cstdint>
#include <functional>

namespace tansaku::search {

// Successor generation: f(move, next_state) for every legal move.
template <class D>
concept Domain = requires(const D& d, const typename D::State& s) {
  typename D::State;
  typename D::Move;
  { d.is_goal(s) } -> std::convertible_to<bool>;
  d.for_each_move(s, [](const typename D::Move&, const typename D::State&) {});
};

// Bidirectional search also needs the goal and predecessors: f(move, prev) for every
// prev from which `move` leads to s.
template <class D>
concept BackwardDomain = Domain<D> && requires(const D& d, const typename D::State& s) {
  { d.goal() } -> std::convertible_to<typename D::State>;
  d.for_each_predecessor(s, [](const typename D::Move&, const typename D::State&) {});
};

// An h of kDeadEnd or more says no goal is reachable from the state (the searches that keep
// tables treat it as infinite).
inline constexpr int kDeadEnd = 65535;

// An admissible lower bound on the remaining cost.
template <class D>
concept HeuristicDomain = Domain<D> && requires(const D& d, const typename D::State& s) {
  { d.h(s) } -> std::convertible_to<int>;
};

// An estimate that need not be a bound: the order in which a non-optimal search tries the
// successors (depth_first.h), least first; where a domain has none, h orders them.
template <class D>
concept GuidedDomain = HeuristicDomain<D> && requires(const D& d, const typename D::State& s) {
  { d.guide(s) } -> std::convertible_to<int>;
};

// A minimal perfect hash of the reachable space (or a superset): rank in [0, size()).
template <class D>
concept RankedDomain = Domain<D> && requires(const D& d, const typename D::State& s, std::uint64_t r) {
  { d.size() } -> std::convertible_to<std::uint64_t>;
  { d.rank(s) } -> std::convertible_to<std::uint64_t>;
  { d.unrank(r) } -> std::convertible_to<typename D::State>;
};

// Cost of a move (default 1); 0 lets a move continue the previous one for free (a run of jumps).
template <class D>
int move_cost(const D& d, const typename D::State& s, const typename D::Move& m) {
  if constexpr (requires { { d.cost(s, m) } -> std::convertible_to<int>; })
    return d.cost(s, m);
  else
    return 1;
}

// Hash of a state: the domain's own hash(s) if it has one, std::hash otherwise.
template <class D>
struct StateHash {
  const D* d = nullptr;
  std::size_t operator()(const typename D::State& s) const {
    if constexpr (requires { { d->hash(s) } -> std::convertible_to<std::size_t>; })
      return d->hash(s);
    else
      return std::hash<typename D::State>{}(s);
  }
};

}  // namespace tansaku::search
