// Checks that a colouring is proper and uses at most K colours, and that a clique is one,
// before either is reported.
#include "coloring/verify.h"

#include <set>
#include <stdexcept>

#include <fmt/format.h>

namespace tansaku::coloring {

int verify_colouring(const Graph& g, const std::vector<int>& colours, int K) {
  if (colours.size() != static_cast<std::size_t>(g.n))
    throw std::logic_error(fmt::format("colouring has {} entries for {} vertices", colours.size(), g.n));
  std::set<int> used;
  for (int v = 0; v < g.n; ++v) {
    if (colours[v] < 1 || colours[v] > K)
      throw std::logic_error(fmt::format("vertex {} has colour {} outside 1..{}", g.names[v], colours[v], K));
    used.insert(colours[v]);
    for (int u : g.adj[v])
      if (colours[u] == colours[v])
        throw std::logic_error(fmt::format("adjacent vertices {} and {} share colour {}", g.names[v], g.names[u], colours[v]));
  }
  return static_cast<int>(used.size());
}

void verify_clique(const Graph& g, const std::vector<int>& clique) {
  for (std::size_t i = 0; i < clique.size(); ++i) {
    if (clique[i] < 0 || clique[i] >= g.n) throw std::logic_error("clique vertex out of range");
    for (std::size_t j = 0; j < i; ++j)
      if (clique[i] == clique[j] || !g.adjacent(clique[i], clique[j]))
        throw std::logic_error(fmt::format("vertices {} and {} of the clique are not adjacent", g.names[clique[i]],
                                           g.names[clique[j]]));
  }
}

}  // namespace tansaku::coloring
