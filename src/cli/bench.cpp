// `tansaku bench`: runs each family's declared workload in registry order, one line per run on
// stderr, then the total nodes (the signature), time and speed, or all of it as JSON.
#include "cli/bench.h"

#include <fmt/format.h>

#include "cli/output.h"
#include "cli/request.h"
#include "tansaku/core/deadline.h"
#include "tansaku/core/memory.h"
#include "tansaku/puzzles/registry.h"

namespace tansaku {

int run_bench(bool as_json, bool quiet, unsigned threads) {
  std::uint64_t nodes = 0;
  Stopwatch total;
  json runs = json::array();
  // The workload: every family's BenchJobs, in the registry's order.
  for (const auto& family : families())
    for (const BenchJob& job : family.bench) {
      const bool solve = job.command == kSolve;
      Options o;
      o.command = job.command;
      o.quiet = true;
      o.threads = threads;
      o.memory = default_memory_budget();
      if (!job.start.empty()) {
        (solve ? o.start : o.from) = job.start;
        o.given.insert(solve ? "start" : "from");
      }
      if (!job.algorithm.empty()) o.algorithm = job.algorithm, o.given.insert("algorithm");
      auto p = make_puzzle(job.puzzle, o);
      Stopwatch sw;
      std::uint64_t n = 0;
      if (solve) {
        n = p->solve(o).nodes;
      } else {
        // The typed figure; a report that leaves it 0 falls back to a family's own "nodes", then the states.
        auto r = p->explore(o);
        n = r.nodes ? r.nodes : r.extra.value("nodes", r.states);
      }
      nodes += n;
      double s = sw.seconds();
      const char* command = command_name(job.command);
      runs.push_back({{"command", command}, {"puzzle", job.puzzle}, {"nodes", n}, {"seconds", s}});
      if (!quiet && !as_json)
        fmt::print(stderr, "{:<8} {:<16} {:>12} nodes {:>8.3f} s\n", command, job.puzzle, n, s);
    }
  double secs = total.seconds();
  double nps = secs > 0 ? static_cast<double>(nodes) / secs : 0;
  if (as_json) {
    fmt::print("{}\n", json{{"nodes", nodes}, {"seconds", secs}, {"nps", nps}, {"threads", threads}, {"runs", runs}}.dump());
  } else {
    fmt::print("===========================\nTotal time (s) : {:.3f}\nNodes searched : {}\nNodes/second   : {:.0f}\n", secs,
               nodes, nps);
  }
  return 0;
}

}  // namespace tansaku
