// coloring:map12 | coloring:FILE.col | coloring:NAME | coloring --file FILE — loading the
// graph, choosing what to compute (chromatic number, --colors K, --count, --all), the
// reports and the text rendering.
#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "coloring/chromatic.h"
#include "coloring/colouring_count.h"
#include "coloring/dimacs.h"
#include "coloring/draw.h"
#include "coloring/dsatur.h"
#include "coloring/graph.h"
#include "coloring/verify.h"
#include "tansaku/core/error.h"
#include "tansaku/core/input.h"
#include "tansaku/core/memory.h"
#include "tansaku/puzzles/coloring.h"
#include "tansaku/puzzles/report_keys.h"
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

json colours_json(const std::vector<int>& c) {
  json a = json::array();
  for (int x : c) a.push_back(x);
  return a;
}

// solve's own keys (docs/cli.md), in their JSON order: with --colors K ...
struct ColorsKeys {
  int colors = 0;
  json clique;
  bool clique_exact = false;
  json steps;
  std::optional<std::string> proof;  // no K-colouring: what proves it
  std::optional<int> lower_bound;    // found: how good it is
  std::optional<std::string> lower_bound_by, found_by;
  std::optional<int> count_first_fixed;  // no K-colouring, --count
};
TANSAKU_REPORT_KEYS(ColorsKeys, colors, clique, clique_exact, steps, proof, lower_bound, lower_bound_by, found_by,
                    count_first_fixed)
// ... without --colors: the chromatic number's bounds ...
struct ChromaticKeys {
  json chromatic_number;  // null when not proved
  int lower_bound = 0, upper_bound = 0;
  std::string lower_bound_by, upper_bound_by;
  json clique;
  bool clique_exact = false;
  json steps;
};
TANSAKU_REPORT_KEYS(ChromaticKeys, chromatic_number, lower_bound, upper_bound, lower_bound_by, upper_bound_by, clique,
                    clique_exact, steps)
