// knight-swap:RxC — the family's glue: the options and variants, show, random, explore, the
// pictures and play. Positions are read and written by swap_instance.cpp; the shortest
// solution (bidirectional BFS by default; IDA* for --all / --count), or a proof that the
// goal cannot be reached, is swap_solve.cpp's.
#include <fmt/format.h>

#include "knights/board.h"
#include "knights/draw.h"
#include "knights/swap_domain.h"
#include "knights/swap_instance.h"
#include "knights/swap_solve.h"
#include "tansaku/core/count.h"
#include "tansaku/core/error.h"
#include "tansaku/core/memory.h"
#include "tansaku/core/random.h"
#include "tansaku/core/tokens.h"
#include "tansaku/puzzles/explore_report.h"
#include "tansaku/puzzles/knights.h"
#include "tansaku/puzzles/solution.h"
#include "tansaku/puzzles/solver_table.h"
#include "tansaku/search/explore.h"

namespace tansaku::knights {
namespace {

class SwapPuzzle final : public Puzzle {
 public:
  SwapPuzzle(std::string name, int rows, int cols, std::string def_start, std::string def_goal)
      : name_(std::move(name)), board_(rows, cols), def_start_(std::move(def_start)), def_goal_(std::move(def_goal)) {}
  std::string name() const override { return name_; }

  ShowReport show(const Options& o) const override {
    Instance inst = instance(o, false);
    ShowReport r;
    const std::string states = to_string(arrangement_count(inst.armies));
    r.info = {{"puzzle", name_},
              {"rows", board_.rows()},
              {"cols", board_.cols()},
              {"squares", board_.squares()},
              {"goal", format_cells(inst.armies, inst.goal)},
              {"states", states}};
    if (inst.has_start) r.info["start"] = format_cells(inst.armies, inst.start);
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
    if (inst.has_start) r.text += "start:\n" + cells_picture(board_, inst.armies, inst.start);
    r.text += "goal:\n" + cells_picture(board_, inst.armies, inst.goal);
    r.text += fmt::format("arrangements of these pieces: {}\n", states);
    return r;
  }
  SolveReport solve(const Options& o) const override { return solve_swap(board_, name_, instance(o, true), o); }

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
      out.push_back(format_cells(inst.armies, d.cells_of(d.unrank(reached[rng.uniform(reached.size())]))));
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
    const auto tokens = position_tokens(board_, from, "from position");
    Armies armies = make_armies(tokens);
    Cells cells = parse_position(board_, armies, from, "from position");
    SwapDomain d(board_, armies, cells);
    if (d.size() == 0) throw InputError(fmt::format("the state space of {} is too large to enumerate", name_));
    const std::uint64_t src = d.rank(d.make(cells));
    auto res = search::explore(d, std::span<const std::uint64_t>(&src, 1), o.farthest, lim);
    ExploreReport r;
    r.from = format_cells(armies, cells);
    report_layers(
        res, [&](std::uint64_t f) { return format_cells(armies, d.cells_of(d.unrank(f))); }, r);
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
    const Armies a = make_armies(position_tokens(board_, state, "state"));
    return draw_swap_position(board_, a, parse_position(board_, a, state, "state"));
  }

  // Play: a knight to an empty square a knight's move away (the move [from, to]; a click on
  // the knight, then on the square, makes it).
  std::optional<Play> play(const Options& o, const std::string& state) const override {
    const Instance inst = instance(o, false);
    const Cells b = state.empty() ? (inst.has_start ? inst.start : inst.goal)
                                  : parse_position(board_, inst.armies, state, "position");
    SwapDomain d(board_, inst.armies, inst.goal);
    Play p;
    p.state = format_cells(inst.armies, b);
    p.goal = b == inst.goal;
    d.for_each_move(d.make(b), [&](const SwapMove& m, const SwapState& next) {
      p.moves.push_back(
          {fmt::format("[{},{}]", m.from, m.to), format_cells(inst.armies, d.cells_of(next)), {m.from, m.to}});
    });
    return p;
  }

 private:
  Instance instance(const Options& o, bool need_start) const {
    return read_instance(board_, name_, o, need_start, def_start_, def_goal_);
  }

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

std::unique_ptr<Puzzle> make_swap(const std::string& variant, const Options&) {
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

  f.solvers = merge_specs(swap_solvers(), solver_specs(SwapPuzzle::explore_table()));
  f.notation =
      "a position is one token per square in row-major order: 0 empty, any other label a knight of that army,\n"
      "  e.g. --start \"1 1 1 0 0 0 0 0 0 2 2 2\" (4 rows x 3 columns)";
  f.examples = {"tansaku solve knight-swap:4x3", "tansaku solve guarini --count", "tansaku explore knight-swap:4x3"};
  f.bench = {{kSolve, "knight-swap:4x3", "", "bibfs"}, {kExplore, "knight-swap:4x3", "", ""}};
  f.make = make_swap;
  return f;
}

}  // namespace tansaku::knights
