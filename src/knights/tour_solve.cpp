// Solving knight's tours: one tour, every tour, or how many, by the solvers of the table
// (Warnsdorff's heuristics, backtracking, the frontier dp, the split count), a solver the
// automatic choice took handing over to the next when it gives up within its budget; and
// the report each one fills. The family's glue (tour_family.cpp) reads the request.
#include "knights/tour_solve.h"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "knights/draw.h"
#include "knights/tour_analysis.h"
#include "knights/tour_count.h"
#include "knights/tour_verify.h"
#include "knights/warnsdorff.h"
#include "tansaku/core/cluster.h"
#include "tansaku/core/count.h"
#include "tansaku/core/error.h"
#include "tansaku/core/input.h"
#include "tansaku/core/memory.h"
#include "tansaku/core/memory_error.h"
#include "tansaku/core/progress.h"
#include "tansaku/graph/frontier_dp.h"
#include "tansaku/graph/hamiltonian_search.h"
#include "tansaku/puzzles/report_keys.h"
#include "tansaku/puzzles/solver_table.h"

namespace tansaku::knights {
namespace {

// Backtracking budget of the default solver after the heuristics and the frontier DP.
constexpr std::uint64_t kDfsBudget = 20'000'000;
// Backtracking budget of the default count before it hands over to the frontier dp.
constexpr std::uint64_t kCountDfsBudget = 60'000'000;

// States of the widest layer of the split count on a board `w` squares wide. Closed tours: the
// same states as the frontier dp's, 22.5 M on 7x8, about 24 times more a square of width; on
// 8x8 they grow faster than that: 741 M at the widest (square 46 of 64), 33 times 7x8 (and 44
// times more a square beyond). Open tours (with the hub): 158 M on 7x7, 6.4 M on 6x7, and the
// same growth a square of width.
double split_widest(int w, bool closed) {
  if (!closed) {
    double widest = 160e6;
    for (int i = w; i < 7; ++i) widest /= 24;
    for (int i = 7; i < w; ++i) widest *= 44;
    return widest;
  }
  if (w >= 8) {
    double widest = 750e6;
    for (int i = 8; i < w; ++i) widest *= 44;
    return widest;
  }
  double widest = 22.5e6;
  for (int i = w; i < 7; ++i) widest /= 24;
  return widest;
}

constexpr const char* kBacktracking = "backtracking (warnsdorff order, dead-end pruning)";

// solve's own keys (docs/cli.md), in their JSON order.
struct TourKeys {
  std::int64_t rows = 0, cols = 0;
  bool closed = false;
  std::optional<std::size_t> tasks;   // parallel counts: subtrees searched
  std::optional<std::string> method;  // how the answer was found (a hand-over rewrites it)
  std::optional<std::uint64_t> rotations;
  std::optional<int> frontier;
  std::optional<std::uint64_t> widest_step;
  std::optional<unsigned> parts;
  std::optional<std::uint64_t> largest_part;
  std::optional<int> resumed_at_square;
  std::optional<json> directed_from_a_square, undirected;
  std::optional<std::string> counted;
};
TANSAKU_REPORT_KEYS(TourKeys, rows, cols, closed, tasks, method, rotations, frontier, widest_step, parts, largest_part,
                    resumed_at_square, directed_from_a_square, undirected, counted)

class TourSolver {
 public:
  TourSolver(const Board& board, const TourRequest& q) : board_(board), q_(q) {}

  SolveReport solve(const Options& o) const {
    SolveReport r;
    TourKeys keys;
    keys.rows = board_.rows();
    keys.cols = board_.cols();
    keys.closed = q_.closed;
    // Distances, the walk and the printed tour take a few dozen bytes a square; the report as
    // JSON (a json value a move, then its text) about twice that (measured: 41 and 76 bytes).
    require_memory(static_cast<std::uint64_t>(board_.squares()) * (o.json ? 96 : 48), o.memory,
                   fmt::format("a board of {} squares", board_.squares()));
    // --checkpoint keeps a count of closed tours: refused for any other solve, and its
    // directory made (or refused) before any work, whether or not the count needs it.
    if (!q_.checkpoint.empty()) {
      if (o.want() != Want::count || !q_.closed)
        throw InputError("--checkpoint applies to a count of closed tours (--count --closed)");
      std::error_code ec;
      std::filesystem::create_directories(q_.checkpoint, ec);
      if (!std::filesystem::is_directory(q_.checkpoint, ec))
        throw InputError(fmt::format("--checkpoint {}: not a directory that can be made", printable(q_.checkpoint)));
    }
    const Job job{*this, o, o.want(), o.algorithm.empty(), r, keys, {}};
    const auto& chosen = choose(solvers(), o.algorithm, job, kSolve, o.want());
    Progress progress(o.progress());
    run_handing_over(chosen, job, o.limits(&progress));
    progress.done();
    put(keys, r.extra);
    return r;
  }

