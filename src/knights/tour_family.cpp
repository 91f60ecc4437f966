// knight-tour:RxC — the family's glue: the options, the first square, show, explore, the
// pictures and play; a tour from a square (open or --closed), all of them (--all), how many
// (--count), or a proof that there is none, is tour_solve.cpp's.
#include <limits>

#include <fmt/format.h>

#include "knights/board.h"
#include "knights/draw.h"
#include "knights/tour_analysis.h"
#include "knights/tour_solve.h"
#include "tansaku/core/error.h"
#include "tansaku/core/memory.h"
#include "tansaku/core/tokens.h"
#include "tansaku/puzzles/knights.h"
#include "tansaku/puzzles/solver_table.h"

namespace tansaku::knights {
namespace {

// The family's own options (declared in tour_family() below).
struct Settings {
  bool closed = false;                    // --closed: the tour returns to its first square
  std::optional<std::string> checkpoint;  // --checkpoint DIR: the split count saves and resumes there
};

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
                         board_.cols(), o.settings<Settings>().closed ? " and returns to its first square" : "");
    if (n <= kPictureLimit) {
      r.text += "squares:\n" + board_.numbering();
      std::vector<std::string> degs(n);
      for (std::int64_t s = 0; s < n; ++s) degs[s] = std::to_string(board_.degree(s));
      r.text += "knight's moves from each square:\n" + board_.picture(degs);
    }
    r.text += fmt::format("first square: {} (--from SQ, default 0); squares 0..{} row-major\n", first_square(o), n - 1);
    if (n <= kListLimit)
      if (auto why = no_tour_reason(board_, from_given(o) ? first_square(o) : -1, o.settings<Settings>().closed,
                                    &o.deadline)) {
        r.info["no_tour"] = *why;
        r.text += "no tour: " + *why + "\n";
      }
    return r;
  }

  SolveReport solve(const Options& o) const override {
    return solve_tour(
        board_,
        {first_square(o), from_given(o), o.settings<Settings>().closed, o.settings<Settings>().checkpoint.value_or("")},
        o);
  }

  ExploreReport explore(const Options& o) const override { return explore_by_table(explore_table(), *this, o); }

  // One explore: breadth-first distances of the knight from one square.
  static const ExploreTable<TourPuzzle>& explore_table() {
    static const auto t = one_explore<TourPuzzle>(
        bfs_explore("breadth-first knight's distances from the start square"), &TourPuzzle::explore_bfs);
    return t;
  }

  ExploreReport explore_bfs(const Options& o, const search::Limits& lim) const {
    require_memory(static_cast<std::uint64_t>(board_.squares()) * 12, lim.memory, "the distance table");
    const std::int64_t from = first_square(o);
    auto dist = knight_distances(board_, from, lim.deadline);
    ExploreReport r;
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
    r.nodes = r.states;
    if (board_.squares() <= kPictureLimit) {
      std::vector<std::string> cells(board_.squares());
      for (std::int64_t s = 0; s < board_.squares(); ++s) cells[s] = dist[s] < 0 ? "-" : std::to_string(dist[s]);
      r.text = "knight's moves from square " + r.from + " (- = never reached):\n" + board_.picture(cells);
    }
    return r;
  }

  // Pictures: src/knights/draw.cpp.
  std::string draw(const Options& o) const override { return draw_tour_board(board_, first_square(o)); }
  Drawing draw_solution(const Options&, const SolveReport& r) const override { return draw_tour_report(board_, r); }
  std::string draw_state(const Options&, const std::string& state) const override {
    // A square; or, in the play mode, the squares visited so far (a path).
    if (state.find_first_of(" ,") == std::string::npos)
      return draw_tour_board(board_, board_.parse_square(state, "state"));
    return draw_tour(board_, path_of(state), false).frames.back();
  }

  // Play: the knight goes on to a square a knight's move away that it has not visited; the
  // position is the path so far ("0 7 ..."), the move the square (a click on it makes it).
  std::optional<Play> play(const Options& o, const std::string& state) const override {
    constexpr std::int64_t kPlaySquares = 1024;
    if (board_.squares() > kPlaySquares)
      throw InputError(
          fmt::format("{} has {} squares: play takes boards of at most {}", name_, board_.squares(), kPlaySquares));
    const std::vector<std::int64_t> path = state.empty() ? std::vector<std::int64_t>{first_square(o)} : path_of(state);
    std::vector<bool> seen(static_cast<std::size_t>(board_.squares()));
    std::string text;
    for (auto sq : path) {
      seen[static_cast<std::size_t>(sq)] = true;
      if (!text.empty()) text += ' ';
      text += std::to_string(sq);
    }
    Play p;
    p.state = text;
    if (path.size() > 1) p.solve_start = std::to_string(path.front());  // a solve takes the first square
    p.goal = static_cast<std::int64_t>(path.size()) == board_.squares() &&
             (!o.settings<Settings>().closed || path.size() < 3 || board_.adjacent(path.back(), path.front()));
    board_.for_each_neighbor(path.back(), [&](std::int64_t sq) {
      if (!seen[static_cast<std::size_t>(sq)])
        p.moves.push_back({std::to_string(sq), text + " " + std::to_string(sq), {static_cast<int>(sq)}});
    });
    return p;
  }

 private:
  // A path of distinct squares, each a knight's move from the one before (the play mode).
  std::vector<std::int64_t> path_of(const std::string& text) const {
    std::vector<std::int64_t> path;
    std::vector<bool> seen(static_cast<std::size_t>(board_.squares()));
    for (const auto& t : split_state(text)) {
      const std::int64_t sq = board_.parse_square(t, "position");
      if (seen[static_cast<std::size_t>(sq)]) throw InputError(fmt::format("position: square {} is visited twice", sq));
      if (!path.empty() && !board_.adjacent(path.back(), sq))
        throw InputError(fmt::format("position: {} to {} is not a knight's move", path.back(), sq));
      seen[static_cast<std::size_t>(sq)] = true;
      path.push_back(sq);
    }
    if (path.empty()) throw InputError("position: give the squares visited, such as '0 7'");
    return path;
  }

  std::int64_t first_square(const Options& o) const {
    if (o.from && o.start && *o.from != *o.start) throw InputError("--from and --start name different squares");
    if (o.from) return board_.parse_square(*o.from, "--from");
    if (o.start) return board_.parse_square(*o.start, "--start");
    return 0;
  }
  bool from_given(const Options& o) const { return o.from.has_value() || o.start.has_value(); }

  std::string name_;
  Board board_;
};

