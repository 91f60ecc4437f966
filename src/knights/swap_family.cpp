// knight-swap:RxC — exchange armies of knights: the shortest solution (bidirectional BFS
// by default; IDA* for --all / --count), or a proof that the goal cannot be reached;
// explore = every position reachable, by distance.
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "knights/board.h"
#include "knights/draw.h"
#include "knights/swap_domain.h"
#include "knights/tour_analysis.h"
#include "tansaku/core/count.h"
#include "tansaku/core/error.h"
#include "tansaku/core/memory.h"
#include "tansaku/core/random.h"
#include "tansaku/core/tokens.h"
#include "tansaku/puzzles/knights.h"
#include "tansaku/puzzles/path_report.h"
#include "tansaku/puzzles/solution.h"
#include "tansaku/puzzles/solver_table.h"
#include "tansaku/search/explore.h"
#include "tansaku/search/ida_star_tt.h"
#include "tansaku/search/shortest_paths.h"

namespace tansaku::knights {
namespace {

bool numeric(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}
// "00" and "." are the empty square "0"; "01" is "1".
std::string canonical_label(const std::string& t) {
  if (t == ".") return "0";
  if (!numeric(t)) return t;
  auto p = t.find_first_not_of('0');
  return p == std::string::npos ? "0" : t.substr(p);
}
bool label_less(const std::string& a, const std::string& b) {
  if (numeric(a) && numeric(b) && a.size() != b.size()) return a.size() < b.size();
  return a < b;
}

struct Instance {
  Armies armies;
  Cells start, goal;
  bool has_start = false;
};

class SwapPuzzle final : public Puzzle {
 public:
  SwapPuzzle(std::string name, int rows, int cols, std::string def_start, std::string def_goal)
      : name_(std::move(name)), board_(rows, cols), def_start_(std::move(def_start)), def_goal_(std::move(def_goal)) {}
  std::string name() const override { return name_; }

  ShowReport show(const Options& o) const override {
    Instance inst = instance(o, false);
    ShowReport r;
    const std::string states = arrangements(inst.armies);
    r.info = {{"puzzle", name_}, {"rows", board_.rows()}, {"cols", board_.cols()}, {"squares", board_.squares()},
              {"goal", format(inst.armies, inst.goal)}, {"states", states}};
    if (inst.has_start) r.info["start"] = format(inst.armies, inst.start);
    json adj = json::array();
    for (const auto& a : board_.adjacency()) adj.push_back(a);
    r.info["adjacency"] = adj;
    r.text = fmt::format(
        "{}: {} rows x {} columns; a knight moves to an empty square a knight's move away (0 = empty).\n", name_,
        board_.rows(), board_.cols());
    r.text += "squares:\n" + board_.numbering();
    r.text += "knight's moves:\n";
    auto lists = board_.adjacency();
    for (std::size_t s = 0; s < lists.size(); ++s) {
      std::vector<std::string> t;
      for (int x : lists[s]) t.push_back(std::to_string(x));
      r.text += fmt::format("  {:>2}: {}\n", s, join(t));
    }
    if (inst.has_start) r.text += "start:\n" + picture(inst.armies, inst.start);
    r.text += "goal:\n" + picture(inst.armies, inst.goal);
    r.text += fmt::format("arrangements of these pieces: {}\n", states);
    return r;
  }

  SolveReport solve(const Options& o) const override {
    Instance inst = instance(o, true);
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
    for (const auto& p : sol.positions()) r.text += "  " + format(inst.armies, p) + "\n";
    return r;
  }

