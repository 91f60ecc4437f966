// Replays a sliding solution move by move, checking each tile is next to the blank and that the
// goal is reached.
#include "sliding/verify.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace tansaku::sliding {

std::vector<std::uint8_t> verify_solution(const Geometry& geo, const Cells& start, const Cells& goal,
                                          const std::vector<std::uint8_t>& from_cells) {
  Cells b = start;
  int blank = static_cast<int>(std::find(b.begin(), b.end(), 0) - b.begin());
  std::vector<std::uint8_t> moved;
  for (std::size_t i = 0; i < from_cells.size(); ++i) {
    int from = from_cells[i];
    const auto& adj = geo.adj[blank];
    if (from >= geo.n || std::find(adj.begin(), adj.end(), from) == adj.end())
      throw std::logic_error(fmt::format("verifier: move {} takes cell {}, not next to the blank at {}", i + 1, from, blank));
    moved.push_back(b[from]);
    std::swap(b[from], b[blank]);
    blank = from;
  }
  if (b != goal) throw std::logic_error("verifier: the solution does not reach the goal");
  return moved;
}

}  // namespace tansaku::sliding