  // One solve as the solver table sees it; `automatic`: no --algorithm was named, so a
  // solver may give up within a budget and hand over to the next one the automatic choice
  // takes (run_handing_over).
  struct Job {
    const TourSolver& p;
    const Options& o;
    Want want;
    bool automatic;
    SolveReport& r;
    TourKeys& keys;
    mutable std::string gave_up;  // why the last solver gave up: the message when none is left
    bool closed() const { return p.q_.closed; }
  };
  // run: true when the solver answered (a tour, a proof, a count), false when it gave up
  // within the budget of the automatic choice.
  using Table = SolverTable<Job, bool>;

  // In the order of the automatic choice. One tour: Warnsdorff, then the frontier dp where
  // it fits, else backtracking within kDfsBudget steps. --all: backtracking. --count:
  // backtracking within kCountDfsBudget steps on boards at least 5 wide, then the dp.
  static const Table& solvers() {
    static const Table table = {
        {{"warnsdorff",
          {"heuristic"},
          "Warnsdorff's rule with tie-breaking and Posa rotations: one tour, any size (default; when it finds none, "
          "it hands over to dp or dfs)"},
         nullptr,
         nullptr,
         [](const Job& j, const search::Limits& lim) { return j.p.tour_warnsdorff(j, lim); }},
        {{"dfs",
          {"backtrack", "backtracking"},
          "backtracking in Warnsdorff order with dead-end pruning: one tour, --all, --count (chosen automatically: "
          "within a budget of steps, then the dp)",
          kSolve,
          /*all=*/true,
          /*count=*/true},
         nullptr,
         [](const Job& j) {
           if (j.want == Want::count) return j.p.min_side() >= 5;
           return j.want == Want::all || (j.p.board_.squares() <= kListLimit && !j.p.dp_fits());
         },
         [](const Job& j, const search::Limits& lim) {
           if (j.want == Want::count) return j.p.count_dfs(j, lim);
           if (j.want == Want::all) return j.p.all(j, lim);
           return j.p.tour_dfs(j, lim);
         }},
        {{"dp",
          {"frontier", "frontier-dp"},
          "frontier dynamic programming over the board's columns: one tour or an exact --count",
          kSolve,
          /*all=*/false,
          /*count=*/true},
         nullptr,
         [](const Job& j) { return j.want == Want::count || j.p.dp_fits(); },
         [](const Job& j, const search::Limits& lim) {
           return j.want == Want::count ? j.p.count_dp(j, lim) : j.p.tour_dp(j, lim);
         }},
        {{"split",
          {"split-dp"},
          "the frontier dp with compact states, each layer split into parts merged on every thread: --count, "
          "closed or open (what dp --count uses on boards 7 or more wide, and on any board under mpirun, whose ranks "
          "share it)",
          kSolve,
          /*all=*/false,
          /*count=*/true},
         [](const Job& j) {
           return j.want == Want::count ? std::string() : std::string("it only counts tours (--count)");
         },
         [](const Job&) { return false; },
         [](const Job& j, const search::Limits& lim) { return j.p.count_split(j, lim); }},
    };
    return table;
  }

  // Runs the chosen solver; when the automatic choice took it and it gives up, the next one
  // in the table that the automatic choice takes, and so on. `algorithm` names the solver
  // that answered.
  static void run_handing_over(const Table::value_type& chosen, const Job& j, const search::Limits& lim) {
    const Table& t = solvers();
    for (auto e = t.begin() + (&chosen - t.data()); e != t.end(); ++e) {
      if (&*e != &chosen && !(can(e->spec, j.want) && e->applies(j) && (!e->automatic || e->automatic(j)))) continue;
      j.r.algorithm = e->spec.name;
      if (e->run(j, lim)) return;
      if (!j.automatic) break;
    }
    throw LimitError(j.gave_up);
  }

