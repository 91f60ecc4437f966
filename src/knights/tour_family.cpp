// knight-tour:RxC — a tour from a square (open or --closed), all of them (--all), how many
// (--count), or a proof that there is none; explore = knight distances from a square.
#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "knights/board.h"
#include "knights/draw.h"
#include "knights/tour_analysis.h"
#include "knights/tour_verify.h"
#include "knights/warnsdorff.h"
#include "tansaku/core/count.h"
#include "tansaku/core/error.h"
#include "tansaku/core/memory.h"
#include "tansaku/core/tokens.h"
#include "tansaku/graph/frontier_dp.h"
#include "tansaku/graph/hamiltonian_search.h"
#include "tansaku/puzzles/knights.h"
#include "tansaku/puzzles/solver_table.h"

namespace tansaku::knights {
namespace {

// Boards with at most this many squares get adjacency lists and exhaustive searches.
constexpr std::int64_t kListLimit = 1 << 20;
// Backtracking budget of the default solver after the heuristics and the frontier DP.
constexpr std::uint64_t kDfsBudget = 20'000'000;
// Backtracking budget of the default count before it hands over to the frontier dp.
constexpr std::uint64_t kCountDfsBudget = 60'000'000;

// Memory the counting dp is expected to need on a board `w` squares wide (its narrow side):
// the widest step's states, measured on 7-wide boards (7x8 closed 22.5 M, 7x7 open 214 M;
// open tours of an odd board, whose ends are both of the majority colour, have about half
// the states of an even one) and about 24 times more for each further square of width (6x8
// closed 0.94 M), times the peak resident bytes per widest-step state measured on 7x7 (91:
// two tables of 16-byte slots, sized ahead with room to grow; 24-byte slots beyond 16
// frontier squares).
std::uint64_t count_memory_estimate(int w, bool closed, bool odd) {
  double widest = closed ? 22.5e6 : odd ? 214e6 : 445e6;
  for (int i = 7; i < w; ++i) widest *= 24;
  for (int i = w; i < 7; ++i) widest /= 24;
  const double per_state = w >= 8 ? 136.0 : 91.0;
  return static_cast<std::uint64_t>(std::min(widest * per_state, 1e19));
}

// Boards up to this many squares get a picture of the tour.
constexpr std::int64_t kPictureLimit = 900;

class TourPuzzle final : public Puzzle {
 public:
  TourPuzzle(std::string name, int rows, int cols) : name_(std::move(name)), board_(rows, cols) {}
  std::string name() const override { return name_; }

  ShowReport show(const Options& o) const override {
    ShowReport r;
    const std::int64_t n = board_.squares();
    r.info = {{"puzzle", name_}, {"rows", board_.rows()}, {"cols", board_.cols()}, {"squares", n},
              {"from", first_square(o)}};
    r.text = fmt::format("{}: {} rows x {} columns; the knight visits every square once{}.\n", name_, board_.rows(),
                         board_.cols(), o.flag("closed") ? " and returns to its first square" : "");
    if (n <= kPictureLimit) {
      r.text += "squares:\n" + board_.numbering();
      std::vector<std::string> degs(n);
      for (std::int64_t s = 0; s < n; ++s) degs[s] = std::to_string(board_.degree(s));
      r.text += "knight's moves from each square:\n" + board_.picture(degs);
    }
    r.text += fmt::format("first square: {} (--from SQ, default 0); squares 0..{} row-major\n", first_square(o), n - 1);
    if (n <= kListLimit)
      if (auto why = no_tour_reason(board_, from_given(o) ? first_square(o) : -1, o.flag("closed"), &o.deadline)) {
        r.info["no_tour"] = *why;
        r.text += "no tour: " + *why + "\n";
      }
    return r;
  }

  SolveReport solve(const Options& o) const override {
    Stopwatch sw;
    SolveReport r;
    r.puzzle = name_;
    r.extra["rows"] = board_.rows();
    r.extra["cols"] = board_.cols();
    r.extra["closed"] = o.flag("closed");
    // Distances, the walk and the printed tour take a few dozen bytes a square; the report as
    // JSON (a json value a move, then its text) about twice that (measured: 41 and 76 bytes).
    require_memory(static_cast<std::uint64_t>(board_.squares()) * (o.json ? 96 : 48), o.memory,
                   fmt::format("a board of {} squares", board_.squares()));
    const Job job{*this, o, r, o.algorithm.empty()};
    choose(solvers(), o.algorithm, job).run(job, limits(o, nullptr));
    r.seconds = sw.seconds();
    return r;
  }

