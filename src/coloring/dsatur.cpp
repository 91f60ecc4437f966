// DSATUR: the greedy upper bound, the peeling of low-degree vertices off the K-core, and the
// exact branch-and-bound decision "is there a K-colouring?".
#include "coloring/dsatur.h"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <tuple>

namespace tansaku::coloring {

std::vector<int> dsatur_greedy(const Graph& g) {
  const int n = g.n;
  std::vector<int> colour(static_cast<std::size_t>(n), 0), sat(static_cast<std::size_t>(n), 0),
      udeg(static_cast<std::size_t>(n));
  std::vector<std::vector<std::uint64_t>> seen(static_cast<std::size_t>(n));  // neighbour colours
  std::set<std::tuple<int, int, int>> queue;                                 // (-sat, -udeg, v)
  for (int v = 0; v < n; ++v) {
    udeg[v] = static_cast<int>(g.adj[v].size());
    queue.emplace(0, -udeg[v], v);
  }
  std::vector<char> used;
  while (!queue.empty()) {
    const int v = std::get<2>(*queue.begin());
    queue.erase(queue.begin());
    int c = 1;
    const auto& s = seen[v];
    while ((static_cast<std::size_t>(c >> 6) < s.size()) && ((s[c >> 6] >> (c & 63)) & 1)) ++c;
    colour[v] = c;
    for (int u : g.adj[v]) {
      if (colour[u]) continue;
      queue.erase({-sat[u], -udeg[u], u});
      --udeg[u];
      auto& su = seen[u];
      if (su.size() <= static_cast<std::size_t>(c >> 6)) su.resize(static_cast<std::size_t>(c >> 6) + 1, 0);
      if (!((su[c >> 6] >> (c & 63)) & 1)) su[c >> 6] |= std::uint64_t{1} << (c & 63), ++sat[u];
      queue.emplace(-sat[u], -udeg[u], u);
    }
  }
  return colour;
}

Peel peel(const Graph& g, int K) {
  Peel p;
  std::vector<int> deg(static_cast<std::size_t>(g.n));
  std::vector<char> gone(static_cast<std::size_t>(g.n), 0);
  std::vector<int> stack;
  for (int v = 0; v < g.n; ++v) {
    deg[v] = static_cast<int>(g.adj[v].size());
    if (deg[v] < K) stack.push_back(v), gone[v] = 1;
  }
  while (!stack.empty()) {
    int v = stack.back();
    stack.pop_back();
    p.removed.push_back(v);
    for (int u : g.adj[v])
      if (!gone[u] && --deg[u] < K) gone[u] = 1, stack.push_back(u);
  }
  for (int v = 0; v < g.n; ++v)
    if (!gone[v]) p.core.push_back(v);
  return p;
}

void extend_peeled(const Graph& g, const Peel& p, int K, std::vector<int>& colours) {
  std::vector<char> taken(static_cast<std::size_t>(K) + 2);
  for (auto it = p.removed.rbegin(); it != p.removed.rend(); ++it) {
    const int v = *it;
    std::fill(taken.begin(), taken.end(), 0);
    for (int u : g.adj[v])
      if (colours[u] >= 1 && colours[u] <= K) taken[colours[u]] = 1;
    int c = 1;
    while (c <= K && taken[c]) ++c;
    if (c > K) throw std::logic_error("peeled vertex found no free colour");
    colours[v] = c;
  }
}

namespace {

class Decider {
 public:
  Decider(const Graph& h, int K, std::uint64_t budget, const search::Limits& lim)
      : h_(h), K_(K), stride_(static_cast<std::size_t>(K) + 1), budget_(budget), lim_(lim) {
    const auto n = static_cast<std::size_t>(h.n);
    colour_.assign(n, 0);
    sat_.assign(n, 0);
    udeg_.resize(n);
    cnt_.assign(n * stride_, 0);
    pos_.resize(n);
    for (int v = 0; v < h.n; ++v) {
      udeg_[v] = static_cast<int>(h.adj[v].size());
      pos_[v] = static_cast<int>(open_.size());
      open_.push_back(v);
    }
  }

