// tansaku command line: list, show, solve, explore, bench. Parses options into Options,
// hands them to the puzzle family, prints the report as text or one JSON object.
// Exit codes: 0 done, 1 no solution exists, 2 bad input, 3 a limit stopped the work.
#include <cstdio>
#include <iostream>
#include <thread>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/bench.h"
#include "cli/output.h"
#include "sliding/pdb_cli.h"
#include "tansaku/core/error.h"
#include "tansaku/core/memory.h"
#include "tansaku/puzzles/registry.h"

using namespace tansaku;

namespace {
// A whole number >= 0 (CLI11's NonNegativeNumber reports a range of doubles).
const CLI::Validator kCount(
    [](std::string& v) {
      return !v.empty() && v.find_first_not_of("0123456789") == std::string::npos ? std::string()
                                                                                   : "'" + v + "' is not a whole number >= 0";
    },
    "N");


struct Raw {
  std::string puzzle;
  std::string memory;
  std::optional<std::string> start, goal, from;
};

void add_common(CLI::App* cmd, Options& o, Raw& raw, bool with_puzzle) {
  if (with_puzzle) cmd->add_option("puzzle", raw.puzzle, "puzzle name (see 'tansaku list')")->required();
  cmd->add_option("--start", o.start, "start state (tokens in cell order)");
  cmd->add_option("--goal", o.goal, "goal state");
  cmd->add_option("--from", o.from, "explore: source state (default: the goal); knight-tour: first square");
  cmd->add_option("--algorithm", o.algorithm, "search algorithm (bfs, bibfs, iddfs, idastar, ...)");
  cmd->add_option("--threads", o.threads, "worker threads (default, or 0: all cores)")->check(kCount);
  cmd->add_option("--memory", raw.memory, "memory budget, e.g. 512M, 4G (default: 3/4 of RAM)");
  cmd->add_option("--timeout", o.timeout, "give up after SECONDS (exit 3)");
  cmd->add_flag("--all", o.all, "every optimal solution");
  cmd->add_flag("--count", o.count, "count solutions");
  cmd->add_option("--farthest", o.farthest, "how many farthest positions to print (default 20)")
      ->check(kCount);
  cmd->add_flag("--quiet", o.quiet, "no progress on stderr");
  cmd->add_flag("--json", o.json, "one JSON object on stdout");
  // family options
  cmd->add_option("--empty", o.empty, "peg: empty holes H[,H...]");
  cmd->add_option("--finish", o.finish, "peg: hole of the last peg");
  cmd->add_option("--metric", o.metric, "peg: moves | jumps");
  cmd->add_option("--rule", o.rule, "flip: eight | lights-out | 3x3 mask");
  cmd->add_flag("--torus", o.torus, "flip: wrap around the edges");
  cmd->add_flag("--closed", o.closed, "knight-tour: return to the first square");
  cmd->add_option("--colors", o.colors, "coloring: number of colours");
  cmd->add_option("--n", o.n, "square-sum: numbers 1..N");
  cmd->add_flag("--ring", o.ring, "square-sum: close the row into a ring");
  cmd->add_flag("--smallest", o.smallest, "square-sum: least N with a solution");
  cmd->add_option("--batch", o.batch, "solve every instance of FILE (one a line)");
  cmd->add_option("--file", o.file, "board or instance file");
}

void collect_given(CLI::App* cmd, Options& o) {
  for (const CLI::Option* opt : cmd->get_options()) {
    if (opt->get_lnames().empty() || opt->count() == 0) continue;
    const std::string& name = opt->get_lnames().front();
    if (name == "help") continue;
    o.given.insert(name);
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"tansaku (探索): optimal puzzle solving, proofs of unsolvability, whole state spaces"};
  app.require_subcommand(1);
  Options o;
  Raw raw;
  bool list_json = false, bench_json = false, bench_quiet = false;
  unsigned bench_threads = 0;
  auto* list = app.add_subcommand("list", "builtin puzzles, one line each");
  list->add_flag("--json", list_json, "JSON output");
  auto* show = app.add_subcommand("show", "board picture with cell numbers, rules, defaults, state-space size");
  auto* solve = app.add_subcommand("solve", "an optimal solution, or a proof that none exists");
  auto* explore = app.add_subcommand("explore", "every position reachable: counts per depth, farthest positions");
  auto* bench = app.add_subcommand("bench", "fixed workload: total nodes (a signature) and time");
  bench->add_flag("--json", bench_json, "JSON output");
  bench->add_flag("--quiet", bench_quiet, "no progress");
  bench->add_option("--threads", bench_threads, "worker threads");
  for (auto* cmd : {show, solve, explore}) add_common(cmd, o, raw, true);
  // pattern databases (src/sliding/pdb_cli.h)
  sliding::pdb::PdbArgs pdb_args;
  auto* pdb = app.add_subcommand("pdb", "pattern databases for sliding puzzles: build, list");
  pdb->require_subcommand(1);
  auto* pdb_build = pdb->add_subcommand("build", "build the pattern databases of a board into the cache dir");
  auto* pdb_list = pdb->add_subcommand("list", "list the pattern databases in the cache dir");
  pdb_build->add_option("puzzle", pdb_args.puzzle, "sliding puzzle (15-puzzle, sliding:RxC)")->required();
  pdb_build->add_option("--groups", pdb_args.groups, "tile groups: sizes (7-8) or tile lists (1,2,3/4,5,6)");
  pdb_build->add_option("--goal", pdb_args.goal, "goal state (default: the puzzle's)");
  pdb_build->add_option("--memory", pdb_args.memory, "memory budget, e.g. 4G");
  pdb_build->add_option("--threads", pdb_args.threads, "worker threads (default: all cores)");
  pdb_build->add_flag("--force", pdb_args.force, "rebuild tables already present");
  for (auto* c : {pdb_build, pdb_list}) {
    c->add_option("--dir", pdb_args.dir, "table directory (default $TANSAKU_PDB_DIR or ~/.cache/tansaku)");
    c->add_flag("--quiet", pdb_args.quiet, "no progress");
    c->add_flag("--json", pdb_args.json, "JSON output");
  }

  const auto known = [&](const std::string& name) {
    for (const CLI::App* c : app.get_subcommands({}))
      if (c->get_name() == name) return true;
    return false;
  };
  if (argc > 1 && argv[1][0] != '-' && !known(argv[1])) {
    fmt::print(stderr, "tansaku: unknown command '{}' (list, show, solve, explore, bench, pdb)\n", argv[1]);
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string msg = e.what();
    if (auto nl = msg.find('\n'); nl != std::string::npos) msg.resize(nl);
    fmt::print(stderr, "tansaku: {}\n", msg);
    return 2;
  }

  try {
    if (list->parsed()) {
      print_list(list_json);
      return 0;
    }
    if (bench->parsed()) {
      return run_bench(bench_json, bench_quiet, bench_threads ? bench_threads : std::thread::hardware_concurrency());
    }
    if (pdb_build->parsed()) return sliding::pdb::run_pdb_build(pdb_args);
    if (pdb_list->parsed()) return sliding::pdb::run_pdb_list(pdb_args);
    CLI::App* cmd = show->parsed() ? show : solve->parsed() ? solve : explore;
    collect_given(cmd, o);
    if (!o.has("threads") || o.threads == 0) o.threads = std::max(1u, std::thread::hardware_concurrency());
    o.memory = o.has("memory") ? parse_size(raw.memory) : default_memory_budget();
    if (o.memory == 0) throw InputError("--memory must be more than 0");
    if (o.timeout < 0) throw InputError("--timeout must be positive");
    o.deadline = Deadline(o.timeout);
    auto puzzle = make_puzzle(raw.puzzle, o);
    if (cmd == show) {
      print_show(puzzle->show(o), o.json);
      return 0;
    }
    if (cmd == solve) {
      SolveReport r = puzzle->solve(o);
      print_solve(r, o.json);
      return r.solvable ? 0 : 1;
    }
    print_explore(puzzle->explore(o), o.json);
    return 0;
  } catch (const InputError& e) {
    fmt::print(stderr, "tansaku: {}\n", e.what());
    return 2;
  } catch (const LimitError& e) {
    fmt::print(stderr, "tansaku: {}\n", e.what());
    return 3;
  } catch (const std::bad_alloc&) {
    fmt::print(stderr, "tansaku: out of memory\n");
    return 3;
  } catch (const std::exception& e) {
    fmt::print(stderr, "tansaku: internal error: {}\n", e.what());
    return 4;
  }
}
