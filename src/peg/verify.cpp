// Replays peg solutions jump by jump against the board's rules, and groups single jumps into
// the multi-jump moves a solution is printed in.
#include "peg/verify.h"

#include <stdexcept>

#include <fmt/format.h>

namespace tansaku::peg {

std::optional<Bits> apply_move(const Board& bd, Bits b, const std::vector<int>& move) {
  if (move.size() < 2) return std::nullopt;
  for (std::size_t k = 0; k + 1 < move.size(); ++k) {
    const Jump* jump = nullptr;
    if (move[k] >= 0 && move[k] < bd.n)
      for (int ji : bd.jumps_from[move[k]])
        if (bd.jumps[ji].to == move[k + 1]) jump = &bd.jumps[ji];
    if (!jump || !((b >> jump->from) & 1) || !((b >> jump->over) & 1) || ((b >> jump->to) & 1)) return std::nullopt;
    b ^= jump->mask;
  }
  return b;
}

Replay replay(const Board& bd, Bits start, const std::vector<std::vector<int>>& moves) {
  Replay r;
  Bits b = start;
  int last_to = -1;
  for (std::size_t mi = 0; mi < moves.size(); ++mi) {
    const auto& mv = moves[mi];
    if (mv.size() < 2) throw std::logic_error(fmt::format("verifier: move {} has no jump", mi + 1));
    if (mv[0] != last_to) ++r.moves;
    for (std::size_t k = 0; k + 1 < mv.size(); ++k) {
      const int from = mv[k], to = mv[k + 1];
      const Jump* jump = nullptr;
      if (from >= 0 && from < bd.n)
        for (int ji : bd.jumps_from[from])
          if (bd.jumps[ji].to == to) jump = &bd.jumps[ji];
      if (!jump) throw std::logic_error(fmt::format("verifier: move {}: {} -> {} is not a jump of {}", mi + 1, from, to, bd.name));
      if (!((b >> jump->from) & 1) || !((b >> jump->over) & 1) || ((b >> jump->to) & 1))
        throw std::logic_error(fmt::format("verifier: move {}: the jump {} -> {} is not legal here", mi + 1, from, to));
      b ^= jump->mask;
      ++r.jumps;
    }
    last_to = mv.back();
  }
  r.end = b;
  return r;
}

std::vector<std::vector<int>> group_jumps(const Board& bd, const std::vector<int>& jump_indices) {
  std::vector<std::vector<int>> moves;
  for (int ji : jump_indices) {
    const Jump& j = bd.jumps[static_cast<std::size_t>(ji)];
    if (!moves.empty() && moves.back().back() == j.from) moves.back().push_back(j.to);
    else moves.push_back({j.from, j.to});
  }
  return moves;
}

}  // namespace tansaku::peg
