// Sliding-tile boards: geometry (cells, adjacency), labels (blank = index 0, repeated labels
// are identical pieces), parsing of start/goal from the command line, rendering.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace tansaku::sliding {

struct Geometry {
  int rows = 0, cols = 0, n = 0;
  std::vector<std::vector<int>> adj;  // cells next to each cell
  Geometry() = default;
  Geometry(int r, int c);
  int row(int i) const { return i / cols; }
  int col(int i) const { return i % cols; }
};

// The label alphabet of an instance: names[0] is the blank "0"; counts[i] copies of names[i].
struct Labels {
  std::vector<std::string> names;
  std::vector<int> counts;
  bool distinct() const;
  int index(const std::string& name) const;  // -1 if absent
};

using Cells = std::vector<std::uint8_t>;  // label index per cell

struct Instance {
  Geometry geo;
  Labels labels;
  Cells start, goal;
};

// Builds the label alphabet from `tokens` (one board's worth) and requires exactly one blank.
Labels make_labels(const std::vector<std::string>& tokens, const std::string& what);
// Parses a board of geo.n tokens over `labels`; throws InputError naming `what` on a wrong
// token count or a label multiset that differs from the alphabet's.
Cells parse_cells(const Geometry& geo, const Labels& labels, const std::string& text, const std::string& what);
std::string format_cells(const Labels& labels, const Cells& cells);
std::string picture(const Geometry& geo, const Labels& labels, const Cells& cells);
std::string numbering(const Geometry& geo);

// Permutation-parity invariant (distinct labels): equal for start and goal iff solvable.
int parity_invariant(const Geometry& geo, const Cells& cells);

}  // namespace tansaku::sliding
