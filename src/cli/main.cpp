// tansaku command line. The CLI knows no family: it registers the options the families
// declare (puzzle.h), refuses what a family or subcommand does not take, resolves
// --algorithm against the family's solvers, prints help, reports as text or JSON, and maps
// errors onto exit codes: 0 done, 1 no solution exists, 2 bad input, 3 a limit stopped the
// work, 4 internal error.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <set>
#include <thread>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/bench.h"
#include "cli/full.h"
#include "cli/help.h"
#include "cli/mpi.h"
#include "cli/output.h"
#include "cli/pictures.h"
#include "cli/request.h"
#include "serve/serve.h"
#include "tansaku/core/suggest.h"
#include "tansaku/core/error.h"
#include "tansaku/core/input.h"
#include "tansaku/core/memory.h"
#include "tansaku/puzzles/registry.h"

using namespace tansaku;

namespace {

constexpr std::size_t kMessageBytes = 4000;  // an error message is cut (and escaped: input.h) beyond this

void add_spec(CLI::App* cmd, const OptionSpec& s, Raw& raw) {
  const std::string flag = "--" + s.name;
  if (s.type == OptionSpec::Type::Flag) cmd->add_flag(flag, raw.flags[s.name], s.help);
  else cmd->add_option(flag, raw.text[s.name], s.help)->type_name(s.value_name.empty() ? "VALUE" : s.value_name);
}

void add_universal(CLI::App* cmd, Raw& raw, bool with_algorithm, bool with_pictures = false) {
  cmd->add_option("--threads", raw.text["threads"], "worker threads (default, or 0: all cores)")->type_name("N");
  cmd->add_option("--memory", raw.text["memory"], "memory budget, e.g. 512M, 4G (default: 3/4 of RAM)")->type_name("SIZE");
  cmd->add_option("--timeout", raw.text["timeout"], "give up after SECONDS (exit 3)")->type_name("SECONDS");
  cmd->add_flag("--quiet", raw.flags["quiet"], "no progress on stderr");
  cmd->add_flag("--json", raw.flags["json"], "one JSON object on stdout");
  if (with_algorithm) cmd->add_option("--algorithm", raw.text["algorithm"], "solver (see 'tansaku help PUZZLE')")->type_name("NAME");
  if (with_pictures) {  // cli/pictures.h
    cmd->add_option("--svg", raw.text["svg"], "show, solve: write the board (solve: the last position) as SVG (- = stdout)")->type_name("FILE");
    cmd->add_option("--html", raw.text["html"], "write a self-contained page: the board, the solution player, the explore chart, the batch table (- = stdout)")->type_name("FILE");
  }
}

// Long names of the options present on the command line.
std::set<std::string> given_of(const CLI::App* cmd) {
  std::set<std::string> given;
  for (const CLI::Option* opt : cmd->get_options()) {
    if (opt->get_lnames().empty() || opt->count() == 0) continue;
    const std::string& name = opt->get_lnames().front();
    if (name != "help") given.insert(name);
  }
  return given;
}

// Writes what is buffered and reports a failed write (a full disk, a closed pipe) as an error.
int finish_output(int code) {
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    fmt::print(stderr, "tansaku: cannot write the output: {}\n", std::strerror(errno));
    return 4;
  }
  return code;
}

std::vector<std::string> command_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* c : app.get_subcommands({})) names.push_back(c->get_name());
  return names;
}

}  // namespace

