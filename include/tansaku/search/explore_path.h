// A shortest path back to explore's sources without another search: explore can leave every
// state's distance mod 3 (2 bits); in a symmetric domain (each move's inverse is a move) a
// neighbour of a state at distance k holds k-1, k or k+1, so the one whose value is
// (k - 1) mod 3 is a step closer. Following such neighbours from a state at distance k
// gives k moves that lead from it to a source (the first such neighbour in move order each
// time, so the path does not depend on the number of threads).
#pragma once
#include <algorithm>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <vector>

#include "tansaku/core/cluster.h"
#include "tansaku/core/two_bit_table.h"
#include "tansaku/search/domain.h"
#include "tansaku/search/explore.h"

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

// The same from explore's result (keep_distances), which may be distributed: then each rank
// holds a block of the distances and the ranks agree on every neighbour's value by a
// collective sum, so every rank must call this alike (they do: they run the same code).
template <RankedDomain D>
std::vector<typename D::Move> path_to_source(const D& d, const ExploreResult& res, std::uint64_t r, int depth) {
  if (!res.distances) throw std::logic_error("path_to_source: explore kept no distances");
  if (!res.distances_cluster) return path_to_source(d, *res.distances, r, depth);
  const TwoBitTable& mine = *res.distances;
  const std::uint64_t lo = res.distances_first, hi = lo + mine.cells();
  std::vector<std::uint64_t> values;
  auto lookup = [&](const std::vector<std::uint64_t>& ranks) {  // value + 1 from the owner, 0 from the others
    values.assign(ranks.size(), 0);
    for (std::size_t i = 0; i < ranks.size(); ++i)
      if (ranks[i] >= lo && ranks[i] < hi) values[i] = mine.get(ranks[i] - lo) + 1;
    res.distances_cluster->sum(values);
  };
  lookup({r});
  if (values[0] != static_cast<unsigned>(depth % 3) + 1)
    throw std::logic_error("path_to_source: the state is not at the given distance");
  std::vector<typename D::Move> path;
  auto s = d.unrank(r);
  for (int k = depth; k > 0; --k) {
    const std::uint64_t want = static_cast<std::uint64_t>((k - 1) % 3) + 1;
    std::vector<typename D::Move> moves;
    std::vector<typename D::State> states;
    std::vector<std::uint64_t> ranks;
    d.for_each_move(s, [&](const typename D::Move& m, const typename D::State& t) {
      moves.push_back(m), states.push_back(t), ranks.push_back(d.rank(t));
    });
    lookup(ranks);
    const auto it = std::find(values.begin(), values.end(), want);
    if (it == values.end()) throw std::logic_error("path_to_source: no neighbour one step closer (is the domain symmetric?)");
    const auto i = static_cast<std::size_t>(it - values.begin());
    path.push_back(moves[i]);
    s = states[i];
  }
  return path;
}

}  // namespace tansaku::search
