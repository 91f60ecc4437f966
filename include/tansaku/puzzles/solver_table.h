// A family's solvers as one typed table, so that choosing a solver is written once. Each
// entry carries its SolverSpec (what the CLI resolves --algorithm against and lists in help:
// Family::solvers is derived from the table, so names cannot drift), when it applies to an
// instance (a refusal reason, or "" when it can run), whether the automatic choice takes it,
// and how it runs under search::Limits. `choose` is the one place where a name becomes a
// solver: the named one if it applies (else InputError "algorithm X does not apply to this
// instance: <reason>"), without a name the first entry, in the table's order, that applies
// and that the automatic choice takes.
#pragma once
#include <functional>
#include <utility>
#include <string>
#include <type_traits>
#include <vector>

#include <fmt/format.h>

#include "tansaku/core/error.h"
#include "tansaku/core/memory.h"
#include "tansaku/puzzles/puzzle.h"
#include "tansaku/search/limits.h"

namespace tansaku {

template <class Instance, class Result>
struct SolverEntry {
  SolverSpec spec;
  // Why the solver cannot run on this instance; "" when it can. Null: it always can.
  std::function<std::string(const Instance&)> refuses;
  // Whether the automatic choice takes it for this instance (once it applies): a solver that
  // can run but is not the best default (bidirectional BFS on a huge space). Null: always.
  std::function<bool(const Instance&)> automatic;
  std::function<Result(const Instance&, const search::Limits&)> run;

  std::string refusal(const Instance& inst) const { return refuses ? refuses(inst) : std::string(); }
  bool applies(const Instance& inst) const { return refusal(inst).empty(); }
};

template <class Instance, class Result>
using SolverTable = std::vector<SolverEntry<Instance, Result>>;

// The specs of a table, in its order (Family::solvers).
template <class Instance, class Result>
std::vector<SolverSpec> solver_specs(const SolverTable<Instance, Result>& table) {
  std::vector<SolverSpec> out;
  for (const auto& e : table) out.push_back(e.spec);
  return out;
}

// Specs of several tables (say, a family's solve and explore tables) as one list: the first
// table's order, then what the later ones add; a name in several tables takes the union of
// their subcommands.
inline std::vector<SolverSpec> merge_specs(std::vector<SolverSpec> a, const std::vector<SolverSpec>& b) {
  for (const auto& s : b) {
    bool found = false;
    for (auto& t : a)
      if (t.name == s.name) t.commands |= s.commands, found = true;
    if (!found) a.push_back(s);
  }
  return a;
}

// The solver for `inst`: the one named `algorithm` (canonical; the CLI resolved aliases and
// refused unknown names) for `command`, or without a name the automatic choice.
inline bool can(const SolverSpec& s, Want want) {
  return want == Want::one || (want == Want::all && s.all) || (want == Want::count && s.count);
}
inline const char* want_option(Want want) { return want == Want::all ? "--all" : "--count"; }

// `want` (Options::want()): --all or --count asked of the solve; a solver whose spec cannot
// is refused by name and passed over by the automatic choice.
template <class Instance, class Result>
const SolverEntry<Instance, Result>& choose(const SolverTable<Instance, Result>& table, const std::string& algorithm,
                                            const Instance& inst, unsigned command = kSolve, Want want = Want::one) {
  if (!algorithm.empty()) {
    for (const auto& e : table) {
      if (e.spec.name != algorithm || !(e.spec.commands & command)) continue;
      if (!can(e.spec, want))
        throw InputError(fmt::format("algorithm {} does not take {}", algorithm, want_option(want)));
      if (auto why = e.refusal(inst); !why.empty())
        throw InputError(fmt::format("algorithm {} does not apply to this instance: {}", algorithm, why));
      return e;
    }
    std::string names;
    for (const auto& e : table)
      if (e.spec.commands & command) names += (names.empty() ? "" : ", ") + e.spec.name;
    throw InputError(fmt::format("unknown algorithm '{}' (use one of {})", algorithm, names));
  }
  std::string reasons;
  for (const auto& e : table) {
    if (!(e.spec.commands & command)) continue;
    if (!can(e.spec, want)) {
      reasons += fmt::format("{}{}: does not take {}", reasons.empty() ? "" : "; ", e.spec.name, want_option(want));
      continue;
    }
    if (auto why = e.refusal(inst); !why.empty()) {
      reasons += fmt::format("{}{}: {}", reasons.empty() ? "" : "; ", e.spec.name, why);
      continue;
    }
    if (!e.automatic || e.automatic(inst)) return e;
  }
  throw InputError(fmt::format("no solver applies to this instance ({})", reasons.empty() ? "none is automatic" : reasons));
}

// Runs `e` on `job` under o's limits, with a progress line.
template <class Job, class R>
R run_with_progress(const SolverEntry<Job, R>& e, const Job& job, const Options& o) {
  Progress progress(o.progress());
  if constexpr (std::is_void_v<R>) {
    e.run(job, o.limits(&progress));
    progress.done();
  } else {
    R res = e.run(job, o.limits(&progress));
    progress.done();
    return res;
  }
}

// A family's explores as a table, like its solves: the job is the puzzle and the request,
// the result the report. `explore_by_table` chooses the entry (--algorithm, else the first that
// applies), runs it under o's limits with a progress line, and names it in the report.
template <class P>
struct ExploreJob {
  const P& p;
  const Options& o;
};
template <class P>
using ExploreTable = SolverTable<ExploreJob<P>, ExploreReport>;

// A table of one explore, `f(puzzle, options, limits)` (a member function of P will do),
// and the spec most of them share: a breadth-first layered explore.
template <class P, class F>
ExploreTable<P> one_explore(SolverSpec spec, F f) {
  return {{std::move(spec), nullptr, nullptr,
           [f](const ExploreJob<P>& j, const search::Limits& lim) { return std::invoke(f, j.p, j.o, lim); }}};
}
inline SolverSpec bfs_explore(std::string summary) { return {"bfs", {"breadth-first"}, std::move(summary), kExplore}; }

// The machine figures of a finished explore (puzzle.h SearchFigures): the peak memory and the
// threads it could use.
inline void machine_figures(const Options& o, SearchFigures& f) {
  f.peak_rss_bytes = peak_rss();
  f.threads = o.threads;
}

template <class P>
ExploreReport explore_by_table(const ExploreTable<P>& table, const P& p, const Options& o) {
  const ExploreJob<P> job{p, o};
  const auto& entry = choose(table, o.algorithm, job, kExplore);
  ExploreReport r = run_with_progress(entry, job, o);
  if (r.algorithm.empty()) r.algorithm = entry.spec.name;
  machine_figures(o, r);
  return r;
}

}  // namespace tansaku