std::unique_ptr<Puzzle> make_tour(const std::string& variant, const Options&) {
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
  f.builtins = {{"knight-tour:3x4", "knight's tour, 3 rows x 4 columns, from square 0 (2 tours)"},
                {"knight-tour:RxC", "any board; --closed, --from SQ, --count, --all, --algorithm warnsdorff|dfs|dp"}};
  f.options = {opt::defaults_to("0", opt::from(kAllCommands, "first square of the tour (row-major from 0; default 0)")),
               opt::start(kAllCommands, "the same as --from"),
               opt::all(),
               opt::count(),
               opt::farthest(),
               opt::flag(&Settings::closed, "closed", "the tour returns to its first square", kShow | kSolve),
               opt::writes(opt::text(&Settings::checkpoint, "checkpoint", "DIR",
                                     "--count --closed on boards 7 or more wide: save the count after each row in DIR "
                                     "and resume from what DIR holds",
                                     kSolve))};
  f.settings = opt::settings<Settings>();
  f.solvers = merge_specs(tour_solvers(), solver_specs(TourPuzzle::explore_table()));
  f.notation = "a square is its number, row-major from 0 ('tansaku show knight-tour:RxC' prints them), e.g. --from 7";
  f.examples = {"tansaku solve knight-tour:8x8 --closed", "tansaku solve knight-tour:5x5 --count",
                "tansaku solve knight-tour:3x4 --all", "tansaku solve knight-tour:1000x1000 --quiet"};
  f.bench = {{kSolve, "knight-tour:5x5", "", "dp"}, {kSolve, "knight-tour:100x100", "", "warnsdorff"}};
  f.make = make_tour;
  return f;
}

}  // namespace tansaku::knights