  // One solve as the solver table sees it; `automatic`: no --algorithm was named, so a
  // solver may give up within a budget and hand over to the next (one tour: the heuristic,
  // then the frontier dp where it fits, else backtracking within kDfsBudget steps; --count:
  // backtracking within kCountDfsBudget steps on boards at least 5 wide, then the dp).
  struct Job {
    const TourPuzzle& p;
    const Options& o;
    SolveReport& r;
    bool automatic;
  };
  enum class Method { Warnsdorff, Dfs, Dp };
  static const SolverTable<Job, void>& solvers() {
    static const SolverTable<Job, void> table = {
        {{"warnsdorff", {"heuristic"}, "Warnsdorff's rule with tie-breaking and Posa rotations: one tour, any size (default)"},
         [](const Job& j) -> std::string {
           if (j.o.all) return "--all lists tours by backtracking: use --algorithm dfs or none";
           if (j.o.count) return "--count uses --algorithm dfs or dp (default: backtracking first, then the frontier dp)";
           return "";
         },
         nullptr, [](const Job& j, const search::Limits&) { j.p.one(j.o, Method::Warnsdorff, j.automatic, j.r); }},
        {{"dfs", {"backtrack", "backtracking"}, "backtracking in Warnsdorff order with dead-end pruning (--all, --count)"},
         nullptr,
         [](const Job& j) { return j.o.all || (j.o.count && std::min(j.p.board_.rows(), j.p.board_.cols()) >= 5); },
         [](const Job& j, const search::Limits&) {
           if (j.o.count) j.p.count(j.o, Method::Dfs, j.automatic, j.r);
           else if (j.o.all) j.p.all(j.o, j.r);
           else j.p.one(j.o, Method::Dfs, j.automatic, j.r);
         }},
        {{"dp", {"frontier", "frontier-dp"}, "frontier dynamic programming over the board's columns: exact --count"},
         [](const Job& j) -> std::string { return j.o.all ? "--all lists tours by backtracking: use --algorithm dfs or none" : ""; },
         nullptr,
         [](const Job& j, const search::Limits&) {
           if (j.o.count) j.p.count(j.o, Method::Dp, j.automatic, j.r);
           else j.p.one(j.o, Method::Dp, j.automatic, j.r);
         }},
    };
    return table;
  }

  ExploreReport explore(const Options& o) const override {
    Stopwatch sw;
    require_memory(static_cast<std::uint64_t>(board_.squares()) * 12, o.memory, "the distance table");
    const std::int64_t from = first_square(o);
    auto dist = knight_distances(board_, from, &o.deadline);
    ExploreReport r;
    r.puzzle = name_;
    r.from = std::to_string(from);
    for (std::int64_t s = 0; s < board_.squares(); ++s) {
      if (dist[s] < 0) continue;
      if (static_cast<std::size_t>(dist[s]) >= r.histogram.size()) r.histogram.resize(dist[s] + 1, 0);
      ++r.histogram[dist[s]];
      ++r.states;
    }
    r.depth = static_cast<int>(r.histogram.size()) - 1;
    r.farthest_count = r.histogram.back();
    for (std::int64_t s = 0; s < board_.squares() && r.farthest.size() < o.farthest; ++s)
      if (dist[s] == r.depth) r.farthest.push_back(std::to_string(s));
    r.extra["unreachable"] = board_.squares() - static_cast<std::int64_t>(r.states);
    r.extra["nodes"] = r.states;
    if (board_.squares() <= kPictureLimit) {
      std::vector<std::string> cells(board_.squares());
      for (std::int64_t s = 0; s < board_.squares(); ++s) cells[s] = dist[s] < 0 ? "-" : std::to_string(dist[s]);
      r.text = "knight's moves from square " + r.from + " (- = never reached):\n" + board_.picture(cells);
    }
    r.seconds = sw.seconds();
    return r;
  }

  // Pictures: src/knights/draw.cpp.
  std::string draw(const Options& o) const override { return draw_tour_board(board_, first_square(o)); }
  Drawing draw_solution(const Options&, const SolveReport& r) const override { return draw_tour_report(board_, r); }
  std::string draw_state(const Options&, const std::string& state) const override {
    return draw_tour_board(board_, board_.parse_square(state, "state"));
  }

