// Colouring a graph: the solver table (auto, DSATUR, SAT, greedy), the chromatic number
// with its proof or a K-colouring (--colors K), the counts and lists (--count, --all), each
// colouring verified, and the solve report with its text rendering.
#include "coloring/solve.h"

#include <algorithm>

#include <fmt/format.h>

#include "coloring/chromatic.h"
#include "coloring/colouring_count.h"
#include "coloring/draw.h"
#include "coloring/dsatur.h"
#include "coloring/verify.h"
#include "tansaku/core/error.h"
#include "tansaku/core/memory.h"
#include "tansaku/puzzles/report_keys.h"
#include "tansaku/puzzles/solver_table.h"

namespace tansaku::coloring {
namespace {

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

class ColoringSolver {
 public:
  ColoringSolver(const Graph& g, std::optional<int> colors, int self_loops)
      : g_(g), colors_(colors), self_loops_(self_loops) {}

  SolveReport solve(const Options& o) const {
    SolveReport r;
    const Job job{*this, o, r};
    run_with_progress(choose(solvers(), o.algorithm, job, kSolve, o.want()), job, o);
    return r;
  }

  // One solve as the solver table sees it.
  struct Job {
    const ColoringSolver& p;
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
        {{"auto",
          {},
          "clique lower bound, DSATUR branch and bound, then CaDiCaL for what DSATUR cannot settle (default)",
          kSolve,
          true,
          true},
         nullptr,
         nullptr,
         with(Strategy::Auto, "auto")},
        {{"dsatur", {}, "DSATUR branch and bound only (exact, may take long)", kSolve, true, true},
         nullptr,
         nullptr,
         with(Strategy::Dsatur, "dsatur")},
        {{"sat", {"cadical"}, "the K-colouring question as SAT, decided by CaDiCaL", kSolve, true, true},
         nullptr,
         nullptr,
         with(Strategy::Sat, "sat")},
        {{"greedy", {}, "DSATUR's greedy colouring only: an upper bound, not a proof", kSolve, true, true},
         nullptr,
         nullptr,
         with(Strategy::Greedy, "greedy")},
    };
    return table;
  }

  // Solves with one strategy (a row of the solver table) and fills the report.
  void colour(Strategy st, const char* name, const Options& o, const search::Limits& lim, SolveReport& r) const {
    SolverOptions so;
    so.strategy = st;
    r.algorithm = name;
    auto answer = std::make_shared<Answer>();
    r.solution = answer;
    int K = 0;
    if (const auto colors = colors_) {
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
      r.text = cr.exact && cr.lower > 1
                   ? fmt::format(
                         "chromatic number {}: no {}-colouring (lower bound by {}{}), a {}-colouring found by {}\n",
                         cr.upper, cr.lower - 1, cr.lower_by,
                         cr.clique.size() == static_cast<std::size_t>(cr.lower) ? fmt::format(", a {}-clique", cr.lower)
                                                                                : "",
                         cr.upper, cr.upper_by)
                   : std::string();
      r.text += render(cr.colouring);
      if (!cr.exact)
        r.text += fmt::format("bounds: {} <= chromatic number <= {} (no proof attempted)\n", cr.lower, cr.upper);
    }
    GraphKeys gk;
    gk.vertices = g_.n;
    gk.edges = g_.edge_count();
    if (self_loops_) gk.self_loops_ignored = self_loops_;
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
      if (g_.n)
        r.text += fmt::format("colourings with colours 1..{}: {}; with vertex {} fixed to colour 1: {}\n", K,
                              to_string(c.total), g_.n ? g_.names[0] : "-", to_string(first));
      if (o.all) {
        const std::uint64_t limit =
            std::max<std::uint64_t>(1, lim.memory / (64 + 8 * static_cast<std::uint64_t>(g_.n)));
        if (!fits_u64(c.total) || to_u64(c.total) > limit)
          throw InputError(
              fmt::format("--all: {} colourings do not fit the memory budget (use --count)", to_string(c.total)));
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
    for (const auto& s : steps)
      a.push_back({{"colors", s.colors}, {"found", s.found}, {"by", s.by}, {"nodes", s.nodes}});
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

 private:
  const Graph& g_;
  std::optional<int> colors_;
  int self_loops_;
};

}  // namespace

SolveReport solve_coloring(const Graph& g, std::optional<int> colors, int self_loops, const Options& o) {
  return ColoringSolver(g, colors, self_loops).solve(o);
}

std::vector<SolverSpec> coloring_solvers() { return solver_specs(ColoringSolver::solvers()); }

}  // namespace tansaku::coloring
