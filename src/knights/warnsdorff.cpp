#include "knights/warnsdorff.h"

#include <algorithm>
#include <random>

namespace tansaku::knights {
namespace {

enum class Tie { Edge, Centre, Random };

class Walker {
 public:
  Walker(const Board& b, Deadline* deadline, WarnsdorffStats& stats)
      : b_(b), n_(b.squares()), deadline_(deadline), stats_(stats), deg_(n_), pos_(n_) {}

  // A path from `start` by Warnsdorff's rule, repaired by rotations when it stalls.
  // True when it covers the board.
  bool build(std::int64_t start, Tie tie, std::uint64_t seed) {
    ++stats_.attempts;
    tie_ = tie, seed_ = seed;
    rng_.seed(seed);
    path_.clear();
    path_.reserve(n_);
    std::fill(pos_.begin(), pos_.end(), -1);
    for (std::int64_t s = 0; s < n_; ++s) deg_[s] = static_cast<std::uint8_t>(b_.degree(s));
    place(start);
    extend();
    // Repairs: rotate the free end until it can move on, then continue.
    std::uint64_t budget_rot = 2000, budget_work = 20 * static_cast<std::uint64_t>(n_) + 1000000, work = 0;
    while (static_cast<std::int64_t>(path_.size()) < n_) {
      if (budget_rot-- == 0 || work > budget_work) return false;
      const std::int64_t k = static_cast<std::int64_t>(path_.size()) - 1;
      std::int64_t cand[8], good = -1;
      int nc = 0;
      b_.for_each_neighbor(path_.back(), [&](std::int64_t u) {
        const std::int64_t i = pos_[u];
        if (i < 0 || i >= k - 1) return;
        cand[nc++] = i;
        if (has_free_neighbor(path_[i + 1])) good = std::max(good, i);
      });
      if (nc == 0) return false;
      if (good >= 0) {
        work += rotate(good);
        extend();
        continue;
      }
      work += rotate(pick(cand, nc));
    }
    return true;
  }

  // Rotations of the end until it is a knight's move from the first square.
  bool close() {
    const std::int64_t s = path_.front();
    std::uint64_t budget_rot = 5000, budget_work = 20 * static_cast<std::uint64_t>(n_) + 1000000, work = 0;
    while (!b_.adjacent(path_.back(), s)) {
      if (budget_rot-- == 0 || work > budget_work) return false;
      const std::int64_t k = static_cast<std::int64_t>(path_.size()) - 1;
      std::int64_t cand[8], win = -1;
      int nc = 0;
      b_.for_each_neighbor(path_.back(), [&](std::int64_t u) {
        const std::int64_t i = pos_[u];
        if (i >= k - 1) return;
        cand[nc++] = i;
        if (b_.adjacent(path_[i + 1], s)) win = std::max(win, i);
      });
      if (win >= 0) {
        work += rotate(win);
        continue;
      }
      if (nc == 0) return false;
      work += rotate(pick(cand, nc));
    }
    return true;
  }

  std::vector<std::int32_t>& path() { return path_; }

 private:
  // A random rotation when none helps at once: half the time the shortest reversal.
  std::int64_t pick(const std::int64_t* cand, int nc) {
    if (rng_() & 1) return *std::max_element(cand, cand + nc);
    return cand[rng_() % static_cast<unsigned>(nc)];
  }

  std::uint64_t key(std::int64_t sq) const {
    const std::int64_t dr = 2 * b_.row(sq) - (b_.rows() - 1), dc = 2 * b_.col(sq) - (b_.cols() - 1);
    const auto d = static_cast<std::uint64_t>(dr * dr + dc * dc);
    switch (tie_) {
      case Tie::Edge: return d;
      case Tie::Centre: return ~d;
      case Tie::Random: {
        std::uint64_t x = static_cast<std::uint64_t>(sq) * 0x9E3779B97F4A7C15ull + seed_;
        x ^= x >> 31;
        x *= 0xBF58476D1CE4E5B9ull;
        return x ^ (x >> 29);
      }
    }
    return d;
  }
  void place(std::int64_t sq) {
    pos_[sq] = static_cast<std::int32_t>(path_.size());
    path_.push_back(static_cast<std::int32_t>(sq));
    b_.for_each_neighbor(sq, [&](std::int64_t t) {
      if (pos_[t] < 0) --deg_[t];
    });
    ++stats_.steps;
  }
  bool has_free_neighbor(std::int64_t sq) const {
    bool any = false;
    b_.for_each_neighbor(sq, [&](std::int64_t t) { any |= pos_[t] < 0; });
    return any;
  }
  void extend() {
    for (;;) {
      if (deadline_) deadline_->poll();
      std::int64_t best = -1;
      int best_deg = 99;
      std::uint64_t best_key = 0;
      b_.for_each_neighbor(path_.back(), [&](std::int64_t t) {
        if (pos_[t] >= 0) return;
        const int d = deg_[t];
        if (d > best_deg) return;
        const std::uint64_t k = key(t);
        if (d < best_deg || k > best_key) best = t, best_deg = d, best_key = k;
      });
      if (best < 0) return;
      place(best);
    }
  }
  // path[i] is next to the end: reverse path[i+1..] so the end becomes path[i+1].
  std::uint64_t rotate(std::int64_t i) {
    ++stats_.rotations;
    if (deadline_) deadline_->check();
    std::reverse(path_.begin() + i + 1, path_.end());
    for (std::size_t j = static_cast<std::size_t>(i + 1); j < path_.size(); ++j) pos_[path_[j]] = static_cast<std::int32_t>(j);
    return path_.size() - static_cast<std::size_t>(i);
  }