  // Uniform over the arrangements from which the goal (the variant's, or --goal) can be
  // reached: every arrangement reachable from the goal (moves are reversible) is marked by the
  // engine's explore (its distances mod 3: 3 for an unreached rank), the reached ranks listed
  // in ascending order, then `count` of them drawn uniformly. Solve them with the same --goal
  // (without it, solve exchanges the start's armies).
  std::vector<std::string> random(const Options& o, std::uint64_t seed, std::size_t count) const override {
    Options g = o;
    g.start.reset();
    const Instance inst = instance(g, /*need_start=*/false);
    SwapDomain d(board_, inst.armies, inst.goal);
    const std::uint64_t size = d.size();
    if (size == 0) throw InputError(fmt::format("the arrangements of {} do not fit a 64-bit rank", name_));
    // The two 2-bit tables, and the reached ranks (at most all of them).
    require_memory(size / 2 + 8 * size, o.memory, fmt::format("listing the arrangements reachable on {}", name_));
    // The lines kept until printed, beside that list.
    require_memory(
        size / 2 + 8 * size + static_cast<std::uint64_t>(count) * (96 + 4 * static_cast<std::uint64_t>(d.squares())),
        o.memory, "the random positions");
    const std::uint64_t src = d.rank(d.goal());
    auto lim = o.limits();
    lim.spill.clear();  // the distances stay in memory
    if (lim.cluster && lim.cluster->size() > 1) lim.cluster = nullptr;
    const auto res = search::explore(d, std::span<const std::uint64_t>(&src, 1), 0, lim, /*keep_distances=*/true);
    std::vector<std::uint64_t> reached;  // ascending: independent of the search order
    reached.reserve(res.states);
    for (std::uint64_t r = 0; r < size; ++r) {
      o.deadline.poll();
      if (res.distances->get(r) != 3) reached.push_back(r);
    }
    SplitMix64 rng{seed};
    std::vector<std::string> out;
    for (std::size_t k = 0; k < count; ++k) {
      o.deadline.check();
      out.push_back(format(inst.armies, d.cells_of(d.unrank(reached[rng.uniform(reached.size())]))));
    }
    return out;
  }

  ExploreReport explore(const Options& o) const override { return explore_by_table(explore_table(), *this, o); }

  // One explore: the engine's layered BFS over the ranked arrangements (search/explore.h).
  static const ExploreTable<SwapPuzzle>& explore_table() {
    static const auto t = one_explore<SwapPuzzle>(
        bfs_explore("breadth-first layers over every arrangement's rank (2 bits each)"), &SwapPuzzle::explore_bfs);
    return t;
  }

  ExploreReport explore_bfs(const Options& o, const search::Limits& lim) const {
    const std::string from = o.origin().value_or(def_goal_);
    if (from.empty()) throw InputError(fmt::format("{} has no default position: give --from", name_));
    const auto tokens = tokens_of(from, "from position");
    Armies armies = make_armies(tokens);
    Cells cells = parse(armies, from, "from position");
    SwapDomain d(board_, armies, cells);
    if (d.size() == 0) throw InputError(fmt::format("the state space of {} is too large to enumerate", name_));
    const std::uint64_t src = d.rank(d.make(cells));
    auto res = search::explore(d, std::span<const std::uint64_t>(&src, 1), o.farthest, lim);
    ExploreReport r;
    r.from = format(armies, cells);
    r.states = res.states;
    r.depth = res.depth;
    r.histogram = res.histogram;
    r.farthest_count = res.farthest_count;
    for (auto f : res.farthest) r.farthest.push_back(format(armies, d.cells_of(d.unrank(f))));
    r.extra["arrangements"] = d.size();
    r.nodes = res.stats.expanded;
    r.table_bytes = res.table_bytes;
    return r;
  }

  // Pictures: src/knights/draw.cpp (armies numbered as solve numbers them: from the goal).
  std::string draw(const Options& o) const override {
    const Instance inst = instance(o, false);
    return draw_swap_position(board_, inst.armies, inst.has_start ? inst.start : inst.goal);
  }
  Drawing draw_solution(const Options&, const SolveReport& r) const override { return draw_solution_of<SwapRules>(r); }
  std::string draw_state(const Options&, const std::string& state) const override {
    const Armies a = make_armies(tokens_of(state, "state"));
    return draw_swap_position(board_, a, parse(a, state, "state"));
  }

  // Play: a knight to an empty square a knight's move away (the move [from, to]; a click on
  // the knight, then on the square, makes it).
  std::optional<Play> play(const Options& o, const std::string& state) const override {
    const Instance inst = instance(o, false);
    const Cells b = state.empty() ? (inst.has_start ? inst.start : inst.goal) : parse(inst.armies, state, "position");
    SwapDomain d(board_, inst.armies, inst.goal);
    Play p;
    p.state = format(inst.armies, b);
    p.goal = b == inst.goal;
    d.for_each_move(d.make(b), [&](const SwapMove& m, const SwapState& next) {
      p.moves.push_back({fmt::format("[{},{}]", m.from, m.to), format(inst.armies, d.cells_of(next)), {m.from, m.to}});
    });
    return p;
  }

 private:
  // The tokens of a position; exit 2 unless there is one per square.
  std::vector<std::string> tokens_of(const std::string& text, const std::string& what) const {
    auto tokens = split_state(text, static_cast<std::size_t>(board_.squares()));
    if (static_cast<std::int64_t>(tokens.size()) != board_.squares())
      throw InputError(fmt::format("{} has {} tokens; a {}x{} board needs {}", what, tokens.size(), board_.rows(),
                                   board_.cols(), board_.squares()));
    return tokens;
  }

