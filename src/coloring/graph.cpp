// The colouring graph's construction: edge lists into adjacency lists and bit rows, memory
// estimates checked against the budget, induced subgraphs, and the builtin 12-region map.
#include "coloring/graph.h"

#include <algorithm>

#include <fmt/format.h>

#include "tansaku/core/error.h"
#include "tansaku/core/memory.h"

namespace tansaku::coloring {

std::size_t Graph::edge_count() const {
  std::size_t s = 0;
  for (const auto& a : adj) s += a.size();
  return s / 2;
}

int Graph::max_degree() const {
  int d = 0;
  for (const auto& a : adj) d = std::max(d, static_cast<int>(a.size()));
  return d;
}

std::uint64_t graph_bytes(std::uint64_t n, std::uint64_t m) {
  const std::uint64_t words = (n + 63) / 64;
  return n * words * 8 + 2 * m * sizeof(int) + n * (sizeof(std::vector<int>) + 32) + 8 * m;
}

std::uint64_t graph_bytes(const Graph& g) { return graph_bytes(static_cast<std::uint64_t>(g.n), g.edge_count()); }

void require_beside(const Graph& g, std::uint64_t bytes, std::uint64_t budget, std::string_view what) {
  const std::uint64_t need = graph_bytes(g) + bytes;
  if (need > budget)
    throw LimitError(fmt::format("memory budget reached (--memory {}): {} needs {} beside the graph's {}",
                                 format_size(budget), what, format_size(bytes), format_size(graph_bytes(g))));
}

Graph make_graph(int n, const std::vector<std::pair<int, int>>& edges, std::vector<std::string> names) {
  if (n < 0) throw InputError("a graph cannot have a negative number of vertices");
  Graph g;
  g.n = n;
  g.words = (n + 63) / 64;
  g.adj.assign(static_cast<std::size_t>(n), {});
  g.bits.assign(static_cast<std::size_t>(n) * static_cast<std::size_t>(g.words), 0);
  for (auto [u, v] : edges) {
    if (u < 0 || u >= n || v < 0 || v >= n)
      throw InputError(fmt::format("edge {}-{}: vertex out of range 1..{}", u + 1, v + 1, n));
    if (u == v) throw InputError(fmt::format("self loop on vertex {}: no proper colouring exists", u + 1));
    if (g.adjacent(u, v)) continue;
    g.bits[static_cast<std::size_t>(u) * g.words + (v >> 6)] |= std::uint64_t{1} << (v & 63);
    g.bits[static_cast<std::size_t>(v) * g.words + (u >> 6)] |= std::uint64_t{1} << (u & 63);
    g.adj[u].push_back(v);
    g.adj[v].push_back(u);
  }
  for (auto& a : g.adj) std::sort(a.begin(), a.end());
  if (names.empty()) {
    names.reserve(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) names.push_back(std::to_string(i + 1));
  }
  g.names = std::move(names);
  return g;
}

std::uint64_t induced_bytes(const Graph& g, const std::vector<int>& keep) {
  std::vector<char> in(static_cast<std::size_t>(g.n), 0);
  for (int v : keep) in[static_cast<std::size_t>(v)] = 1;
  std::uint64_t kept = 0;  // edges of the copy, each seen from both ends
  for (int v : keep)
    for (int w : g.adj[v]) kept += in[static_cast<std::size_t>(w)];
  kept /= 2;
  // The copy, its edge list while it is built, and the index of the vertices.
  return graph_bytes(keep.size(), kept) + 8 * kept + 4 * static_cast<std::uint64_t>(g.n);
}

Graph induced(const Graph& g, const std::vector<int>& keep, std::uint64_t memory) {
  if (memory != UINT64_MAX) require_beside(g, induced_bytes(g, keep), memory, "a renumbered copy of the graph");
  std::vector<int> index(static_cast<std::size_t>(g.n), -1);
  for (std::size_t i = 0; i < keep.size(); ++i) index[keep[i]] = static_cast<int>(i);
  std::vector<std::pair<int, int>> edges;
  std::vector<std::string> names;
  for (std::size_t i = 0; i < keep.size(); ++i) {
    names.push_back(g.names[keep[i]]);
    for (int w : g.adj[keep[i]])
      if (index[w] > static_cast<int>(i)) edges.emplace_back(static_cast<int>(i), index[w]);
  }
  return make_graph(static_cast<int>(keep.size()), edges, std::move(names));
}

Graph map12() {
  // Neighbour lists of regions A..L exactly as seed 002 lists them (each edge appears twice).
  static const std::vector<std::vector<int>> kNeighbours = {
      {1, 2, 3, 5, 10, 11}, {0, 3, 4, 8, 11}, {0, 3, 5, 6},     {0, 1, 2, 4, 6, 7},
      {1, 3, 7, 8},         {0, 2, 6, 9, 10}, {2, 3, 5, 7, 9},  {3, 4, 6, 8, 9},
      {1, 4, 7, 9, 11},     {5, 6, 7, 8, 10, 11}, {0, 5, 9, 11}, {0, 1, 8, 9, 10}};
  std::vector<std::pair<int, int>> edges;
  std::vector<std::string> names;
  for (int v = 0; v < 12; ++v) {
    names.emplace_back(1, static_cast<char>('A' + v));
    for (int w : kNeighbours[v]) edges.emplace_back(v, w);
  }
  return make_graph(12, edges, std::move(names));
}

}  // namespace tansaku::coloring
