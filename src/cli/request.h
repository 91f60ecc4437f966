// One show / solve / explore request, as the command line or the web API (`tansaku serve`)
// gives it: raw option values checked against the family's declaration into Options. Both
// front ends go through here, so an option is refused or accepted the same way in each.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "tansaku/core/error.h"
#include "tansaku/puzzles/puzzle.h"

namespace tansaku {

// serve --workers: each is a thread kept for the server's life.
constexpr unsigned kMaxThreads = 256;
// --threads: any whole number up to this is taken and clamped to the usable cores (the
// bound only keeps the parse sane).
constexpr unsigned kMaxThreadsOption = 1u << 20;

// Raw values as typed; checked once the family is known.
struct Raw {
  std::string puzzle;
  std::map<std::string, std::string> text;  // every option with a value
  std::map<std::string, bool> flags;        // every flag
  std::vector<std::string> args;            // tool positionals
};

// Options the front end itself owns on every puzzle subcommand.
extern const std::vector<std::string> kUniversal;

// The union of what the families declare, one spec per name (the first declaration wins;
// families must agree on an option's type and marks: std::logic_error otherwise).
std::vector<OptionSpec> declared_options();

const char* command_name(unsigned command);  // "show", "solve", "explore", "random"

// `v` as a whole number in [0, max], or InputError naming --name.
std::uint64_t whole(const std::string& name, const std::string& v, std::uint64_t max);

// `v` as a whole number (any sign), or InputError naming --name.
std::int64_t integer_value(const std::string& name, const std::string& v);

// Checks one given option's value against its declaration (type, range) and stores it in
// `o`: the record o.values and, for an option bound to a member, the settings struct.
void store_option(const OptionSpec& s, const std::string& value, Options& o);

// Fills the universal fields of `o` (threads capped to the cores, memory, timeout, quiet,
// json, the deadline) from the raw values; `given` = the long names present.
void universal(const std::set<std::string>& given, Raw& raw, Options& o);

// Checks the given options against the family's declaration for this subcommand and moves
// them into `o` (resolving --algorithm). Throws InputError naming the option.
void family_options(const Family& f, const std::string& puzzle, unsigned command, Raw& raw, Options& o);

// Both of the above for a show / solve / explore request on raw.puzzle.
Options request_options(unsigned command, const std::set<std::string>& given, Raw& raw);

// A `random` request: the options that define the instance (those `show` takes) and random's
// own --seed and --count (raw text: "1" when not given), checked; then the positions drawn.
struct RandomRun {
  std::string puzzle;  // the puzzle's name
  std::uint64_t seed = 0;
  std::vector<std::string> positions;
};
RandomRun run_random(const std::set<std::string>& given, Raw& raw, const std::string& seed, const std::string& count);

// A solve a limit stopped (--timeout, a memory budget, a cancel): still a LimitError (exit
// 3), whose message adds what was proved so far, and that as the JSON object --json prints
// (`"complete": false`, `stopped`, `lower_bound`, `best_solution`, `hint`: docs/cli.md).
// `best`: the best solution found so far (by a quick solver, verified), as its solve reports it.
struct SolveStopped : LimitError {
  SolveStopped(const std::string& message, json report, std::optional<SolveReport> best = std::nullopt)
      : LimitError(message), report(std::move(report)), best(std::move(best)) {}
  json report;
  std::optional<SolveReport> best;
};

// The time a solve keeps back from --timeout T for its quick solvers (SolverSpec::quick):
// a tenth of T, at most kQuickSeconds; without --timeout they get at most kQuickSeconds.
constexpr double kQuickShare = 0.1, kQuickSeconds = 10;

// A solve / explore run by the caller (the CLI, the server): the family's report with
// `puzzle` (the puzzle's name) and `seconds` (the wall time of the call) filled in. A limit
// that stops a solve throws SolveStopped. A solve of one solution by any solver but a quick
// one, in a family that has quick solvers, runs until kQuickShare of --timeout is left; if a
// limit (not a cancel) stops it, the quick solvers run in turn in the time left (without
// --timeout: kQuickSeconds), and the shortest solution they find is the best found so far
// (SolveStopped::best). A quick solver that proves the start unsolvable answers the solve.
SolveReport run_solve(const Puzzle& p, const Options& o);
ExploreReport run_explore(const Puzzle& p, const Options& o);

}  // namespace tansaku
