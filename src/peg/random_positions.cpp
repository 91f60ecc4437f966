// `tansaku random` for peg: the layers of solvable positions grown backwards from the goal by
// reverse jumps, sampled uniformly as they are built.
#include "peg/random_positions.h"

#include <algorithm>
#include <bit>

#include <fmt/format.h>

#include "tansaku/core/error.h"
#include "tansaku/core/random.h"

namespace tansaku::peg {

namespace {
// Successors generated for one layer before the work is refused (128 MiB of positions): the
// solvable positions of the larger boards run to billions in the middle peg counts.
constexpr std::size_t kMaxGenerated = std::size_t{1} << 24;
}  // namespace

std::vector<Bits> random_solvable(const Board& bd, const Goal& goal, std::optional<int> pegs, std::uint64_t seed,
                                  std::size_t count, const search::Limits& lim) {
  std::vector<Bits> layer;
  if (goal.anywhere) {
    for (int h = 0; h < bd.n; ++h) layer.push_back(bd.bit(h));
  } else {
    layer.push_back(goal.pegs);
  }
  std::sort(layer.begin(), layer.end());
  int have = goal.pegs_left();
  if (pegs && (*pegs < have || *pegs > bd.n))
    throw InputError(fmt::format("--pegs {}: give {} to {} (the goal leaves {} pegs, the board has {} holes)", *pegs,
                                 have, bd.n, have, bd.n));
  // A full board has no jump: only a goal that is the full board itself is reachable from it.
  if (pegs && *pegs == bd.n && *pegs != have)
    throw InputError(
        fmt::format("--pegs {}: a full board ({} holes) has no jump, so it reaches no goal with fewer pegs; "
                    "ask for at most {}",
                    *pegs, bd.n, bd.n - 1));
  SplitMix64 rng{seed};
  std::vector<Bits> out(count, 0);
  std::uint64_t total = 0;  // positions so far (of the asked peg count, if any)
  for (;;) {
    if (!pegs || *pegs == have) {
      total += layer.size();
      for (auto& o : out)
        if (rng.uniform(total) < layer.size()) o = layer[rng.uniform(layer.size())];
      if (pegs) break;
    }
    if (lim.deadline) lim.deadline->check();
    if (lim.progress) lim.progress->update("random: {} positions with {} pegs", layer.size(), have);
    // Reverse jumps: a peg on `to` jumps back over the empty `over` to the empty `from`.
    std::vector<Bits> next;
    for (Bits b : layer)
      for (const Jump& j : bd.jumps)
        if ((b >> j.to & 1) && !(b >> j.from & 1) && !(b >> j.over & 1)) {
          // Counted before the list grows (it doubles): the new list, this layer and the picks.
          if (next.size() == next.capacity() &&
              (std::max<std::size_t>(64, 2 * next.capacity()) + layer.capacity() + out.size()) * sizeof(Bits) >
                  lim.memory)
            throw LimitError(
                fmt::format("random: the positions with {} pegs do not fit the memory budget (--memory)", have + 1));
          next.push_back(b ^ j.mask);
          if ((next.size() & 0xffff) == 0) {
            if (next.size() >= kMaxGenerated)
              throw LimitError(fmt::format(
                  "random: more than {} positions with {} pegs reach the goal{}; ask for fewer "
                  "pegs (--pegs K)",
                  kMaxGenerated, have + 1, pegs ? fmt::format(" (listed on the way to the {} asked for)", *pegs) : ""));
            if ((next.size() + layer.size()) * sizeof(Bits) > lim.memory)
              throw LimitError(
                  fmt::format("random: the positions with {} pegs do not fit the memory budget (--memory)", have + 1));
            if (lim.deadline) lim.deadline->check();
          }
        }
    std::sort(next.begin(), next.end());
    next.erase(std::unique(next.begin(), next.end()), next.end());
    if (next.empty()) break;
    layer = std::move(next);
    ++have;
  }
  if (total == 0) throw InputError("no position with that many pegs reaches the goal");
  return out;
}

}  // namespace tansaku::peg
