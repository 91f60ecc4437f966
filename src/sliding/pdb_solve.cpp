// Pattern-database IDA* for sliding tiles: choose the heuristic (pdb.h), search in the
// canonical frame, map the moves back, verify, report.
#include "sliding/pdb_solve.h"
#include "sliding/settings.h"

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "sliding/pdb_domain.h"
#include "tansaku/core/error.h"
#include "tansaku/core/memory.h"
#include "tansaku/search/ida_star_inplace.h"

namespace tansaku::sliding::pdb {

std::string refuses(const Instance& inst) {
  if (!inst.labels.distinct()) return "pattern databases need distinct tiles (no repeated labels)";
  return "";
}

int prune_depth(const Options& o) {
  return o.settings<Settings>().prune_depth.value_or(kDefaultPruneDepth);  // its range: family.cpp
}

search::PathResult<std::uint8_t> find_path(const Instance& inst, const Frame& f, std::shared_ptr<const Heuristic> h,
                                           const search::Limits& lim, int prune, int* used, std::uint64_t deep_after,
                                           std::uint64_t deeper_after) {
  Context ctx(f, std::move(h));
  ctx.fsm = &MoveFsm::of_depth(std::min(prune, kQuickPruneDepth));
  Position root(&ctx, f.canonical(inst.start));
  search::InPlaceIdaOptions io;
  io.step = 2;  // every solution has the parity of the blank's distance
  // The depths still to climb to, each with the iteration size that calls for it.
  std::vector<std::pair<int, std::uint64_t>> steps;
  if (prune > kQuickPruneDepth) steps.emplace_back(std::min(prune, kMidPruneDepth), deep_after);
  if (prune > kMidPruneDepth) steps.emplace_back(prune, deeper_after);
  if (!steps.empty())
    io.before_iteration = [&](int, std::uint64_t last) {
      // The deepest step now due (an iteration past both thresholds skips the middle one).
      auto due = steps.begin();
      while (due != steps.end() && last >= due->second) ++due;
      if (due == steps.begin()) return;
      const int depth = std::prev(due)->first;
      steps.erase(steps.begin(), due);
      search::Limits fsm_lim = lim;  // the enumeration's hash table: a quarter of the budget
      fsm_lim.memory = lim.memory / 4;
      const search::MoveAutomaton& deep = MoveFsm::cached(depth, default_dir(), fsm_lim);
      if (deep.depth() > ctx.fsm->depth()) ctx.fsm = &deep;
      if (deep.depth() < depth) steps.clear();  // the budget stopped it short: no deeper one fits
    };
  auto res = search::ida_star_inplace(root, io, lim);
  for (auto& m : res.moves) m = f.from_canon[m];
  if (used) *used = ctx.fsm->depth();
  return res;
}

void solve(const Instance& inst, int prune, const search::Limits& lim, Solution<Rules>& sol, SolveReport& r) {
  Frame f = make_frame(inst.geo, inst.goal);
  // Proved before any table is read or built: Manhattan distance (a stop while the tables are
  // built still says it).
  {
    Context md(f, std::make_shared<const Heuristic>());
    if (lim.proved) lim.proved->raise(Position(&md, f.canonical(inst.start)).h());
  }
  // Nothing on disk for a board where the small tables built now make a slow search: the
  // hint (said also when a limit stops the search or the build, and as the JSON key `hint`).
  const int n = inst.geo.n;
  const std::string name = inst.geo.rows == inst.geo.cols && (n == 16 || n == 25)
                               ? fmt::format("{}-puzzle", n - 1)
                               : fmt::format("sliding:{}x{}", inst.geo.rows, inst.geo.cols);
  const std::string hint = fmt::format(
      "`tansaku pdb build {}` builds larger pattern databases once (into {}), and solves then "
      "load them: much faster",
      name, default_dir().string());
  std::shared_ptr<const Heuristic> h;
  try {
    h = choose_heuristic(f, default_dir(), lim.memory, lim.threads, lim.deadline);
  } catch (const LimitError&) {  // stopped while building tables in memory
    if (lim.proved && n >= 16) lim.proved->hint = hint;
    throw;
  }
  for (const auto& why : h->left_out) fmt::print(stderr, "tansaku: note: left out the cached table {}\n", why);
  const bool from_disk =
      std::any_of(h->tables.begin(), h->tables.end(), [](const auto& t) { return t->origin.rfind("disk", 0) == 0; });
  if (!h->too_big.empty()) {
    // A table on disk this solve's memory cannot hold: said, with the budget that would.
    const std::string said = fmt::format(
        "the cached table {} ({}) does not fit this solve's memory: a solve takes tables up to half of --memory, so "
        "`--memory {}` or more uses it",
        h->too_big.filename().string(), format_size(h->too_big_bytes), memory_argument(2 * h->too_big_bytes));
    r.extra["hint"] = said;
    if (lim.proved) lim.proved->hint = said;
  } else if (!from_disk && n >= 16) {
    r.extra["hint"] = hint;
    if (lim.proved) lim.proved->hint = hint;
  }
  Context ctx(f, h);
  const int h0 = Position(&ctx, f.canonical(inst.start)).h();
  int used = 0;
  auto res = find_path(inst, f, h, lim, prune, &used);
  r.algorithm = "pdb";  // the solver's name; what it adds to IDA* is the heuristic
  r.nodes = res.stats.expanded;
  r.generated = res.stats.generated;
  r.heuristic = h->description;
  json tables = json::array();
  for (const auto& t : h->tables) tables.push_back({{"tiles", t->info().k()}, {"entries", t->info().entries()}, {"origin", t->origin}});
  r.extra["pdb_tables"] = tables;
  r.extra["h_start"] = h0;
  r.extra["setup_seconds"] = h->setup_seconds;
  r.extra["prune_depth"] = used;
  if (!res.found) {
    r.solvable = false;
    r.reason = "the goal is not reachable from the start";
    return;
  }
  r.moves = sol.verify(res.moves);  // throws on a bad solution
  r.length = res.cost;
  sol.moves = res.moves;
  solved_text(sol, /*steps=*/false, r);
}

}  // namespace tansaku::sliding::pdb
