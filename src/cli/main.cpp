// tansaku command line. The CLI knows no family: it registers the options the families
// declare (puzzle.h), refuses what a family or subcommand does not take, resolves
// --algorithm against the family's solvers, prints help, reports as text or JSON, and maps
// errors onto exit codes: 0 done, 1 no solution exists, 2 bad input, 3 a limit stopped the
// work, 4 internal error.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <thread>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/bench.h"
#include "cli/full.h"
#include "cli/help.h"
#include "cli/mpi.h"
#include "cli/output.h"
#include "cli/pdb.h"
#include "cli/pictures.h"
#include "cli/request.h"
#include "cli/tools.h"
#include "serve/serve.h"
#include "tansaku/core/error.h"
#include "tansaku/core/input.h"
#include "tansaku/core/memory.h"
#include "tansaku/core/suggest.h"
#include "tansaku/puzzles/registry.h"

using namespace tansaku;

namespace {

constexpr std::size_t kMessageBytes = 4000;  // an error message is cut (and escaped: input.h) beyond this

// Writes what is buffered and reports a failed write (a full disk, a closed pipe) as an error.
int finish_output(int code) {
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    fmt::print(stderr, "tansaku: cannot write the output: {}\n", std::strerror(errno));
    return 4;
  }
  return code;
}

int refuse(const std::string& message) {
  fmt::print(stderr, "tansaku: {}\n", printable(message, kMessageBytes));
  return 2;
}

std::vector<std::string> command_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* c : app.get_subcommands({})) names.push_back(c->get_name());
  return names;
}

unsigned command_bit(const std::string& sub) {
  return sub == "show" ? kShow : sub == "solve" ? kSolve : sub == "explore" ? kExplore : sub == "random" ? kRandom : 0;
}

// Every argument is UTF-8 text (states, names and paths reach JSON output): refused otherwise.
std::optional<int> refuse_bad_utf8(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (!valid_utf8(argv[i])) {
      fmt::print(stderr, "tansaku: argument {} '{}' is not valid UTF-8\n", i, printable(argv[i]));
      return 2;
    }
  return std::nullopt;
}

// What the command line holds, as CLI11 fills it.
struct Commands {
  CLI::App app{"tansaku (探索): optimal puzzle solving, proofs of unsolvability, whole state spaces", "tansaku"};
  Raw raw;
  bool list_json = false, bench_json = false, bench_quiet = false;
  std::string bench_threads, help_puzzle, random_seed = "1", random_count = "1";
  CLI::App *list = nullptr, *show = nullptr, *solve = nullptr, *explore = nullptr, *random = nullptr, *help = nullptr,
           *bench = nullptr, *serve = nullptr;
  serve::Config serve_config;
  std::vector<OptionSpec> specs;  // every option the families declare
  std::unique_ptr<ToolCommands> tools;
  std::unique_ptr<PdbCommands> pdb;  // pdb list / verify / remove, after the families' pdb build
};

// The subcommands, their options (the universal ones and every family's), the tools.
void declare(Commands& c) {
  CLI::App& app = c.app;
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("tansaku ") + TANSAKU_VERSION);
  app.set_help_all_flag("--help-all", "Print the help of every subcommand and exit");
  c.list = app.add_subcommand("list", "builtin puzzles, one line each");
  c.list->add_flag("--json", c.list_json, "JSON output");
  c.show = app.add_subcommand("show", "board picture with cell numbers, rules, defaults, state-space size");
  c.solve = app.add_subcommand("solve", "an optimal solution, or a proof that none exists");
  c.explore = app.add_subcommand("explore", "every position reachable: counts per depth, farthest positions");
  c.random = app.add_subcommand("random", "uniformly random solvable start positions, one a line");
  c.help = app.add_subcommand("help", "a puzzle's options, solvers, notation and examples");
  c.help->add_option("puzzle", c.help_puzzle, "puzzle name (see 'tansaku list')");
  c.bench = app.add_subcommand("bench", "fixed workload: total nodes (a signature) and time");
  c.bench->add_flag("--json", c.bench_json, "JSON output");
  c.bench->add_flag("--quiet", c.bench_quiet, "no progress");
  c.bench->add_option("--threads", c.bench_threads, "worker threads")->type_name("N");
  c.serve = serve::add_serve(app, c.serve_config);
  for (auto* cmd : {c.show, c.solve, c.explore, c.random}) {
    cmd->add_option("puzzle", c.raw.puzzle, "puzzle name (see 'tansaku list')")->required();
    add_universal(cmd, c.raw, cmd != c.random, cmd != c.random);
    for (const auto& s : c.specs)
      if (cmd != c.random || (s.name != "count" && s.name != "all")) add_spec(cmd, s, c.raw);
  }
  c.random->add_option("--seed", c.random_seed, "seed of the generator (default 1)")->type_name("S");
  c.random->add_option("--count", c.random_count, "how many positions (default 1)")->type_name("K");
  c.tools = std::make_unique<ToolCommands>(app, c.raw);
  c.pdb = std::make_unique<PdbCommands>(app, c.raw);
}

