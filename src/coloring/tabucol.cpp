// TabuCol's local search: each step the best non-tabu recolouring of a conflicting vertex,
// with a dynamic tabu tenure, until no edge conflicts or the iterations run out.
#include "coloring/tabucol.h"

#include <limits>
#include "tansaku/core/random.h"

namespace tansaku::coloring {


std::optional<std::vector<int>> tabucol(const Graph& g, int K, std::vector<int> init, std::uint64_t max_iterations,
                                        std::uint64_t seed, const search::Limits& lim) {
  const int n = g.n;
  if (n == 0) return init;
  if (K < 1) return std::nullopt;
  SplitMix64 rng{seed};
  const auto N = static_cast<std::size_t>(n), KK = static_cast<std::size_t>(K);
  std::vector<int> c(N);
  for (int v = 0; v < n; ++v) c[v] = (init[v] >= 1 && init[v] <= K) ? init[v] - 1 : static_cast<int>(rng.below(KK));
  std::vector<int> gamma(N * KK, 0);
  std::vector<std::uint64_t> tabu(N * KK, 0);
  long long f = 0;
  for (int v = 0; v < n; ++v)
    for (int u : g.adj[v]) {
      ++gamma[v * KK + c[u]];
      if (u > v && c[u] == c[v]) ++f;
    }
  // Conflicting vertices, kept as a set with positions.
  std::vector<int> conf, where(N, -1);
  auto refresh = [&](int v) {
    bool in = gamma[v * KK + c[v]] > 0;
    if (in && where[v] < 0) where[v] = static_cast<int>(conf.size()), conf.push_back(v);
    else if (!in && where[v] >= 0) {
      int last = conf.back();
      conf[where[v]] = last, where[last] = where[v];
      conf.pop_back();
      where[v] = -1;
    }
  };
  for (int v = 0; v < n; ++v) refresh(v);
  long long best_f = f;
  for (std::uint64_t it = 1; it <= max_iterations; ++it) {
    if (f == 0) {
      for (auto& x : c) ++x;
      return c;
    }
    if (lim.deadline && (it & 1023) == 0 && lim.deadline->expired()) return std::nullopt;
    int bv = -1, bk = -1, seen = 0;
    long long bd = std::numeric_limits<long long>::max();
    for (int v : conf) {
      const int* gv = &gamma[v * KK];
      const int cur = gv[c[v]];
      for (int k = 0; k < K; ++k) {
        if (k == c[v]) continue;
        long long d = gv[k] - cur;
        if (d > bd) continue;
        bool is_tabu = tabu[v * KK + k] > it;
        if (is_tabu && f + d >= best_f) continue;  // aspiration: accept only improvements
        if (d < bd) bd = d, bv = v, bk = k, seen = 1;
        else if (rng.below(static_cast<std::uint64_t>(++seen)) == 0) bv = v, bk = k;
      }
    }
    if (bv < 0) {  // everything tabu: random move of a conflicting vertex
      bv = conf[rng.below(conf.size())];
      bk = static_cast<int>(rng.below(KK));
      if (bk == c[bv]) bk = (bk + 1) % K;
      bd = gamma[bv * KK + bk] - gamma[bv * KK + c[bv]];
    }
    const int old = c[bv];
    c[bv] = bk;
    for (int u : g.adj[bv]) {
      --gamma[u * KK + old];
      ++gamma[u * KK + bk];
      refresh(u);
    }
    refresh(bv);
    f += bd;
    tabu[bv * KK + old] = it + rng.below(10) + static_cast<std::uint64_t>(0.6 * static_cast<double>(conf.size()));
    if (f < best_f) best_f = f;
  }
  if (f == 0) {
    for (auto& x : c) ++x;
    return c;
  }
  return std::nullopt;
}

}  // namespace tansaku::coloring
