// Running the engine's searches on the blocks domain of the right code width.
#include "blocks/solver.h"

#include <algorithm>
#include <memory>

#include <fmt/format.h>

#include "blocks/domain.h"
#include "blocks/notation.h"
#include "blocks/verify.h"
#include "tansaku/core/error.h"
#include "tansaku/core/random.h"
#include "tansaku/puzzles/path_report.h"
#include "tansaku/puzzles/solver_table.h"
#include "tansaku/search/bfs.h"
#include "tansaku/search/bidirectional_bfs.h"
#include "tansaku/search/explore_states.h"
#include "tansaku/search/ida_star.h"
#include "tansaku/search/ida_star_tt.h"
#include "tansaku/search/shortest_paths.h"

namespace tansaku::blocks {

namespace {

// Calls f(std::integral_constant<int, W>) for the code width the rules need.
template <class F>
auto with_width(const Rules& r, F&& f) {
  switch (r.words()) {
    case 1: return f(std::integral_constant<int, 1>{});
    case 2: return f(std::integral_constant<int, 2>{});
    default: return f(std::integral_constant<int, 4>{});
  }
}

// One search for one solution, as the solver table sees it.
template <int W>
struct Job {
  const Domain<W>& d;
  Code<W> start;
  search::IdaOptions ida;
  bool single_goal;  // the goal picture places every piece
  Want want = Want::one;
  std::size_t max_all = 0;  // Want::all: at most this many solutions listed
};

// In the order of the automatic choice: bidirectional BFS when the goal places every piece,
// else BFS; IDA* when named; for --all and --count the layered shortest paths (the only
// solver that can list or count them).
template <int W>
const SolverTable<Job<W>, search::PathResult<Move>>& table() {
  using J = Job<W>;
  static const SolverTable<J, search::PathResult<Move>> t = [] {
    auto bibfs = bibfs_solver<J>({"bibfs", {"bidirectional", "bidirectional-bfs", "bi-bfs"},
                                  "bidirectional BFS; chosen when the goal picture places every piece", kSolve});
    bibfs.refuses = [](const J& j) -> std::string {
      return j.single_goal ? "" : "bidirectional search needs a goal picture that places every piece; this goal leaves "
                                  "some free (use bfs or idastar)";
    };
    // IDA* with a table of proven bounds (ida_star_tt.h): a position reached again by another
    // path is cut at once. The table takes at most a quarter of --memory. One solution only:
    // --all and --count are the layered paths' alone.
    SolverEntry<J, search::PathResult<Move>> idastar{
        {"idastar", {"ida*", "ida-star", "ida"},
         "IDA* bounded by the goal pieces' distances (cells, straight runs, or 0/1 by metric), with a table of proven "
         "bounds",
         kSolve},
        nullptr, nullptr,
        [](const J& j, const search::Limits& lim) {
          search::TtOptions tt;
          tt.table_bytes = std::min<std::uint64_t>(tt.table_bytes, lim.memory / 4);
          return search::ida_star_tt(j.d, j.start, tt, lim);
        }};
    SolverTable<J, search::PathResult<Move>> table{
        bibfs,
        bfs_solver<J>(
            {"bfs", {"breadth-first"}, "breadth-first search; chosen when the goal leaves pieces free", kSolve}),
        idastar,
        {{"layered",
          {"shortest-paths", "paths"},
          "layered shortest paths: every optimal solution (--all) or their number (--count)",
          kSolve,
          true,
          true},
         nullptr,
         nullptr,
         [](const J& j, const search::Limits& lim) {
           return search::shortest_paths(j.d, j.start, j.want == Want::all ? j.max_all : 0, lim);
         }}};
    for (auto& e : heuristic_solvers<J>("the goal pieces' distances")) table.push_back(std::move(e));
    return table;
  }();
  return t;
}

template <int W>
Solution solve_width(const Request& q, const std::shared_ptr<const Rules>& r, const std::string& algorithm, Want want,
                     std::size_t max_all, const search::Limits& lim) {
  const Domain<W> d(r);
  const auto start = d.encode(q.start);
  search::PathResult<Move> res;
  Solution out;
  search::IdaOptions ida = q.knobs;
  ida.mode = search::SolutionMode::First;
  const Job<W> job{d, start, ida, r->single_goal(), want, max_all};
  const auto& solver = choose(table<W>(), algorithm, job, kSolve, want);
  res = solver.run(job, lim);
  out.algorithm = solver.spec.name;
  out.nodes = res.stats.expanded;
  out.found = res.found;
  out.exhausted = res.exhausted;
  out.optimal = res.optimal;
  out.bound = res.bound;
  if (!res.found) return out;
  out.length = res.cost;
  auto printed = print_solution(*r, q.start, res.moves);
  verify(*q.board, q.metric, q.distinct, q.start, q.board->goal, printed.moves, res.cost);
  out.moves = std::move(printed.moves);
  out.positions = std::move(printed.positions);
  if (want != Want::one) out.count = res.count;
  for (const auto& sol : res.all) {
    auto p = print_solution(*r, q.start, sol);
    verify(*q.board, q.metric, q.distinct, q.start, q.board->goal, p.moves, res.cost);
    out.all.push_back(std::move(p.moves));
  }
  return out;
}

template <int W>
Exploration explore_width(const Request& q, const std::shared_ptr<const Rules>& r, std::size_t keep,
                          const search::Limits& lim) {
  const Domain<W> d(r);
  const std::vector<Code<W>> sources{d.encode(q.start)};
  auto res = search::explore_states(d, std::span<const Code<W>>(sources), keep, lim);
  Exploration out;
  out.histogram = std::move(res.histogram);
  out.states = res.states;
  out.depth = res.depth;
  out.farthest_count = res.farthest_count;
  for (const auto& s : res.farthest) out.farthest.push_back(d.decode(s));
  out.nodes = res.stats.expanded;
  out.table_bytes = res.table_bytes;
  out.code_bits = r->slots() * r->bits();
  return out;
}

template <int W>
std::vector<std::vector<Piece>> random_width(const Request& q, const std::shared_ptr<const Rules>& r, std::uint64_t seed,
                                             std::size_t count, const search::Limits& lim) {
  using D = Domain<W>;
  using State = typename D::State;
  const D d(r);
  // Every position reachable from the start, collected layer by layer from the engine's
  // explore (its own sets count in the budget; `all` is checked as it grows, the reachable
  // count is not known before).
  std::vector<State> all;
  const std::vector<State> sources{d.encode(q.start)};
  search::explore_states(d, std::span<const State>(sources), 0, lim, [&](const State& s) {
    if ((all.size() & 0xfff) == 0 && static_cast<std::uint64_t>(all.size() + 0x1000) * sizeof(State) > lim.memory)
      throw LimitError(
          fmt::format("random: more than {} reachable positions do not fit the memory budget (--memory)", all.size()));
    all.push_back(s);
  });
  std::sort(all.begin(), all.end());  // independent of the search order
  SplitMix64 rng{seed};
  std::vector<std::vector<Piece>> out;
  for (std::size_t k = 0; k < count; ++k) {
    if (lim.deadline) lim.deadline->poll();
    out.push_back(d.decode(all[rng.uniform(all.size())]));
  }
  return out;
}

}  // namespace

std::vector<std::vector<Piece>> random_positions(const Request& q, std::uint64_t seed, std::size_t count,
                                                 const search::Limits& lim) {
  auto r = std::make_shared<const Rules>(*q.board, q.metric, q.distinct);
  return with_width(*r, [&](auto w) { return random_width<decltype(w)::value>(q, r, seed, count, lim); });
}

Solution solve(const Request& q, const std::string& algorithm, Want want, std::size_t max_all,
               const search::Limits& lim) {
  auto r = std::make_shared<const Rules>(*q.board, q.metric, q.distinct);
  return with_width(*r, [&](auto w) { return solve_width<decltype(w)::value>(q, r, algorithm, want, max_all, lim); });
}

Exploration explore(const Request& q, std::size_t keep_farthest, const search::Limits& lim) {
  auto r = std::make_shared<const Rules>(*q.board, q.metric, q.distinct);
  return with_width(*r, [&](auto w) { return explore_width<decltype(w)::value>(q, r, keep_farthest, lim); });
}

std::vector<SolverSpec> solvers() { return solver_specs(table<1>()); }

int code_bits(const Board& b, bool distinct) {
  const Rules r(b, Metric::Path, distinct);
  return r.slots() * r.bits();
}

}  // namespace tansaku::blocks
