// Tomita's MCQ maximum clique: branch and bound over vertex bit sets, pruned by a greedy
// colouring bound, within a node budget and the deadline.
#include "coloring/clique.h"

#include <algorithm>
#include <bit>
#include <numeric>

namespace tansaku::coloring {

namespace {

// Works on a copy of the graph renumbered so that bit order = branching order
// (non-increasing degree), which makes the colour classes of the bound tight.
class CliqueSearch {
 public:
  CliqueSearch(const Graph& g, std::uint64_t budget, const search::Limits& lim) : budget_(budget), lim_(lim) {
    order_.resize(static_cast<std::size_t>(g.n));
    std::iota(order_.begin(), order_.end(), 0);
    std::stable_sort(order_.begin(), order_.end(),
                     [&](int a, int b) { return g.adj[a].size() > g.adj[b].size(); });
    h_ = induced(g, order_, lim.memory);
    W_ = h_.words;
  }

  CliqueResult run() {
    CliqueResult r;
    // A greedy clique first, so the bound prunes from the start.
    {
      for (int v = 0; v < h_.n; ++v) {
        bool ok = true;
        for (int w : cur_)
          if (!h_.adjacent(v, w)) { ok = false; break; }
        if (ok) cur_.push_back(v);
      }
      best_ = cur_;
      cur_.clear();
    }
    if (h_.n > 0) {
      buffers_.resize(static_cast<std::size_t>(h_.n) + 2);
      std::vector<std::uint64_t> P(static_cast<std::size_t>(W_), 0);
      for (int v = 0; v < h_.n; ++v) P[v >> 6] |= std::uint64_t{1} << (v & 63);
      try {
        expand(P, 0);
        r.exact = true;
      } catch (const Stop&) {
        r.exact = false;
      }
    } else {
      r.exact = true;
    }
    for (int v : best_) r.clique.push_back(order_[v]);
    std::sort(r.clique.begin(), r.clique.end());
    r.nodes = nodes_;
    return r;
  }

 private:
  struct Stop {};

  void expand(std::vector<std::uint64_t>& P, std::size_t depth) {
    if (++nodes_ > budget_) throw Stop{};
    if (lim_.deadline && lim_.deadline->expired()) throw Stop{};
    // Greedy colouring of P in bit order; vertices with colour >= kmin are branch candidates.
    auto& [U, Q, vs, cs, NP] = buffers_[depth];
    U = P;
    vs.clear();
    cs.clear();
    const int kmin = static_cast<int>(best_.size()) - static_cast<int>(cur_.size()) + 1;
    int k = 0;
    while (any(U)) {
      ++k;
      Q = U;
      for (int w = 0; w < W_; ++w) {
        while (Q[w]) {
          int v = w * 64 + std::countr_zero(Q[w]);
          Q[w] &= Q[w] - 1;
          U[w] &= ~(std::uint64_t{1} << (v & 63));
          const std::uint64_t* row = h_.row(v);
          for (int x = w; x < W_; ++x) Q[x] &= ~row[x];
          if (k >= kmin) vs.push_back(v), cs.push_back(k);
        }
      }
    }
    for (std::size_t i = vs.size(); i-- > 0;) {
      if (static_cast<int>(cur_.size()) + cs[i] <= static_cast<int>(best_.size())) return;
      const int v = vs[i];
      cur_.push_back(v);
      NP.resize(static_cast<std::size_t>(W_));
      const std::uint64_t* row = h_.row(v);
      bool nonempty = false;
      for (int w = 0; w < W_; ++w) nonempty |= (NP[w] = P[w] & row[w]) != 0;
      if (!nonempty) {
        if (cur_.size() > best_.size()) best_ = cur_;
      } else {
        expand(NP, depth + 1);  // deeper levels use their own buffers; NP is rebuilt next turn
      }
      cur_.pop_back();
      P[v >> 6] &= ~(std::uint64_t{1} << (v & 63));
    }
  }

  bool any(const std::vector<std::uint64_t>& s) const {
    for (auto w : s)
      if (w) return true;
    return false;
  }

  struct Buffers {
    std::vector<std::uint64_t> U, Q;
    std::vector<int> vs, cs;
    std::vector<std::uint64_t> NP;
  };

  Graph h_;
  int W_ = 0;
  std::vector<int> order_, cur_, best_;
  std::vector<Buffers> buffers_;
  std::uint64_t nodes_ = 0, budget_;
  const search::Limits& lim_;
};

}  // namespace

CliqueResult max_clique(const Graph& g, std::uint64_t node_budget, const search::Limits& lim) {
  return CliqueSearch(g, node_budget, lim).run();
}

}  // namespace tansaku::coloring
