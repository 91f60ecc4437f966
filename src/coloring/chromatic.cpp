// The chromatic number: clique lower bound, DSATUR and TabuCol upper bounds, then exact
// "K colours?" decisions (DSATUR branch and bound, then SAT) until the bounds meet.
#include "coloring/chromatic.h"

#include <algorithm>
#include <memory>

#include <fmt/format.h>

#include "coloring/clique.h"
#include "coloring/dsatur.h"
#include "coloring/sat.h"
#include "coloring/tabucol.h"
#include "coloring/verify.h"
#include "tansaku/core/error.h"

namespace tansaku::coloring {

namespace {

int colours_used(const std::vector<int>& c) {
  int m = 0;
  for (int x : c) m = std::max(m, x);
  return m;
}

// Renumbers colours in order of first appearance (1, 2, ...): a deterministic face.
std::vector<int> canonical(std::vector<int> c) {
  std::vector<int> map(c.size() + 2, 0);
  int next = 0;
  for (int& x : c) {
    if (!map[x]) map[x] = ++next;
    x = map[x];
  }
  return c;
}

// Decides "K colours?" with the configured strategy; fills `step` and, if found, `colours`.
// `sat`: the incremental SAT formula, built on first use for K..`lowest` colours and kept
// for the decisions that follow (each asks for fewer colours).
bool decide(const Graph& g, int K, int lowest, const std::vector<int>& clique, const SolverOptions& o,
            const search::Limits& lim, Step& step, std::vector<int>& colours, std::unique_ptr<SatColouring>& sat) {
  step.colors = K;
  if (static_cast<int>(clique.size()) > K) {
    step.by = "clique";
    return step.found = false;
  }
  auto finish = [&](std::vector<int> c, const char* by) {
    verify_colouring(g, c, K);
    colours = canonical(std::move(c));
    step.by = by;
    return step.found = true;
  };
  auto refute = [&](const char* by) {
    step.by = by;
    return step.found = false;
  };
  std::string sat_message;
  auto run_sat = [&]() -> int {  // 1 found, 0 refuted, -1 unavailable (memory)
    if (!sat || !sat->available())
      sat = std::make_unique<SatColouring>(g, std::max<int>(lowest, static_cast<int>(clique.size())), K, lim);
    SatResult s = sat->decide(K, clique, lim);
    sat_message = s.message;
    if (s.status == SatStatus::Sat) return finish(std::move(s.colours), "cadical"), 1;
    if (s.status == SatStatus::Unsat) return refute("cadical"), 0;
    return -1;
  };
  if (o.strategy == Strategy::Sat) {
    int r = run_sat();
    if (r < 0) throw InputError(fmt::format("--algorithm sat: {} (--memory)", sat_message));
    return step.found;
  }
  auto dsatur = [&](std::uint64_t budget) -> int {
    DecideResult d = dsatur_decide(g, K, clique, budget, lim);
    step.nodes += d.nodes;
    if (d.status == Decision::Found) return finish(std::move(d.colours), "dsatur"), 1;
    if (d.status == Decision::None) return refute("dsatur"), 0;
    return -1;
  };
  if (o.strategy == Strategy::Dsatur) return dsatur(UINT64_MAX) == 1;
  // auto
  if (int r = dsatur(o.quick_budget); r >= 0) return r == 1;
  {
    // TabuCol on the K-core (its tables are core size x K <= 2 edges), then the peeled rest.
    Peel p = peel(g, K);
    Graph core = induced(g, p.core, lim.memory);
    // TabuCol's tables: an int and a 64-bit word per vertex and colour.
    require_beside(g, graph_bytes(core) + 12 * static_cast<std::uint64_t>(core.n) * static_cast<std::uint64_t>(K),
                   lim.memory, "the local search (TabuCol)");
    const std::uint64_t iterations =
        std::max<std::uint64_t>(o.tabu_iterations, 200ULL * static_cast<std::uint64_t>(core.n) * static_cast<std::uint64_t>(K));
    if (auto t = tabucol(core, K, dsatur_greedy(core), iterations, 0x5eed + static_cast<unsigned>(K), lim)) {
      std::vector<int> c(static_cast<std::size_t>(g.n), 0);
      for (std::size_t i = 0; i < p.core.size(); ++i) c[p.core[i]] = (*t)[i];
      extend_peeled(g, p, K, c);
      return finish(std::move(c), "tabucol");
    }
  }
  if (lim.deadline) lim.deadline->check();
  if (int r = dsatur(o.dsatur_budget); r >= 0) return r == 1;
  if (int r = run_sat(); r >= 0) return r == 1;
  return dsatur(UINT64_MAX) == 1;
}

}  // namespace

ChromaticResult chromatic_number(const Graph& g, const SolverOptions& o, const search::Limits& lim) {
  ChromaticResult r;
  if (g.n == 0) {
    r.exact = r.clique_exact = true;
    r.lower_by = r.upper_by = "empty graph";
    return r;
  }
  CliqueResult cq = max_clique(g, o.clique_budget, lim);
  verify_clique(g, cq.clique);
  r.clique = cq.clique;
  r.clique_exact = cq.exact;
  r.nodes += cq.nodes;
  r.lower = static_cast<int>(cq.clique.size());
  r.lower_by = "clique";
  r.colouring = canonical(dsatur_greedy(g));
  r.upper = verify_colouring(g, r.colouring, g.n);
  r.upper_by = "dsatur-greedy";
  if (o.strategy != Strategy::Greedy) {
    std::unique_ptr<SatColouring> sat;
    try {
      while (r.lower < r.upper) {
        const int K = r.upper - 1;
        Step step;
        std::vector<int> colours;
        bool found = decide(g, K, r.lower, r.clique, o, lim, step, colours, sat);
        r.nodes += step.nodes;
        r.steps.push_back(step);
        if (found) {
          r.colouring = std::move(colours);
          r.upper = colours_used(r.colouring);
          r.upper_by = step.by;
        } else {
          r.lower = K + 1;
          r.lower_by = step.by;
        }
      }
    } catch (const LimitError& e) {
      throw LimitError(fmt::format("{}: {} <= chromatic number <= {}", e.what(), r.lower, r.upper));
    }
  }
  r.exact = r.lower == r.upper;
  verify_colouring(g, r.colouring, r.upper);
  return r;
}

KResult colour_with(const Graph& g, int K, const SolverOptions& o, const search::Limits& lim) {
  KResult r;
  CliqueResult cq = max_clique(g, o.clique_budget, lim);
  verify_clique(g, cq.clique);
  r.clique = cq.clique;
  r.clique_exact = cq.exact;
  r.nodes += cq.nodes;
  Step step;
  step.colors = K;
  if (static_cast<int>(r.clique.size()) > K) {
    step.by = r.by = "clique";
    r.steps.push_back(step);
    return r;
  }
  auto greedy = canonical(dsatur_greedy(g));
  if (colours_used(greedy) <= K) {
    verify_colouring(g, greedy, K);
    r.found = true;
    r.colouring = std::move(greedy);
    step.found = true;
    step.by = r.by = "greedy";
    r.steps.push_back(step);
    return r;
  }
  if (o.strategy == Strategy::Greedy)
    throw LimitError(fmt::format("--algorithm greedy found no {}-colouring (it needed {}); no proof attempted", K,
                                 colours_used(greedy)));
  try {
    std::unique_ptr<SatColouring> sat;
    r.found = decide(g, K, K, r.clique, o, lim, step, r.colouring, sat);
  } catch (const LimitError& e) {
    throw LimitError(fmt::format("{}: no {}-colouring found yet", e.what(), K));
  }
  r.by = step.by;
  r.nodes += step.nodes;
  r.steps.push_back(step);
  if (r.found) verify_colouring(g, r.colouring, K);
  return r;
}

}  // namespace tansaku::coloring
