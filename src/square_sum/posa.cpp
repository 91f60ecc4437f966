#include "square_sum/posa.h"

#include <algorithm>

#include "square_sum/squares.h"
#include "tansaku/core/random.h"

namespace tansaku::square_sum {

namespace {

class Posa {
 public:
  Posa(int n, bool ring, std::uint64_t budget, std::uint64_t seed, Deadline* dl, PosaStats* st)
      : n_(n), ring_(ring), budget_(budget), rng_{seed}, dl_(dl), st_(st) {
    const auto N = static_cast<std::size_t>(n) + 1;
    d_.assign(N, 0);
    pos_.assign(N, -1);
    for (int v = 1; v <= n; ++v) d_[v] = degree(n, v);
    path_.reserve(N);
  }

  std::optional<std::vector<int>> run() {
    // Start at a vertex of least degree (the largest numbers): it is a natural end.
    int start = n_;
    for (int v = n_; v >= 1; --v)
      if (d_[v] < d_[start]) start = v;
    append(start);
    while (static_cast<int>(path_.size()) < n_) {
      if (!spend(1)) return std::nullopt;
      if (int u = best_unvisited(path_.back()); u > 0) {
        append(u);
        continue;
      }
      if (!rotate_to_open_end()) return std::nullopt;
    }
    if (ring_ && n_ >= 3 && !close_ring()) return std::nullopt;
    return path_;
  }

 private:
  bool spend(std::uint64_t w) {
    work_ += w;
    if (dl_ && (++polls_ & 1023) == 0) dl_->check();
    return work_ <= budget_;
  }

  void append(int v) {
    pos_[v] = static_cast<int>(path_.size());
    path_.push_back(v);
    for_each_neighbour(n_, v, [&](int u) { --d_[u]; });
    if (st_) ++st_->steps;
  }

  // Warnsdorff: the unvisited neighbour with fewest unvisited neighbours (ties: larger).
  int best_unvisited(int e) const {
    int best = 0, bd = 1 << 30;
    for_each_neighbour(n_, e, [&](int u) {
      if (pos_[u] < 0 && d_[u] <= bd) best = u, bd = d_[u];
    });
    return best;
  }

  // Reverses path_[i..end]; the old end becomes path_[i].
  bool reverse_tail(std::size_t i) {
    if (!spend(path_.size() - i)) return false;
    std::reverse(path_.begin() + static_cast<std::ptrdiff_t>(i), path_.end());
    for (std::size_t j = i; j < path_.size(); ++j) pos_[path_[j]] = static_cast<int>(j);
    if (st_) ++st_->rotations;
    return true;
  }

  // Stuck: every neighbour of the end is on the path. Rotate until the end has an
  // unvisited neighbour: prefer a rotation that achieves it at once (the cheapest), else
  // a random rotation, and now and then turn the path around to work on the other end.
  bool rotate_to_open_end() {
    for (;;) {
      const int e = path_.back();
      const int k = static_cast<int>(path_.size()) - 1;
      int best_i = -1;
      std::vector<int>& opts = opts_;
      opts.clear();
      for_each_neighbour(n_, e, [&](int u) {
        const int i = pos_[u];
        if (i < 0 || i >= k - 1) return;
        opts.push_back(i);
        if (d_[path_[i + 1]] > 0 && i > best_i) best_i = i;
      });
      if (!spend(opts.size() + 1)) return false;
      if (best_i >= 0) return reverse_tail(static_cast<std::size_t>(best_i) + 1);
      if (d_[path_.front()] > 0 || opts.empty() || rng_.below(8) == 0) {
        if (!reverse_tail(0)) return false;  // the other end
        if (d_[path_.back()] > 0) return true;
        if (opts.empty() && st_) ++st_->restarts;
        continue;
      }
      if (!reverse_tail(static_cast<std::size_t>(opts[rng_.below(opts.size())]) + 1)) return false;
    }
  }

  // A Hamiltonian path whose ends are not adjacent: rotate the end until some rotation
  // leaves it next to the first vertex.
  bool close_ring() {
    for (;;) {
      const int e = path_.back(), f = path_.front();
      if (adjacent(e, f)) return true;
      const int k = static_cast<int>(path_.size()) - 1;
      int close_i = -1;
      opts_.clear();
      for_each_neighbour(n_, e, [&](int u) {
        const int i = pos_[u];
        if (i < 0 || i >= k - 1) return;
        opts_.push_back(i);
        if (adjacent(path_[i + 1], f) && i > close_i) close_i = i;
      });
      if (!spend(opts_.size() + 1)) return false;
      if (close_i >= 0) return reverse_tail(static_cast<std::size_t>(close_i) + 1);
      if (opts_.empty() || rng_.below(4) == 0) {
        if (!reverse_tail(0)) return false;
        continue;
      }
      if (!reverse_tail(static_cast<std::size_t>(opts_[rng_.below(opts_.size())]) + 1)) return false;
    }
  }

  int n_;
  bool ring_;
  std::uint64_t budget_, work_ = 0, polls_ = 0;
  SplitMix64 rng_;
  Deadline* dl_;
  PosaStats* st_;
  std::vector<int> d_, pos_, path_, opts_;
};

}  // namespace

std::optional<std::vector<int>> posa_search(int n, bool ring, std::uint64_t work_budget, std::uint64_t seed,
                                            Deadline* deadline, PosaStats* stats) {
  if (n < 1) return std::nullopt;
  if (n == 1) return ring ? std::nullopt : std::optional<std::vector<int>>(std::vector<int>{1});
  return Posa(n, ring, work_budget, seed, deadline, stats).run();
}

}  // namespace tansaku::square_sum