  void need_lists(const search::Limits& lim, const char* what) const {
    if (board_.squares() > kListLimit)
      throw InputError(fmt::format("{} of a board with {} squares is out of reach (at most {} squares)", what,
                                   board_.squares(), kListLimit));
    require_memory(static_cast<std::uint64_t>(board_.squares()) * 96, lim.memory, "the knight's graph");
  }
  int min_side() const { return std::min(board_.rows(), board_.cols()); }
  // The frontier dp finds one tour (or proves none) on boards at most 6 wide.
  bool dp_fits() const {
    return min_side() <= 6 && board_.squares() <= kListLimit &&
           graph::frontier_width(narrow_graph(board_).adj) <= graph::kMaxFrontier;
  }

  void report_tour(SolveReport& r, const std::vector<std::int32_t>& tour, std::int64_t from, bool closed) const {
    verify_tour(board_, tour, from, closed);  // throws: never prints a wrong tour
    r.length = static_cast<std::int64_t>(tour.size());
    r.moves = json::array();
    for (auto s : tour) r.moves.push_back(s);
    r.solution = std::make_shared<TourAnswer>(std::vector<std::int64_t>(tour.begin(), tour.end()), closed, from);
    if (board_.squares() <= kPictureLimit) {
      std::vector<std::string> cells(board_.squares());
      for (std::size_t i = 0; i < tour.size(); ++i) cells[tour[i]] = std::to_string(i);
      r.text =
          fmt::format("visiting order (0 = first square{}):\n", closed ? ", the last square is a move from it" : "") +
          board_.picture(cells);
    }
  }

  // The first square and the goal of a search for one tour; true when a counting argument
  // already proves that there is none (the report says so).
  bool tour_proved_none(const Job& j, std::int64_t from) const {
    SolveReport& r = j.r;
    r.start = std::to_string(from);
    r.goal = j.closed() ? fmt::format("every square once, then back to {}", from) : "every square once";
    r.solution = std::make_shared<TourAnswer>(std::vector<std::int64_t>{}, j.closed(), from);
    auto why = no_tour_reason(board_, from, j.closed(), &j.o.deadline);
    if (!why) return false;
    r.solvable = false;
    r.reason = *why;
    j.keys.method = "counting argument";
    return true;
  }
  void no_tour_found(const Job& j, std::int64_t from, const char* search) const {
    j.r.solvable = false;
    j.r.reason =
        fmt::format("the exhaustive {} finds no {} tour from square {}", search, j.closed() ? "closed" : "open", from);
  }

  // One tour by the Warnsdorff heuristics. When it fails: chosen automatically, it hands
  // over (false); named, a LimitError (not a proof).
  bool tour_warnsdorff(const Job& j, const search::Limits& lim) const {
    const std::int64_t from = q_.from;
    if (tour_proved_none(j, from)) return true;
    WarnsdorffStats st;
    auto tour = warnsdorff_tour(board_, from, j.closed(), lim, &st);
    j.r.nodes += st.steps;
    if (tour) {
      j.keys.method = "warnsdorff (" + st.method + ")";
      j.keys.rotations = st.rotations;
      report_tour(j.r, *tour, from, j.closed());
      return true;
    }
    if (!j.automatic)
      throw LimitError(fmt::format(
          "the Warnsdorff heuristics found no tour from square {} after {} runs; that does not prove that none "
          "exists (try --algorithm dp or dfs)",
          from, st.attempts));
    j.gave_up = fmt::format(
        "the heuristics found no tour from square {}, and a board of {} squares is too large for an "
        "exhaustive search: not proved that none exists",
        from, board_.squares());
    return false;
  }

