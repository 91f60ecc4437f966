// The one way a family turns an engine path search into a SolveReport, so every family
// reports alike: the solution mode from --all / --count, the search run by canonical name
// with progress, and the report fields (nodes; an exhausted search as a proof of
// unsolvability, a stopped one as a limit; the verified moves, solutions and count).
#pragma once
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "tansaku/core/error.h"
#include "tansaku/core/count.h"
#include "tansaku/puzzles/puzzle.h"
#include "tansaku/search/dispatch.h"

namespace tansaku {

// --all / --count as the engine's solution mode; `step` is the domain's cost parity step.
inline search::IdaOptions ida_options(const Options& o, int step = 1) {
  search::IdaOptions ida;
  ida.step = step;
  ida.mode = o.all ? search::SolutionMode::All : o.count ? search::SolutionMode::Count : search::SolutionMode::First;
  return ida;
}

// Runs `algorithm` (canonical) on `d` from `start` under o's limits, with progress.
template <search::Domain D>
search::PathResult<typename D::Move> run_path(const D& d, const typename D::State& start, const std::string& algorithm,
                                              const search::IdaOptions& ida, const Options& o) {
  Progress progress(o.progress());
  auto res = search::run_path_search(d, start, algorithm, ida, o.limits(&progress));
  progress.done();
  return res;
}

// Fills r from res. `verified(moves)` replays one solution through the family's verifier
// (throwing std::logic_error on a bad one) and returns its moves as printed in `moves`.
// An exhausted search without a solution is a proof (`unreachable` is the reason); one
// stopped by a bound is a LimitError.
template <class Move>
void report_path(const search::PathResult<Move>& res, const Options& o, const std::string& unreachable,
                 const std::function<json(const std::vector<Move>&)>& verified, SolveReport& r) {
  r.nodes = res.stats.expanded;
  if (!res.found) {
    if (!res.exhausted) throw LimitError("the search stopped before an answer (bound reached)");
    r.solvable = false;
    r.reason = unreachable;
    if (o.count || o.all) r.count = 0;
    return;
  }
  r.moves = verified(res.moves);
  r.length = res.cost;
  if (o.all) {
    json sols = json::array();
    for (const auto& sol : res.all) sols.push_back(verified(sol));
    r.solutions = sols;
  }
  if (o.all || o.count) r.count = count_json(res.count);
}

}  // namespace tansaku