  Armies make_armies(const std::vector<std::string>& tokens) const {
    std::map<std::string, int, decltype(&label_less)> count(&label_less);
    for (const auto& t : tokens) ++count[canonical_label(t)];
    Armies a;
    a.names.push_back("0");
    a.counts.push_back(count.count("0") ? count["0"] : 0);
    for (const auto& [name, c] : count)
      if (name != "0") a.names.push_back(name), a.counts.push_back(c);
    return a;
  }

  Cells parse(const Armies& a, const std::string& text, const std::string& what) const {
    const auto tokens = tokens_of(text, what);
    Cells cells(tokens.size());
    std::vector<int> seen(a.names.size(), 0);
    for (std::size_t i = 0; i < tokens.size(); ++i) {
      const std::string t = canonical_label(tokens[i]);
      auto it = std::find(a.names.begin(), a.names.end(), t);
      if (it == a.names.end()) throw InputError(fmt::format("{}: piece '{}' is not in the other position", what, tokens[i]));
      cells[i] = static_cast<std::uint8_t>(it - a.names.begin());
      ++seen[cells[i]];
    }
    for (std::size_t k = 0; k < seen.size(); ++k)
      if (seen[k] != a.counts[k])
        throw InputError(fmt::format("{}: '{}' occurs {} times, but {} times in the other position", what, a.names[k],
                                     seen[k], a.counts[k]));
    return cells;
  }

  // The start with its two armies exchanged (the puzzle's usual goal).
  static std::string exchanged(const std::vector<std::string>& tokens) {
    std::vector<std::string> labels;
    for (const auto& t : tokens) {
      const std::string c = canonical_label(t);
      if (c != "0" && std::find(labels.begin(), labels.end(), c) == labels.end()) labels.push_back(c);
    }
    if (labels.size() != 2) return "";
    std::vector<std::string> out;
    for (const auto& t : tokens) {
      const std::string c = canonical_label(t);
      out.push_back(c == labels[0] ? labels[1] : c == labels[1] ? labels[0] : c);
    }
    return join(out);
  }

  Instance instance(const Options& o, bool need_start) const {
    Instance inst;
    std::string goal = o.goal ? *o.goal : "";
    std::string start = o.start ? *o.start : "";
    if (!o.start && !o.goal) start = def_start_, goal = def_goal_;
    if (o.start && !o.goal) {
      goal = exchanged(tokens_of(start, "start"));
      if (goal.empty()) throw InputError("give --goal: the start does not hold exactly two armies to exchange");
    }
    if (goal.empty()) throw InputError(fmt::format("{} has no default position: give --start and --goal", name_));
    inst.armies = make_armies(tokens_of(goal, "goal"));
    if (inst.armies.names.size() > 64) throw InputError("at most 63 different pieces");
    inst.goal = parse(inst.armies, goal, "goal");
    if (!start.empty()) {
      inst.start = parse(inst.armies, start, "start");
      inst.has_start = true;
    } else if (need_start) {
      throw InputError(fmt::format("{}: give --start", name_));
    }
    return inst;
  }

  std::string format(const Armies& a, const Cells& cells) const {
    std::vector<std::string> t;
    for (auto c : cells) t.push_back(a.names[c]);
    return join(t);
  }
  std::string picture(const Armies& a, const Cells& cells) const {
    std::vector<std::string> t;
    for (auto c : cells) t.push_back(c ? a.names[c] : ".");
    return board_.picture(t);
  }
  static std::string arrangements(const Armies& a) { return to_string(arrangement_count(a)); }
  static mpz_class arrangement_count(const Armies& a) {
    mpz_class total = 1, b;
    unsigned long left = 0;
    for (int c : a.counts) left += static_cast<unsigned long>(c);
    for (int c : a.counts) {  // the multinomial, one binomial C(left, c) at a time
      mpz_bin_uiui(b.get_mpz_t(), left, static_cast<unsigned long>(c));
      total *= b;
      left -= static_cast<unsigned long>(c);
    }
    return total;
  }
  // The breadth-first searches keep every position they reach and may reach them all:
  // refused before they start when the whole space cannot fit the budget (IDA* stores none).
  void require_space(const Armies& a, const std::string& alg, const search::Limits& lim) const {
    const double need = arrangement_count(a).get_d() * static_cast<double>(search::detail::node_bytes<SwapDomain::State>());
    if (need > static_cast<double>(lim.memory))
      throw InputError(fmt::format("{}: {} may store all {} arrangements ({:.3g} bytes), more than the memory budget {} "
                                   "(--memory); --algorithm idastar stores none",
                                   name_, alg == "bfs" ? "breadth-first search" : "bidirectional bfs",
                                   arrangements(a), need, format_size(lim.memory)));
  }

