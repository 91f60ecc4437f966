// flip:RxC — the family's glue: the options and the board, show, random, the depth table,
// the pictures and play. The instance is read by instance.cpp; solve and explore (the
// solvers, the proofs, the reports) are solve.cpp's.
#include <fmt/format.h>

#include "flip/board.h"
#include "flip/draw.h"
#include "flip/instance.h"
#include "flip/linear.h"
#include "flip/solve.h"
#include "flip/space.h"
#include "flip/verify.h"
#include "tansaku/core/count.h"
#include "tansaku/core/error.h"
#include "tansaku/core/memory.h"
#include "tansaku/core/random.h"
#include "tansaku/core/tokens.h"
#include "tansaku/puzzles/flip.h"
#include "tansaku/search/distance_table.h"

namespace tansaku::flip {
namespace {

constexpr std::int64_t kMaxCells = std::int64_t{1} << 28;
// The family's own options (declared in family() below).
struct Settings {
  std::optional<std::string> rule;  // --rule: eight (default), lights-out or a 3x3 mask
  bool torus = false;
};

std::string power_of_two(std::int64_t r) {
  if (r < 128) return to_string(mpz_class(1) << static_cast<mp_bitcnt_t>(r));
  return fmt::format("2^{}", r);
}

class FlipPuzzle final : public Puzzle {
 public:
  FlipPuzzle(std::string name, Board board) : name_(std::move(name)), board_(std::move(board)) {}
  std::string name() const override { return name_; }

  ShowReport show(const Options& o) const override {
    require_cells(board_, name_, o);
    const Bits start = start_of(board_, o), goal = goal_of(board_, o);
    LinearOptions lo;
    lo.want_kernel = board_.cells() <= 4096;
    LinearResult lin = solve_chase(board_, start ^ goal, lo, o.limits());
    const Replayer replay(board_);
    for (const auto& k : lin.kernel)
      if (!replay.effect(k).none()) throw std::logic_error("flip: a quiet pattern is not quiet");
    ShowReport r;
    const std::int64_t n = board_.cells();
    r.info = {{"puzzle", name_},
              {"rows", board_.rows()},
              {"cols", board_.cols()},
              {"cells", n},
              {"rule", board_.rule().name},
              {"mask", board_.rule().mask_text()},
              {"torus", board_.torus()},
              {"start", board_.format_grid(start)},
              {"goal", board_.format_grid(goal)},
              {"rank", lin.rank},
              {"nullity", lin.nullity},
              {"reachable", power_of_two(lin.rank)},
              {"reachable_log2", lin.rank},
              {"solvable", lin.solvable},
              {"free_presses", lin.unknowns},
              {"method", lin.method}};
    if (lin.nullity <= 16 && n <= 1024 && static_cast<std::int64_t>(lin.kernel.size()) == lin.nullity) {
      json q = json::array();
      for (const auto& k : lin.kernel) q.push_back(cells_json(k));
      r.info["quiet_patterns"] = q;
    }
    std::string& t = r.text;
    t = fmt::format("{}: {} rows x {} columns{}; pressing a cell toggles the cells of the mask around it\n", name_,
                    board_.rows(), board_.cols(), board_.torus() ? " on a torus (edges wrap)" : "");
    t += fmt::format("rule: {} (mask {}, the centre is the pressed cell)\n", board_.rule().name, board_.rule().mask_text());
    for (int i = 0; i < 3; ++i) {
      t += "  ";
      for (int j = 0; j < 3; ++j) t += board_.rule().mask[static_cast<std::size_t>(i * 3 + j)] ? " X" : " .";
      t += '\n';
    }
    if (board_.rows() <= kPictureSide && board_.cols() <= kPictureSide) {
      t += "cells:\n" + board_.numbering();
      t += "start:\n" + board_.picture(start) + "goal:\n" + board_.picture(goal);
    } else {
      t += fmt::format("start: {} lit, goal: {} lit\n", start.count(), goal.count());
    }
    t += fmt::format("rank {}, nullity {}: {} configurations reachable from any one ({} of 2^{})\n", lin.rank,
                     lin.nullity, power_of_two(lin.rank), lin.nullity ? fmt::format("1/2^{}", lin.nullity) : "all", n);
    t += fmt::format("method: {}\n", lin.method);
    if (r.info.contains("quiet_patterns")) {
      t += "quiet patterns (press sets that change nothing; a basis of the null space):\n";
      for (const auto& k : lin.kernel) t += "  " + cell_list(k, 1000) + "\n";
    }
    t += fmt::format("start -> goal: {}\n", lin.solvable ? "solvable" : "unsolvable");
    return r;
  }