  Decision run(const std::vector<int>& clique) {
    int m = 0;
    for (int v : clique) {
      if (++m > K_) return Decision::None;
      if (!assign(v, m)) return Decision::None;  // a vertex sees K clique colours
    }
    try {
      return rec(m) ? Decision::Found : Decision::None;
    } catch (const OutOfBudget&) {
      return Decision::Budget;
    }
  }
  const std::vector<int>& colours() const { return colour_; }
  std::uint64_t nodes() const { return nodes_; }

 private:
  struct OutOfBudget {};

  // Colours v with c; false if some uncoloured neighbour has no colour left (the
  // assignment is still fully applied so that unassign undoes it exactly).
  bool assign(int v, int c) {
    colour_[v] = c;
    remove_open(v);
    bool ok = true;
    for (int u : h_.adj[v]) {
      --udeg_[u];
      if (cnt_[u * stride_ + c]++ == 0 && ++sat_[u] == K_ && colour_[u] == 0) ok = false;
    }
    return ok;
  }
  void unassign(int v) {
    const int c = colour_[v];
    for (int u : h_.adj[v]) {
      ++udeg_[u];
      if (--cnt_[u * stride_ + c] == 0) --sat_[u];
    }
    colour_[v] = 0;
    add_open(v);
  }
  void remove_open(int v) {
    int i = pos_[v], last = open_.back();
    open_[i] = last, pos_[last] = i;
    open_.pop_back();
  }
  void add_open(int v) {
    pos_[v] = static_cast<int>(open_.size());
    open_.push_back(v);
  }

  bool rec(int m) {
    if (open_.empty()) return true;
    if (++nodes_ > budget_) throw OutOfBudget{};
    if (lim_.deadline) lim_.deadline->poll();
    if (lim_.progress && (nodes_ & 0xffff) == 0) lim_.progress->update("dsatur {} colours: {} nodes", K_, nodes_);
    // Most saturated vertex; ties: most uncoloured neighbours, then lowest number.
    int v = -1, bs = -1, bd = -1;
    for (int u : open_)
      if (sat_[u] > bs || (sat_[u] == bs && (udeg_[u] > bd || (udeg_[u] == bd && u < v))))
        v = u, bs = sat_[u], bd = udeg_[u];
    const int top = std::min(m + 1, K_);
    const std::size_t base = static_cast<std::size_t>(v) * stride_;
    for (int c = 1; c <= top; ++c) {
      if (cnt_[base + c]) continue;
      if (assign(v, c) && rec(std::max(m, c))) return true;
      unassign(v);
    }
    return false;
  }

  const Graph& h_;
  int K_;
  std::size_t stride_;
  std::vector<int> colour_, sat_, udeg_, cnt_, open_, pos_;
  std::uint64_t nodes_ = 0, budget_;
  const search::Limits& lim_;
};

}  // namespace

DecideResult dsatur_decide(const Graph& g, int K, const std::vector<int>& clique, std::uint64_t node_budget,
                           const search::Limits& lim) {
  DecideResult r;
  if (K < 1) {
    r.status = g.n == 0 ? Decision::Found : Decision::None;
    return r;
  }
  if (static_cast<int>(clique.size()) > K) {
    r.status = Decision::None;
    return r;
  }
  Peel p = peel(g, K);
  Graph core = induced(g, p.core, lim.memory);
  // The search's per-vertex tables (Decider) beside the graph and its core.
  require_beside(g, graph_bytes(core) + 4 * static_cast<std::uint64_t>(core.n) * (static_cast<std::uint64_t>(K) + 6),
                 lim.memory, "the exact colouring search");
  std::vector<int> index(static_cast<std::size_t>(g.n), -1);
  for (std::size_t i = 0; i < p.core.size(); ++i) index[p.core[i]] = static_cast<int>(i);
  std::vector<int> core_clique;
  for (int v : clique)
    if (index[v] >= 0) core_clique.push_back(index[v]);
  Decider d(core, K, node_budget, lim);
  r.status = d.run(core_clique);
  r.nodes = d.nodes();
  if (r.status == Decision::Found) {
    r.colours.assign(static_cast<std::size_t>(g.n), 0);
    for (std::size_t i = 0; i < p.core.size(); ++i) r.colours[p.core[i]] = d.colours()[i];
    extend_peeled(g, p, K, r.colours);
  }
  return r;
}

}  // namespace tansaku::coloring
