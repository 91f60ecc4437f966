// Two classic puzzles written as a library user would: each is a small domain (rules only),
// solved by the engine's generic BFS and IDA* and explored whole by its layered BFS.
#include <array>
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#include "tansaku/search/bfs.h"
#include "tansaku/search/explore.h"
#include "tansaku/search/ida_star.h"

namespace ts = tansaku::search;

// Water jugs: a 3- and a 5-litre jug, a tap and a drain; measure 4 litres.
struct Jugs {
  using State = std::array<int, 2>;  // litres in each jug
  using Move = int;                  // 0,1 fill; 2,3 empty; 4 pour 0->1; 5 pour 1->0
  std::array<int, 2> cap{3, 5};
  int target = 4;
  static constexpr const char* kNames[] = {"fill 3", "fill 5", "empty 3", "empty 5", "3->5", "5->3"};
  bool is_goal(const State& s) const { return s[0] == target || s[1] == target; }
  State apply(State s, Move m) const {
    if (m < 2) s[m] = cap[m];
    else if (m < 4) s[m - 2] = 0;
    else {
      const int from = m - 4, to = 1 - from, q = std::min(s[from], cap[to] - s[to]);
      s[from] -= q, s[to] += q;
    }
    return s;
  }
  template <class F> void for_each_move(const State& s, F&& f) const {
    for (Move m = 0; m < 6; ++m)
      if (State t = apply(s, m); t != s) f(m, t);
  }
  int h(const State& s) const { return is_goal(s) ? 0 : 1; }
  std::size_t hash(const State& s) const { return std::size_t(rank(s)); }
  std::uint64_t size() const { return std::uint64_t(cap[0] + 1) * (cap[1] + 1); }
  std::uint64_t rank(const State& s) const { return std::uint64_t(s[0]) * (cap[1] + 1) + s[1]; }
  State unrank(std::uint64_t r) const { return {int(r / (cap[1] + 1)), int(r % (cap[1] + 1))}; }
};

// Wolf, goat and cabbage: bit 0 the farmer, bits 1-3 wolf, goat, cabbage; 1 = far bank.
struct River {
  using State = std::uint8_t;
  using Move = int;  // what the farmer takes across: 0 nothing, 1 wolf, 2 goat, 3 cabbage
  static constexpr const char* kNames[] = {"alone", "wolf", "goat", "cabbage"};
  static bool side(State s, int who) { return (s >> who) & 1; }
  static bool safe(State s) {  // nothing is eaten where the farmer is not
    return side(s, 2) == side(s, 0) || (side(s, 1) != side(s, 2) && side(s, 3) != side(s, 2));
  }
  bool is_goal(State s) const { return s == 15; }
  State apply(State s, Move m) const { return State(s ^ 1 ^ (m ? 1 << m : 0)); }
  template <class F> void for_each_move(State s, F&& f) const {
    for (Move m = 0; m < 4; ++m)
      if ((m == 0 || side(s, m) == side(s, 0)) && safe(apply(s, m))) f(m, apply(s, m));
  }
  int h(State s) const { return 3 - side(s, 1) - side(s, 2) - side(s, 3); }  // one item a trip
  std::uint64_t size() const { return 16; }
  std::uint64_t rank(State s) const { return s; }
  State unrank(std::uint64_t r) const { return State(r); }
};

// Replays a solution (a wrong answer is never printed) and names its moves.
template <class D>
std::string check_and_name(const D& d, typename D::State s, const std::vector<typename D::Move>& moves) {
  std::string out;
  for (auto m : moves) {
    bool legal = false;
    d.for_each_move(s, [&](auto mm, auto) { legal = legal || mm == m; });
    if (!legal) throw std::logic_error("illegal move in a solution");
    s = d.apply(s, m);
    out += (out.empty() ? "" : ", ") + std::string(D::kNames[m]);
  }
  if (!d.is_goal(s)) throw std::logic_error("a solution that does not reach the goal");
  return out;
}

template <class D>
void solve_and_explore(const std::string& name, const D& d, typename D::State start, const char* unit) {
  const auto b = ts::bfs(d, start);
  const auto i = ts::ida_star(d, start);
  if (!b.found || !i.found || b.cost != i.cost) throw std::logic_error("bfs and ida* disagree");
  check_and_name(d, start, i.moves);
  std::cout << name << ": bfs " << b.cost << " " << unit << ", ida* " << i.cost << " " << unit
            << ": " << check_and_name(d, start, b.moves) << "\n";
  const std::uint64_t source = d.rank(start);
  const auto e = ts::explore(d, std::span(&source, 1), 1);
  std::cout << name << " explored: " << e.states << " states, farthest " << e.depth << " " << unit << "\n";
}

int main() {
  solve_and_explore("jugs 3+5 to 4", Jugs{}, Jugs::State{0, 0}, "moves");
  solve_and_explore("river", River{}, River::State{0}, "crossings");
}
