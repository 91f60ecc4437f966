#include "square_sum/solver.h"

#include "square_sum/path_search.h"
#include "square_sum/squares.h"
#include "square_sum/verify.h"

namespace tansaku::square_sum {

namespace {
constexpr int kExactFirst = 2000;
}

std::optional<std::vector<int>> posa_search(int n, bool ring, std::uint64_t work_budget, std::uint64_t seed,
                                            Deadline* deadline, graph::PosaStats* stats) {
  if (n < 1) return std::nullopt;
  if (n == 1) return ring ? std::nullopt : std::optional<std::vector<int>>(std::vector<int>{1});
  const SquareSumGraph g{n};
  graph::PosaStats local;
  graph::WarnsdorffPosa<SquareSumGraph> w(g, stats ? *stats : local);
  graph::PosaOptions o;
  o.keep_first = false;
  o.work = work_budget;
  o.seed = seed;
  o.deadline = deadline;
  if (!w.walk(-1, [](int v) { return v; }, o)) return std::nullopt;  // ties: the larger number
  if (ring && n >= 3 && !w.close(o)) return std::nullopt;
  std::vector<int> seq(w.path());
  for (int& v : seq) ++v;
  return seq;
}

std::uint64_t search_bytes(std::uint64_t n) { return 24 * (n + 1) + (1 << 20); }

FindResult find_sequence(int n, bool ring, Deadline* deadline, Progress* progress) {
  FindResult r;
  auto done = [&](std::vector<int> seq, const char* method) {
    verify_sequence(n, seq, ring);
    r.found = true;
    r.sequence = canonical(std::move(seq), ring);
    verify_sequence(n, r.sequence, ring);
    r.method = method;
    return r;
  };
  SearchOptions o;
  o.ring = ring;
  o.deadline = deadline;
  o.progress = progress;
  // Small N: the exact search first (it also proves "none"); large N: the heuristic first.
  if (n <= kExactFirst) {
    o.node_budget = 100000;
    SearchResult s = search(n, o);
    r.nodes += s.nodes;
    if (s.status == Status::Found) return done(std::move(s.sequence), "dfs");
    if (s.status == Status::None) {
      r.method = "dfs";
      return r;
    }
  }
  graph::PosaStats st;
  auto p = posa_search(n, ring, 200ULL * static_cast<std::uint64_t>(n) + 20000000ULL, 1, deadline, &st);
  r.nodes += st.steps + st.rotations;
  if (p) return done(std::move(*p), "warnsdorff+posa");
  o.node_budget = UINT64_MAX;
  SearchResult s = search(n, o);
  r.nodes += s.nodes;
  if (s.status == Status::Found) return done(std::move(s.sequence), "dfs");
  r.method = "dfs";
  return r;
}

}  // namespace tansaku::square_sum