 private:
  std::int64_t first_square(const Options& o) const {
    if (o.from && o.start && *o.from != *o.start) throw InputError("--from and --start name different squares");
    if (o.from) return board_.parse_square(*o.from, "--from");
    if (o.start) return board_.parse_square(*o.start, "--start");
    return 0;
  }
  bool from_given(const Options& o) const { return o.from.has_value() || o.start.has_value(); }

  void need_lists(const Options& o, const char* what) const {
    if (board_.squares() > kListLimit)
      throw InputError(fmt::format("{} of a board with {} squares is out of reach (at most {} squares)", what,
                                   board_.squares(), kListLimit));
    require_memory(static_cast<std::uint64_t>(board_.squares()) * 96, o.memory, "the knight's graph");
  }

  search::Limits limits(const Options& o, Progress* progress) const {
    search::Limits l;
    l.threads = o.threads;
    l.memory = o.memory;
    l.deadline = &o.deadline;
    l.progress = progress;
    return l;
  }

  void report_tour(SolveReport& r, const std::vector<std::int32_t>& tour, std::int64_t from, bool closed) const {
    verify_tour(board_, tour, from, closed);  // throws: never prints a wrong tour
    r.length = static_cast<std::int64_t>(tour.size());
    r.moves = json::array();
    for (auto s : tour) r.moves.push_back(s);
    if (board_.squares() <= kPictureLimit) {
      std::vector<std::string> cells(board_.squares());
      for (std::size_t i = 0; i < tour.size(); ++i) cells[tour[i]] = std::to_string(i);
      r.text = fmt::format("visiting order (0 = first square{}):\n", closed ? ", the last square is a move from it" : "") +
               board_.picture(cells);
    }
  }

  void setup(const Options& o, SolveReport& r, std::int64_t from) const {
    r.start = std::to_string(from);
    r.goal = o.flag("closed") ? fmt::format("every square once, then back to {}", from) : "every square once";
  }

  // One tour, or a proof that none exists from this square.
  void one(const Options& o, Method m, bool automatic, SolveReport& r) const {
    const std::int64_t from = first_square(o);
    setup(o, r, from);
    if (auto why = no_tour_reason(board_, from, o.flag("closed"), &o.deadline)) {
      r.solvable = false;
      r.reason = *why;
      r.algorithm = "counting argument";
      return;
    }
    if (m == Method::Warnsdorff) {
      WarnsdorffStats st;
      auto tour = warnsdorff_tour(board_, from, o.flag("closed"), &o.deadline, &st);
      r.nodes += st.steps;
      if (tour) {
        r.algorithm = "warnsdorff (" + st.method + ")";
        r.extra["rotations"] = st.rotations;
        report_tour(r, *tour, from, o.flag("closed"));
        return;
      }
      if (!automatic)
        throw LimitError(fmt::format(
            "the Warnsdorff heuristics found no tour from square {} after {} runs; that does not prove that none "
            "exists (try --algorithm dp or dfs)",
            from, st.attempts));
    }
    if (board_.squares() > kListLimit)
      throw LimitError(fmt::format("the heuristics found no tour from square {}, and a board of {} squares is too "
                                   "large for an exhaustive search: not proved that none exists",
                                   from, board_.squares()));
    need_lists(o, "an exhaustive search");
    NarrowGraph g = narrow_graph(board_);
    const bool dp_fits = std::min(board_.rows(), board_.cols()) <= 6 && graph::frontier_width(g.adj) <= graph::kMaxFrontier;
    if (m == Method::Dp || (automatic && dp_fits)) {
      Progress progress(o.progress());
      graph::FrontierStats st;
      auto found = graph::find_hamiltonian(g.adj, {o.flag("closed"), g.pos_of[from]}, limits(o, &progress), &st);
      progress.done();
      r.nodes += st.states;
      r.algorithm = "frontier dp (exhaustive)";
      if (!found) {
        r.solvable = false;
        r.reason = fmt::format("the exhaustive count finds no {} tour from square {}", o.flag("closed") ? "closed" : "open", from);
        return;
      }
      std::vector<std::int32_t> tour;
      for (int p : *found) tour.push_back(g.square_at[p]);
      report_tour(r, tour, from, o.flag("closed"));
      return;
    }
    // Backtracking, in the board's own numbering.
    const graph::AdjacencyGraph adj(board_.adjacency());
    std::vector<std::int64_t> tie(board_.squares());
    for (std::int64_t s = 0; s < board_.squares(); ++s) {
      const std::int64_t dr = 2 * board_.row(s) - (board_.rows() - 1), dc = 2 * board_.col(s) - (board_.cols() - 1);
      tie[s] = dr * dr + dc * dc;
    }
    graph::DfsOptions d;
    d.closed = o.flag("closed");
    d.start = static_cast<int>(from);
    d.tie = &tie;
    d.deadline = &o.deadline;
    if (automatic) d.max_nodes = kDfsBudget;
    std::vector<std::int32_t> tour;
    auto res = graph::hamiltonian_dfs(adj, d, [&](const std::vector<int>& p) {
      tour.assign(p.begin(), p.end());
      return false;
    });
    r.nodes += res.nodes;
    r.algorithm = "backtracking (warnsdorff order, dead-end pruning)";
    if (!tour.empty()) {
      report_tour(r, tour, from, o.flag("closed"));
      return;
    }
    if (res.exhausted) {
      r.solvable = false;
      r.reason = fmt::format("the exhaustive search finds no {} tour from square {}", o.flag("closed") ? "closed" : "open", from);
      return;
    }
    throw LimitError(fmt::format(
        "no tour found from square {} by the heuristics or {} backtracking steps; not proved that none exists (try "
        "--algorithm dfs with a --timeout)",
        from, res.nodes));
  }

