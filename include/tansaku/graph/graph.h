// The graphs the graph searches (Hamiltonian backtracking, Warnsdorff + Posa, the frontier
// dp) are written against. Vertices are 0..size()-1. A graph may be implicit (neighbours
// computed on demand: a board's geometry, a rule over 100,000,000 numbers), so the
// searches ask only for what the concept below names; AdjacencyGraph is the compact stored
// graph (one array of neighbours, one of offsets) for everything else.
#pragma once
#include <algorithm>
#include <concepts>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace tansaku::graph {

template <class G>
concept Graph = requires(const G& g, int v) {
  { g.size() } -> std::convertible_to<std::int64_t>;
  { g.degree(v) } -> std::convertible_to<int>;
  { g.adjacent(v, v) } -> std::convertible_to<bool>;
  g.for_each_neighbor(v, [](int) {});  // in a fixed order (ties in the searches follow it)
};

class AdjacencyGraph {
 public:
  AdjacencyGraph() = default;
  // From adjacency lists (each list's order is kept).
  explicit AdjacencyGraph(const std::vector<std::vector<int>>& lists) : offset_(lists.size() + 1, 0) {
    for (std::size_t v = 0; v < lists.size(); ++v) offset_[v + 1] = offset_[v] + static_cast<std::int64_t>(lists[v].size());
    nbr_.reserve(static_cast<std::size_t>(offset_.back()));
    for (const auto& l : lists) nbr_.insert(nbr_.end(), l.begin(), l.end());
  }
  // From undirected edges {a, b} on n vertices; each list ascending.
  AdjacencyGraph(int n, const std::vector<std::pair<int, int>>& edges) {
    std::vector<std::vector<int>> lists(static_cast<std::size_t>(n));
    for (auto [a, b] : edges) lists[a].push_back(b), lists[b].push_back(a);
    for (auto& l : lists) std::sort(l.begin(), l.end());
    *this = AdjacencyGraph(lists);
  }

  std::int64_t size() const { return static_cast<std::int64_t>(offset_.empty() ? 0 : offset_.size() - 1); }
  std::span<const int> operator[](int v) const {
    return {nbr_.data() + offset_[v], static_cast<std::size_t>(offset_[v + 1] - offset_[v])};
  }
  int degree(int v) const { return static_cast<int>(offset_[v + 1] - offset_[v]); }
  bool adjacent(int a, int b) const {
    const auto n = (*this)[a];
    return std::find(n.begin(), n.end(), b) != n.end();
  }
  template <class F>
  void for_each_neighbor(int v, F&& f) const {
    for (int u : (*this)[v]) f(u);
  }

 private:
  std::vector<std::int64_t> offset_;
  std::vector<int> nbr_;
};

}  // namespace tansaku::graph
