// The square-sum solver table (--algorithm): the exact search, the Warnsdorff + Posa heuristic,
// and the default that tries one then the other.
#include "square_sum/solver.h"

#include <fmt/format.h>

#include "square_sum/squares.h"
#include "square_sum/verify.h"
#include "tansaku/core/error.h"

namespace tansaku::square_sum {

namespace {
constexpr int kExactFirst = 2000;           // the default tries the exact search first up to this N
constexpr std::uint64_t kExactBudget = 100000;  // ... within this many moves

std::uint64_t posa_budget(int n) { return 200ULL * static_cast<std::uint64_t>(n) + 20000000ULL; }

// A found row / ring: verified, then in its canonical orientation (verified again).
FindResult found(int n, bool ring, std::vector<int> seq, const char* method, std::uint64_t nodes) {
  FindResult r;
  verify_sequence(n, seq, ring);
  r.found = true;
  r.sequence = canonical(std::move(seq), ring);
  verify_sequence(n, r.sequence, ring);
  r.method = method;
  r.nodes = nodes;
  return r;
}

// The exact search without a budget: a row / ring or a proof that none exists.
FindResult find_exact(int n, bool ring, const search::Limits& lim) {
  SearchOptions o;
  o.ring = ring;
  SearchResult s = search(n, o, lim);
  if (s.status == Status::Found) return found(n, ring, std::move(s.sequence), "dfs", s.nodes);
  FindResult r;
  r.method = "dfs";
  r.nodes = s.nodes;
  return r;
}

// The heuristic alone: a row / ring, or a LimitError (its failure proves nothing).
FindResult find_heuristic(int n, bool ring, const search::Limits& lim) {
  graph::PosaStats st;
  auto p = posa_search(n, ring, posa_budget(n), 1, lim, &st);
  if (!p)
    throw LimitError(fmt::format("warnsdorff+posa found no {} of 1..{} within its budget; that does not prove that "
                                 "none exists (try --algorithm dfs)",
                                 ring ? "ring" : "row", n));
  return found(n, ring, std::move(*p), "warnsdorff+posa", st.steps + st.rotations);
}

using Finder = FindResult (*)(int n, bool ring, const search::Limits& lim);

// The question answered with `find`: the N asked, or each N up from the least possible
// until one has a row / ring; then, when asked, their count or list by the exact search.
Answer answer(Finder find, const Question& q, const search::Limits& lim) {
  Answer a;
  if (q.n > 0) {
    a.n = q.n;
    a.found = find(q.n, q.ring, lim);
    a.nodes += a.found.nodes;
  } else {
    for (a.n = q.ring ? 3 : 2;; ++a.n) {  // a row needs a pair, a ring three numbers
      a.found = find(a.n, q.ring, lim);
      a.nodes += a.found.nodes;
      if (a.found.found) break;
      a.none_for.push_back(a.n);
    }
  }
  if (q.mode != Mode::First) {
    SearchOptions so;
    so.mode = q.mode;
    so.ring = q.ring;
    a.listed = search(a.n, so, lim);
    a.nodes += a.listed->nodes;
  }
  return a;
}

}  // namespace

std::optional<std::vector<int>> posa_search(int n, bool ring, std::uint64_t work_budget, std::uint64_t seed,
                                            const search::Limits& lim, graph::PosaStats* stats) {
  if (n < 1) return std::nullopt;
  if (n == 1) return ring ? std::nullopt : std::optional<std::vector<int>>(std::vector<int>{1});
  const SquareSumGraph g{n};
  graph::PosaStats local;
  graph::WarnsdorffPosa<SquareSumGraph> w(g, stats ? *stats : local);
  graph::PosaOptions o;
  o.keep_first = false;
  o.work = work_budget;
  o.seed = seed;
  if (!w.walk(-1, [](int v) { return v; }, o, lim)) return std::nullopt;  // ties: the larger number
  if (ring && n >= 3 && !w.close(o, lim)) return std::nullopt;
  std::vector<int> seq(w.path());
  for (int& v : seq) ++v;
  return seq;
}

std::uint64_t search_bytes(std::uint64_t n) { return 24 * (n + 1) + (1 << 20); }

FindResult find_sequence(int n, bool ring, const search::Limits& lim) {
  std::uint64_t nodes = 0;
  SearchOptions o;
  o.ring = ring;
  // Small N: the exact search first (it also proves "none"); large N: the heuristic first.
  if (n <= kExactFirst) {
    o.node_budget = kExactBudget;
    SearchResult s = search(n, o, lim);
    nodes += s.nodes;
    if (s.status == Status::Found) return found(n, ring, std::move(s.sequence), "dfs", nodes);
    if (s.status == Status::None) {
      FindResult r;
      r.method = "dfs";
      r.nodes = nodes;
      return r;
    }
  }
  graph::PosaStats st;
  auto p = posa_search(n, ring, posa_budget(n), 1, lim, &st);
  nodes += st.steps + st.rotations;
  if (p) return found(n, ring, std::move(*p), "warnsdorff+posa", nodes);
  FindResult r = find_exact(n, ring, lim);
  r.nodes += nodes;
  return r;
}

const SolverTable<Question, Answer>& solvers() {
  static const SolverTable<Question, Answer> table = {
      {{"auto", {},
        "the exact search within 100,000 moves for N <= 2000 (it also proves none), then warnsdorff+posa, then the "
        "exact search without a bound; --count and --all by the exact search (default)",
        kSolve, /*all=*/true, /*count=*/true},
       nullptr, nullptr, [](const Question& q, const search::Limits& lim) { return answer(find_sequence, q, lim); }},
      {{"dfs", {"exact", "backtracking"},
        "the exact search alone (backtracking in Warnsdorff order with dead-end pruning): a row or ring, or a proof "
        "that none exists; --count, --all",
        kSolve, /*all=*/true, /*count=*/true},
       nullptr, nullptr, [](const Question& q, const search::Limits& lim) { return answer(find_exact, q, lim); }},
      {{"warnsdorff+posa", {"posa", "warnsdorff", "heuristic"},
        "Warnsdorff's rule repaired by Posa rotations alone: one row or ring of a large N fast, never a proof that "
        "none exists (needs --n)"},
       [](const Question& q) -> std::string {
         return q.n > 0 ? "" : "a heuristic cannot prove that smaller N have none: give --n N";
       },
       nullptr, [](const Question& q, const search::Limits& lim) { return answer(find_heuristic, q, lim); }},
  };
  return table;
}

}  // namespace tansaku::square_sum
