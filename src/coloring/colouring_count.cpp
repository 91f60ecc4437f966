// Counting and listing the proper K-colourings, one connected component at a time, colours
// taken in order of first use.
#include "coloring/colouring_count.h"

#include <algorithm>

#include <fmt/format.h>

#include "tansaku/core/error.h"

namespace tansaku::coloring {

namespace {

// Static order for one component: start at the vertex of largest degree, then always the
// vertex with most already-ordered neighbours (ties: larger degree), so that colour
// constraints bite as early as possible.
std::vector<int> constraint_order(const Graph& g, const std::vector<int>& comp) {
  std::vector<int> order, links(static_cast<std::size_t>(g.n), 0);
  std::vector<char> placed(static_cast<std::size_t>(g.n), 0);
  std::vector<int> left = comp;
  while (!left.empty()) {
    std::size_t bi = 0;
    for (std::size_t i = 1; i < left.size(); ++i) {
      int a = left[i], b = left[bi];
      if (links[a] > links[b] || (links[a] == links[b] && g.adj[a].size() > g.adj[b].size())) bi = i;
    }
    int v = left[bi];
    left.erase(left.begin() + static_cast<std::ptrdiff_t>(bi));
    placed[v] = 1;
    order.push_back(v);
    for (int u : g.adj[v]) ++links[u];
  }
  return order;
}

std::vector<std::vector<int>> components(const Graph& g) {
  std::vector<std::vector<int>> out;
  std::vector<char> seen(static_cast<std::size_t>(g.n), 0);
  for (int s = 0; s < g.n; ++s) {
    if (seen[s]) continue;
    std::vector<int> comp{s};
    seen[s] = 1;
    for (std::size_t i = 0; i < comp.size(); ++i)
      for (int u : g.adj[comp[i]])
        if (!seen[u]) seen[u] = 1, comp.push_back(u);
    std::sort(comp.begin(), comp.end());
    out.push_back(std::move(comp));
  }
  return out;
}

class Counter {
 public:
  Counter(const Graph& g, const std::vector<int>& order, int K, const search::Limits& lim)
      : g_(g),
        order_(order),
        K_(K),
        lim_(lim),
        colour_(static_cast<std::size_t>(g.n), 0),
        by_m_(std::min(static_cast<std::size_t>(K), order.size()) + 1, 0) {}
  void run() { rec(0, 0); }
  const std::vector<std::uint64_t>& by_colours_used() const { return by_m_; }
  std::uint64_t nodes() const { return nodes_; }

 private:
  void rec(std::size_t i, int m) {
    if (i == order_.size()) {
      ++by_m_[m];
      return;
    }
    ++nodes_;
    if (lim_.deadline) lim_.deadline->poll();
    if (lim_.progress && (nodes_ & 0xfffff) == 0) lim_.progress->update("counting {}-colourings: {} nodes", K_, nodes_);
    const int v = order_[i];
    const int top = std::min(m + 1, K_);
    for (int c = 1; c <= top; ++c) {
      bool ok = true;
      for (int u : g_.adj[v])
        if (colour_[u] == c) {
          ok = false;
          break;
        }
      if (!ok) continue;
      colour_[v] = c;
      rec(i + 1, std::max(m, c));
      colour_[v] = 0;
    }
  }
  const Graph& g_;
  const std::vector<int>& order_;
  int K_;
  const search::Limits& lim_;
  std::vector<int> colour_;
  std::vector<std::uint64_t> by_m_;
  std::uint64_t nodes_ = 0;
};

}  // namespace

CountResult count_colourings(const Graph& g, int K, const search::Limits& lim) {
  CountResult r;
  r.total = 1;
  if (K < 0) K = 0;
  for (const auto& comp : components(g)) {
    if (comp.size() == 1) {
      r.total *= static_cast<unsigned long>(K);
      continue;
    }
    auto order = constraint_order(g, comp);
    Counter c(g, order, K, lim);
    c.run();
    r.nodes += c.nodes();
    mpz_class comp_total = 0, falling = 1;  // falling: K (K-1) ... (K-m+1)
    const auto& by_m = c.by_colours_used();
    int top = static_cast<int>(by_m.size()) - 1;
    while (top > 0 && by_m[top] == 0) --top;  // K may far exceed the vertices
    for (int m = 1; m <= top; ++m) {
      falling *= static_cast<unsigned long>(K - m + 1);
      comp_total += to_mpz(by_m[m]) * falling;
    }
    r.total *= comp_total;
    if (r.total == 0) break;
  }
  return r;
}

std::vector<std::vector<int>> all_colourings(const Graph& g, int K, std::uint64_t limit, const search::Limits& lim,
                                             std::uint64_t* nodes) {
  std::vector<std::vector<int>> out;
  std::vector<int> colour(static_cast<std::size_t>(g.n), 0);
  std::uint64_t count = 0;
  auto rec = [&](auto&& self, int v) -> void {
    if (v == g.n) {
      if (out.size() >= limit)
        throw LimitError(fmt::format("more than {} colourings: too many to list (use --count)", limit));
      out.push_back(colour);
      return;
    }
    ++count;
    if (lim.deadline) lim.deadline->poll();
    for (int c = 1; c <= K; ++c) {
      bool ok = true;
      for (int u : g.adj[v])
        if (u < v && colour[u] == c) {
          ok = false;
          break;
        }
      if (!ok) continue;
      colour[v] = c;
      self(self, v + 1);
      colour[v] = 0;
    }
  };
  rec(rec, 0);
  if (nodes) *nodes = count;
  return out;
}

}  // namespace tansaku::coloring