// An unknown command, and `tansaku solve PUZZLE --help` (the family's help), before parsing.
std::optional<int> before_parsing(const Commands& c, int argc, char** argv) {
  if (argc <= 1 || argv[1][0] == '-') return std::nullopt;
  const auto names = command_names(c.app);
  if (std::find(names.begin(), names.end(), argv[1]) == names.end()) {
    std::string list_of;
    for (const auto& n : names) list_of += (list_of.empty() ? "" : ", ") + n;
    return refuse(fmt::format("unknown command '{}'{} ({})", argv[1], did_you_mean(argv[1], names), list_of));
  }
  const unsigned command = command_bit(argv[1]);
  if (!command || argc <= 2 || argv[2][0] == '-') return std::nullopt;
  for (int i = 3; i < argc; ++i)
    if (!std::strcmp(argv[i], "--help") || !std::strcmp(argv[i], "-h")) {
      try {
        fmt::print("{}", family_help(argv[2], command));
        return finish_output(0);
      } catch (const InputError& e) {
        return refuse(e.what());
      }
    }
  return std::nullopt;
}

// The command a command line names (`solve`, `pdb build`, ...; null: none), and the index of
// its first argument.
CLI::App* command_of(const Commands& c, int argc, char** argv, int& first) {
  first = 1;
  if (argc <= 1 || argv[1][0] == '-') return nullptr;
  CLI::App* cmd = nullptr;
  try {
    cmd = c.app.get_subcommand(argv[1]);
    first = 2;
    if (argc > 2 && argv[2][0] != '-' && !cmd->get_subcommands({}).empty()) {
      cmd = cmd->get_subcommand(argv[2]);
      first = 3;
    }
  } catch (const CLI::Error&) {  // a puzzle name, or no such command (reported by the parse)
  }
  return cmd;
}

// An option that takes a value followed by another option (`--svg --json`) would take that
// option as its value: refused, naming both.
std::optional<int> refuse_swallowed_option(const Commands& c, int argc, char** argv) {
  int first = 1;
  const CLI::App* cmd = command_of(c, argc, argv, first);
  if (!cmd) return std::nullopt;
  auto option = [&](const char* arg) -> const CLI::Option* {
    if (arg[0] != '-' || arg[1] != '-' || !arg[2]) return nullptr;
    std::string name = arg;
    if (auto eq = name.find('='); eq != std::string::npos) return nullptr;  // --name=value holds its value
    return cmd->get_option_no_throw(name);
  };
  for (int i = first; i + 1 < argc; ++i) {
    const CLI::Option* o = option(argv[i]);
    if (!o || o->get_items_expected_min() < 1) continue;
    std::string next = argv[i + 1];
    if (next.size() < 3 || next[0] != '-' || next[1] != '-') continue;
    if (auto eq = next.find('='); eq != std::string::npos) next.resize(eq);
    if (cmd->get_option_no_throw(next))
      return refuse(fmt::format("{} needs a value, and the next argument is the option {}", argv[i], next));
  }
  return std::nullopt;
}

// CLI11's parse errors as exit codes, said in the command's terms; an option the command
// does not have gets the nearest one it has.
int parse_error(const Commands& c, const CLI::ParseError& e, int argc, char** argv) {
  std::string msg = e.what();
  if (auto nl = msg.find('\n'); nl != std::string::npos) msg.resize(nl);
  int first = 1;
  const CLI::App* cmd = command_of(c, argc, argv, first);
  if (dynamic_cast<const CLI::ExtrasError*>(&e)) {
    for (int i = 1; i < argc; ++i)
      if (argv[i][0] == '-' && argv[i][1] == '-' && msg.find(argv[i]) != std::string::npos) {
        std::vector<std::string> known;
        if (cmd) {
          for (const CLI::Option* o : cmd->get_options())
            for (const auto& n : o->get_lnames()) known.push_back("--" + n);
        } else {
          for (const auto& n : kUniversal) known.push_back("--" + n);
          for (const auto& s : c.specs) known.push_back("--" + s.name);
        }
        return refuse(fmt::format("unknown option '{}'{}", argv[i], did_you_mean(argv[i], known)));
      }
    const std::string lead = ": ";
    if (auto at = msg.find(lead); at != std::string::npos)
      return refuse(fmt::format("{}unexpected argument{} '{}'", cmd ? cmd->get_name() + ": " : "",
                                msg.find("arguments were") != std::string::npos ? "s" : "",
                                msg.substr(at + lead.size())));
    return refuse(msg);
  }
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&e)) {
    const auto colon = msg.find(": ");
    const std::string opt = colon == std::string::npos ? "" : msg.substr(0, colon);
    if (msg.find("At Most 1 required") != std::string::npos)
      return refuse(fmt::format("{} is given more than once", opt));
    if (msg.find("missing") != std::string::npos) return refuse(fmt::format("{} needs a value", opt));
  }
  if (dynamic_cast<const CLI::RequiredError*>(&e) && msg.find("subcommand is required") != std::string::npos && cmd) {
    std::string names;
    for (const CLI::App* sub : cmd->get_subcommands({})) names += (names.empty() ? "" : ", ") + sub->get_name();
    if (argc > first && argv[first][0] != '-')
      return refuse(fmt::format("unknown {} command '{}'{} ({})", cmd->get_name(), argv[first],
                                did_you_mean(argv[first], command_names(*cmd)), names));
    return refuse(fmt::format("{} needs a command: {}", cmd->get_name(), names));
  }
  return refuse(msg);
}

