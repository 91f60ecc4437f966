#include "square_sum/path_search.h"

#include <algorithm>

#include <fmt/format.h>

#include "square_sum/squares.h"
#include "square_sum/verify.h"
#include "tansaku/core/error.h"

namespace tansaku::square_sum {

namespace {

struct Stop {};

class Searcher {
 public:
  Searcher(int n, const SearchOptions& o) : n_(n), o_(o) {
    const auto N = static_cast<std::size_t>(n) + 1;
    d_.assign(N, 0);
    visited_.assign(N, 0);
    for (int v = 1; v <= n; ++v) d_[v] = degree(n, v);
  }

  // Runs the search from start s. Row mode: when `end_above_start`, only rows whose last
  // number exceeds s are counted (each row once, from its smaller end).
  void run_from(int s, bool end_above_start) {
    start_ = s;
    end_above_ = end_above_start;
    cnt0_ = cnt1_ = 0;
    remaining_ = n_;
    for (int v = 1; v <= n_; ++v) low_add(v);
    visit(s);
    idx_.assign(1, 0);
    while (!path_.empty()) {
      const int e = path_.back();
      bool descend = false;
      if (remaining_ == 0) {
        leaf();
      } else if (!dead()) {
        int u = candidate(e, idx_.back());
        if (u > 0) {
          ++idx_.back();
          if (++nodes_ > o_.node_budget) throw Stop{};
          if ((nodes_ & 4095) == 0) {
            if (o_.deadline) o_.deadline->check();
            if (o_.progress) o_.progress->update("square-sum N={}: {} nodes, depth {}", n_, nodes_, path_.size());
          }
          visit(u);
          idx_.push_back(0);
          descend = true;
        }
      }
      if (!descend) {
        unvisit(path_.back());
        idx_.pop_back();
      }
    }
    for (int v = 1; v <= n_; ++v) low_remove(v);  // counters back to zero for the next start
  }

  bool found() const { return found_; }
  const std::vector<int>& solution() const { return solution_; }
  std::uint64_t count() const { return count_; }
  std::uint64_t nodes() const { return nodes_; }
  std::vector<std::vector<int>>& all() { return all_; }

 private:
  // Degree bookkeeping. d_[u] = unvisited neighbours of u, plus 1 in ring mode when u is
  // adjacent to the start (the ring must come back to it). cnt0_/cnt1_ count unvisited
  // vertices whose d_ is 0 / 1.
  void low_add(int u) {
    if (d_[u] == 0) ++cnt0_;
    else if (d_[u] == 1) ++cnt1_;
  }
  void low_remove(int u) {
    if (d_[u] == 0) --cnt0_;
    else if (d_[u] == 1) --cnt1_;
  }
  void visit(int v) {
    low_remove(v);
    visited_[v] = 1;
    --remaining_;
    path_.push_back(v);
    if (o_.ring && v == start_) return;  // the start stays a target for the closing edge
    for_each_neighbour(n_, v, [&](int u) {
      if (!visited_[u]) {
        low_remove(u);
        --d_[u];
        low_add(u);
      } else {
        --d_[u];
      }
    });
  }
  void unvisit(int v) {
    path_.pop_back();
    if (!(o_.ring && v == start_)) {
      for_each_neighbour(n_, v, [&](int u) {
        if (!visited_[u]) {
          low_remove(u);
          ++d_[u];
          low_add(u);
        } else {
          ++d_[u];
        }
      });
    }
    visited_[v] = 0;
    ++remaining_;
    low_add(v);
  }

  // No completion can exist (see the header): checked at every node.
  bool dead() const {
    if (o_.ring) return cnt0_ > 0 || cnt1_ > 1;
    return (remaining_ >= 2 && cnt0_ > 0) || cnt1_ > 2;
  }

