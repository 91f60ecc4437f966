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
#include <thread>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/bench.h"
#include "cli/help.h"
#include "cli/output.h"
#include "tansaku/core/suggest.h"
#include "tansaku/core/error.h"
#include "tansaku/core/input.h"
#include "tansaku/core/memory.h"
#include "tansaku/puzzles/registry.h"

using namespace tansaku;

namespace {

constexpr unsigned kMaxThreads = 256;
constexpr std::size_t kMessageBytes = 4000;  // an error message is cut (and escaped: input.h) beyond this

// Raw values as typed; checked after parsing, once the family is known.
struct Raw {
  std::string puzzle;
  std::map<std::string, std::string> text;  // every option with a value
  std::map<std::string, bool> flags;        // every flag
  std::vector<std::string> args;            // tool positionals
};

// Options the CLI itself owns on every puzzle subcommand.
const std::vector<std::string> kUniversal = {"threads", "memory", "timeout", "quiet", "json", "algorithm"};

// The union of what the families declare, one spec per name (the first declaration wins;
// families must agree on an option's type).
std::vector<OptionSpec> declared_options() {
  std::vector<OptionSpec> out;
  std::map<std::string, OptionSpec::Type> seen;
  for (const auto& f : families())
    for (const auto& s : f.options) {
      auto [it, fresh] = seen.emplace(s.name, s.type);
      if (!fresh) {
        if (it->second != s.type)
          throw std::logic_error(fmt::format("option --{} is declared with two types by the families", s.name));
        continue;
      }
      out.push_back(s);
    }
  return out;
}

void add_spec(CLI::App* cmd, const OptionSpec& s, Raw& raw) {
  const std::string flag = "--" + s.name;
  if (s.type == OptionSpec::Type::Flag) cmd->add_flag(flag, raw.flags[s.name], s.help);
  else cmd->add_option(flag, raw.text[s.name], s.help)->type_name(s.value_name.empty() ? "VALUE" : s.value_name);
}

void add_universal(CLI::App* cmd, Raw& raw, bool with_algorithm) {
  cmd->add_option("--threads", raw.text["threads"], "worker threads (default, or 0: all cores)")->type_name("N");
  cmd->add_option("--memory", raw.text["memory"], "memory budget, e.g. 512M, 4G (default: 3/4 of RAM)")->type_name("SIZE");
  cmd->add_option("--timeout", raw.text["timeout"], "give up after SECONDS (exit 3)")->type_name("SECONDS");
  cmd->add_flag("--quiet", raw.flags["quiet"], "no progress on stderr");
  cmd->add_flag("--json", raw.flags["json"], "one JSON object on stdout");
  if (with_algorithm) cmd->add_option("--algorithm", raw.text["algorithm"], "solver (see 'tansaku help PUZZLE')")->type_name("NAME");
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

const char* command_name(unsigned c) {
  switch (c) {
    case kShow: return "show";
    case kSolve: return "solve";
    case kExplore: return "explore";
    default: return "random";
  }
}

std::uint64_t whole(const std::string& name, const std::string& v, std::uint64_t max) {
  if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos || v.size() > 12)
    throw InputError(fmt::format("--{} '{}' is not a whole number >= 0", name, v));
  const std::uint64_t x = std::stoull(v);
  if (x > max) throw InputError(fmt::format("--{} {} is too large (at most {})", name, v, max));
  return x;
}

// Fills the universal fields of `o` from the raw values.
void universal(const std::set<std::string>& given, Raw& raw, Options& o) {
  o.given = given;
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  o.threads = cores;
  if (given.count("threads")) {
    const auto t = static_cast<unsigned>(whole("threads", raw.text["threads"], kMaxThreads));
    if (t != 0) o.threads = std::min(t, cores);  // more threads than cores only adds overhead
  }
  o.memory = given.count("memory") ? parse_size(raw.text["memory"]) : default_memory_budget();
  if (o.memory == 0) throw InputError("--memory must be more than 0");
  o.timeout = 0;
  if (given.count("timeout")) {
    const std::string& v = raw.text["timeout"];
    char* end = nullptr;
    const double t = std::strtod(v.c_str(), &end);
    if (v.empty() || *end != '\0' || !std::isfinite(t) || t <= 0 || t > 1e9)
      throw InputError(fmt::format("--timeout '{}': give a number of seconds above 0 and at most 1e9", v));
    o.timeout = t;
  }
  o.quiet = raw.flags["quiet"];
  o.json = raw.flags["json"];
  o.deadline = Deadline(o.timeout);
}

// Checks the given options against the family's declaration for this subcommand and moves
// them into `o`.
void family_options(const Family& f, const std::string& puzzle, unsigned command, Raw& raw, Options& o) {
  // explore: --start is an alias of --from (DESIGN.md) where the family has no start of its own.
  auto takes = [&](const std::string& name) {
    for (const auto& s : f.options)
      if (s.name == name && (s.commands & command)) return &s;
    return static_cast<const OptionSpec*>(nullptr);
  };
  if (command == kExplore && o.has("start") && !takes("start") && takes("from")) {
    if (o.has("from")) throw InputError("give either --from or --start, not both");
    raw.text["from"] = raw.text["start"];
    o.given.erase("start");
    o.given.insert("from");
  }
  for (const auto& name : o.given) {
    if (std::find(kUniversal.begin(), kUniversal.end(), name) != kUniversal.end()) continue;
    const OptionSpec* s = takes(name);
    if (!s) {
      bool elsewhere = false;
      for (const auto& d : f.options) elsewhere |= d.name == name;
      if (elsewhere) throw InputError(fmt::format("option --{} does not apply to '{} {}'", name, command_name(command), puzzle));
      throw InputError(fmt::format("option --{} does not apply to {} (see 'tansaku help {}')", name, puzzle, puzzle));
    }
    if (s->type == OptionSpec::Type::Flag) {
      o.values[name] = "true";
    } else {
      o.values[name] = raw.text[name];
      if (s->type == OptionSpec::Type::Integer) (void)o.integer(name);  // refuses non-numbers here
    }
  }
  // The common options keep their typed fields.
  auto text = [&](const char* n) { return o.values.count(n) ? std::optional<std::string>(o.values[n]) : std::nullopt; };
  o.start = text("start");
  o.goal = text("goal");
  o.from = text("from");
  o.all = o.values.count("all") != 0;
  o.count = o.values.count("count") != 0;
  if (o.values.count("farthest")) o.farthest = whole("farthest", o.values["farthest"], std::uint64_t{1} << 32);
  // --algorithm: a solver of the family for this subcommand, by name or alias.
  if (o.has("algorithm")) {
    std::string a = raw.text["algorithm"];
    for (auto& c : a) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::vector<std::string> names;
    for (const auto& s : f.solvers) {
      if (!(s.commands & command)) continue;
      names.push_back(s.name);
      if (a == s.name || std::find(s.aliases.begin(), s.aliases.end(), a) != s.aliases.end()) o.algorithm = s.name;
    }
    if (o.algorithm.empty()) {
      if (names.empty()) throw InputError(fmt::format("'{} {}' takes no --algorithm", command_name(command), puzzle));
      std::string list;
      for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
      throw InputError(fmt::format("unknown algorithm '{}' for {} {}{}: use one of {}", raw.text["algorithm"],
                                   command_name(command), puzzle, did_you_mean(a, names), list));
    }
  }
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

int main(int argc, char** argv) {
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
  for (auto* cmd : {show, solve, explore, random}) {
    cmd->add_option("puzzle", raw.puzzle, "puzzle name (see 'tansaku list')")->required();
    add_universal(cmd, raw, cmd != random);
    for (const auto& s : specs)
      if (cmd != random || (s.name != "count" && s.name != "all")) add_spec(cmd, s, raw);
  }
  random->add_option("--seed", random_seed, "seed of the generator (default 1)")->type_name("S");
  random->add_option("--count", random_count, "how many positions (default 1)")->type_name("K");

  // The families' own subcommands (e.g. `pdb build`).
  std::vector<std::pair<CLI::App*, const ToolCommand*>> tools;
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
      if (!t.positional.empty()) parent->add_option(t.positional, raw.puzzle, t.positional)->required();
      add_universal(parent, raw, false);
      for (const auto& s : t.options) add_spec(parent, s, raw);
      tools.emplace_back(parent, &t);
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
    if (bench->parsed()) {
      unsigned t = std::max(1u, std::thread::hardware_concurrency());
      if (!bench_threads.empty()) {
        const auto want = static_cast<unsigned>(whole("threads", bench_threads, kMaxThreads));
        if (want) t = std::min(t, want);
      }
      return finish_output(run_bench(bench_json, bench_quiet, t));
    }
    for (auto& [cmd, tool] : tools)
      if (cmd->parsed()) {
        Options o;
        universal(given_of(cmd), raw, o);
        for (const auto& name : o.given)
          for (const auto& s : tool->options)
            if (s.name == name) o.values[name] = s.type == OptionSpec::Type::Flag ? "true" : raw.text[name];
        std::vector<std::string> args;
        if (!tool->positional.empty()) args.push_back(raw.puzzle);
        return finish_output(tool->run(o, args));
      }
    CLI::App* cmd = show->parsed() ? show : solve->parsed() ? solve : explore->parsed() ? explore : random;
    const unsigned command = cmd == show ? kShow : cmd == solve ? kSolve : cmd == explore ? kExplore : kRandom;
    Options o;
    o.command = command;
    universal(given_of(cmd), raw, o);
    const Family& family = family_of(raw.puzzle);
    if (command == kRandom) {
      o.given.erase("seed");
      o.given.erase("count");
      // random takes the options that define the instance (those `show` takes) and its own.
      family_options(family, raw.puzzle, kShow | kRandom, raw, o);
      const std::uint64_t seed = whole("seed", random_seed, UINT64_MAX / 10);
      const std::uint64_t count = whole("count", random_count, 1000000);
      auto puzzle = make_puzzle(raw.puzzle, o);
      auto positions = puzzle->random(o, seed, count);
      if (o.json) fmt::print("{}\n", json{{"puzzle", puzzle->name()}, {"seed", seed}, {"positions", positions}}.dump());
      else
        for (const auto& p : positions) fmt::print("{}\n", p);
      return finish_output(0);
    }
    family_options(family, raw.puzzle, command, raw, o);
    auto puzzle = make_puzzle(raw.puzzle, o);
    if (command == kShow) {
      print_show(puzzle->show(o), o.json);
      return finish_output(0);
    }
    if (command == kSolve) {
      SolveReport r = puzzle->solve(o);
      print_solve(r, o.json);
      return finish_output(r.solvable ? 0 : 1);
    }
    print_explore(puzzle->explore(o), o.json);
    return finish_output(0);
  } catch (const InputError& e) {
    fmt::print(stderr, "tansaku: {}\n", printable(e.what(), kMessageBytes));
    return 2;
  } catch (const LimitError& e) {
    fmt::print(stderr, "tansaku: {}\n", printable(e.what(), kMessageBytes));
    return 3;
  } catch (const std::bad_alloc&) {
    fmt::print(stderr, "tansaku: out of memory\n");
    return 3;
  } catch (const std::exception& e) {
    fmt::print(stderr, "tansaku: internal error: {}\n", printable(e.what(), kMessageBytes));
    return 4;
  }
}
