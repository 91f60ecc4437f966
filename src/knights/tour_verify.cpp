// Checks a knight's tour (open or closed) against the board before it is reported.
#include "knights/tour_verify.h"

#include <stdexcept>

#include <fmt/format.h>

namespace tansaku::knights {

void verify_tour(const Board& b, const std::vector<std::int32_t>& tour, std::int64_t from, bool closed) {
  const std::int64_t n = b.squares();
  if (static_cast<std::int64_t>(tour.size()) != n)
    throw std::logic_error(fmt::format("tour verifier: {} squares visited, the board has {}", tour.size(), n));
  if (tour.front() != from)
    throw std::logic_error(fmt::format("tour verifier: the tour starts on {}, not {}", tour.front(), from));
  std::vector<char> seen(static_cast<std::size_t>(n), 0);
  for (std::size_t i = 0; i < tour.size(); ++i) {
    const std::int64_t sq = tour[i];
    if (sq < 0 || sq >= n) throw std::logic_error(fmt::format("tour verifier: square {} is off the board", sq));
    if (seen[sq]) throw std::logic_error(fmt::format("tour verifier: square {} is visited twice", sq));
    seen[sq] = 1;
    if (i > 0 && !b.adjacent(tour[i - 1], sq))
      throw std::logic_error(fmt::format("tour verifier: {} -> {} is not a knight's move", tour[i - 1], sq));
  }
  if (closed && !b.adjacent(tour.back(), tour.front()))
    throw std::logic_error(fmt::format("tour verifier: the last square {} is not a knight's move from {}", tour.back(),
                                       tour.front()));
}

}  // namespace tansaku::knights
