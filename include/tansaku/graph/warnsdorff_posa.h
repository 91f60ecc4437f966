// Hamiltonian paths and cycles of large graphs, fast: Warnsdorff's rule (always to the
// unvisited neighbour with the fewest unvisited neighbours) repaired by Posa rotations when
// the walk is stuck (the end's neighbour p[i] on the path makes p[i+1] the new end after
// reversing p[i+1..]), and a path closed into a cycle by the same rotations. A heuristic:
// it never proves that none exists. Works on implicit graphs (a 1000 x 1000 board's moves,
// the graph of the numbers up to 100,000 joined when they sum to a square) in a fraction of
// a second. PosaOptions are the walk's own knobs (its work budget
// included: a caller tries several walks); the deadline comes as search::Limits.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "tansaku/core/random.h"
#include "tansaku/graph/graph.h"
#include "tansaku/search/limits.h"

namespace tansaku::graph {

struct PosaStats {
  std::uint64_t steps = 0;      // vertices placed, including re-extensions after repairs
  std::uint64_t rotations = 0;  // Posa rotations (path reversals)
  int attempts = 0;             // walks started
};

struct PosaOptions {
  // The first vertex stays first (a path from a given vertex). Otherwise the walk may turn
  // the whole path around and go on from its other end (now and then, and whenever that
  // end can still move).
  bool keep_first = true;
  std::uint64_t rotations = UINT64_MAX;  // rotations allowed per walk and per closing
  std::uint64_t work = UINT64_MAX;       // per walk / closing: moves, scanned neighbours, reversed entries
  std::uint64_t seed = 0;                // random rotations when none helps at once
};

// Reusable buffers for many walks on one graph (several tie-breaks or first vertices).
template <Graph G>
class WarnsdorffPosa {
 public:
  WarnsdorffPosa(const G& g, PosaStats& stats) : g_(g), n_(static_cast<int>(g.size())), stats_(stats) {}

  // A path from `start` (start < 0: from a vertex of least degree, the last such, a natural
  // end): Warnsdorff's rule, ties to the larger key(v) (an unsigned 64-bit value), then to
  // the first in the graph's neighbour order; rotations when it stalls. True when it covers
  // the graph. Polls lim.deadline.
  template <class Key>
  bool walk(int start, Key&& key, const PosaOptions& o, const search::Limits& lim = {}) {
    ++stats_.attempts;
    o_ = &o;
    lim_ = &lim;
    rng_ = SplitMix64{o.seed};
    path_.clear();
    path_.reserve(n_);
    // Filled here, not in the constructor: on 10^8 vertices touching these pages takes
    // seconds, and the deadline is polled while it is done.
    pos_.clear(), d_.clear();
    pos_.reserve(static_cast<std::size_t>(n_)), d_.reserve(static_cast<std::size_t>(n_));
    for (int v = 0; v < n_; ++v) {
      if (lim.deadline) lim.deadline->poll();
      pos_.push_back(-1);
      d_.push_back(g_.degree(v));
    }
    if (start < 0) {
      start = n_ - 1;
      for (int v = n_ - 1; v >= 0; --v)
        if (d_[v] < d_[start]) start = v;
    }
    work_ = rotations_ = 0;
    place(start);
    extend(key);
    while (static_cast<int>(path_.size()) < n_) {
      const int k = static_cast<int>(path_.size()) - 1;
      int good = -1;
      opts_.clear();
      g_.for_each_neighbor(path_.back(), [&](int u) {
        const int i = pos_[u];
        if (i < 0 || i >= k - 1) return;
        opts_.push_back(i);
        if (d_[path_[i + 1]] > 0) good = std::max(good, i);
      });
      if (!spend(opts_.size() + 1)) return false;
      if (good >= 0) {  // the new end can move on
        if (!rotate(good + 1)) return false;
        extend(key);
        continue;
      }
      if (!o.keep_first && (d_[path_.front()] > 0 || opts_.empty() || rng_.below(8) == 0)) {
        if (!rotate(0)) return false;  // work on the other end
        extend(key);
        continue;
      }
      if (opts_.empty() || !rotate(pick() + 1)) return false;
    }
    return true;
  }

