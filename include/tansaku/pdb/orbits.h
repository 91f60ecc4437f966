// The orbits of points under permutations (union-find), written once for every family's
// pattern databases: the orbits of a puzzle's positions under its moves (which pieces can
// meet where: projections, piece tables, coordinates) and the orbit of a cell under a
// board's symmetries (the canonical frame a table is built in).
#pragma once
#include <cstddef>
#include <numeric>
#include <vector>

namespace tansaku::pdb {

class Orbits {
 public:
  explicit Orbits(int n) : parent_(static_cast<std::size_t>(n)) { std::iota(parent_.begin(), parent_.end(), 0); }
  int size() const { return static_cast<int>(parent_.size()); }
  // The least point of i's orbit (its root: every union keeps the lesser root).
  int root(int i) {
    auto at = [&](int x) -> int& { return parent_[static_cast<std::size_t>(x)]; };
    while (at(i) != i) i = at(i) = at(at(i));  // path halving
    return i;
  }
  void join(int i, int j) {
    const int a = root(i), b = root(j);
    if (a < b) parent_[static_cast<std::size_t>(b)] = a;
    else if (b < a) parent_[static_cast<std::size_t>(a)] = b;
  }
  // Joins every point i with p[i] (p: any indexable permutation of the points).
  template <class Map>
  void join_all(const Map& p) {
    for (int i = 0; i < size(); ++i) join(i, static_cast<int>(p[static_cast<std::size_t>(i)]));
  }
  // The orbits, each in increasing order, ordered by their least points.
  std::vector<std::vector<int>> groups() {
    std::vector<int> index(parent_.size(), -1);
    std::vector<std::vector<int>> out;
    for (int i = 0; i < size(); ++i) {
      int& k = index[static_cast<std::size_t>(root(i))];
      if (k < 0) k = static_cast<int>(out.size()), out.emplace_back();
      out[static_cast<std::size_t>(k)].push_back(i);
    }
    return out;
  }

 private:
  std::vector<int> parent_;
};

}  // namespace tansaku::pdb