  const Board& b_;
  std::int64_t n_;
  Deadline* deadline_;
  WarnsdorffStats& stats_;
  std::vector<std::uint8_t> deg_;
  std::vector<std::int32_t> pos_;
  std::vector<std::int32_t> path_;
  Tie tie_ = Tie::Edge;
  std::uint64_t seed_ = 0;
  std::mt19937_64 rng_;
};

const char* tie_name(Tie t) {
  switch (t) {
    case Tie::Edge: return "ties towards the edge";
    case Tie::Centre: return "ties towards the centre";
    case Tie::Random: return "random ties";
  }
  return "";
}

struct Try {
  Tie tie;
  std::uint64_t seed;
};
// Roth's rule, the opposite rule, then random tie-breaks (which also reseed the random
// rotations): more of them on small boards, where a run is cheap.
std::vector<Try> tries(std::int64_t squares) {
  std::vector<Try> t = {{Tie::Edge, 0}, {Tie::Random, 1}, {Tie::Centre, 0}};
  const std::int64_t extra = std::clamp<std::int64_t>(4'000'000 / std::max<std::int64_t>(squares, 1), 5, 125);
  for (std::int64_t k = 0; k < extra; ++k) t.push_back({Tie::Random, static_cast<std::uint64_t>(k + 2)});
  return t;
}

// Squares near the centre, nearest first (Roth's walk ends near the centre, so a walk
// started there ends next to its first square more often than not).
std::vector<std::int64_t> central_squares(const Board& b, int count) {
  std::vector<std::int64_t> out;
  const int r0 = (b.rows() - 1) / 2, c0 = (b.cols() - 1) / 2;
  for (int radius = 0; static_cast<int>(out.size()) < count && radius <= std::max(b.rows(), b.cols()); ++radius)
    for (int dr = -radius; dr <= radius; ++dr)
      for (int dc = -radius; dc <= radius; ++dc) {
        if (std::max(std::abs(dr), std::abs(dc)) != radius || !b.inside(r0 + dr, c0 + dc)) continue;
        if (static_cast<int>(out.size()) < count) out.push_back(static_cast<std::int64_t>(r0 + dr) * b.cols() + c0 + dc);
      }
  return out;
}

}  // namespace

std::optional<std::vector<std::int32_t>> warnsdorff_tour(const Board& b, std::int64_t from, bool closed,
                                                         Deadline* deadline, WarnsdorffStats* stats_out) {
  WarnsdorffStats local;
  WarnsdorffStats& stats = stats_out ? *stats_out : local;
  const std::int64_t n = b.squares();
  if (n == 1) {
    if (closed) return std::nullopt;
    stats.method = "a single square";
    return std::vector<std::int32_t>{0};
  }
  Walker w(b, deadline, stats);
  if (!closed) {
    for (const Try& t : tries(n))
      if (w.build(from, t.tie, t.seed)) {
        stats.method = std::string("from the first square, ") + tie_name(t.tie);
        return std::move(w.path());
      }
  }
  if (n % 2 != 0) return std::nullopt;  // a closed tour alternates colours: even boards only
  // A closed tour, then cut open at `from`.
  for (const Try& t : tries(n))
    for (std::int64_t c : central_squares(b, 4))
      if (w.build(c, t.tie, t.seed) && w.close()) {
        auto& p = w.path();
        std::rotate(p.begin(), std::find(p.begin(), p.end(), static_cast<std::int32_t>(from)), p.end());
        stats.method = std::string("closed tour from the centre, ") + tie_name(t.tie) +
                       (closed ? "" : ", cut open at the first square");
        return std::move(p);
      }
  return std::nullopt;
}

}  // namespace tansaku::knights