  SolveReport solve(const Options& o) const override { return solve_flip(board_, name_, o); }
  ExploreReport explore(const Options& o) const override { return explore_flip(board_, name_, o); }

  // 2^nullity, of press sets).
  std::vector<std::string> random(const Options& o, std::uint64_t seed, std::size_t count) const override {
    const Bits goal = goal_of(board_, o);
    require_memory(static_cast<std::uint64_t>(board_.cells()) * 2 * count, o.memory, "the random configurations");
    SplitMix64 rng{seed};
    std::vector<std::string> out;
    for (std::size_t k = 0; k < count; ++k) {
      o.deadline.check();
      Bits x = goal;
      for (std::int64_t p = 0; p < board_.cells(); ++p) {
        if ((p & 0xffff) == 0) o.deadline.check();
        if (rng.next() >> 63) board_.for_each_toggled(p, [&](std::int64_t q) { x.flip(static_cast<std::size_t>(q)); });
      }
      out.push_back(board_.format_grid(x));
    }
    return out;
  }

  // explore's space (every configuration, from the same source) as a byte per configuration
  // (Puzzle::depth_table).
  std::shared_ptr<const DepthTable> depth_table(const Options& o) const override {
    const std::int64_t n = board_.cells();
    if (n > 40) throw InputError(fmt::format("a table of {} needs a byte for each of 2^{} configurations", name_, n));
    const Bits src = source_of(board_, o);
    const std::uint64_t source = to_word(src);
    const SpaceDomain d{word_patterns(board_), static_cast<int>(n), 0};
    Progress progress(o.progress());
    auto t = search::distance_table(d, std::span<const std::uint64_t>(&source, 1), true, o.limits(&progress));
    progress.done();
    auto out = std::make_shared<DepthTable>();
    out->from = board_.format_grid(src);
    out->depth = std::move(t.dist);
    out->histogram = std::move(t.histogram);
    out->symmetric = true;  // a press undoes itself
    auto board = std::make_shared<const Board>(board_);
    out->rank = [board](const std::string& s) { return to_word(board->parse_grid(s, "state")); };
    out->unrank = [board, n](std::uint64_t r) { return board->format_grid(from_word(r, static_cast<std::size_t>(n))); };
    return out;
  }

  // Pictures (flip/draw.h): show draws the start; explore the source.
  std::string draw(const Options& o) const override {
    require_cells(board_, name_, o);
    if (o.command == kExplore) {
      return board_svg(board_, source_of(board_, o), Bits(0));
    }
    return board_svg(board_, start_of(board_, o), Bits(0));
  }
  Drawing draw_solution(const Options&, const SolveReport& r) const override { return solution_drawing(r); }
  std::string draw_state(const Options&, const std::string& state) const override {
    return board_svg(board_, board_.parse_grid(state, "state"), Bits(0));
  }