  // Rotations of the end of a complete path until it is adjacent to the first vertex.
  bool close(const PosaOptions& o, const search::Limits& lim = {}) {
    o_ = &o;
    lim_ = &lim;
    rng_ = SplitMix64{o.seed};
    work_ = rotations_ = 0;
    for (;;) {
      const int f = path_.front();
      if (g_.adjacent(path_.back(), f)) return true;
      const int k = static_cast<int>(path_.size()) - 1;
      int win = -1;
      opts_.clear();
      g_.for_each_neighbor(path_.back(), [&](int u) {
        const int i = pos_[u];
        if (i < 0 || i >= k - 1) return;
        opts_.push_back(i);
        if (g_.adjacent(path_[i + 1], f)) win = std::max(win, i);
      });
      if (!spend(opts_.size() + 1)) return false;
      if (win >= 0) return rotate(win + 1);
      if (!o.keep_first && (opts_.empty() || rng_.below(4) == 0)) {
        if (!rotate(0)) return false;
        continue;
      }
      if (opts_.empty() || !rotate(pick() + 1)) return false;
    }
  }

  std::vector<int>& path() { return path_; }

 private:
  bool spend(std::uint64_t w) {
    work_ += w;
    // poll() reads the clock once in 4096 calls: a step as large as that (a rotation that
    // reverses much of a path of 10^8 vertices) reads it at once.
    if (lim_->deadline) w >= 4096 ? lim_->deadline->check() : lim_->deadline->poll();
    return work_ <= o_->work;
  }
  // A random rotation when none helps at once: half the time the shortest reversal.
  int pick() {
    if (rng_.next() & 1) return *std::max_element(opts_.begin(), opts_.end());
    return opts_[rng_.below(opts_.size())];
  }
  void place(int v) {
    pos_[v] = static_cast<int>(path_.size());
    path_.push_back(v);
    g_.for_each_neighbor(v, [&](int u) { --d_[u]; });  // d_: unvisited neighbours, of every vertex
    ++stats_.steps;
  }
  template <class Key>
  void extend(Key& key) {
    for (;;) {
      // Fewest onward moves, then the larger key, then the first: the largest score wins
      // (one comparison, no data-dependent branch to mispredict).
      int best = -1;
      unsigned __int128 best_score = 0;
      g_.for_each_neighbor(path_.back(), [&](int u) {
        if (pos_[u] >= 0) return;
        const auto score = static_cast<unsigned __int128>(0xffffffffu - static_cast<std::uint32_t>(d_[u])) << 64 |
                           static_cast<std::uint64_t>(key(u));
        if (score > best_score) best = u, best_score = score;
      });
      if (best < 0) return;
      if (!spend(1)) return;  // the caller sees the budget spent at its next step
      place(best);
    }
  }
  // Reverses path_[i..]: the end becomes path_[i] (i = 0 turns the whole path around).
  bool rotate(int i) {
    if (++rotations_ > o_->rotations || !spend(path_.size() - static_cast<std::size_t>(i))) return false;
    ++stats_.rotations;
    std::reverse(path_.begin() + i, path_.end());
    for (std::size_t j = static_cast<std::size_t>(i); j < path_.size(); ++j) pos_[path_[j]] = static_cast<int>(j);
    return true;
  }

  const G& g_;
  int n_;
  PosaStats& stats_;
  const PosaOptions* o_ = nullptr;
  const search::Limits* lim_ = nullptr;  // of the running walk or closing
  std::vector<int> d_, pos_, path_, opts_;
  std::uint64_t work_ = 0, rotations_ = 0;
  SplitMix64 rng_;
};

}  // namespace tansaku::graph
