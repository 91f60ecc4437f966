// Replays a knight-swap solution move by move against the rules, returning the positions it
// passes through.
#include "knights/swap_verify.h"

#include <stdexcept>

#include <fmt/format.h>

namespace tansaku::knights {

std::vector<Cells> verify_swap(const Board& b, const Cells& start, const Cells& goal, const std::vector<SwapMove>& moves) {
  Cells cur = start;
  std::vector<Cells> seen;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const int from = moves[i].from, to = moves[i].to;
    if (from >= b.squares() || to >= b.squares())
      throw std::logic_error(fmt::format("swap verifier: move {} leaves the board", i + 1));
    if (!cur[from]) throw std::logic_error(fmt::format("swap verifier: move {}: no knight on square {}", i + 1, from));
    if (cur[to]) throw std::logic_error(fmt::format("swap verifier: move {}: square {} is occupied", i + 1, to));
    if (!b.adjacent(from, to))
      throw std::logic_error(fmt::format("swap verifier: move {}: {} -> {} is not a knight's move", i + 1, from, to));
    std::swap(cur[from], cur[to]);
    seen.push_back(cur);
  }
  if (cur != goal) throw std::logic_error("swap verifier: the solution does not reach the goal");
  return seen;
}

}  // namespace tansaku::knights
