// Runs the path search a user named (--algorithm, already resolved to its canonical name by
// the CLI) on any domain, refusing names the domain cannot support (bidirectional search
// needs predecessors, IDA* a heuristic).
#pragma once
#include <string>

#include <fmt/format.h>

#include "tansaku/core/error.h"
#include "tansaku/search/bfs.h"
#include "tansaku/search/bidirectional_bfs.h"
#include "tansaku/search/iddfs.h"
#include "tansaku/search/ida_star.h"

namespace tansaku::search {

template <Domain D>
PathResult<typename D::Move> run_path_search(const D& d, const typename D::State& start, const std::string& algorithm,
                                             const IdaOptions& ida, const Limits& lim) {
  const std::string& a = algorithm;
  if (ida.mode != SolutionMode::First && a != "idastar" && a != "iddfs")
    throw InputError(fmt::format("--all and --count need --algorithm idastar or iddfs, not {}", algorithm));
  if (a == "bfs") return bfs(d, start, lim);
  if (a == "bibfs") {
    if constexpr (BackwardDomain<D>) return bidirectional_bfs(d, start, lim);
    else throw InputError("bidirectional search is not available for this puzzle");
  }
  if (a == "iddfs") return iddfs(d, start, ida, lim);
  if (a == "idastar") {
    if constexpr (HeuristicDomain<D>) return ida_star(d, start, ida, lim);
    else throw InputError("IDA* is not available for this puzzle (no heuristic)");
  }
  throw InputError(fmt::format("unknown algorithm '{}' (bfs, bibfs, iddfs, idastar)", algorithm));
}

}  // namespace tansaku::search
