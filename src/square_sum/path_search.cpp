// The exact square-sum search: the partner graph of 1..N handed to the graph module's
// Hamiltonian backtracking, to find, list or count rows and rings.
#include "square_sum/path_search.h"

#include <algorithm>

#include <fmt/format.h>

#include "square_sum/squares.h"
#include "square_sum/verify.h"
#include "tansaku/core/error.h"
#include "tansaku/graph/hamiltonian_search.h"

namespace tansaku::square_sum {

SearchResult search(int n, const SearchOptions& o, const search::Limits& lim) {
  SearchResult r;
  if (n < 1) return r;
  graph::DfsOptions d;
  d.closed = o.ring;
  d.high_first = true;
  d.max_nodes = o.node_budget;
  const bool first = o.mode == Mode::First;
  // A listed solution takes about 4 bytes a number and some overhead.
  const std::uint64_t list_limit = std::max<std::uint64_t>(1, lim.memory / (64 + 4 * static_cast<std::uint64_t>(n)));
  auto on_path = [&](const std::vector<int>& p) {
    std::vector<int> seq(p.size());
    for (std::size_t i = 0; i < p.size(); ++i) seq[i] = p[i] + 1;
    if (first) {
      r.sequence = std::move(seq);
      return false;
    }
    if (o.mode == Mode::All) {
      if (r.all.size() >= list_limit)
        throw LimitError(fmt::format("more than {} solutions: too many to list (use --count)", list_limit));
      r.all.push_back(canonical(std::move(seq), o.ring));
    }
    return true;
  };
  auto res = graph::each_hamiltonian(SquareSumGraph{n}, d, !first, on_path, lim);
  r.nodes = res.nodes;
  if (first) {
    r.status = !r.sequence.empty() ? Status::Found : res.exhausted ? Status::None : Status::Budget;
    return r;
  }
  r.count = static_cast<std::uint64_t>(res.count);
  r.status = r.count ? Status::Found : Status::None;
  std::sort(r.all.begin(), r.all.end());
  return r;
}

}  // namespace tansaku::square_sum
