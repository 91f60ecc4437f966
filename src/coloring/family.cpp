// coloring:map12 | coloring:FILE.col | coloring:NAME | coloring --file FILE — the family's
// glue: loading the graph, the options, show, the pictures and play. What to compute
// (chromatic number, --colors K, --count, --all) and the solve report are solve.cpp's.
#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "coloring/dimacs.h"
#include "coloring/draw.h"
#include "coloring/graph.h"
#include "coloring/solve.h"
#include "tansaku/core/error.h"
#include "tansaku/core/input.h"
#include "tansaku/puzzles/coloring.h"
#include "tansaku/puzzles/solver_table.h"

namespace tansaku::coloring {
namespace {

namespace fs = std::filesystem;

constexpr std::int64_t kMaxColors = 1000000;

// The family's own options (declared in family() below).
struct Settings {
  std::optional<int> colors;        // --colors K: decide K-colourability
  std::optional<std::string> file;  // --file FILE: the graph, instead of coloring:FILE
};

std::string data_dir() {
  return shipped_data_dir() + "/coloring";
}

class ColoringPuzzle final : public Puzzle {
 public:
  ColoringPuzzle(std::string name, Graph g, std::string source, DimacsInfo info)
      : name_(std::move(name)), g_(std::move(g)), source_(std::move(source)), info_(info) {}
  std::string name() const override { return name_; }

  ShowReport show(const Options& o) const override {
    refuse_states(o);
    ShowReport r;
    int mind = g_.n ? g_.n : 0;
    for (const auto& a : g_.adj) mind = std::min(mind, static_cast<int>(a.size()));
    r.info = {{"puzzle", name_},       {"source", source_},          {"vertices", g_.n},
              {"edges", g_.edge_count()}, {"max_degree", g_.max_degree()}, {"min_degree", mind}};
    if (info_.edge_lines) r.info["edge_lines"] = info_.edge_lines, r.info["declared_edges"] = info_.declared_edges;
    if (info_.self_loops) r.info["self_loops_ignored"] = info_.self_loops;
    r.text = fmt::format("{}: colour every vertex so that adjacent vertices differ (--colors K: with K colours;\n"
                         "default: as few as possible, with a proof).\n",
                         name_);
    r.text += fmt::format("source:   {}\nvertices: {}\nedges:    {}", source_, g_.n, g_.edge_count());
    if (info_.edge_lines && info_.edge_lines != g_.edge_count())
      r.text += fmt::format(" ({} edge lines, repeats merged)", info_.edge_lines);
    if (info_.self_loops) r.text += fmt::format(" ({} loop lines ignored)", info_.self_loops);
    r.text += fmt::format("\ndegrees:  {}..{}\n", mind, g_.max_degree());
    if (g_.n <= 64) {
      json adj = json::object();
      r.text += "neighbours:\n";
      for (int v = 0; v < g_.n; ++v) {
        std::string line;
        json a = json::array();
        for (int u : g_.adj[v]) line += " " + g_.names[u], a.push_back(g_.names[u]);
        adj[g_.names[v]] = a;
        r.text += fmt::format("  {:>3}:{}\n", g_.names[v], line);
      }
      r.info["neighbours"] = adj;
    }
    return r;
  }

  SolveReport solve(const Options& o) const override {
    refuse_states(o);
    return solve_coloring(g_, o.settings<Settings>().colors, info_.self_loops, o);
  }

  ExploreReport explore(const Options&) const override {
    throw InputError("explore does not apply to coloring (there are no moves): use solve, --count counts colourings");
  }

 public:
  // Pictures: src/coloring/draw.cpp. A state is a colouring, one colour per vertex.
  std::string draw(const Options&) const override {
    return draw_graph(g_, name_, {}, {}, fmt::format("{} vertices, {} edges", g_.n, g_.edge_count()));
  }
  Drawing draw_solution(const Options&, const SolveReport& r) const override { return draw_report(g_, name_, r); }
  std::string draw_state(const Options&, const std::string& state) const override {
    const auto c = parse_colouring(g_, state);
    return draw_graph(g_, name_, c, {}, colouring_caption(g_, c));
  }

  // Play: a press on a vertex gives it the next colour (up to one more than the largest degree,
  // which always leaves one free) that none of its neighbours has, after the last one none
  // (0). The position is one colour per vertex, 0 = none; the goal, every vertex coloured.
  std::optional<Play> play(const Options&, const std::string& state) const override {
    constexpr int kPlayVertices = 1000;
    if (g_.n > kPlayVertices)
      throw InputError(fmt::format("{} has {} vertices: play takes graphs of at most {}", name_, g_.n, kPlayVertices));
    const int k = g_.max_degree() + 1;
    std::vector<int> c =
        state.empty() ? std::vector<int>(static_cast<std::size_t>(g_.n), 0) : parse_colouring(g_, state);
    for (int x : c)
      if (x > k) throw InputError(fmt::format("position: colour {} is more than the {} colours", x, k));
    const auto text = [](const std::vector<int>& cs) {
      std::string t;
      for (int x : cs) {
        if (!t.empty()) t += ' ';
        t += std::to_string(x);
      }
      return t;
    };
    Play p;
    p.state = text(c);
    p.goal = std::none_of(c.begin(), c.end(), [](int x) { return x == 0; });
    for (int v = 0; v < g_.n; ++v) {
      int next = 0;
      for (int x = c[static_cast<std::size_t>(v)] + 1; x <= k && !next; ++x)
        if (std::none_of(g_.adj[v].begin(), g_.adj[v].end(),
                         [&](int u) { return c[static_cast<std::size_t>(u)] == x; }))
          next = x;
      if (next == c[static_cast<std::size_t>(v)]) continue;
      std::vector<int> after = c;
      after[static_cast<std::size_t>(v)] = next;
      p.moves.push_back({fmt::format("{}={}", g_.names[static_cast<std::size_t>(v)], next), text(after), {v}});
    }
    return p;
  }