 public:
  // One solve: the puzzle, the armies, the domain, the start, the solution mode.
  struct Job {
    const SwapPuzzle& p;
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
      auto bibfs = entry(bibfs_solver<Job>({"bibfs", {"bidirectional", "bidirectional-bfs", "bi-bfs"},
                                            "bidirectional BFS: the default for one solution"}));
      auto bibfs_run = bibfs.run;
      bibfs.run = [bibfs_run](const Job& j, const search::Limits& lim) {
        j.p.require_space(j.armies, "bibfs", lim);
        return bibfs_run(j, lim);
      };
      Table::value_type bfs{{"bfs", {"breadth-first"}, "BFS counting shortest paths per state: the default for --all and --count",
                             kSolve, /*all=*/true, /*count=*/true},
                            nullptr, nullptr, [](const Job& j, const search::Limits& lim) {
                              j.p.require_space(j.armies, "bfs", lim);
                              if (j.ida.mode == search::SolutionMode::First) return Found{search::bfs(j.d, j.start, lim), ""};
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
  std::string name_;
  Board board_;
  std::string def_start_, def_goal_;
};

// Default instance of an R x C board: one army on the first row, the other on the last.
std::pair<std::string, std::string> rows_instance(int rows, int cols) {
  if (rows < 2) return {"", ""};
  std::vector<std::string> s, g;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      const bool top = r == 0, bottom = r == rows - 1;
      s.push_back(top ? "1" : bottom ? "2" : "0");
      g.push_back(top ? "2" : bottom ? "1" : "0");
    }
  return {join(s), join(g)};
}

std::unique_ptr<Puzzle> make(const std::string& variant, const Options&) {
  if (variant == "guarini")  // Guarini (1512): white knights on the top corners, black on the bottom ones
    return std::make_unique<SwapPuzzle>("knight-swap:guarini", 3, 3, "1 0 1 0 0 0 2 0 2", "2 0 2 0 0 0 1 0 1");
  auto [rows, cols] = variant.empty() ? std::pair<int, int>{4, 3} : parse_dims(variant, "knight-swap size");
  if (rows < 1 || cols < 1)
    throw InputError(fmt::format("knight-swap:{}: a board needs at least 1 row and 1 column", variant));
  if (static_cast<std::int64_t>(rows) * cols > 64)
    throw InputError(fmt::format("knight-swap:{}: at most 64 squares are supported", variant));
  auto [s, g] = rows_instance(rows, cols);
  return std::make_unique<SwapPuzzle>(fmt::format("knight-swap:{}x{}", rows, cols), rows, cols, s, g);
}

}  // namespace

Family swap_family() {
  Family f;
  f.prefix = "knight-swap";
  f.summary = "exchange armies of knights on an R x C board (up to 64 squares); any pieces via --start/--goal";
  f.builtins = {
      {"knight-swap:4x3",
       "4 rows x 3 columns, armies 1 1 1 and 2 2 2 exchanged in 16 moves (from M. Hiroi's Common Lisp puzzles)"},
      {"knight-swap:guarini", "Guarini's problem (1512): 3x3, knights on the corners exchanged (16 moves)"},
      {"knight-swap:RxC", "first row against last row, or any --start/--goal"}};
  f.aliases = {{"guarini", "knight-swap:guarini"}};
  f.options = {opt::start(), opt::goal(kAllCommands, "goal position (explore: the source when --from is not given)"),
               opt::from(), opt::all(), opt::count(), opt::farthest(), opt::spill()};
  for (auto& s : opt::heuristic_search()) f.options.push_back(std::move(s));  // --weight, --beam-width

  f.solvers = merge_specs(solver_specs(SwapPuzzle::solvers()), solver_specs(SwapPuzzle::explore_table()));
  f.notation =
      "a position is one token per square in row-major order: 0 empty, any other label a knight of that army,\n"
      "  e.g. --start \"1 1 1 0 0 0 0 0 0 2 2 2\" (4 rows x 3 columns)";
  f.examples = {"tansaku solve knight-swap:4x3", "tansaku solve guarini --count", "tansaku explore knight-swap:4x3"};
  f.bench = {{kSolve, "knight-swap:4x3", "", "bibfs"}, {kExplore, "knight-swap:4x3", "", ""}};
  f.make = make;
  return f;
}

}  // namespace tansaku::knights