// ... and, a colouring found, the graph's size and the count.
struct GraphKeys {
  int vertices = 0;
  std::optional<std::uint64_t> self_loops_ignored;
  std::uint64_t edges = 0;
  std::optional<int> count_colors;
  std::optional<json> count_first_fixed;
};
TANSAKU_REPORT_KEYS(GraphKeys, vertices, self_loops_ignored, edges, count_colors, count_first_fixed)

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
    SolveReport r;
    const Job job{*this, o, r};
    run_with_progress(choose(solvers(), o.algorithm, job, kSolve, o.want()), job, o);
    return r;
  }

  // One solve as the solver table sees it.
  struct Job {
    const ColoringPuzzle& p;
    const Options& o;
    SolveReport& r;
  };
  // In the order of the automatic choice (the first one: the others are asked for by name).
  // Each counts (--count) and lists (--all) the colourings with the colours it found.
  static const SolverTable<Job, void>& solvers() {
    const auto with = [](Strategy st, const char* name) {
      return [st, name](const Job& j, const search::Limits& lim) { j.p.colour(st, name, j.o, lim, j.r); };
    };
    static const SolverTable<Job, void> table = {
        {{"auto", {}, "clique lower bound, DSATUR branch and bound, then CaDiCaL for what DSATUR cannot settle (default)",
          kSolve, true, true},
         nullptr, nullptr, with(Strategy::Auto, "auto")},
        {{"dsatur", {}, "DSATUR branch and bound only (exact, may take long)", kSolve, true, true}, nullptr, nullptr,
         with(Strategy::Dsatur, "dsatur")},
        {{"sat", {"cadical"}, "the K-colouring question as SAT, decided by CaDiCaL", kSolve, true, true}, nullptr, nullptr,
         with(Strategy::Sat, "sat")},
        {{"greedy", {}, "DSATUR's greedy colouring only: an upper bound, not a proof", kSolve, true, true}, nullptr,
         nullptr, with(Strategy::Greedy, "greedy")},
    };
    return table;
  }

  ExploreReport explore(const Options&) const override {
    throw InputError("explore does not apply to coloring (there are no moves): use solve, --count counts colourings");
  }

 private:
  // Solves with one strategy (a row of the solver table) and fills the report.
  void colour(Strategy st, const char* name, const Options& o, const search::Limits& lim, SolveReport& r) const {
    SolverOptions so;
    so.strategy = st;
    r.algorithm = name;
    auto answer = std::make_shared<Answer>();
    r.solution = answer;
    int K = 0;
    if (const auto colors = o.settings<Settings>().colors) {
      K = *colors;
      KResult kr = colour_with(g_, K, so, lim);
      r.nodes = kr.nodes;
      answer->colors = K;
      ColorsKeys k;
      k.colors = K;
      k.clique = names_of(kr.clique);
      k.clique_exact = kr.clique_exact;
      k.steps = steps_json(kr.steps);
      if (!kr.found) {
        r.solvable = false;
        r.optimal = true;  // the refutation is exhaustive: a complete proof
        k.proof = kr.by;
        if (kr.by == "clique") answer->clique = kr.clique;
        r.reason = kr.by == "clique"
                       ? fmt::format("the {} vertices {} are pairwise adjacent: at least {} colours are needed",
                                     kr.clique.size(), fmt::join(names_of_vec(kr.clique), " "), kr.clique.size())
                       : fmt::format("no proper colouring with {} colours exists ({} search{})", K,
                                     kr.by == "cadical" ? "SAT solver CaDiCaL" : "exhaustive DSATUR",
                                     kr.by == "cadical" ? ": unsatisfiable" : "");
        if (o.count) r.count = 0, k.count_first_fixed = 0;
        if (o.all) r.solutions = json::array();
        put(k, r.extra);
        return;
      }
      const int used = verify_colouring(g_, kr.colouring, K);
      r.length = used;
      r.moves = colours_json(kr.colouring);
      answer->found = true;
      answer->colouring = kr.colouring;
      // Optimal only with a proof: a clique needing every colour used, or a quick DSATUR
      // refutation of one colour fewer (20 k nodes; skipped by --algorithm greedy).
      int lower = static_cast<int>(kr.clique.size());
      std::string lower_by = "clique";
      if (lower < used && st != Strategy::Greedy) {
        DecideResult d = dsatur_decide(g_, used - 1, kr.clique, 20000, lim);
        r.nodes += d.nodes;
        if (d.status == Decision::None) lower = used, lower_by = "dsatur";
      }
      r.optimal = used == lower;
      k.lower_bound = lower;
      k.lower_bound_by = lower_by;
      k.found_by = kr.by;
      put(k, r.extra);
      r.text = render(kr.colouring);
    } else {
      ChromaticResult cr = chromatic_number(g_, so, lim);
      r.nodes = cr.nodes;
      K = cr.upper;
      verify_colouring(g_, cr.colouring, K);
      r.length = cr.upper;
      r.optimal = cr.exact;
      r.moves = colours_json(cr.colouring);
      answer->found = true;
      answer->colouring = cr.colouring;
      put(ChromaticKeys{cr.exact ? json(cr.upper) : json(nullptr), cr.lower, cr.upper, cr.lower_by, cr.upper_by,
                        names_of(cr.clique), cr.clique_exact, steps_json(cr.steps)},
          r.extra);
      r.text = cr.exact && cr.lower > 1 ? fmt::format("chromatic number {}: no {}-colouring (lower bound by {}{}), a {}-colouring found by {}\n",
                                      cr.upper, cr.lower - 1, cr.lower_by,
                                      cr.clique.size() == static_cast<std::size_t>(cr.lower) ? fmt::format(", a {}-clique", cr.lower) : "",
                                      cr.upper, cr.upper_by)
                         : std::string();
      r.text += render(cr.colouring);
      if (!cr.exact) r.text += fmt::format("bounds: {} <= chromatic number <= {} (no proof attempted)\n", cr.lower, cr.upper);
    }
    GraphKeys gk;
    gk.vertices = g_.n;
    gk.edges = g_.edge_count();
    if (info_.self_loops) gk.self_loops_ignored = info_.self_loops;
    const auto put_graph = [&] { put(gk, r.extra); };
    if (!(o.count || o.all)) return put_graph();
    {
      CountResult c = count_colourings(g_, K, lim);
      r.nodes += c.nodes;
      mpz_class first = c.total;  // vertex 0 fixed to colour 1: count / K by colour symmetry
      if (K > 0) {
        if (!mpz_divisible_ui_p(c.total.get_mpz_t(), static_cast<unsigned long>(K)))
          throw std::logic_error("colouring count is not a multiple of the number of colours");
        mpz_divexact_ui(first.get_mpz_t(), c.total.get_mpz_t(), static_cast<unsigned long>(K));
      }
      r.count = count_json(c.total);
      gk.count_colors = K;
      gk.count_first_fixed = g_.n ? count_json(first) : json(nullptr);
      put_graph();
      if (g_.n) r.text += fmt::format("colourings with colours 1..{}: {}; with vertex {} fixed to colour 1: {}\n", K, to_string(c.total),
                            g_.n ? g_.names[0] : "-", to_string(first));
      if (o.all) {
        const std::uint64_t limit = std::max<std::uint64_t>(1, lim.memory / (64 + 8 * static_cast<std::uint64_t>(g_.n)));
        if (!fits_u64(c.total) || to_u64(c.total) > limit)
          throw InputError(fmt::format("--all: {} colourings do not fit the memory budget (use --count)", to_string(c.total)));
        std::uint64_t nodes = 0;
        auto all = all_colourings(g_, K, limit, lim, &nodes);
        r.nodes += nodes;
        if (all.size() != to_u64(c.total)) throw std::logic_error("listing and count of colourings disagree");
        json sols = json::array();
        for (const auto& s : all) {
          verify_colouring(g_, s, K);
          sols.push_back(colours_json(s));
        }
        r.solutions = sols;
      }
    }
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
  std::vector<std::string> names_of_vec(const std::vector<int>& vs) const {
    std::vector<std::string> out;
    for (int v : vs) out.push_back(g_.names[v]);
    return out;
  }
  json names_of(const std::vector<int>& vs) const {
    json a = json::array();
    for (int v : vs) a.push_back(g_.names[v]);
    return a;
  }
  static json steps_json(const std::vector<Step>& steps) {
    json a = json::array();
    for (const auto& s : steps) a.push_back({{"colors", s.colors}, {"found", s.found}, {"by", s.by}, {"nodes", s.nodes}});
    return a;
  }
  std::string render(const std::vector<int>& colours) const {
    int k = 0;
    for (int c : colours) k = std::max(k, c);
    std::string s;
    if (g_.n <= 64) {
      s += "vertex:colour";
      for (int v = 0; v < g_.n; ++v) s += fmt::format(" {}:{}", g_.names[v], colours[v]);
      s += "\n";
    }
    for (int c = 1; c <= k; ++c) {
      std::string cls;
      int size = 0;
      for (int v = 0; v < g_.n; ++v)
        if (colours[v] == c) {
          if (++size <= 40) cls += " " + g_.names[v];
        }
      if (size > 40) cls += fmt::format(" ... ({} vertices)", size);
      s += fmt::format("colour {}:{}\n", c, cls);
    }
    return s;
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
  f.solvers = solver_specs(ColoringPuzzle::solvers());
  f.notation = "a colouring is one colour number (1..K) per vertex in vertex order; graphs come as DIMACS .col files";
  f.examples = {"tansaku solve coloring:map12 --colors 3", "tansaku solve coloring:queen6_6", "tansaku solve coloring:map12 --count",
                "tansaku solve coloring:my-graph.col --algorithm sat"};
  f.bench = {{kSolve, "coloring:myciel5", "", "dsatur"}, {kSolve, "coloring:queen6_6", "", "dsatur"}};
  f.make = make;
  return f;
}

}  // namespace tansaku::coloring
