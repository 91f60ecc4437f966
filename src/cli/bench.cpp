#include "cli/bench.h"

#include <fmt/format.h>

#include "cli/output.h"
#include "tansaku/core/deadline.h"
#include "tansaku/core/memory.h"
#include "tansaku/puzzles/registry.h"

namespace tansaku {

namespace {
struct Job {
  const char* command;  // "solve" or "explore"
  const char* puzzle;
  const char* start;    // nullptr = default
  const char* algorithm;
};
// The workload. Append only at the end when a family joins; the signature changes then.
const Job kJobs[] = {
    {"solve", "8-puzzle", nullptr, "bfs"},
    {"solve", "8-puzzle", nullptr, "bibfs"},
    {"solve", "8-puzzle", nullptr, "idastar"},
    {"solve", "11-puzzle", nullptr, "idastar"},
    {"explore", "8-puzzle", nullptr, nullptr},
    {"explore", "rotating-slide", nullptr, nullptr},
    {"explore", "sliding:4x4", "1 2 3 4 6 6 6 6 6 6 6 6 5 6 6 0", nullptr},
    {"solve", "flip:4x4", nullptr, nullptr},
    {"solve", "flip:200x200", nullptr, nullptr},
    {"explore", "flip:5x5", nullptr, nullptr},
    {"explore", "flip:4x4", nullptr, "bfs"},
    {"solve", "peg:triangle5", nullptr, nullptr},
    {"solve", "peg:trytry", nullptr, nullptr},
    {"solve", "peg:triangle6", nullptr, "layered"},
    {"explore", "peg:triangle6", nullptr, nullptr},
    {"solve", "knight-swap:4x3", nullptr, "bibfs"},
    {"explore", "knight-swap:4x3", nullptr, nullptr},
    {"solve", "knight-tour:5x5", nullptr, "dp"},
    {"solve", "knight-tour:100x100", nullptr, "warnsdorff"},
    {"solve", "coloring:myciel5", nullptr, "dsatur"},
    {"solve", "coloring:queen6_6", nullptr, "dsatur"},
    {"solve", "square-sum", nullptr, nullptr},
    {"solve", "blocks:klotski", nullptr, nullptr},
    {"explore", "blocks:century", nullptr, nullptr},
    {"explore", "perm:pyraminx", nullptr, nullptr},
};
}  // namespace

int run_bench(bool as_json, bool quiet, unsigned threads) {
  std::uint64_t nodes = 0;
  Stopwatch total;
  json runs = json::array();
  for (const Job& job : kJobs) {
    Options o;
    o.quiet = true;
    o.threads = threads;
    o.memory = default_memory_budget();
    if (job.start) {
      (std::string(job.command) == "solve" ? o.start : o.from) = job.start;
      o.given.insert(std::string(job.command) == "solve" ? "start" : "from");
    }
    if (job.algorithm) o.algorithm = job.algorithm, o.given.insert("algorithm");
    auto p = make_puzzle(job.puzzle, o);
    Stopwatch sw;
    std::uint64_t n = 0;
    if (std::string(job.command) == "solve") {
      n = p->solve(o).nodes;
    } else {
      auto r = p->explore(o);
      n = r.extra.value("nodes", r.states);
    }
    nodes += n;
    double s = sw.seconds();
    runs.push_back({{"command", job.command}, {"puzzle", job.puzzle}, {"nodes", n}, {"seconds", s}});
    if (!quiet && !as_json)
      fmt::print(stderr, "{:<8} {:<16} {:>12} nodes {:>8.3f} s\n", job.command, job.puzzle, n, s);
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
