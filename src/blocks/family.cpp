// blocks:* — the command-line face of the sliding-block family: which puzzle (a builtin data
// file or any file), the start/goal/from pictures, --metric and --distinct, and the reports.
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include <fmt/format.h>

#include "blocks/board.h"
#include "blocks/draw.h"
#include "blocks/rules.h"
#include "blocks/solver.h"
#include "tansaku/core/error.h"
#include "tansaku/core/input.h"
#include "tansaku/core/memory.h"
#include "tansaku/puzzles/blocks.h"
#include "tansaku/puzzles/explore_report.h"
#include "tansaku/puzzles/path_report.h"
#include "tansaku/puzzles/report_keys.h"
#include "tansaku/puzzles/solution.h"
#include "tansaku/puzzles/solver_table.h"

namespace tansaku::blocks {
namespace {

// The family's own options (declared in family() below).
struct Settings {
  std::optional<std::string> metric;  // --metric step | line | path
  bool distinct = false;              // --distinct: pieces of one shape are told apart
};

namespace fs = std::filesystem;

std::string data_dir() {
  return shipped_data_dir() + "/blocks";
}

struct BuiltinFile {
  const char* name;
  const char* file;
  const char* summary;
};
constexpr BuiltinFile kBuiltins[] = {
    {"klotski", "klotski.txt", "Hakoiri-musume / Klotski: the 2x2 daughter to the bottom centre (81 moves)"},
    {"pennant", "pennant.txt", "Pennant, sold as Dad's Puzzle: the 2x2 from top left to bottom left (59 moves)"},
    {"ma", "ma.txt", "Ma's Puzzle: join the two L-shaped pieces in the top right corner (23 moves)"},
    {"century", "century.txt", "Conway's Century: the 2x2 to the bottom centre (99 moves)"},
    {"blockado", "blockado.txt", "Blockado: the 2x2 from top left to bottom left of a 4x6 tray"},
};

std::string read_text(const std::string& path) {
  // core/input.h: a regular UTF-8 text file within the default budget's file limit.
  return read_text_file(path, "picture file", 0, nullptr);
}

// A picture option: the contents of a file when one exists at that path, else the text.
// Under the file policy of `tansaku serve` a path outside it is read as text, unprobed (so a
// request learns nothing of the server's files).
std::pair<std::string, std::string> picture_arg(const std::string& value, const std::string& option) {
  std::error_code ec;
  if (file_allowed(value) && fs::is_regular_file(value, ec)) return {read_text(value), value};
  return {value, option};
}


std::string shape_text(const Board& b, int kind) {
  // The shape drawn with '#' in its bounding box, rows joined by '/'.
  const auto& cells = b.kinds[static_cast<std::size_t>(kind)].cells;
  int r0 = 0, r1 = 0, c0 = 0, c1 = 0;
  for (const auto& [r, c] : cells) r0 = std::min(r0, r), r1 = std::max(r1, r), c0 = std::min(c0, c), c1 = std::max(c1, c);
  std::string s;
  for (int r = r0; r <= r1; ++r) {
    if (r != r0) s += '/';
    for (int c = c0; c <= c1; ++c)
      s += std::find(cells.begin(), cells.end(), std::make_pair(r, c)) != cells.end() ? 'X' : '.';
  }
  return s;
}

// The family's own report keys (docs/cli.md): solve's, then explore's.
struct SolveKeys {
  std::string metric;
  bool distinct = false;
};
TANSAKU_REPORT_KEYS(SolveKeys, metric, distinct)
struct ExploreKeys {
  std::string metric;
  bool distinct = false;
  int code_bits = 0;  // bits a position takes
};
TANSAKU_REPORT_KEYS(ExploreKeys, metric, distinct, code_bits)

class BlocksPuzzle final : public Puzzle {
 public:
  BlocksPuzzle(std::string name, Board b) : name_(std::move(name)), b_(std::move(b)) {}
  std::string name() const override { return name_; }