  // The i-th move from end e in least-degree-first order (ties: larger number first), or 0.
  // Forced moves: in a ring the one vertex with a single way left must come next; in a row
  // with two such vertices, one of them must come next.
  int candidate(int e, int i) {
    cand_.clear();
    const bool forced = o_.ring ? cnt1_ == 1 : cnt1_ == 2;
    for_each_neighbour(n_, e, [&](int u) {
      if (visited_[u]) return;
      if (forced && d_[u] != 1) return;
      cand_.push_back((static_cast<std::int64_t>(d_[u]) << 32) | static_cast<std::uint32_t>(n_ - u));
    });
    if (i >= static_cast<int>(cand_.size())) return 0;
    std::sort(cand_.begin(), cand_.end());
    return n_ - static_cast<int>(cand_[i] & 0xffffffff);
  }

  void leaf() {
    if (o_.ring) {
      if (n_ >= 3 && !adjacent(path_.back(), start_)) return;
      if (o_.mode != Mode::First && n_ >= 3 && path_[1] > path_.back()) return;  // each ring once
    } else if (end_above_ && path_.back() < start_) {
      return;
    }
    if (o_.mode == Mode::First) {
      found_ = true;
      solution_ = path_;
      throw Stop{};
    }
    ++count_;
    if (o_.mode == Mode::All) {
      if (all_.size() >= o_.list_limit)
        throw LimitError(fmt::format("more than {} solutions: too many to list (use --count)", o_.list_limit));
      all_.push_back(canonical(path_, o_.ring));
    }
  }

  int n_;
  const SearchOptions& o_;
  std::vector<int> d_;
  std::vector<char> visited_;
  std::vector<int> path_, idx_;
  std::vector<std::int64_t> cand_;
  int start_ = 0, remaining_ = 0, cnt0_ = 0, cnt1_ = 0;
  bool end_above_ = false, found_ = false;
  std::vector<int> solution_;
  std::vector<std::vector<int>> all_;
  std::uint64_t count_ = 0, nodes_ = 0;
};

}  // namespace

SearchResult search(int n, const SearchOptions& o) {
  SearchResult r;
  if (n < 1) return r;
  if (n == 1 || (o.ring && n < 3)) {
    // One number is a row (no sums to check); rings need three numbers.
    if (n == 1 && !o.ring) {
      r.status = Status::Found;
      r.sequence = {1};
      r.count = 1;
      if (o.mode == Mode::All) r.all = {{1}};
    }
    return r;
  }
  // Vertices of degree 0 rule everything out; degree-1 vertices must be the ends of a row.
  std::vector<int> deg1;
  std::vector<std::pair<int, int>> by_degree;
  for (int v = 1; v <= n; ++v) {
    int d = degree(n, v);
    if (d == 0 || (o.ring && d < 2)) return r;
    if (d == 1) deg1.push_back(v);
    by_degree.emplace_back(d, -v);
  }
  if (deg1.size() > 2) return r;
  Searcher s(n, o);
  try {
    if (o.ring) {
      std::sort(by_degree.begin(), by_degree.end());
      s.run_from(-by_degree.front().second, false);  // every ring passes the least-degree vertex
    } else if (!deg1.empty()) {
      s.run_from(deg1.front(), false);  // every row ends there
    } else {
      std::sort(by_degree.begin(), by_degree.end());  // least degree first: likely ends
      for (auto [d, negv] : by_degree) s.run_from(-negv, o.mode != Mode::First);
    }
  } catch (const Stop&) {
  }
  r.nodes = s.nodes();
  if (s.found()) {
    r.status = Status::Found;
    r.sequence = s.solution();
  } else if (o.mode == Mode::First && s.nodes() > o.node_budget) {
    r.status = Status::Budget;
  } else {
    r.count = s.count();
    r.status = r.count ? Status::Found : Status::None;
    if (o.mode == Mode::All) {
      r.all = std::move(s.all());
      std::sort(r.all.begin(), r.all.end());
    }
  }
  return r;
}

}  // namespace tansaku::square_sum