int run_bench_command(const Commands& c) {
  unsigned t = std::max(1u, std::thread::hardware_concurrency());
  if (!c.bench_threads.empty()) {
    const auto want = static_cast<unsigned>(whole("threads", c.bench_threads, kMaxThreadsOption));
    if (want) t = std::min(t, want);
  }
  return run_bench(c.bench_json, c.bench_quiet, t);
}

// show / solve / explore / random on one puzzle.
int run_puzzle_command(Commands& c) {
  CLI::App* cmd = c.show->parsed() ? c.show : c.solve->parsed() ? c.solve : c.explore->parsed() ? c.explore : c.random;
  const unsigned command = command_bit(cmd->get_name());
  if (command == kRandom) {
    const RandomRun run = run_random(given_of(cmd), c.raw, c.random_seed, c.random_count);
    if (c.raw.flags["json"]) fmt::print("{}\n", random_json(run.puzzle, run.seed, run.positions).dump());
    else
      for (const auto& p : run.positions) fmt::print("{}\n", p);
    return 0;
  }
  const Options o = request_options(command, given_of(cmd), c.raw);
  auto puzzle = make_puzzle(c.raw.puzzle, o);
  Pictures pictures(*puzzle, o);  // --svg / --html: refused or opened before any work
  if (command == kShow) {
    const ShowReport r = puzzle->show(o);
    if (!pictures.stdout_taken()) print_show(r, o.json);
    pictures.show(r);
    return 0;
  }
  if (command == kSolve) {
    SolveReport r;
    try {
      r = run_solve(*puzzle, o);
    } catch (const SolveStopped& e) {
      // --json: what was proved, as one object on stdout; the message (with the best solution
      // found so far, in text) goes to stderr either way.
      if (o.json && !pictures.stdout_taken()) fmt::print("{}\n", e.report.dump());
      throw;
    }
    if (!pictures.stdout_taken()) print_solve(r, o.json);
    pictures.solve(r);
    return r.solvable ? 0 : 1;
  }
  const ExploreReport r = run_explore(*puzzle, o);
  if (!pictures.stdout_taken()) print_explore(r, o.json);
  pictures.explore(r);
  return 0;
}

// The parsed command, run.
int dispatch(Commands& c, char** argv) {
  if (c.list->parsed()) {
    print_list(c.list_json);
    return 0;
  }
  if (c.help->parsed()) {
    fmt::print("{}", c.help_puzzle.empty() ? c.app.help() : family_help(c.help_puzzle, kAllCommands));
    return 0;
  }
#ifdef TANSAKU_FULL
  if (c.serve->parsed()) return serve::run(c.serve_config);
#else
  if (c.serve->parsed()) return run_full(argv);  // the server lives in tansaku-full (cli/full.h)
#endif
  if (c.bench->parsed()) return run_bench_command(c);
  int code = 0;
  if (c.tools->run_parsed(c.raw, code)) return code;
  if (c.pdb->run_parsed(c.raw, code)) return code;
  return run_puzzle_command(c);
}

// Runs `work`, mapping what it throws onto the exit codes.
template <class Work>
int with_exit_codes(Work work) {
  try {
    return finish_output(work());
  } catch (const InputError& e) {
    return refuse(e.what());
  } catch (const LimitError& e) {
    fmt::print(stderr, "tansaku: {}\n", printable(e.what(), kMessageBytes));
    return 3;
  } catch (const WriteError& e) {
    fmt::print(stderr, "tansaku: {}\n", printable(e.what(), kMessageBytes));
    return 4;
  } catch (const std::bad_alloc&) {
    fmt::print(stderr, "tansaku: out of memory\n");
    return 3;
  } catch (const std::exception& e) {
    fmt::print(stderr, "tansaku: internal error: {}\n", printable(e.what(), kMessageBytes));
    return 4;
  }
}

}  // namespace

static int tansaku_main(int argc, char** argv) {
  if (auto code = refuse_bad_utf8(argc, argv)) return *code;
  Commands c;
  try {
    c.specs = declared_options();
    declare(c);
  } catch (const std::exception& e) {
    fmt::print(stderr, "tansaku: internal error: {}\n", e.what());
    return 4;
  }
  if (auto code = before_parsing(c, argc, argv)) return *code;
  if (auto code = refuse_swallowed_option(c, argc, argv)) return *code;
  try {
    c.app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return c.app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return c.app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return c.app.exit(e);
  } catch (const CLI::ParseError& e) {
    return parse_error(c, e, argc, argv);
  }
  return with_exit_codes([&] { return dispatch(c, argv); });
}

// Under mpirun, every rank runs the same command line (cli/mpi.h).
int main(int argc, char** argv) { return run_with_mpi(argc, argv, tansaku_main); }