 private:
  void refuse_states(const Options& o) const {
    for (const auto& [given, opt] :
         {std::pair{o.start.has_value(), "start"}, {o.goal.has_value(), "goal"}, {o.from.has_value(), "from"}})
      if (given) throw InputError(fmt::format("--{} does not apply to coloring: the instance is the graph", opt));
  }

  std::string name_;
  Graph g_;
  std::string source_;
  DimacsInfo info_;
};

std::unique_ptr<Puzzle> make(const std::string& variant, const Options& o) {
  const std::optional<std::string>& file = o.settings<Settings>().file;
  if (variant.empty() && !file)
    throw InputError("coloring needs a graph: coloring:map12, coloring:FILE.col, coloring:NAME or --file FILE");
  if (!variant.empty() && file) throw InputError("give the graph once: coloring:X or --file FILE, not both");
  if (variant == "map12")
    return std::make_unique<ColoringPuzzle>(
        "coloring:map12", map12(), "M. Hiroi's Common Lisp puzzles, problem 3 (12 regions A..L)", DimacsInfo{});
  std::string path = file.value_or(variant);
  if (!file && path.find('/') == std::string::npos && !path_present(path)) {
    // A bare name: a shipped instance in data/coloring/ ("myciel3" or "myciel3.col").
    std::string shipped = data_dir() + "/" + path + (path.size() > 4 && path.ends_with(".col") ? "" : ".col");
    if (path_present(shipped)) path = shipped;
  }
  // A path is checked against the file policy (core/input.h) before it is probed: under `tansaku
  // serve` a file outside the shipped data is refused alike whether it exists or not.
  (void)allowed_file(path, "graph file");
  if (!path_present(path))
    throw InputError(fmt::format("coloring: no file '{}' (and no shipped instance of that name)", path));
  DimacsInfo info;
  Graph g = read_dimacs_file(path, o.limits(), &info);
  std::string name = "coloring:" + file.value_or(variant);
  return std::make_unique<ColoringPuzzle>(name, std::move(g), path, info);
}

}  // namespace

Family family() {
  Family f;
  f.prefix = "coloring";
  f.file_extension = ".col";
  f.file_kind = "a DIMACS .col graph: 'p edge V E' then one 'e U V' line per edge";
  f.summary = "graph colouring: chromatic number with a proof, K-colourings, colouring counts";
  f.builtins = {
      {"coloring:map12",
       "a 12-region map A..L (from M. Hiroi's Common Lisp puzzles): 3 colours impossible, 4 colours (54 with A = 1)"},
      {"coloring:FILE.col", "a DIMACS .col graph (also --file FILE)"}};
  std::error_code ec;
  std::vector<std::string> shipped;
  for (const auto& e : fs::directory_iterator(data_dir(), ec))
    if (e.path().extension() == ".col") shipped.push_back(e.path().stem().string());
  std::sort(shipped.begin(), shipped.end());
  for (const auto& s : shipped)
    f.builtins.push_back(
        {"coloring:" + s, s.starts_with("myciel") ? "Mycielski graph (triangle-free), from the DIMACS benchmarks"
                          : s.starts_with("queen")
                              ? "queen graph (squares a queen's move apart), from the DIMACS benchmarks"
                              : "a graph of the DIMACS colouring benchmarks"});
  f.options = {opt::all(), opt::count(),
               opt::integer(&Settings::colors, "colors",
                            "K: find a K-colouring or prove there is none (default: the chromatic number)", kSolve,
                            {1, kMaxColors}),
               opt::reads(opt::text(&Settings::file, "file", "FILE", "a DIMACS .col graph, instead of coloring:FILE",
                                    kAllCommands))};
  f.settings = opt::settings<Settings>();
  f.solvers = coloring_solvers();
  f.notation = "a colouring is one colour number (1..K) per vertex in vertex order; graphs come as DIMACS .col files";
  f.examples = {"tansaku solve coloring:map12 --colors 3", "tansaku solve coloring:queen6_6", "tansaku solve coloring:map12 --count",
                "tansaku solve coloring:my-graph.col --algorithm sat"};
  f.bench = {{kSolve, "coloring:myciel5", "", "dsatur"}, {kSolve, "coloring:queen6_6", "", "dsatur"}};
  f.make = make;
  return f;
}

}  // namespace tansaku::coloring
