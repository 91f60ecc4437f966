// The perm family's solve and explore reports: the search (solver.h) on the instance the
// glue read, its solution verified through the typed Solution<Rules>, the figures, the
// pattern databases and hints; explore's layers over the ranked space and a move sequence to
// each of the first farthest positions.
#include "perm/reports.h"

#include <fmt/format.h>

#include "perm/draw.h"
#include "perm/notation.h"
#include "perm/ranked_domain.h"
#include "perm/solver.h"
#include "perm/space.h"
#include "tansaku/core/count.h"
#include "tansaku/core/error.h"
#include "tansaku/core/memory.h"
#include "tansaku/core/progress.h"
#include "tansaku/puzzles/explore_report.h"
#include "tansaku/puzzles/path_report.h"
#include "tansaku/puzzles/report_keys.h"
#include "tansaku/puzzles/solution.h"
#include "tansaku/search/explore.h"
#include "tansaku/search/explore_path.h"

namespace tansaku::perm {
namespace {

constexpr std::size_t kFarthestSequences = 20;  // farthest positions given a move sequence

// The family's own report keys (docs/cli.md), in their JSON order: solve's ...
struct SolveKeys {
  std::optional<std::string> facelets;     // the start sticker by sticker, where the net reads facelets
  std::optional<std::vector<int>> phases;  // two-phase: the lengths of its two phases
  std::string metric;
  std::optional<std::string> hint;  // how the next solve gets faster
  std::optional<std::vector<std::string>> pattern_databases;
  std::optional<std::uint64_t> tables_read;  // cached tables: the bytes read from their files
  std::optional<int> prune_depth;            // IDA*: redundant move strings skipped up to this length
};
TANSAKU_REPORT_KEYS(SolveKeys, facelets, phases, metric, hint, pattern_databases, tables_read, prune_depth)
// ... and explore's.
struct ExploreKeys {
  json farthest_moves;  // a move sequence reaching each farthest position
  std::string metric;
  std::uint64_t ranked_size = 0;
};
TANSAKU_REPORT_KEYS(ExploreKeys, farthest_moves, metric, ranked_size)

}  // namespace

SolveReport solve_report(const std::shared_ptr<const Definition>& def, const MoveSet& ms, const Position& start,
                         const Position& goal, std::optional<std::string> facelets, std::optional<int> max_length,
                         std::optional<int> prune_depth, const Options& o) {
  const Definition& d = *def;
  SolveReport r;
  Solution<Rules>& sol = *typed_solution(Rules{def, ms, goal}, start, goal, r);
  SolveKeys k;
  k.facelets = facelets;
  SolveRequest req;
  req.d = &d;
  req.ms = &ms;
  req.start = start;
  req.goal = goal;
  req.algorithm = o.algorithm;
  if (const auto& n = max_length) {  // names two-phase, like --weight names wastar
    if (req.algorithm.empty()) req.algorithm = "two-phase";
    if (req.algorithm != "two-phase")
      throw InputError(fmt::format("--max-length applies to --algorithm two-phase, not {}", req.algorithm));
    req.max_length = *n;
  }
  req.mode = o.all ? search::SolutionMode::All : o.count ? search::SolutionMode::Count : search::SolutionMode::First;
  req.knobs = ida_options(o);
  req.prune_depth = prune_depth.value_or(0);
  Progress progress(o.progress());
  auto res = perm::solve(req, o.limits(&progress));
  progress.done();
  for (const auto& n : res.notes) fmt::print(stderr, "tansaku: note: {}\n", n);
  if (!res.hint.empty() && o.progress() && stderr_is_terminal()) fmt::print(stderr, "tansaku: hint: {}\n", res.hint);
  r.algorithm = res.algorithm;
  r.nodes = res.path.stats.expanded;
  if (!res.phases.empty()) k.phases = res.phases;
  if (res.table_bytes) r.table_bytes = res.table_bytes;
  k.metric = ms.metric;
  if (!res.hint.empty()) k.hint = res.hint;
  if (!res.heuristics.empty()) k.pattern_databases = res.heuristics;
  k.tables_read = res.tables_read;
  if (res.prune_depth) k.prune_depth = res.prune_depth;
  put(k, r.extra);
  for (const auto& h : res.heuristics) r.heuristic += (r.heuristic.empty() ? "pdb " : " + ") + h;
  if (res.proved_unreachable || !res.path.found) {
    if (!res.proved_unreachable) throw LimitError("the search stopped before finding a solution");
    r.solvable = false;
    r.reason = res.reason;
    return r;
  }
  r.length = static_cast<std::int64_t>(res.path.moves.size());
  r.moves = sol.verify(res.path.moves);
  sol.moves = res.path.moves;
  non_optimal_figures(res.path, r);
  if (o.all) {
    json sols = json::array();
    for (const auto& s : res.path.all) {
      if (s.size() != res.path.moves.size()) throw std::logic_error("perm: solutions of different lengths");
      sols.push_back(sol.verify(s));
    }
    r.solutions = sols;
  }
  if (o.all || o.count) r.count = count_json(res.path.count);
  r.text = fmt::format("sequence:  {}\n", format_sequence(ms, res.path.moves));
  if (k.facelets) r.text = fmt::format("facelets:  {}\n", *k.facelets) + r.text;
  if (res.phases.size() == 2)
    r.text += fmt::format("phases:    {} + {} (into the subgroup, then within it)\n", res.phases[0], res.phases[1]);
  return r;
}

ExploreReport explore_report(const Definition& d, const MoveSet& ms, const Position& from, const Options& o,
                             search::Limits lim) {
  const std::uint64_t tables = std::min<std::uint64_t>(o.memory / 4, std::uint64_t{1} << 30);
  Space sp(d, ms, from, tables, o.threads);
  // The 2-bit table is explore's to refuse: shared among MPI ranks or spilled to disk, it
  // need not fit here whole.
  const bool whole = !(lim.cluster && lim.cluster->size() > 1) && lim.spill.empty();
  require_memory((whole ? TwoBitTable::bytes_for(sp.size()) : 0) + sp.table_bytes(), o.memory,
                 fmt::format("the 2-bit table of {} positions and its move tables", sp.size()));
  lim.memory = o.memory - sp.table_bytes();
  RankedDomain dom(d, ms, sp);
  const std::uint64_t r0 = sp.rank(from);
  // The farthest positions' move sequences follow the distances mod 3 that explore can
  // keep (a second 2-bit table) when the moves are symmetric and memory allows; the
  // solver finds them otherwise.
  const bool walk = o.farthest > 0 && dom.symmetric() && lim.memory / 2 >= TwoBitTable::bytes_for(sp.size());
  auto res = search::explore(dom, std::span<const std::uint64_t>(&r0, 1), o.farthest, lim, walk);
  ExploreReport r;
  r.from = format_position(d, from);
  report_layers(
      res, [&](std::uint64_t f) { return format_position(d, sp.unrank(f)); }, r);
  // A move sequence from the source to each of the first farthest positions.
  json seqs = json::array();
  std::string text;
  for (std::size_t i = 0; i < res.farthest.size() && i < kFarthestSequences; ++i) {
    const Position far = sp.unrank(res.farthest[i]);
    std::vector<int> back;  // from the farthest position to the source
    if (walk) {
      back = search::path_to_source(dom, res, res.farthest[i], res.depth);
    } else {
      SolveRequest req;
      req.d = &d;
      req.ms = &ms;
      req.start = far;
      req.goal = from;
      auto s = perm::solve(req, lim);
      if (!s.path.found || static_cast<int>(s.path.moves.size()) != res.depth)
        throw std::logic_error("perm: no path of the explored depth to a farthest position");
      back = s.path.moves;
    }
    std::vector<int> there;  // the inverse of the way back
    for (auto it = back.rbegin(); it != back.rend(); ++it) {
      const int inv = ms.gens[static_cast<std::size_t>(*it)].inverse;
      if (inv < 0) throw std::logic_error("perm: a move without its inverse");
      there.push_back(inv);
    }
    verify(d, ms, from, far, there);
    seqs.push_back(format_sequence(ms, there));
    text += fmt::format("  {}\n", format_sequence(ms, there));
  }
  put(ExploreKeys{seqs, ms.metric, sp.size()}, r.extra);
  r.table_bytes = res.table_bytes + sp.table_bytes();
  r.nodes = res.stats.expanded;
  if (!text.empty()) r.text = fmt::format("move sequences reaching the first {} farthest:\n{}", seqs.size(), text);
  return r;
}

}  // namespace tansaku::perm