  // Play: a press on any cell toggles the rule's pattern around it (the move is the cell, as
  // a solution writes it). Each move carries its whole grid: boards up to kPlayCells.
  std::optional<Play> play(const Options& o, const std::string& state) const override {
    constexpr std::int64_t kPlayCells = 1024;
    if (board_.cells() > kPlayCells)
      throw InputError(
          fmt::format("{} has {} cells: play takes boards of at most {}", name_, board_.cells(), kPlayCells));
    const Bits b = state.empty() ? start_of(board_, o) : board_.parse_grid(state, "position");
    Play p;
    p.state = board_.format_grid(b);
    p.goal = b == goal_of(board_, o);
    for (std::int64_t c = 0; c < board_.cells(); ++c) {
      Bits next = b;
      board_.for_each_toggled(c, [&](std::int64_t q) { next.flip(static_cast<std::size_t>(q)); });
      p.moves.push_back({std::to_string(c), board_.format_grid(next), {static_cast<int>(c)}});
    }
    return p;
  }

 private:
  std::string name_;
  Board board_;
};

std::unique_ptr<Puzzle> make(const std::string& variant, const Options& o) {
  if (variant.empty()) throw InputError("flip needs a size: flip:RxC (e.g. flip:4x4)");
  auto [rows, cols] = parse_dims(variant, "flip size");
  if (rows < 1 || cols < 1) throw InputError(fmt::format("flip:{}: rows and columns must be at least 1", variant));
  if (static_cast<std::int64_t>(rows) * cols > kMaxCells)
    throw InputError(fmt::format("flip:{}: at most {} cells are supported", variant, kMaxCells));
  const Settings& s = o.settings<Settings>();
  return std::make_unique<FlipPuzzle>(fmt::format("flip:{}x{}", rows, cols),
                                      Board(rows, cols, s.torus, parse_rule(s.rule)));
}

}  // namespace

Family family() {
  Family f;
  f.prefix = "flip";
  f.summary = "press a cell to toggle a pattern (8-flip, Lights Out, any 3x3 mask); solved by GF(2) algebra";
  f.builtins = {{"flip:4x4",
                 "8-flip (--rule eight, the default: a press toggles the 8 surrounding cells): all on -> all off in 6 "
                 "presses, 4 ways"},
                {"flip:4x6", "8-flip, 4 rows x 6 columns: 2^24 configurations, farthest 24 presses"},
                {"flip:5x5", "8-flip 5x5: all on cannot be cleared; with --rule lights-out: 15 presses"},
                {"flip:RxC", "any R x C board; --rule eight | lights-out | 3x3 mask such as 010/111/010; --torus"}};
  f.options = {
      opt::start(kShow | kSolve, "start grid: R rows of 0/1 (or '@FILE'); default all on"),
      opt::goal(kAllCommands, "goal grid (default all off; explore: the source when --from is not given)"),
      opt::from(kExplore, "source grid of the explore (default all off)"),
      opt::all(),
      opt::count(),
      opt::farthest(),
      opt::defaults_to("eight", opt::text(&Settings::rule, "rule", "RULE",
                                          "eight (the 8 surrounding cells, not the cell; default) | lights-out | a 3x3 "
                                          "mask such as 010/111/010")),
      opt::flag(&Settings::torus, "torus", "wrap the pattern around the edges")};
  f.settings = opt::settings<Settings>();
  f.solvers = flip_solvers();
  f.notation = "a grid of 0/1 (1 = on), rows separated by '/' or newlines or spaces, e.g. --start 1111/1111/1111/1111;\n"
               "  '@FILE' reads the grid from a file";
  f.examples = {"tansaku solve flip:4x4 --all", "tansaku solve flip:5x5 --rule lights-out",
                "tansaku solve flip:1000x1000 --rule lights-out --quiet", "tansaku explore flip:4x6 --farthest 3",
                "tansaku random flip:5x5 --rule lights-out"};
  f.bench = {{kSolve, "flip:4x4", "", ""}, {kSolve, "flip:200x200", "", ""}, {kExplore, "flip:5x5", "", ""},
             {kExplore, "flip:4x4", "", "bfs"}};
  f.make = make;
  return f;
}

}  // namespace tansaku::flip
