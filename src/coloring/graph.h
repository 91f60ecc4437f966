// The undirected simple graph every colouring algorithm works on: sorted adjacency lists
// plus one bit row per vertex, and a display name per vertex (region letters for the
// seed's map, DIMACS numbers 1..n for files). The seed's 12-region map is builtin data.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tansaku::coloring {

struct Graph {
  int n = 0;
  int words = 0;                         // 64-bit words per bit row
  std::vector<std::vector<int>> adj;     // sorted, no duplicates, no self loops
  std::vector<std::uint64_t> bits;       // n rows of `words` words
  std::vector<std::string> names;        // display name of each vertex

  bool adjacent(int u, int v) const { return (bits[static_cast<std::size_t>(u) * words + (v >> 6)] >> (v & 63)) & 1; }
  const std::uint64_t* row(int v) const { return bits.data() + static_cast<std::size_t>(v) * words; }
  std::size_t edge_count() const;
  int max_degree() const;
};

// Bytes make_graph needs for n vertices and m edges (for the memory budget).
std::uint64_t graph_bytes(std::uint64_t n, std::uint64_t m);

// Bytes of a built graph (graph_bytes of its vertices and edges).
std::uint64_t graph_bytes(const Graph& g);
// Every table a solver builds beside the graph is counted against the memory budget before it
// is allocated: LimitError (exit 3) when `g` and `bytes` more would not fit `budget`.
void require_beside(const Graph& g, std::uint64_t bytes, std::uint64_t budget, std::string_view what);

// Builds a graph from 0-based edges; repeated edges (either orientation) are merged.
// Throws InputError on a vertex out of range or a self loop. Empty names -> "1".."n".
Graph make_graph(int n, const std::vector<std::pair<int, int>>& edges, std::vector<std::string> names = {});

// The subgraph induced by `keep` (vertex i of the result is keep[i]), counted beside `g`
// against `memory` (require_beside) before it is built.
Graph induced(const Graph& g, const std::vector<int>& keep, std::uint64_t memory = UINT64_MAX);
// The bytes induced(g, keep) takes beside `g` while it is built (the copy, its edge list, an index).
std::uint64_t induced_bytes(const Graph& g, const std::vector<int>& keep);

// Seed 002, problem 3: the 12-region map, regions A..L = vertices 0..11.
Graph map12();

}  // namespace tansaku::coloring
