// Pictures of graph colourings (Puzzle::draw*): the graph with its vertices filled in their
// colours. Layout, deterministic and without forces: a queenR_C graph on its board; a
// graph that looks maximal planar (the seed's map: 3n - 6 edges) by Tutte's barycentric
// embedding with a non-separating triangle outside, kept when no two edges cross; else
// the vertices on a circle. Graphs over kEdgeVertices vertices are drawn as a grid of
// vertices without edges, over kNodeVertices as a bar of colour-class sizes.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "coloring/graph.h"
#include "tansaku/puzzles/puzzle.h"

namespace tansaku::coloring {

inline constexpr int kEdgeVertices = 200;
inline constexpr int kNodeVertices = 4096;

// Vertex positions in the unit square (graphs of at most kEdgeVertices vertices).
std::vector<std::pair<double, double>> layout(const Graph& g, const std::string& name);

// The graph coloured (colour c >= 1 per vertex; 0 or an empty vector: uncoloured), the
// vertices in `highlight` (a clique that refutes a colouring) and their edges in red,
// `caption` under it. Vertices are <g data-cell="V"> (V = index in the colouring).
std::string draw_graph(const Graph& g, const std::string& name, const std::vector<int>& colours,
                       const std::vector<int>& highlight = {}, const std::string& caption = "");
// A colouring as written in `moves` or a state: one colour number per vertex. Throws InputError.
std::vector<int> parse_colouring(const Graph& g, const std::string& text);
// The caption of a colouring: "12 vertices, 30 edges, 4 colours".
std::string colouring_caption(const Graph& g, const std::vector<int>& colours);
// A solve's answer in the family's own types (SolveReport::solution): what the picture is
// drawn from.
struct Answer final : TypedSolution {
  bool found = false;
  std::vector<int> colouring;  // the colouring found (a colour >= 1 per vertex)
  std::vector<int> clique;     // none found: the clique that refutes --colors K (empty: another proof)
  int colors = 0;              // --colors K; 0 without
};
// One frame: the colouring found, or (none found) the graph with the refuting clique.
Drawing draw_report(const Graph& g, const std::string& name, const SolveReport& r);

}  // namespace tansaku::coloring
