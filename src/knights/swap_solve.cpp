// Solving knight-swap instances: the solver table (bidirectional BFS, BFS counting shortest
// paths, IDA* and IDDFS over a table of proven bounds, the non-optimal searches), the space
// check the breadth-first searches pass, and the solve report from the typed solution.
#include "knights/swap_solve.h"

#include <fmt/format.h>

#include "knights/draw.h"
#include "tansaku/core/count.h"
#include "tansaku/core/error.h"
#include "tansaku/core/memory.h"
#include "tansaku/puzzles/path_report.h"
#include "tansaku/puzzles/solution.h"
#include "tansaku/puzzles/solver_table.h"
#include "tansaku/search/ida_star_tt.h"
#include "tansaku/search/shortest_paths.h"

namespace tansaku::knights {
namespace {

class SwapSolver {
 public:
  SwapSolver(const Board& board, const std::string& name) : board_(board), name_(name) {}

  SolveReport solve(const Instance& inst, const Options& o) const {
    SwapDomain d(board_, inst.armies, inst.goal);
    SolveReport r;
    Solution<SwapRules>& sol = *typed_solution(SwapRules{board_, inst.armies}, inst.start, inst.goal, r);
    const auto start = d.make(inst.start);
    const int parity = (d.colour_sum(start) - d.colour_sum(d.goal()) + 64) % 2;
    r.extra["length_parity"] = parity == 0 ? "even" : "odd";
    const Job job{*this, inst.armies, d, start, ida_options(o, 2), o};  // knight moves change colour: one parity
    const auto& solver = choose(solvers(), o.algorithm, job, kSolve, o.want());
    auto [res, heuristic] = run_with_progress(solver, job, o);
    r.algorithm = solver.spec.name;
    r.heuristic = heuristic;
    report_solution(res, o, "every position reachable from the start was searched; the goal is not among them", sol, r);
    if (!r.solvable) return r;
    r.text = "positions:\n";
    for (const auto& p : sol.positions()) r.text += "  " + format_cells(inst.armies, p) + "\n";
    return r;
  }

  // The breadth-first searches keep every position they reach and may reach them all:
  // refused before they start when the whole space cannot fit the budget (IDA* stores none).
  void require_space(const Armies& a, const std::string& alg, const search::Limits& lim) const {
    const double need =
        arrangement_count(a).get_d() * static_cast<double>(search::detail::node_bytes<SwapDomain::State>());
    if (need > static_cast<double>(lim.memory))
      throw InputError(
          fmt::format("{}: {} may store all {} arrangements ({:.3g} bytes), more than the memory budget {} "
                      "(--memory); --algorithm idastar stores none",
                      name_, alg == "bfs" ? "breadth-first search" : "bidirectional bfs",
                      to_string(arrangement_count(a)), need, format_size(lim.memory)));
  }

  // One solve: the puzzle, the armies, the domain, the start, the solution mode.
  struct Job {
    const SwapSolver& p;
    const Armies& armies;
    const SwapDomain& d;
    SwapDomain::State start;
    search::IdaOptions ida;
    const Options& o;
  };
  struct Found {
    search::PathResult<SwapMove> res;
    std::string heuristic;  // IDA*'s lower bound, described
  };
  using Table = SolverTable<Job, Found>;

  // Positions recur along many paths (and a small board has few): IDA* and IDDFS keep a table
  // of proven bounds keyed by the arrangement's rank (search/ida_star_tt.h), so an unsolvable
  // instance is proved so and a solvable one does not revisit its positions. Without a 64-bit
  // rank (no exact key) the plain search runs.
  template <class Entry>
  static Entry with_table(Entry e, bool heuristic) {
    auto plain = e.run;
    e.run = [plain, heuristic](const Job& j, const search::Limits& lim) {
      if (j.d.size() == 0) return plain(j, lim);
      const SwapDomain& d = j.d;
      const auto rank = [&d](const SwapDomain::State& s) { return d.rank(s); };
      const search::KeyedDomain<SwapDomain, decltype(rank)> keyed{d, rank, heuristic};
      search::TtOptions tt;
      tt.cost_bound = d.size() - 1;  // a shortest solution visits no arrangement twice
      return search::ida_star_tt_modes(keyed, j.start, j.ida, tt, lim);
    };
    return e;
  }

  // In the order of the automatic choice: bidirectional BFS for one solution, BFS counting
  // shortest paths per state for --all and --count.
  static const Table& solvers() {
    using Path = search::PathResult<SwapMove>;
    static const Table table = [] {
      // The engine's search as an entry of this table, with IDA*'s bound described in
      // `heuristic`; count mode keeps no solution: one is found to show, under the same limits.
      const auto entry = [](SolverEntry<Job, Path> e, std::string heuristic = "") {
        auto run = e.run;
        return Table::value_type{std::move(e.spec), std::move(e.refuses), std::move(e.automatic),
                                 [run, heuristic](const Job& j, const search::Limits& lim) {
                                   Path res = run(j, lim);
                                   if (res.found && res.moves.empty() && res.cost > 0)
                                     res.moves = search::bidirectional_bfs(j.d, j.start, lim).moves;
                                   return Found{std::move(res), heuristic};
                                 }};
      };
      auto bibfs = entry(bibfs_solver<Job>({"bibfs",
                                            {"bidirectional", "bidirectional-bfs", "bi-bfs"},
                                            "bidirectional BFS: the default for one solution"}));
      auto bibfs_run = bibfs.run;
      bibfs.run = [bibfs_run](const Job& j, const search::Limits& lim) {
        j.p.require_space(j.armies, "bibfs", lim);
        return bibfs_run(j, lim);
      };
      Table::value_type bfs{{"bfs",
                             {"breadth-first"},
                             "BFS counting shortest paths per state: the default for --all and --count",
                             kSolve,
                             /*all=*/true,
                             /*count=*/true},
                            nullptr,
                            nullptr,
                            [](const Job& j, const search::Limits& lim) {
                              j.p.require_space(j.armies, "bfs", lim);
                              if (j.ida.mode == search::SolutionMode::First)
                                return Found{search::bfs(j.d, j.start, lim), ""};
                              // Shortest paths counted per state, layer by layer; listed back from the goal.
                              const bool all = j.ida.mode == search::SolutionMode::All;
                              return Found{search::shortest_paths(j.d, j.start, all ? j.ida.max_all : 0, lim), ""};
                            }};
      Table t{
          bibfs, bfs,
          entry(with_table(idastar_solver<Job>({"idastar",
                                                {"ida*", "ida-star", "ida"},
                                                "IDA* with knight distances to the nearest goal square and a "
                                                "table of proven bounds",
                                                kSolve,
                                                true,
                                                true}),
                           true),
                "knight distances to the nearest goal square"),
          entry(with_table(iddfs_solver<Job>({"iddfs",
                                              {"id", "iterative-deepening"},
                                              "iterative deepening depth-first search with a table of proven bounds",
                                              kSolve,
                                              true,
                                              true}),
                           false))};
      for (auto& e : heuristic_solvers<Job>("knight distances to the nearest goal square"))
        t.push_back(entry(std::move(e), "knight distances to the nearest goal square"));
      return t;
    }();
    return table;
  }

 private:
  const Board& board_;
  const std::string& name_;
};

}  // namespace

SolveReport solve_swap(const Board& board, const std::string& name, const Instance& inst, const Options& o) {
  return SwapSolver(board, name).solve(inst, o);
}

std::vector<SolverSpec> swap_solvers() { return solver_specs(SwapSolver::solvers()); }

}  // namespace tansaku::knights
