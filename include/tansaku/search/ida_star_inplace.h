// IDA* tuned for large searches over one mutable position (make/unmake) instead of copied
// states: no allocation in the inner loop, pruning left to the domain (e.g. the inverse of
// the last move), the heuristic updated incrementally by the domain's apply/undo. Unit move
// costs. Optionally parallel over subtrees: each expensive iteration is split at a shallow
// frontier whose subtrees worker threads take in depth-first order; the solution reported is
// the one the serial search would find first, and the node count is exactly the serial one,
// so results do not depend on the number of threads.
//
// The generic ida_star (ida_star.h) copies its State per node and keeps a state stack; this
// variant exists because pattern-database sliding-tile searches expand millions of nodes
// per second and the per-node copy and equality test dominate there.
#pragma once
#include <algorithm>
#include <atomic>
#include <concepts>
#include <cstdint>
#include <exception>
#include <functional>
#include <limits>
#include <thread>
#include <vector>

#include "tansaku/core/error.h"
#include "tansaku/search/deepening.h"
#include "tansaku/search/ida_star.h"
#include "tansaku/search/limits.h"
#include "tansaku/search/stats.h"

namespace tansaku::search {

// A mutable position. `moves(buf)` writes the moves to try now (at most kMaxMoves; the
// domain drops those it can prove useless, like undoing the last move), `apply(m)` plays a
// move and returns what `undo(m, u)` needs to take it back. `h()` is an admissible lower
// bound of the current position, `is_goal()` tells the goal. Copies are independent.
// Optionally `child_h(m, limit)` (right after moves()): a lower bound of the h of the child
// by m, without playing it (it may stop looking once the bound exceeds `limit`, the most
// that lets the child be searched); a child it prunes is not applied.
template <class D>
concept InPlaceDomain = std::copy_constructible<D> &&
    requires(D& d, const D& cd, typename D::Move m, const typename D::Undo& u, typename D::Move* buf) {
      { D::kMaxMoves } -> std::convertible_to<int>;
      { cd.h() } -> std::convertible_to<int>;
      { cd.is_goal() } -> std::convertible_to<bool>;
      { cd.moves(buf) } -> std::convertible_to<int>;
      { d.apply(m) } -> std::same_as<typename D::Undo>;
      d.undo(m, u);
    };

namespace detail {

template <InPlaceDomain D>
class InPlaceWorker {
 public:
  using Move = typename D::Move;
  static constexpr std::size_t kNoWinner = std::numeric_limits<std::size_t>::max();

  InPlaceWorker(const D& d, int bound, const Limits& lim) : d_(d), bound_(bound), lim_(lim) {
    path_.reserve(static_cast<std::size_t>(std::max(bound, 0)) + 1);
  }
  D& domain() { return d_; }
  // In a parallel iteration: the nodes of the subtrees finished so far and their number,
  // for the progress line.
  void share_progress(const std::atomic<std::uint64_t>* finished, std::size_t subtrees) {
    finished_ = finished;
    subtrees_ = subtrees;
  }
  // Searches below the current position, reached at cost g with g + h <= bound.
  bool search(int g, const std::atomic<std::size_t>* winner = nullptr, std::size_t index = 0,
              const std::atomic<bool>* abort = nullptr, Progress* progress = nullptr) {
    winner_ = winner;
    index_ = index;
    abort_ = abort;
    progress_ = progress;
    return dfs(g);
  }
  std::uint64_t expanded = 0, generated = 0;
  int next = std::numeric_limits<int>::max();
  bool found = false, cancelled = false;
  const std::vector<Move>& path() const { return path_; }

