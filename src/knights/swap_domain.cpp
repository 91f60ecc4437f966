// The knight-swap domain's setup: neighbour bitboards, each army's knight distances to its goal
// squares for the IDA* bound, and the ranker that explore uses when it fits.
#include "knights/swap_domain.h"

#include <algorithm>

#include "tansaku/core/error.h"

namespace tansaku::knights {

namespace {
constexpr int kFar = 1000;  // a knight that can never reach its army's goal squares
}

SwapDomain::SwapDomain(const Board& b, const Armies& armies, const Cells& goal)
    : board_(b), n_(static_cast<int>(b.squares())), labels_(static_cast<int>(armies.names.size())),
      ranker_() {
  try {
    ranker_.emplace(armies.counts);
  } catch (const InputError&) {
    ranker_.reset();  // too many arrangements to rank: solve still works, explore does not
  }
  for (int a = 0; a < n_; ++a) b.for_each_neighbor(a, [&](std::int64_t t) { nb_[a] |= std::uint64_t{1} << t; });
  dist_.assign(static_cast<std::size_t>(labels_) * n_, kFar);
  for (int g = 0; g < n_; ++g) {
    if (!goal[g]) continue;
    auto d = knight_distances(b, g);
    for (int a = 0; a < n_; ++a)
      if (d[a] >= 0) dist_[goal[g] * n_ + a] = std::min(dist_[goal[g] * n_ + a], d[a]);
  }
  goal_ = make(goal);
}

SwapState SwapDomain::make(const Cells& cells) const {
  State s;
  for (int i = 0; i < n_; ++i) s.c[i] = cells[i];
  return s;
}

int SwapDomain::colour_sum(const State& s) const {
  int sum = 0;
  for (int i = 0; i < n_; ++i)
    if (s.c[i]) sum += Board::colour(board_.row(i), board_.col(i));
  return sum;
}

}  // namespace tansaku::knights
