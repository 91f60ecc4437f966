// The incremental CaDiCaL encoding of K-colouring: variables and clauses built once for
// colours up to K_max, each K asked by assumptions, a terminator for the deadline.
#include "coloring/sat.h"

#include <algorithm>
#include <climits>

#include <cadical.hpp>
#include <fmt/format.h>

#include "tansaku/core/error.h"
#include "tansaku/core/input.h"

namespace tansaku::coloring {

namespace {
// Stops the solver when the deadline passes (CaDiCaL asks often).
struct DeadlineTerminator final : CaDiCaL::Terminator {
  const Deadline& deadline;
  explicit DeadlineTerminator(const Deadline& d) : deadline(d) {}
  bool terminate() override { return deadline.expired(); }
};
}  // namespace

SatColouring::SatColouring(const Graph& g, int k_min, int k_max, const search::Limits& lim)
    : g_(g),
      k_min_(std::max(k_min, 1)),
      k_max_(std::max(k_max, k_min_)),
      peel_(peel(g, k_min_)),
      core_(graph_bytes(g) + induced_bytes(g, peel_.core) <= lim.memory ? induced(g, peel_.core) : Graph{}) {
  if (core_.n == 0 && !peel_.core.empty()) {
    message_ = "the graph's copy would not fit the memory budget";
    return;
  }
  // The clauses are ~ (edges + 4 vertices) x K_max, of ~ 16 bytes each in CNF text: fall
  // back (Unavailable) when that would not fit the memory budget beside the graph and its core.
  const double bytes = 16.0 * (static_cast<double>(core_.edge_count()) + 4.0 * core_.n) * k_max_ +
                       static_cast<double>(graph_bytes(g) + graph_bytes(core_));
  if (bytes > static_cast<double>(lim.memory)) {
    message_ = "the CNF would not fit the memory budget";
    return;
  }
  if ((2.0 * core_.n + 1) * k_max_ >= static_cast<double>(INT_MAX)) {
    message_ = "too many variables for the SAT solver";
    return;
  }
  solver_ = std::make_unique<CaDiCaL::Solver>();
  solver_->set("quiet", 1);
  const int n = core_.n, K = k_max_;
  vars_ = 2 * n * K + K;
  solver_->reserve(vars_);
  // x(v, c): vertex v has colour c (1..K). Symmetry breaking by colour precedence along the
  // vertices by decreasing degree: colour c may appear at the i-th vertex only if colour c-1
  // appears among the vertices before it. y(i, c) = "colour c appears among the first i+1
  // vertices of the order". Every colouring, its colours renamed in order of first
  // appearance, satisfies this, so no colouring is lost. (Fixing a clique to 1..q instead,
  // or as well with the clique first in the order, made queen8_8's refutation 5x slower.)
  std::vector<int> order(static_cast<std::size_t>(n));
  for (int v = 0; v < n; ++v) order[v] = v;
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return core_.adj[a].size() > core_.adj[b].size(); });
  for (int v = 0; v < n; ++v) {
    for (int c = 1; c <= K; ++c) solver_->add(x(v, c));
    solver_->add(0);
    ++clauses_;
  }
  for (int v = 0; v < n; ++v)
    for (int u : core_.adj[v])
      if (u > v)
        for (int c = 1; c <= K; ++c) clause({-x(v, c), -x(u, c)});
  for (int i = 0; i < n; ++i) {
    const int v = order[i];
    for (int c = 1; c <= K; ++c) {
      if (c > i + 1) clause({-x(v, c)});  // the i-th vertex sees at most i+1 colours
      // y(i, c) <-> y(i-1, c) or x(v, c)
      if (i == 0) {
        clause({-y(i, c), x(v, c)});
      } else {
        clause({-y(i, c), y(i - 1, c), x(v, c)});
        clause({-y(i - 1, c), y(i, c)});
        if (c >= 2) clause({-x(v, c), y(i - 1, c - 1)});  // precedence
      }
      clause({-x(v, c), y(i, c)});
    }
  }
  // The selectors: "colour c is unused" forbids c at every vertex.
  for (int c = 1; c <= K; ++c)
    for (int v = 0; v < n; ++v) clause({-unused(c), -x(v, c)});
}

SatColouring::~SatColouring() = default;

void SatColouring::clause(std::initializer_list<int> lits) {
  for (int l : lits) solver_->add(l);
  solver_->add(0);
  ++clauses_;
}

SatResult SatColouring::decide(int K, const std::vector<int>& clique, const search::Limits& lim) {
  SatResult r;
  if (static_cast<int>(clique.size()) > K) {
    r.status = SatStatus::Unsat;
    return r;
  }
  if (!solver_) {
    r.message = message_;
    return r;
  }
  if (K < k_min_ || K > k_max_)
    throw std::logic_error(fmt::format("SAT colouring: {} colours asked of a formula for {}..{}", K, k_min_, k_max_));
  for (int c = K + 1; c <= k_max_; ++c) solver_->assume(unused(c));
  std::unique_ptr<DeadlineTerminator> stop;
  if (lim.deadline && lim.deadline->active()) {
    stop = std::make_unique<DeadlineTerminator>(*lim.deadline);
    solver_->connect_terminator(stop.get());
  }
  const int answer = solver_->solve();
  if (stop) solver_->disconnect_terminator();
  if (answer == 20) {
    r.status = SatStatus::Unsat;
    return r;
  }
  if (answer != 10) {
    if (lim.deadline && lim.deadline->expired()) throw LimitError("time limit reached (--timeout)");
    r.status = SatStatus::Failed;
    r.message = fmt::format("CaDiCaL answered {}", answer);
    return r;
  }
  std::vector<int> colours(static_cast<std::size_t>(g_.n), 0);
  for (int v = 0; v < core_.n; ++v)
    for (int c = 1; c <= K; ++c)
      if (solver_->val(x(v, c)) > 0) {
        colours[peel_.core[v]] = c;
        break;
      }
  extend_peeled(g_, peel_, K, colours);
  r.status = SatStatus::Sat;
  r.colours = std::move(colours);
  return r;
}

SatResult sat_decide(const Graph& g, int K, const std::vector<int>& clique, const search::Limits& lim) {
  if (static_cast<int>(clique.size()) > K) {
    SatResult r;
    r.status = SatStatus::Unsat;
    return r;
  }
  SatColouring s(g, K, K, lim);
  return s.decide(K, clique, lim);
}

}  // namespace tansaku::coloring