  // One tour, or a proof that none exists, by the frontier dp.
  bool tour_dp(const Job& j, const search::Limits& lim) const {
    const std::int64_t from = q_.from;
    if (tour_proved_none(j, from)) return true;
    need_lists(lim, "an exhaustive search");
    NarrowGraph g = narrow_graph(board_);
    graph::FrontierStats st;
    auto found = graph::find_hamiltonian(g.adj, {j.closed(), g.pos_of[from]}, lim, &st);
    j.r.nodes += st.states;
    j.keys.method = "frontier dp (exhaustive)";
    if (!found) {
      j.r.solvable = false;
      j.r.reason =
          fmt::format("the exhaustive count finds no {} tour from square {}", j.closed() ? "closed" : "open", from);
      return true;
    }
    std::vector<std::int32_t> tour;
    for (int p : *found) tour.push_back(g.square_at[p]);
    report_tour(j.r, tour, from, j.closed());
    return true;
  }

  // One tour, or a proof that none exists, by backtracking in the board's own numbering
  // (within kDfsBudget steps when chosen automatically).
  bool tour_dfs(const Job& j, const search::Limits& lim) const {
    const std::int64_t from = q_.from;
    if (tour_proved_none(j, from)) return true;
    need_lists(lim, "an exhaustive search");
    const graph::AdjacencyGraph adj(board_.adjacency());
    std::vector<std::int64_t> tie(board_.squares());
    for (std::int64_t s = 0; s < board_.squares(); ++s) {
      const std::int64_t dr = 2 * board_.row(s) - (board_.rows() - 1), dc = 2 * board_.col(s) - (board_.cols() - 1);
      tie[s] = dr * dr + dc * dc;
    }
    graph::DfsOptions d;
    d.closed = j.closed();
    d.start = static_cast<int>(from);
    d.tie = &tie;
    if (j.automatic) d.max_nodes = kDfsBudget;
    std::vector<std::int32_t> tour;
    auto res = graph::hamiltonian_dfs(
        adj, d,
        [&](const std::vector<int>& p) {
          tour.assign(p.begin(), p.end());
          return false;
        },
        lim);
    j.r.nodes += res.nodes;
    j.keys.method = kBacktracking;
    if (!tour.empty()) {
      report_tour(j.r, tour, from, j.closed());
      return true;
    }
    if (res.exhausted) {
      no_tour_found(j, from, "search");
      return true;
    }
    j.gave_up = fmt::format(
        "no tour found from square {} by the heuristics or {} backtracking steps; not proved that none exists (try "
        "--algorithm dfs with a --timeout)",
        from, res.nodes);
    return false;
  }

  // Every tour from the first square, by backtracking.
  bool all(const Job& j, const search::Limits& lim) const {
    SolveReport& r = j.r;
    const std::int64_t from = q_.from;
    json sols = json::array();
    std::uint64_t count = 0;
    if (tour_proved_none(j, from)) {
      r.solutions = sols;
      r.count = 0;
      return true;
    }
    j.keys.method = kBacktracking;
    need_lists(lim, "listing every tour");
    const graph::AdjacencyGraph adj(board_.adjacency());
    graph::DfsOptions d;
    d.closed = j.closed();
    d.start = static_cast<int>(from);
    const std::uint64_t per_tour = static_cast<std::uint64_t>(board_.squares()) * 24 + 64;
    std::vector<std::int32_t> first;
    auto res = graph::hamiltonian_dfs(
        adj, d,
        [&](const std::vector<int>& p) {
          std::vector<std::int32_t> tour(p.begin(), p.end());
          verify_tour(board_, tour, from, j.closed());
          if ((count + 1) * per_tour > lim.memory)
            throw LimitError(fmt::format("--all: more than {} tours do not fit the memory budget", count));
          if (first.empty()) first = tour;
          sols.push_back(json(tour));
          ++count;
          return true;
        },
        lim);
    r.nodes = res.nodes;
    r.solutions = sols;
    r.count = count;
    if (count == 0) {
      no_tour_found(j, from, "search");
      return true;
    }
    report_tour(r, first, from, j.closed());
    return true;
  }

