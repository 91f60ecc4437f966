// A shortest path back to explore's sources without another search: explore can leave every
// state's distance mod 3 (2 bits); in a symmetric domain (each move's inverse is a move) a
// neighbour of a state at distance k holds k-1, k or k+1, so the one whose value is
// (k - 1) mod 3 is a step closer. Following such neighbours from a state at distance k
// gives k moves that lead from it to a source (the first such neighbour in move order each
// time, so the path does not depend on the number of threads).
#pragma once
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <vector>

#include "tansaku/core/two_bit_table.h"
#include "tansaku/search/domain.h"

namespace tansaku::search {

template <RankedDomain D>
std::vector<typename D::Move> path_to_source(const D& d, const TwoBitTable& distances, std::uint64_t r, int depth) {
  std::vector<typename D::Move> path;
  if (distances.get(r) != static_cast<unsigned>(depth % 3))
    throw std::logic_error("path_to_source: the state is not at the given distance");
  auto s = d.unrank(r);
  for (int k = depth; k > 0; --k) {
    const unsigned want = static_cast<unsigned>((k - 1) % 3);
    std::optional<typename D::Move> step;
    std::optional<typename D::State> to;
    d.for_each_move(s, [&](const typename D::Move& m, const typename D::State& t) {
      if (!step && distances.get(d.rank(t)) == want) step = m, to = t;
    });
    if (!step) throw std::logic_error("path_to_source: no neighbour one step closer (is the domain symmetric?)");
    path.push_back(*step);
    s = *to;
  }
  return path;
}

}  // namespace tansaku::search