  ShowReport show(const Options& o) const override {
    const Board b = with_goal(o);
    const bool distinct = distinct_of(o);
    const Metric m = metric_of(o);
    const auto start = start_of(o, false);
    const Rules rules(b, m, distinct);
    ShowReport r;
    json kinds = json::array();
    std::string kinds_text;
    for (std::size_t k = 0; k < b.kinds.size(); ++k) {
      std::string labels;
      for (const Piece& p : b.pieces)
        if (p.kind == static_cast<int>(k)) labels += p.label;
      const bool alike = labels.size() > 1 && !distinct;
      kinds.push_back({{"shape", shape_text(b, static_cast<int>(k))},
                       {"cells", b.kinds[k].cells.size()},
                       {"pieces", labels},
                       {"alike", alike}});
      kinds_text += fmt::format("  {:<12} {} cell{}: {}{}\n", shape_text(b, static_cast<int>(k)), b.kinds[k].cells.size(),
                                b.kinds[k].cells.size() == 1 ? "" : "s", labels,
                                alike ? "  (alike: interchangeable)" : "");
    }
    const long double bound = rules.placement_bound();
    const json bound_json = bound < 1.8e19L ? json(static_cast<std::uint64_t>(bound)) : json(fmt::format("{:.3e}", static_cast<double>(bound)));
    r.info = {{"puzzle", name_},
              {"name", b.name},
              {"source", b.source},
              {"rows", b.rows},
              {"cols", b.cols},
              {"walls", std::popcount(b.walls)},
              {"pieces", b.pieces.size()},
              {"kinds", kinds},
              {"metric", metric_name(m)},
              {"distinct", distinct},
              {"start", notation(b, start)},
              {"goal", b.goal.empty() ? json(nullptr) : json(notation(b, b.goal))},
              {"goal_fixes_every_piece", rules.single_goal()},
              {"code_bits", rules.slots() * rules.bits()},
              {"states_upper_bound", bound_json}};
    r.text = fmt::format("{}: {} (from {})\nboard {} rows x {} columns, {} walls; {} pieces; metric {} ({})\n", name_,
                         b.name, b.source, b.rows, b.cols, std::popcount(b.walls), b.pieces.size(), metric_name(m),
                         m == Metric::Step  ? "a move slides one piece one cell"
                         : m == Metric::Line ? "a move slides one piece any distance in a straight line"
                                             : "a move slides one piece any distance along any path of free cells");
    r.text += "start:\n" + render(b, start);
    r.text += b.goal.empty() ? "goal: none (give --goal)\n"
                             : fmt::format("goal{}:\n{}", rules.single_goal() ? "" : " ('.' = no requirement)", render(b, b.goal));
    r.text += fmt::format("pieces by shape{}:\n{}", distinct ? " (--distinct: every piece kept apart)" : "", kinds_text);
    r.text += fmt::format("state code: {} bits; positions of the pieces ignoring overlaps: {}\n",
                          rules.slots() * rules.bits(), bound_json.dump());
    return r;
  }