 private:
  bool dfs(int g) {
    if (d_.is_goal()) return found = true;
    ++expanded;
    if ((expanded & 4095) == 0 && poll()) return true;
    Move buf[D::kMaxMoves];
    const int count = d_.moves(buf);
    for (int i = 0; i < count; ++i) {
      ++generated;
      if constexpr (requires { d_.child_h(buf[i], 0); }) {
        // The domain knows a lower bound of the child's h without playing the move: a child
        // it prunes is never applied.
        const int f0 = g + 1 + d_.child_h(buf[i], bound_ - g - 1);
        if (f0 > bound_) {
          if (f0 < next) next = f0;
          continue;
        }
      }
      const auto u = d_.apply(buf[i]);
      const int f = g + 1 + d_.h();
      if (f <= bound_) {
        path_.push_back(buf[i]);  // capacity reserved: no allocation
        if (dfs(g + 1)) {
          d_.undo(buf[i], u);
          return true;
        }
        path_.pop_back();
      } else if (f < next) {
        next = f;
      }
      d_.undo(buf[i], u);
    }
    return false;
  }
  // Every 4096 nodes: deadline, cancellation by an earlier subtree's solution, progress.
  bool poll() {
    if (lim_.deadline && lim_.deadline->expired()) throw LimitError("time limit reached (--timeout)");
    if ((winner_ && winner_->load(std::memory_order_relaxed) < index_) ||
        (abort_ && abort_->load(std::memory_order_relaxed)))
      return cancelled = true;
    if (progress_ && finished_)
      progress_->update("ida*: bound {}, subtree {} of {}, {} nodes in this iteration", bound_, index_ + 1, subtrees_,
                        finished_->load(std::memory_order_relaxed) + expanded);
    else if (progress_)
      progress_->update("ida*: bound {}, {} nodes in this iteration", bound_, expanded);
    return false;
  }

  D d_;
  int bound_;
  const Limits& lim_;
  std::vector<Move> path_;
  const std::atomic<std::size_t>* winner_ = nullptr;
  std::size_t index_ = 0;
  const std::atomic<bool>* abort_ = nullptr;
  Progress* progress_ = nullptr;
  const std::atomic<std::uint64_t>* finished_ = nullptr;
  std::size_t subtrees_ = 0;
};

// One iteration split at a frontier of depth `depth`: the frontier nodes (paths within the
// bound), in depth-first order, and the interior nodes the serial search expands above them.
template <InPlaceDomain D>
struct Frontier {
  using Move = typename D::Move;
  int depth = 0;
  std::vector<Move> paths;  // depth moves per node
  // Interior nodes expanded / generated before each frontier node in depth-first order: what
  // the serial search has counted when it reaches that node.
  std::vector<std::uint64_t> expanded_before, generated_before;
  std::size_t size() const { return depth ? paths.size() / static_cast<std::size_t>(depth) : 0; }
  std::uint64_t expanded = 0, generated = 0;
  int next = std::numeric_limits<int>::max();
  bool goal_inside = false;  // a goal above the frontier: search this iteration serially

  void build(D& d, int bound, int target_depth) {
    depth = target_depth;
    paths.clear();
    expanded_before.clear();
    generated_before.clear();
    expanded = generated = 0;
    next = std::numeric_limits<int>::max();
    goal_inside = false;
    std::vector<Move> path;
    walk(d, 0, bound, path);
  }