  // Every tour from the first square, by backtracking.
  void all(const Options& o, SolveReport& r) const {
    const std::int64_t from = first_square(o);
    setup(o, r, from);
    r.algorithm = "backtracking (warnsdorff order, dead-end pruning)";
    json sols = json::array();
    std::uint64_t count = 0;
    if (auto why = no_tour_reason(board_, from, o.flag("closed"), &o.deadline)) {
      r.solvable = false;
      r.reason = *why;
      r.algorithm = "counting argument";
      r.solutions = sols;
      r.count = 0;
      return;
    }
    need_lists(o, "listing every tour");
    const graph::AdjacencyGraph adj(board_.adjacency());
    graph::DfsOptions d;
    d.closed = o.flag("closed");
    d.start = static_cast<int>(from);
    d.deadline = &o.deadline;
    const std::uint64_t per_tour = static_cast<std::uint64_t>(board_.squares()) * 24 + 64;
    std::vector<std::int32_t> first;
    auto res = graph::hamiltonian_dfs(adj, d, [&](const std::vector<int>& p) {
      std::vector<std::int32_t> tour(p.begin(), p.end());
      verify_tour(board_, tour, from, o.flag("closed"));
      if ((count + 1) * per_tour > o.memory)
        throw LimitError(fmt::format("--all: more than {} tours do not fit the memory budget", count));
      if (first.empty()) first = tour;
      sols.push_back(json(tour));
      ++count;
      return true;
    });
    r.nodes = res.nodes;
    r.solutions = sols;
    r.count = count;
    if (count == 0) {
      r.solvable = false;
      r.reason = fmt::format("the exhaustive search finds no {} tour from square {}", o.flag("closed") ? "closed" : "open", from);
      return;
    }
    report_tour(r, first, from, o.flag("closed"));
  }