  SolveReport solve(const Options& o) const override {
    const Board b = with_goal(o);
    if (b.goal.empty()) throw InputError(fmt::format("{} has no 'goal:' picture; give one with --goal", b.source));
    Request q{&b, metric_of(o), distinct_of(o), start_of(o, false), {}};
    q.knobs = ida_options(o);
    Progress progress(o.progress());
    const Want want = o.all ? Want::all : o.want();  // --all also counts
    const Solution s = blocks::solve(q, o.algorithm, want, 10000, o.limits(&progress));
    progress.done();
    SolveReport r;
    tansaku::Solution<GridRules>& sol =
        *typed_solution(GridRules{b, q.metric, q.distinct}, grid(b, q.start), grid(b, b.goal), r);
    r.algorithm = s.algorithm;
    r.nodes = s.nodes;
    put(SolveKeys{metric_name(q.metric), q.distinct}, r.extra);
    if (!s.found) {
      r.solvable = false;
      r.optimal = s.exhausted;
      r.reason = s.exhausted ? "no sequence of moves reaches the goal: every position reachable from the start was searched"
                             : "no solution found within the limits";
      return r;
    }
    r.length = s.length;
    non_optimal_figures(s.optimal, s.bound, s.length, r);
    r.moves = sol.verify(s.moves);
    sol.moves = s.moves;
    if (s.count) r.count = count_json(*s.count);
    if (o.all) {
      json all = json::array();
      for (const auto& sol : s.all) all.push_back(sol);
      r.solutions = all;
    }
    const std::vector<std::string> grids = sol.positions();
    const auto picture = [&](const std::string& g) {  // the rows, one a line
      std::string t = sol.rules.state(g) + "\n";
      std::replace(t.begin(), t.end(), '/', '\n');
      return t;
    };
    r.text = "start:\n" + picture(grids[0]);
    for (std::size_t i = 0; i < s.moves.size(); ++i)
      r.text += fmt::format("move {}: {}\n{}", i + 1, s.moves[i], picture(grids[i + 1]));
    return r;
  }

  ExploreReport explore(const Options& o) const override { return explore_by_table(explore_table(), *this, o); }

  // One explore: breadth-first layers over a hash set of positions (search/explore_states.h).
  static const ExploreTable<BlocksPuzzle>& explore_table() {
    static const auto t = one_explore<BlocksPuzzle>(
        bfs_explore("breadth-first layers over a hash set of positions (frontier search)"), &BlocksPuzzle::explore_bfs);
    return t;
  }

  ExploreReport explore_bfs(const Options& o, const search::Limits& lim) const {
    const Board b = with_goal(o);
    const Request q{&b, metric_of(o), distinct_of(o), start_of(o, true), {}};
    const Exploration e = blocks::explore(q, o.farthest, lim);
    ExploreReport r;
    r.from = notation(b, q.start);
    report_layers(
        e, [&](const auto& f) { return notation(b, f); }, r);
    put(ExploreKeys{metric_name(q.metric), q.distinct, e.code_bits}, r.extra);
    r.nodes = e.nodes;
    r.table_bytes = e.table_bytes;
    r.text = fmt::format("farthest positions ({} moves from the source, {} of {} drawn):\n", e.depth, e.farthest.size(),
                         e.farthest_count);
    for (const auto& f : e.farthest) r.text += render(b, f) + "\n";
    return r;
  }

  // Pictures (blocks/draw.h): show draws the start; explore the source.
  std::string draw(const Options& o) const override {
    const Board b = with_goal(o);
    return position_svg(b, grid_of(b, notation(b, start_of(o, o.command == kExplore))));
  }
  Drawing draw_solution(const Options&, const SolveReport& r) const override { return draw_solution_of<GridRules>(r); }
  std::string draw_state(const Options& o, const std::string& state) const override {
    const Board b = with_goal(o);
    return position_svg(b, grid_of(b, state));
  }

