// The one way a family turns an engine path search into a SolveReport, so every family
// reports alike: the solution mode from --all / --count, the engine's searches as solver-table
// entries (solver_table.h), and the report fields (nodes; an exhausted search as a proof of
// unsolvability, a stopped one as a limit; the verified moves, solutions and count).
#pragma once
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "tansaku/core/count.h"
#include "tansaku/core/error.h"
#include "tansaku/puzzles/puzzle.h"
#include "tansaku/puzzles/solver_table.h"
#include "tansaku/search/beam_search.h"
#include "tansaku/search/best_first.h"
#include "tansaku/search/bfs.h"
#include "tansaku/search/bidirectional_bfs.h"
#include "tansaku/search/ida_star.h"
#include "tansaku/search/iddfs.h"
#include "tansaku/search/weighted_ida.h"

namespace tansaku {

// --all / --count as the engine's solution mode; `step` is the domain's cost parity step.
inline search::IdaOptions ida_options(const Options& o, int step = 1) {
  search::IdaOptions ida;
  ida.step = step;
  ida.mode = o.all ? search::SolutionMode::All : o.count ? search::SolutionMode::Count : search::SolutionMode::First;
  ida.weight_num = o.weight_num, ida.weight_den = o.weight_den;
  ida.beam_width = o.beam_width;
  return ida;
}

// The engine's path searches as solver-table entries, for a family whose instance type `Job`
// has members `d` (the domain), `start` (its state) and `ida` (the solution mode). BFS and
// bidirectional BFS find one solution (their specs take neither --all nor --count, so
// choose() refuses or passes over them; they also refuse a job asking for more, for a family
// that calls choose() without its Want); IDA* and IDDFS list and count. Bidirectional BFS needs
// predecessors and IDA* a heuristic (checked at compile time: pass only what the domain has).
template <class Job>
using PathOf = search::PathResult<typename std::remove_cvref_t<decltype(std::declval<const Job&>().d)>::Move>;

template <class Job>
std::string one_solution_only(const Job& j, const std::string& name) {
  if (j.ida.mode == search::SolutionMode::First) return "";
  return fmt::format("--all and --count need --algorithm idastar or iddfs, not {}", name);
}

template <class Job>
SolverEntry<Job, PathOf<Job>> bfs_solver(SolverSpec spec) {
  std::string name = spec.name;
  return {std::move(spec), [name](const Job& j) { return one_solution_only(j, name); }, nullptr,
          [](const Job& j, const search::Limits& lim) { return search::bfs(j.d, j.start, lim); }};
}
template <class Job>
SolverEntry<Job, PathOf<Job>> bibfs_solver(SolverSpec spec) {
  std::string name = spec.name;
  return {std::move(spec), [name](const Job& j) { return one_solution_only(j, name); }, nullptr,
          [](const Job& j, const search::Limits& lim) { return search::bidirectional_bfs(j.d, j.start, lim); }};
}
template <class Job>
SolverEntry<Job, PathOf<Job>> iddfs_solver(SolverSpec spec) {
  spec.all = spec.count = true;
  return {std::move(spec), nullptr, nullptr,
          [](const Job& j, const search::Limits& lim) { return search::iddfs(j.d, j.start, j.ida, lim); }};
}
template <class Job>
SolverEntry<Job, PathOf<Job>> idastar_solver(SolverSpec spec) {
  spec.all = spec.count = true;
  return {std::move(spec), nullptr, nullptr,
          [](const Job& j, const search::Limits& lim) { return search::ida_star(j.d, j.start, j.ida, lim); }};
}

// The non-optimal searches over the domain's heuristic (best_first.h, beam_search.h), for
// any job with `d`, `start` and `ida` (whose knobs ida_options() fills from --weight and
// --beam-width): weighted A* and weighted IDA* (length at most W times the optimum, stated in
// the result), greedy best-first and beam search (these two quick: SolverSpec::quick). One
// solution each (neither --all nor --count), never the automatic choice. `h` names the
// heuristic in their summaries ("Manhattan distance").
template <class Job>
std::vector<SolverEntry<Job, PathOf<Job>>> heuristic_solvers(const std::string& h) {
  using Path = PathOf<Job>;
  const auto never = [](const Job&) { return false; };
  const auto one = [](std::string name) { return [name](const Job& j) { return one_solution_only(j, name); }; };
  const auto non_optimal = [](Path res, double bound) {
    res.optimal = false;
    res.bound = bound;
    return res;
  };
  // Weighted A* and weighted IDA*: the length at most W times the optimum (`bound`).
  const auto weighted = [&](std::string name, std::vector<std::string> aliases, const std::string& what,
                            const std::string& more, auto run) {
    return SolverEntry<Job, Path>{
        {name, std::move(aliases),
         fmt::format("{} over {}: length at most --weight W (default 2) times the optimum, {}not proved least", what, h,
                     more)},
        one(name),
        never,
        [non_optimal, run](const Job& j, const search::Limits& lim) {
          return non_optimal(run(j.d, j.start, j.ida.weight_num, j.ida.weight_den, lim),
                             static_cast<double>(j.ida.weight_num) / static_cast<double>(j.ida.weight_den));
        }};
  };
  using D = std::remove_cvref_t<decltype(std::declval<const Job&>().d)>;
  using State = typename D::State;
  std::vector<SolverEntry<Job, Path>> out = {
      weighted("wastar", {"weighted-astar", "wa*", "weighted-a*"}, "weighted A*", "",
               [](const D& d, const State& s, std::int64_t num, std::int64_t den, const search::Limits& lim) {
                 return search::weighted_astar(d, s, num, den, lim);
               }),
      weighted("wida", {"weighted-idastar", "wida*", "weighted-ida*"}, "weighted IDA*", "in little memory, ",
               [](const D& d, const State& s, std::int64_t num, std::int64_t den, const search::Limits& lim) {
                 return search::weighted_ida_star(d, s, num, den, lim);
               }),
      {{"greedy",
        {"greedy-best-first", "gbfs"},
        fmt::format("greedy best-first over {}: fast, no bound on the length", h)},
       one("greedy"),
       never,
       [non_optimal](const Job& j, const search::Limits& lim) {
         return non_optimal(search::greedy_best_first(j.d, j.start, lim), 0);
       }},
      {{"beam",
        {"beam-search"},
        fmt::format("beam search over {}: the --beam-width N (default 1000) best positions per depth, no bound", h)},
       one("beam"),
       never,
       [non_optimal](const Job& j, const search::Limits& lim) {
         return non_optimal(search::beam_search(j.d, j.start, j.ida.beam_width, lim), 0);
       }}};
  for (auto& e : out) e.spec.quick = e.spec.name == "greedy" || e.spec.name == "beam";
  return out;
}

// An entry whose result is passed through `then(job, result)`: a family turning the engine's
// path into its report.
template <class Job, class R, class F>
auto then(SolverEntry<Job, R> e, F f) {
  using Out = decltype(f(std::declval<const Job&>(), std::declval<R>()));
  auto run = e.run;
  return SolverEntry<Job, Out>{std::move(e.spec), std::move(e.refuses), std::move(e.automatic),
                               [run, f](const Job& j, const search::Limits& lim) { return f(j, run(j, lim)); }};
}

// A non-optimal search's answer in the report: not optimal, its bound, and the least length
// the bound proves (length / W, rounded up).
inline void non_optimal_figures(bool optimal, double bound, std::int64_t cost, SolveReport& r) {
  if (optimal) return;
  r.optimal = false;
  if (bound > 0) {
    r.bound = bound;
    r.lower_bound = static_cast<std::int64_t>(std::ceil(static_cast<double>(cost) / bound - 1e-9));
  }
}
template <class Move>
void non_optimal_figures(const search::PathResult<Move>& res, SolveReport& r) {
  if (res.found) non_optimal_figures(res.optimal, res.bound, res.cost, r);
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
  non_optimal_figures(res, r);
  if (o.all) {
    json sols = json::array();
    for (const auto& sol : res.all) sols.push_back(verified(sol));
    r.solutions = sols;
  }
  if (o.all || o.count) r.count = count_json(res.count);
}

}  // namespace tansaku