static int tansaku_main(int argc, char** argv) {
  // Every argument is UTF-8 text (states, names and paths reach JSON output): refused otherwise.
  for (int i = 1; i < argc; ++i)
    if (!valid_utf8(argv[i])) {
      fmt::print(stderr, "tansaku: argument {} '{}' is not valid UTF-8\n", i, printable(argv[i]));
      return 2;
    }
  CLI::App app{"tansaku (探索): optimal puzzle solving, proofs of unsolvability, whole state spaces"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("tansaku ") + TANSAKU_VERSION);
  Raw raw;
  bool list_json = false, bench_json = false, bench_quiet = false;
  std::string bench_threads, help_puzzle, random_seed = "1", random_count = "1";

  std::vector<OptionSpec> specs;
  try {
    specs = declared_options();
  } catch (const std::exception& e) {
    fmt::print(stderr, "tansaku: internal error: {}\n", e.what());
    return 4;
  }

  auto* list = app.add_subcommand("list", "builtin puzzles, one line each");
  list->add_flag("--json", list_json, "JSON output");
  auto* show = app.add_subcommand("show", "board picture with cell numbers, rules, defaults, state-space size");
  auto* solve = app.add_subcommand("solve", "an optimal solution, or a proof that none exists");
  auto* explore = app.add_subcommand("explore", "every position reachable: counts per depth, farthest positions");
  auto* random = app.add_subcommand("random", "uniformly random solvable start positions, one a line");
  auto* help = app.add_subcommand("help", "a puzzle's options, solvers, notation and examples");
  help->add_option("puzzle", help_puzzle, "puzzle name (see 'tansaku list')");
  auto* bench = app.add_subcommand("bench", "fixed workload: total nodes (a signature) and time");
  bench->add_flag("--json", bench_json, "JSON output");
  bench->add_flag("--quiet", bench_quiet, "no progress");
  bench->add_option("--threads", bench_threads, "worker threads")->type_name("N");
  serve::Config serve_config;
  auto* serve = serve::add_serve(app, serve_config);
  for (auto* cmd : {show, solve, explore, random}) {
    cmd->add_option("puzzle", raw.puzzle, "puzzle name (see 'tansaku list')")->required();
    add_universal(cmd, raw, cmd != random, cmd != random);
    for (const auto& s : specs)
      if (cmd != random || (s.name != "count" && s.name != "all")) add_spec(cmd, s, raw);
  }
  random->add_option("--seed", random_seed, "seed of the generator (default 1)")->type_name("S");
  random->add_option("--count", random_count, "how many positions (default 1)")->type_name("K");

  // The families' own subcommands (e.g. `pdb build`). Several families may declare the
  // same path: one subcommand, the union of their options, each tool remembered with its
  // family (ToolCommand::report says how they share it).
  struct ToolSlot {
    CLI::App* cmd = nullptr;
    std::vector<std::pair<const Family*, const ToolCommand*>> tools;
    std::set<std::string> options;
  };
  std::vector<ToolSlot> tools;
  for (const auto& f : families())
    for (const auto& t : f.tools) {
      CLI::App* parent = &app;
      for (std::size_t i = 0; i < t.path.size(); ++i) {
        CLI::App* next = nullptr;
        for (CLI::App* c : parent->get_subcommands({}))
          if (c->get_name() == t.path[i]) next = c;
        if (!next) {
          next = parent->add_subcommand(t.path[i], i + 1 == t.path.size() ? t.help : "");
          if (i + 1 < t.path.size()) next->require_subcommand(1);
        }
        parent = next;
      }
      ToolSlot* slot = nullptr;
      for (auto& s : tools)
        if (s.cmd == parent) slot = &s;
      if (!slot) {
        tools.push_back(ToolSlot{parent, {}, {}});
        slot = &tools.back();
        if (!t.positional.empty()) parent->add_option(t.positional, raw.puzzle, t.positional)->required();
        add_universal(parent, raw, false);
      } else if (slot->tools.front().second->positional != t.positional) {
        throw std::logic_error("families declare the same tool command with different positional arguments");
      }
      for (const auto& s : t.options)
        if (slot->options.insert(s.name).second) add_spec(parent, s, raw);
      slot->tools.emplace_back(&f, &t);
    }

  // Unknown command, and `tansaku solve PUZZLE --help` (the family's help).
  if (argc > 1 && argv[1][0] != '-') {
    const auto names = command_names(app);
    if (std::find(names.begin(), names.end(), argv[1]) == names.end()) {
      std::string list_of;
      for (const auto& n : names) list_of += (list_of.empty() ? "" : ", ") + n;
      fmt::print(stderr, "tansaku: unknown command '{}'{} ({})\n", printable(argv[1]), printable(did_you_mean(argv[1], names)), list_of);
      return 2;
    }
    const std::string sub = argv[1];
    if ((sub == "show" || sub == "solve" || sub == "explore" || sub == "random") && argc > 2 && argv[2][0] != '-') {
      for (int i = 3; i < argc; ++i)
        if (!std::strcmp(argv[i], "--help") || !std::strcmp(argv[i], "-h")) {
          try {
            const unsigned c = sub == "show" ? kShow : sub == "solve" ? kSolve : sub == "explore" ? kExplore : kRandom;
            fmt::print("{}", family_help(argv[2], c));
            return finish_output(0);
          } catch (const InputError& e) {
            fmt::print(stderr, "tansaku: {}\n", printable(e.what(), kMessageBytes));
            return 2;
          }
        }
    }
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ExtrasError& e) {
    // An option no family declares: suggest the nearest one.
    std::string msg = e.what(), typed;
    for (int i = 1; i < argc; ++i)
      if (argv[i][0] == '-' && argv[i][1] == '-' && msg.find(argv[i]) != std::string::npos) {
        typed = argv[i];
        break;
      }
    if (typed.empty()) {
      if (auto nl = msg.find('\n'); nl != std::string::npos) msg.resize(nl);
      fmt::print(stderr, "tansaku: {}\n", printable(msg, kMessageBytes));
      return 2;
    }
    std::vector<std::string> known;
    for (const auto& n : kUniversal) known.push_back("--" + n);
    for (const auto& s : specs) known.push_back("--" + s.name);
    fmt::print(stderr, "tansaku: unknown option '{}'{}\n", printable(typed), printable(did_you_mean(typed, known)));
    return 2;
  } catch (const CLI::ParseError& e) {
    std::string msg = e.what();
    if (auto nl = msg.find('\n'); nl != std::string::npos) msg.resize(nl);
    fmt::print(stderr, "tansaku: {}\n", printable(msg, kMessageBytes));
    return 2;
  }

  try {
    if (list->parsed()) {
      print_list(list_json);
      return finish_output(0);
    }
    if (help->parsed()) {
      if (help_puzzle.empty()) fmt::print("{}", app.help());
      else fmt::print("{}", family_help(help_puzzle, kAllCommands));
      return finish_output(0);
    }
#ifdef TANSAKU_FULL
    if (serve->parsed()) return serve::run(serve_config);
#else
    if (serve->parsed()) return run_full(argv);  // the server lives in tansaku-full (cli/full.h)
#endif
    if (bench->parsed()) {
      unsigned t = std::max(1u, std::thread::hardware_concurrency());
      if (!bench_threads.empty()) {
        const auto want = static_cast<unsigned>(whole("threads", bench_threads, kMaxThreadsOption));
        if (want) t = std::min(t, want);
      }
      return finish_output(run_bench(bench_json, bench_quiet, t));
    }
    for (auto& slot : tools)
      if (slot.cmd->parsed()) {
        const bool positional = !slot.tools.front().second->positional.empty();
        // The tools that run: the puzzle's family's (a positional puzzle), else every one.
        std::vector<const ToolCommand*> run;
        if (positional && slot.tools.size() > 1) {
          const Family& fam = family_of(raw.puzzle);
          std::string which;
          for (const auto& [f, t] : slot.tools) {
            if (f->prefix == fam.prefix) run.push_back(t);
            which += (which.empty() ? "" : ", ") + f->prefix;
          }
          if (run.empty())
            throw InputError(fmt::format("'{}' is not for {} (it is for: {})", slot.cmd->get_name(), printable(raw.puzzle), which));
        } else {
          for (const auto& [f, t] : slot.tools) run.push_back(t);
        }
        Options o;
        universal(given_of(slot.cmd), raw, o);
        for (const auto& name : o.given) {
          bool declared = false;
          for (const auto* tool : run)
            for (const auto& s : tool->options)
              if (s.name == name) {
                declared = true;
                o.values[name] = s.type == OptionSpec::Type::Flag ? "true" : raw.text[name];
              }
          if (!declared && slot.options.count(name))
            throw InputError(fmt::format("--{} does not apply to {}", name, printable(raw.puzzle)));
        }
        std::vector<std::string> args;
        if (positional) args.push_back(raw.puzzle);
        if (run.size() == 1) return finish_output(run.front()->run(o, args));
        // Several families, no positional: one merged answer where they all can give one.
        bool reports = true;
        for (const auto* tool : run) reports = reports && static_cast<bool>(tool->report);
        if (!reports) {
          for (const auto* tool : run)
            if (int code = tool->run(o, args)) return finish_output(code);
          return finish_output(0);
        }
        std::string text;
        json merged = json::object();
        for (const auto* tool : run) {
          auto [t, j] = tool->report(o);
          text += t;
          for (auto it = j.begin(); it != j.end(); ++it) {
            if (!merged.contains(it.key())) merged[it.key()] = it.value();
            else if (merged[it.key()].is_array() && it.value().is_array())
              for (const auto& v : it.value()) merged[it.key()].push_back(v);
          }
        }
        if (o.json) fmt::print("{}\n", merged.dump());
        else fmt::print("{}", text);
        return finish_output(0);
      }
    CLI::App* cmd = show->parsed() ? show : solve->parsed() ? solve : explore->parsed() ? explore : random;
    const unsigned command = cmd == show ? kShow : cmd == solve ? kSolve : cmd == explore ? kExplore : kRandom;
    Options o;
    if (command == kRandom) {
      const RandomRun run = run_random(given_of(cmd), raw, random_seed, random_count);
      if (raw.flags["json"]) fmt::print("{}\n", random_json(run.puzzle, run.seed, run.positions).dump());
      else
        for (const auto& p : run.positions) fmt::print("{}\n", p);
      return finish_output(0);
    }
    o = request_options(command, given_of(cmd), raw);
    auto puzzle = make_puzzle(raw.puzzle, o);
    Pictures pictures(*puzzle, o);  // --svg / --html: refused or opened before any work
    if (command == kShow) {
      const ShowReport r = puzzle->show(o);
      if (!pictures.stdout_taken()) print_show(r, o.json);
      pictures.show(r);
      return finish_output(0);
    }
    if (command == kSolve) {
      const SolveReport r = run_solve(*puzzle, o);
      if (!pictures.stdout_taken()) print_solve(r, o.json);
      pictures.solve(r);
      return finish_output(r.solvable ? 0 : 1);
    }
    const ExploreReport r = run_explore(*puzzle, o);
    if (!pictures.stdout_taken()) print_explore(r, o.json);
    pictures.explore(r);
    return finish_output(0);
  } catch (const InputError& e) {
    fmt::print(stderr, "tansaku: {}\n", printable(e.what(), kMessageBytes));
    return 2;
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

// Under mpirun, every rank runs the same command line (cli/mpi.h).
int main(int argc, char** argv) { return run_with_mpi(argc, argv, tansaku_main); }