  // How many tours: directed open tours from --from (or from every square), or closed
  // tours counted once each.
  void count(const Options& o, Method m, bool automatic, SolveReport& r) const {
    const bool given = from_given(o);
    const std::int64_t from = given ? first_square(o) : -1;
    r.start = given ? std::to_string(from) : "";
    r.goal = o.flag("closed") ? "closed tours" : "open tours";
    r.length.reset();
    const std::int64_t n = board_.squares();
    mpz_class undirected = 0;  // open: paths (each once); closed: cycles
    std::string counted;
    if (o.flag("closed")) counted = "closed tours, each cycle once (either direction, any first square)";
    else if (given) counted = fmt::format("directed open tours from square {}", from);
    else counted = "directed open tours from every square (each path twice, once from each end)";
    if (auto why = no_tour_reason(board_, given ? from : -1, o.flag("closed"), &o.deadline)) {
      r.algorithm = "counting argument";
      r.reason = *why;
    } else {
      need_lists(o, "counting");
      // Backtracking costs a few steps per tour, the frontier dp a number of states that
      // depends on the board's width, not on the count: backtracking first (on boards at
      // least 5 wide) within a budget, then the dp.
      bool done = false;
      if (m == Method::Dfs) {
        auto res = graph::count_hamiltonian_dfs(graph::AdjacencyGraph(board_.adjacency()), symmetry_classes(board_),
                                                given ? static_cast<int>(from) : -1, o.flag("closed"),
                                                automatic ? kCountDfsBudget : UINT64_MAX, limits(o, nullptr));
        r.nodes += res.nodes;
        r.extra["tasks"] = res.tasks;
        r.algorithm = "backtracking (dead-end pruning), first squares up to symmetry, parallel";
        if (res.complete) {
          done = true;
          undirected = (o.flag("closed") || (!given && n > 1)) ? mpz_class(res.count / 2) : res.count;
        }
      }
      if (!done) {
        // Refuse before starting what cannot fit (by this estimate 7x7 open needs about
        // 18 GiB, 8x8 closed about 68 GiB).
        const int w = std::min(board_.rows(), board_.cols());
        if (w >= 7)
          require_memory(count_memory_estimate(w, o.flag("closed"), n % 2 == 1), o.memory,
                         fmt::format("counting {} tours of a {}-wide board by the frontier dp (estimate)",
                                     o.flag("closed") ? "closed" : "open", w));
        NarrowGraph g = narrow_graph(board_);
        Progress progress(o.progress());
        const int endpoint = given && !o.flag("closed") ? g.pos_of[from] : -1;
        auto st = graph::count_hamiltonian(g.adj, {o.flag("closed"), endpoint}, limits(o, &progress));
        progress.done();
        r.algorithm = r.algorithm.empty() ? "frontier dp (exact count)"
                                          : fmt::format("frontier dp (exact count; backtracking gave up after {} steps)",
                                                        r.nodes);
        r.nodes += st.states;
        r.extra["frontier"] = st.frontier;
        r.extra["widest_step"] = st.widest;
        r.extra["table_bytes"] = st.table_bytes;
        undirected = st.count;
      }
    }
    mpz_class total;
    if (o.flag("closed")) {
      total = undirected;
      r.extra["directed_from_a_square"] = count_json(2 * undirected);
    } else if (given || n == 1) {
      total = undirected;
    } else {
      total = 2 * undirected;
      r.extra["undirected"] = count_json(undirected);
    }
    r.count = count_json(total);
    r.extra["counted"] = counted;
    r.solvable = total != 0;
    if (!r.solvable && r.reason.empty()) r.reason = "the exhaustive count is 0";
  }

  std::string name_;
  Board board_;
};

std::unique_ptr<Puzzle> make(const std::string& variant, const Options&) {
  auto [rows, cols] = variant.empty() ? std::pair<int, int>{3, 4} : parse_dims(variant, "knight-tour size");
  if (rows < 1 || cols < 1)
    throw InputError(fmt::format("knight-tour:{}: a board needs at least 1 row and 1 column", variant));
  if (static_cast<std::int64_t>(rows) * cols > std::numeric_limits<std::int32_t>::max())
    throw InputError(fmt::format("knight-tour:{}: more than 2^31 squares", variant));
  return std::make_unique<TourPuzzle>(fmt::format("knight-tour:{}x{}", rows, cols), rows, cols);
}

}  // namespace

Family tour_family() {
  Family f;
  f.prefix = "knight-tour";
  f.summary = "knight's tour on an R x C board: find (--closed, --from SQ), list (--all), count (--count)";
  f.builtins = {{"knight-tour:3x4", "knight's tour, 3 rows x 4 columns, from square 0 (seed 002: 2 tours)"},
                {"knight-tour:RxC", "any board; --closed, --from SQ, --count, --all, --algorithm warnsdorff|dfs|dp"}};
  f.options = {opt::from(kAllCommands, "first square of the tour (row-major from 0; default 0)"),
               opt::start(kAllCommands, "the same as --from"), opt::all(), opt::count(), opt::farthest(),
               opt::flag("closed", "the tour returns to its first square", kShow | kSolve)};
  f.solvers = solver_specs(TourPuzzle::solvers());
  f.notation = "a square is its number, row-major from 0 ('tansaku show knight-tour:RxC' prints them), e.g. --from 7";
  f.examples = {"tansaku solve knight-tour:8x8 --closed", "tansaku solve knight-tour:5x5 --count",
                "tansaku solve knight-tour:3x4 --all", "tansaku solve knight-tour:1000x1000 --quiet"};
  f.make = make;
  return f;
}

}  // namespace tansaku::knights