  // How many tours: directed open tours from --from (or from every square), or closed
  // tours counted once each. The first square (-1: every one), the goal, and whether a
  // counting argument already settles the count at 0 (then reported).
  std::int64_t count_setup(const Job& j) const {
    SolveReport& r = j.r;
    const bool given = q_.from_given;
    const std::int64_t from = given ? q_.from : -1;
    r.start = given ? std::to_string(from) : "";
    r.goal = j.closed() ? "closed tours" : "open tours";
    r.solution = std::make_shared<TourAnswer>(std::vector<std::int64_t>{}, j.closed(),
                                              given ? std::optional<std::int64_t>(from) : std::nullopt);
    r.length.reset();
    return from;
  }
  bool count_proved_none(const Job& j, std::int64_t from) const {
    auto why = no_tour_reason(board_, from, j.closed(), &j.o.deadline);
    if (!why) return false;
    j.keys.method = "counting argument";
    j.r.reason = *why;
    report_count(j, from, 0);
    return true;
  }
  // The count from the number of paths (open; each once) or cycles (closed).
  void report_count(const Job& j, std::int64_t from, const mpz_class& undirected) const {
    SolveReport& r = j.r;
    const std::int64_t n = board_.squares();
    const bool given = from >= 0;
    mpz_class total;
    if (j.closed()) {
      total = undirected;
      j.keys.directed_from_a_square = count_json(2 * undirected);
    } else if (given || n == 1) {
      total = undirected;
    } else {
      total = 2 * undirected;
      j.keys.undirected = count_json(undirected);
    }
    r.count = count_json(total);
    if (j.closed()) j.keys.counted = "closed tours, each cycle once (either direction, any first square)";
    else if (given) j.keys.counted = fmt::format("directed open tours from square {}", from);
    else j.keys.counted = "directed open tours from every square (each path twice, once from each end)";
    r.solvable = total != 0;
    if (!r.solvable && r.reason.empty()) r.reason = "the exhaustive count is 0";
  }

  // Counting by backtracking (few steps per tour: it wins while the count is small), split
  // over first squares up to symmetry and run in parallel; chosen automatically, within
  // kCountDfsBudget steps.
  bool count_dfs(const Job& j, const search::Limits& lim) const {
    const std::int64_t from = count_setup(j);
    if (count_proved_none(j, from)) return true;
    need_lists(lim, "counting");
    // Under mpirun every rank searches alone (no sharing) and the ranks agree on the outcome
    // before any goes on: a rank that gave up or met the deadline makes them all do so, so
    // none is left waiting in the split count's collectives.
    Cluster* const ranks = lim.cluster && lim.cluster->size() > 1 ? lim.cluster : nullptr;
    search::Limits alone = lim;
    alone.cluster = nullptr;
    graph::DfsCount res;
    std::uint64_t outcome[2] = {0, 0};  // gave up, stopped by a limit
    try {
      res = graph::count_hamiltonian_dfs(graph::AdjacencyGraph(board_.adjacency()), symmetry_classes(board_),
                                         static_cast<int>(from), j.closed(), j.automatic ? kCountDfsBudget : UINT64_MAX,
                                         alone);
      outcome[0] = res.complete ? 0 : 1;
    } catch (const LimitError&) {
      if (!ranks) throw;
      outcome[1] = 1;
    }
    if (ranks) {
      ranks->sum(outcome);
      if (outcome[1])
        throw LimitError(j.o.deadline.expired() ? j.o.deadline.message() : "time limit reached (--timeout)");
      res.complete = outcome[0] == 0;
    }
    j.r.nodes += res.nodes;
    j.keys.tasks = res.tasks;
    j.keys.method = "backtracking (dead-end pruning), first squares up to symmetry, parallel";
    if (!res.complete) {
      j.gave_up = fmt::format("counting by backtracking gave up after {} steps", res.nodes);
      return false;
    }
    const bool twice = j.closed() || (from < 0 && board_.squares() > 1);  // each path or cycle found from both ends
    report_count(j, from, twice ? mpz_class(res.count / 2) : res.count);
    return true;
  }

