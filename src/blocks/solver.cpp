// Running the engine's searches on the blocks domain of the right code width.
#include "blocks/solver.h"

#include <memory>

#include <fmt/format.h>

#include "blocks/domain.h"
#include "blocks/notation.h"
#include "blocks/verify.h"
#include "tansaku/core/error.h"
#include "tansaku/search/bfs.h"
#include "tansaku/search/bidirectional_bfs.h"
#include "tansaku/search/explore_states.h"
#include "tansaku/search/ida_star.h"
#include "tansaku/search/shortest_paths.h"

namespace tansaku::blocks {

namespace {

// Calls f(std::integral_constant<int, W>) for the code width the rules need.
template <class F>
auto with_width(const Rules& r, F&& f) {
  switch (r.words()) {
    case 1: return f(std::integral_constant<int, 1>{});
    case 2: return f(std::integral_constant<int, 2>{});
    default: return f(std::integral_constant<int, 4>{});
  }
}

template <int W>
Solution solve_width(const Request& q, const std::shared_ptr<const Rules>& r, const std::string& algorithm, Want want,
                     std::size_t max_all, const search::Limits& lim) {
  const Domain<W> d(r);
  const auto start = d.encode(q.start);
  search::PathResult<Move> res;
  Solution out;
  if (want != Want::First) {
    res = search::shortest_paths(d, start, want == Want::All ? max_all : 0, lim);
    out.algorithm = "layered shortest paths";
  } else {
    const std::string a = algorithm.empty() ? (r->single_goal() ? "bibfs" : "bfs") : algorithm;
    if (a == "bibfs") {
      if (!r->single_goal())
        throw InputError("bidirectional search needs a goal picture that places every piece; this goal leaves "
                         "some free (use bfs or idastar)");
      res = search::bidirectional_bfs(d, start, lim);
    } else if (a == "bfs") {
      res = search::bfs(d, start, lim);
    } else if (a == "idastar") {
      res = search::ida_star(d, start, search::IdaOptions{}, lim);
    } else {
      throw InputError(fmt::format("unknown algorithm '{}' (bibfs, bfs, idastar)", a));
    }
    out.algorithm = a;
  }
  out.nodes = res.stats.expanded;
  out.found = res.found;
  out.exhausted = res.exhausted;
  if (!res.found) return out;
  out.length = res.cost;
  auto printed = print_solution(*r, q.start, res.moves);
  verify(*q.board, q.metric, q.distinct, q.start, q.board->goal, printed.moves, res.cost);
  out.moves = std::move(printed.moves);
  out.positions = std::move(printed.positions);
  if (want != Want::First) out.count = res.count;
  for (const auto& sol : res.all) {
    auto p = print_solution(*r, q.start, sol);
    verify(*q.board, q.metric, q.distinct, q.start, q.board->goal, p.moves, res.cost);
    out.all.push_back(std::move(p.moves));
  }
  return out;
}

template <int W>
Exploration explore_width(const Request& q, const std::shared_ptr<const Rules>& r, std::size_t keep,
                          const search::Limits& lim) {
  const Domain<W> d(r);
  const std::vector<Code<W>> sources{d.encode(q.start)};
  auto res = search::explore_states(d, std::span<const Code<W>>(sources), keep, lim);
  Exploration out;
  out.histogram = std::move(res.histogram);
  out.states = res.states;
  out.depth = res.depth;
  out.farthest_count = res.farthest_count;
  for (const auto& s : res.farthest) out.farthest.push_back(d.decode(s));
  out.nodes = res.stats.expanded;
  out.table_bytes = res.table_bytes;
  out.code_bits = r->slots() * r->bits();
  return out;
}

}  // namespace

Solution solve(const Request& q, const std::string& algorithm, Want want, std::size_t max_all,
               const search::Limits& lim) {
  auto r = std::make_shared<const Rules>(*q.board, q.metric, q.distinct);
  return with_width(*r, [&](auto w) { return solve_width<decltype(w)::value>(q, r, algorithm, want, max_all, lim); });
}

Exploration explore(const Request& q, std::size_t keep_farthest, const search::Limits& lim) {
  auto r = std::make_shared<const Rules>(*q.board, q.metric, q.distinct);
  return with_width(*r, [&](auto w) { return explore_width<decltype(w)::value>(q, r, keep_farthest, lim); });
}

int code_bits(const Board& b, bool distinct) {
  const Rules r(b, Metric::Path, distinct);
  return r.slots() * r.bits();
}

}  // namespace tansaku::blocks