  // Play: one piece one step up, down, left or right into free cells (a move of every
  // metric; written as the solutions write it, "Gd": the piece's character and the step). A
  // click on the piece, then on a cell it would move onto, makes it.
  std::optional<Play> play(const Options& o, const std::string& state) const override {
    const Board b = with_goal(o);
    const std::vector<Piece> pos =
        state.empty() ? start_of(o, false) : parse_position(b, state, "position", distinct_of(o));
    std::vector<std::uint64_t> cover(pos.size());
    for (std::size_t i = 0; i < pos.size(); ++i) cover[i] = b.cover(pos[i].kind, pos[i].anchor);
    std::uint64_t first_col = 0, last_col = 0;
    for (int r = 0; r < b.rows; ++r) {
      first_col |= std::uint64_t{1} << (r * b.cols);
      last_col |= std::uint64_t{1} << (r * b.cols + b.cols - 1);
    }
    Play p;
    p.state = notation(b, pos);
    const bool distinct = distinct_of(o);
    p.goal = !b.goal.empty() && std::all_of(b.goal.begin(), b.goal.end(), [&](const Piece& g) {
      return std::any_of(pos.begin(), pos.end(), [&](const Piece& q) {
        return q.kind == g.kind && q.anchor == g.anchor && (!distinct || q.label == g.label);
      });
    });
    const struct {
      char name;
      int delta;
      std::uint64_t edge;
    } steps[] = {{'u', -b.cols, 0}, {'d', b.cols, 0}, {'l', -1, first_col}, {'r', 1, last_col}};
    for (std::size_t i = 0; i < pos.size(); ++i) {
      std::uint64_t others = 0;
      for (std::size_t j = 0; j < pos.size(); ++j)
        if (j != i) others |= cover[j];
      for (const auto& st : steps) {
        const int anchor = pos[i].anchor + st.delta;
        if ((cover[i] & st.edge) || anchor < 0 || anchor >= b.cells()) continue;
        const std::uint64_t moved = b.cover(pos[i].kind, anchor);
        if (!moved || (moved & others)) continue;
        std::vector<Piece> next = pos;
        next[i].anchor = anchor;
        std::sort(next.begin(), next.end(), [](const Piece& x, const Piece& y) { return x.anchor < y.anchor; });
        std::vector<int> cells;
        for (std::uint64_t m = cover[i] | moved; m; m &= m - 1) cells.push_back(std::countr_zero(m));
        p.moves.push_back({std::string(1, pos[i].label) + st.name, notation(b, next), std::move(cells)});
      }
    }
    return p;
  }

  // Uniform over the positions reachable from the start (the board's, or --start): they are
  // solvable exactly when the start is (moves are reversible).
  std::vector<std::string> random(const Options& o, std::uint64_t seed, std::size_t count) const override {
    const Board b = with_goal(o);
    const Request q{&b, metric_of(o), distinct_of(o), start_of(o, false), {}};
    // The positions and their lines, kept until printed.
    require_memory(static_cast<std::uint64_t>(count) * (128 + 8 * static_cast<std::uint64_t>(b.cells())), o.memory,
                   "the random positions");
    std::vector<std::string> out;
    for (const auto& p : random_positions(q, seed, count, o.limits())) {
      o.deadline.poll();
      out.push_back(notation(b, p));
    }
    return out;
  }

 private:
  Metric metric_of(const Options& o) const {
    if (const auto& m = o.settings<Settings>().metric) return parse_metric(*m, "--");
    return b_.metric.value_or(Metric::Path);
  }
  bool distinct_of(const Options& o) const {
    const bool d = o.settings<Settings>().distinct || b_.distinct;
    if (d && b_.knuth) throw InputError("--distinct does not apply to Knuth's format (pieces of one name are alike)");
    return d;
  }
  Board with_goal(const Options& o) const {
    Board b = b_;
    if (o.goal) {
      const auto [text, what] = picture_arg(*o.goal, "--goal");
      b.goal = parse_goal(b_, text, what, distinct_of(o));
      if (b.goal.empty())
        throw InputError(fmt::format("{}: the picture places no piece (every cell is '.' or a wall); draw at least one piece "
                                     "where it must end",
                                     what));
    }
    return b;
  }
  std::vector<Piece> start_of(const Options& o, bool explore) const {
    std::optional<std::string> v = explore ? o.from : o.start;
    if (!v) return b_.pieces;
    const auto [text, what] = picture_arg(*v, explore ? "--from" : "--start");
    return parse_position(b_, text, what, distinct_of(o));
  }