  // Counting by the frontier dp (its work depends on the board's width, not on the count).
  bool count_dp(const Job& j, const search::Limits& lim) const {
    const std::int64_t from = count_setup(j);
    if (count_proved_none(j, from)) return true;
    need_lists(lim, "counting");
    // Boards 7 or more wide: the split count (its states take 16 bytes; on 7x8 closed it needs
    // a quarter of the dp's memory and about half its time, on 6x7 open a tenth and a fifth),
    // which refuses before starting what cannot fit; and every board under mpirun with more
    // than one rank (the split count is the one the ranks share).
    const int w = min_side();
    if (w >= 7 || (lim.cluster && lim.cluster->size() > 1)) return count_split(j, lim);
    NarrowGraph g = narrow_graph(board_);
    const int endpoint = from >= 0 && !j.closed() ? g.pos_of[from] : -1;
    auto st = graph::count_hamiltonian(g.adj, {j.closed(), endpoint}, lim);
    j.keys.method = !j.keys.tasks
                        ? std::string("frontier dp (exact count)")
                        : fmt::format("frontier dp (exact count; backtracking gave up after {} steps)", j.r.nodes);
    j.r.nodes += st.states;
    j.keys.frontier = st.frontier;
    j.keys.widest_step = st.widest;
    j.r.table_bytes = st.table_bytes;
    report_count(j, from, st.count);
    return true;
  }

  // Tours by the split frontier count (src/knights/tour_count.cpp): closed tours as cycles,
  // open ones as the cycles through a hub joined to every square.
  bool count_split(const Job& j, const search::Limits& lim) const {
    const std::int64_t from = count_setup(j);
    if (count_proved_none(j, from)) return true;
    need_lists(lim, "counting");
    const int w = min_side();
    const int ranks = lim.cluster ? std::max(1, lim.cluster->size()) : 1;
    if (ranks > 1 && !q_.checkpoint.empty()) throw InputError(split_checkpoint_refusal(ranks));
    SplitCountOptions so;
    so.row_width = w;
    so.checkpoint = q_.checkpoint;
    if (w >= 7) {
      const std::string what = fmt::format(
          "counting {} tours of a board {} squares wide by the split frontier dp (estimate{})",
          j.closed() ? "closed" : "open", w, ranks > 1 ? fmt::format(", each of {} ranks", ranks) : std::string());
      if (so.checkpoint.empty()) {
        const std::uint64_t need = split_count_bytes(split_widest(w, j.closed()), lim.threads, ranks);
        if (need > lim.memory)
          throw MemoryRefused(fmt::format("{} needs {} but the memory budget is {} (--memory); {}", what,
                                          format_size(need), format_size(lim.memory),
                                          ranks > 1 ? "more ranks share the layers in smaller shares"
                                                    : "--checkpoint DIR keeps what does not fit on disk"));
      } else {
        // With a directory the layers beyond 80% of the budget go to disk: memory and disk.
        const SplitNeed need = split_count_need(split_widest(w, j.closed()), lim.threads, lim.memory);
        require_memory(need.memory, lim.memory, what);
        std::error_code ec;
        std::filesystem::create_directories(so.checkpoint, ec);
        const auto space = std::filesystem::space(so.checkpoint, ec);
        if (!ec && space.available < need.disk)
          throw InputError(fmt::format("{} needs {} of disk in {} but {} are free", what, format_size(need.disk),
                                       so.checkpoint, format_size(space.available)));
      }
    }
    NarrowGraph g = narrow_graph(board_);
    const SplitCountStats st = j.closed() ? count_cycles_split(g.adj, lim, so)
                                          : count_paths_split(g.adj, from >= 0 ? g.pos_of[from] : -1, lim, so);
    j.keys.method =
        !j.keys.tasks ? std::string("split frontier dp (exact count)")
                      : fmt::format("split frontier dp (exact count; backtracking gave up after {} steps)", j.r.nodes);
    j.r.nodes += st.states;
    j.keys.frontier = st.frontier;
    j.keys.widest_step = st.widest;
    j.keys.parts = st.parts;
    j.keys.largest_part = st.largest_part;
    if (st.resumed_at >= 0) j.keys.resumed_at_square = st.resumed_at;
    j.r.table_bytes = st.peak_bytes;
    report_count(j, from, st.count);
    return true;
  }

 private:
  const Board& board_;
  const TourRequest& q_;
};

}  // namespace

SolveReport solve_tour(const Board& board, const TourRequest& q, const Options& o) {
  return TourSolver(board, q).solve(o);
}

std::vector<SolverSpec> tour_solvers() { return solver_specs(TourSolver::solvers()); }

}  // namespace tansaku::knights