 private:
  void walk(D& d, int g, int bound, std::vector<Move>& path) {
    if (g == depth) {
      paths.insert(paths.end(), path.begin(), path.end());
      expanded_before.push_back(expanded);
      generated_before.push_back(generated);
      return;
    }
    if (d.is_goal()) {
      goal_inside = true;
      return;
    }
    ++expanded;
    Move buf[D::kMaxMoves];
    const int count = d.moves(buf);
    for (int i = 0; i < count; ++i) {
      ++generated;
      const auto u = d.apply(buf[i]);
      const int f = g + 1 + d.h();
      if (f <= bound) {
        path.push_back(buf[i]);
        walk(d, g + 1, bound, path);
        path.pop_back();
      } else if (f < next) {
        next = f;
      }
      d.undo(buf[i], u);
    }
  }
};

}  // namespace detail

struct InPlaceIdaOptions {
  int step = 1;                             // bound increment granularity (2 when solution lengths have a known parity)
  std::uint64_t parallel_threshold = 50000; // split an iteration when the previous one expanded more
  std::size_t tasks_per_thread = 64;        // frontier size aimed at, per thread
  // Called before each iteration with its bound and the nodes the previous one expanded: the
  // domain may switch to costlier machinery (shared through its context) once the search
  // proves big enough to pay for it. Each iteration searches with one fixed domain.
  std::function<void(int bound, std::uint64_t last_iteration)> before_iteration;
};

namespace detail {

// One iteration of ida_star_inplace from `root` under `bound` (split over the threads when
// the previous iteration, `last_iteration` nodes, was big enough): adds its nodes to res,
// sets res.found and the path on a solution, and returns the least f beyond the bound.
template <InPlaceDomain D>
int inplace_iteration(const D& root, int bound, std::uint64_t last_iteration, const InPlaceIdaOptions& o,
                      const Limits& lim, PathResult<typename D::Move>& res) {
  using Move = typename D::Move;
  const unsigned threads = std::max(1u, lim.threads);
  int next = std::numeric_limits<int>::max();
  detail::Frontier<D> frontier;
  bool split = threads > 1 && last_iteration >= o.parallel_threshold;
  if (split) {
    D d = root;
    const std::size_t target = o.tasks_per_thread * threads;
    for (int depth = 2; depth <= std::min(bound, 24); ++depth) {
      frontier.build(d, bound, depth);
      if (frontier.goal_inside || frontier.size() >= target) break;
    }
    split = !frontier.goal_inside && frontier.size() > 1;
  }
  if (!split) {
    detail::InPlaceWorker<D> w(root, bound, lim);
    const bool done = w.search(0, nullptr, 0, nullptr, lim.progress);
    res.stats.expanded += w.expanded;
    res.stats.generated += w.generated;
    next = w.next;
    if (done) {
      res.found = true;
      res.moves = w.path();
      res.cost = static_cast<int>(res.moves.size());
    }
  } else {
    const std::size_t n = frontier.size(), depth = static_cast<std::size_t>(frontier.depth);
    struct Task {
      std::uint64_t expanded = 0, generated = 0;
      int next = std::numeric_limits<int>::max();
      bool found = false;
      std::vector<Move> path;
    };
    std::vector<Task> tasks(n);
    std::atomic<std::size_t> counter{0}, winner{detail::InPlaceWorker<D>::kNoWinner};
    std::atomic<std::uint64_t> finished{0};  // nodes of the subtrees done (progress only)
    std::atomic<bool> abort{false};
    std::exception_ptr error;
    std::atomic<bool> has_error{false};
    auto work = [&](bool main_thread) {
      try {
        while (!abort.load(std::memory_order_relaxed)) {
          const std::size_t i = counter.fetch_add(1);
          if (i >= n || winner.load() < i) break;
          detail::InPlaceWorker<D> w(root, bound, lim);
          for (std::size_t j = 0; j < depth; ++j) (void)w.domain().apply(frontier.paths[i * depth + j]);
          w.share_progress(&finished, n);
          const bool hit = w.search(static_cast<int>(depth), &winner, i, &abort, main_thread ? lim.progress : nullptr);
          finished.fetch_add(w.expanded, std::memory_order_relaxed);
          Task& t = tasks[i];
          t.expanded = w.expanded;
          t.generated = w.generated;
          t.next = w.next;
          if (hit && w.found) {
            t.found = true;
            t.path = w.path();
            std::size_t cur = winner.load();
            while (i < cur && !winner.compare_exchange_weak(cur, i)) {}
          }
        }
      } catch (...) {
        if (!has_error.exchange(true)) error = std::current_exception();
        abort = true;
      }
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work, false);
    work(true);
    for (auto& t : pool) t.join();
    if (error) std::rethrow_exception(error);
    const std::size_t win = winner.load();
    const bool hit = win != detail::InPlaceWorker<D>::kNoWinner;
    res.stats.expanded += hit ? frontier.expanded_before[win] : frontier.expanded;
    res.stats.generated += hit ? frontier.generated_before[win] : frontier.generated;
    next = frontier.next;
    const std::size_t counted = win == detail::InPlaceWorker<D>::kNoWinner ? n : win + 1;
    for (std::size_t i = 0; i < counted; ++i) {
      res.stats.expanded += tasks[i].expanded;
      res.stats.generated += tasks[i].generated;
      next = std::min(next, tasks[i].next);
    }
    if (win != detail::InPlaceWorker<D>::kNoWinner) {
      res.found = true;
      res.moves.assign(frontier.paths.begin() + static_cast<std::ptrdiff_t>(win * depth),
                       frontier.paths.begin() + static_cast<std::ptrdiff_t>((win + 1) * depth));
      res.moves.insert(res.moves.end(), tasks[win].path.begin(), tasks[win].path.end());
      res.cost = static_cast<int>(res.moves.size());
    }
  }
  return next;
}

}  // namespace detail

// One optimal solution from the domain's current position (first in depth-first order).
template <InPlaceDomain D>
PathResult<typename D::Move> ida_star_inplace(const D& root, const InPlaceIdaOptions& o = {}, const Limits& lim = {}) {
  PathResult<typename D::Move> res;
  if (root.is_goal()) {
    res.found = true;
    res.cost = 0;
    return res;
  }
  std::uint64_t last_iteration = 0;
  deepen("ida*", root.h(), o.step, lim, res, [&](int bound) {
    if (o.before_iteration) o.before_iteration(bound, last_iteration);
    const std::uint64_t before = res.stats.expanded;
    const int next = detail::inplace_iteration(root, bound, last_iteration, o, lim, res);
    last_iteration = res.stats.expanded - before;
    return next;
  });
  return res;
}

// The same over two roots whose optimal solutions cost the same (a position and its dual:
// for a permutation puzzle the inverse position, whose solutions are the position's
// inverted). A bound searched from either root without a solution binds both, so the search
// starts at the larger of the roots' h and searches each bound from one root, the one whose
// iterations are smaller (their sizes differ by a steady factor: 1.0 to 1.6 on random
// positions of a permutation puzzle). Both are searched while their iterations stay below
// `both_below` nodes (the second only to measure it: where the first finds no solution
// neither does the second), then the one that was smaller. `dual_found` says which root
// the solution's moves start from (true: b's).
template <InPlaceDomain D>
PathResult<typename D::Move> ida_star_inplace_dual(const D& a, const D& b, bool& dual_found,
                                                   const InPlaceIdaOptions& o = {}, const Limits& lim = {},
                                                   std::uint64_t both_below = 1u << 16) {
  PathResult<typename D::Move> res;
  dual_found = false;
  if (a.is_goal()) {
    res.found = true;
    res.cost = 0;
    return res;
  }
  std::uint64_t last[2] = {0, 0};  // each root's last iteration, in nodes
  bool both = true;
  int chosen = 0;  // once both are no longer searched: the root of the smaller last iteration
  deepen("ida*", std::max(a.h(), b.h()), o.step, lim, res, [&](int bound) {
    int next = kNothingBeyond;
    const int first = both ? (last[1] < last[0] ? 1 : 0) : chosen;
    for (int k = 0; k < (both ? 2 : 1); ++k) {
      const int side = k == 0 ? first : 1 - first;
      if (o.before_iteration) o.before_iteration(bound, last[side]);
      const std::uint64_t before = res.stats.expanded;
      const int n = detail::inplace_iteration(side ? b : a, bound, last[side], o, lim, res);
      last[side] = res.stats.expanded - before;
      if (res.found) {
        dual_found = side == 1;
        return n;
      }
      // Either root's least f beyond the bound bounds the common optimum.
      if (n == kGaveUp) return n;
      next = k == 0 ? n : std::max(next, n);
    }
    if (both && (last[0] >= both_below || last[1] >= both_below)) {
      both = false;
      chosen = last[1] < last[0] ? 1 : 0;
    }
    return next;
  });
  return res;
}

}  // namespace tansaku::search