  std::string name_;
  Board b_;
};

std::unique_ptr<Puzzle> make(const std::string& variant, const Options&) {
  std::string v = variant == "hakoiri-musume" ? "klotski" : variant == "dads-puzzle" ? "pennant" : variant;
  for (const auto& bi : kBuiltins)
    if (v == bi.name) return std::make_unique<BlocksPuzzle>("blocks:" + v, load_board(data_dir() + "/" + bi.file));
  std::error_code ec;
  // A path outside the file policy of `tansaku serve` is refused before it is probed.
  if (!v.empty() && !file_allowed(v)) (void)allowed_file(v, "board file");
  // (a board pasted into `tansaku serve` is such a file: core/input.h PastedFile)
  if (!v.empty() && (fs::is_regular_file(v, ec) || pasted_file(v)))
    return std::make_unique<BlocksPuzzle>("blocks:" + v, load_board(v));
  std::string names;
  for (const auto& bi : kBuiltins) names += std::string(names.empty() ? "" : ", ") + "blocks:" + bi.name;
  if (v.find('/') != std::string::npos || v.find('.') != std::string::npos)
    throw InputError(fmt::format("cannot read board file '{}'", v));
  throw InputError(fmt::format("unknown blocks puzzle '{}' ({}, or blocks:FILE)", v, names));
}

}  // namespace

Family family() {
  Family f;
  f.prefix = "blocks";
  f.file_extension = ".txt";
  f.file_kind = "a board picture: the tray with its pieces, 'start:' and optionally 'goal:' (docs/blocks.md)";
  f.summary = "sliding-block puzzles with pieces of any shape, drawn as pictures: optimal solutions, counts, whole spaces";
  for (const auto& bi : kBuiltins) f.builtins.push_back({std::string("blocks:") + bi.name, bi.summary});
  f.builtins.push_back({"blocks:FILE", "a board picture file: the tray, its pieces, start and goal (docs/blocks.md)"});
  f.aliases = {{"klotski", "blocks:klotski"}, {"hakoiri-musume", "blocks:klotski"}};
  f.options = {
      opt::start(kShow | kSolve | kRandom, "start position: a picture file, or rows separated by '/' (BAAC/BAAC/...)"),
      opt::goal(kShow | kSolve, "goal: a picture file or rows separated by '/'; '.' = no requirement"),
      opt::from(kExplore, "source of the explore: a picture file or rows (default: the start)"),
      opt::all(),
      opt::count(),
      opt::farthest(),
      opt::weight(),
      opt::beam_width(),
      opt::text(&Settings::metric, "metric", "step|line|path",
                "a move is one cell (step), any straight run (line) or any path of free cells (path); "
                "default: the file's, else path",
                kAllCommands),
      opt::flag(&Settings::distinct, "distinct",
                "keep pieces of the same shape apart (default: alike pieces are interchangeable)", kAllCommands)};
  f.settings = opt::settings<Settings>();
  f.solvers = merge_specs(blocks::solvers(), solver_specs(BlocksPuzzle::explore_table()));
  f.notation = "a position is a picture: one character per cell, rows separated by '/' on the command line "
               "(BAAC/BAAC/DEEF/DGHF/I..J) or one per line in a file; letters and digits are pieces (all cells "
               "of one character form one piece), '.' empty, '#' wall. A move is the piece's character in the "
               "start picture and its unit steps u d l r: Gdr";
  f.examples = {"tansaku solve blocks:klotski",
                "tansaku solve hakoiri-musume --metric step --json",
                "tansaku explore blocks:pennant --farthest 3",
                "tansaku solve blocks:ma --count",
                "tansaku show blocks:century",
                "tansaku solve blocks:data/blocks/eight.txt",
                "tansaku solve blocks:data/blocks/knuth-example.txt --metric step"};
  f.bench = {{kSolve, "blocks:klotski", "", ""}, {kExplore, "blocks:century", "", ""}};
  f.make = make;
  return f;
}

}  // namespace tansaku::blocks
