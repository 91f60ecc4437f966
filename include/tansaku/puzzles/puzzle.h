// The runtime face of a puzzle family, as the CLI sees it: parse an instance from the
// command line, then show / solve / explore it into reports the CLI prints as text or JSON.
// Families implement Puzzle and register a Family (registry.h); no search code changes.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tansaku/core/deadline.h"
#include "tansaku/core/progress.h"
#include "tansaku/search/limits.h"

namespace tansaku {

using json = nlohmann::ordered_json;

// Every option of the command line; families read what applies to them.
struct Options {
  std::set<std::string> given;  // long names of the options present ("start", "rule", ...)
  bool has(const std::string& name) const { return given.count(name) != 0; }

  std::optional<std::string> start, goal, from;
  std::string algorithm;  // "" = the family's default
  unsigned threads = 1;
  std::uint64_t memory = 0;  // bytes
  double timeout = 0;        // seconds, 0 = none
  bool all = false, count = false, quiet = false, json = false;
  std::size_t farthest = 20;

  // Family options (DESIGN.md): peg, flip, knights, colouring, square-sum, batches.
  std::optional<std::string> empty, finish, metric, rule, batch, file;
  std::optional<std::int64_t> colors, n;
  bool closed = false, ring = false, smallest = false, torus = false;

  mutable Deadline deadline;  // built from timeout by the CLI
  bool progress() const { return !quiet; }
  // The search limits these options set (memory, deadline, threads), reporting to `p`.
  search::Limits limits(Progress* p = nullptr) const {
    search::Limits lim;
    lim.memory = memory;
    lim.deadline = &deadline;
    lim.progress = p;
    lim.threads = threads;
    return lim;
  }
};

struct ShowReport {
  json info = json::object();  // must hold at least "puzzle"
  std::string text;            // picture with cell numbers, rules, defaults, sizes
};

struct SolveReport {
  std::string puzzle, start, goal;
  bool solvable = true;
  bool optimal = true;
  std::optional<std::int64_t> length;
  json moves = json::array();
  std::uint64_t nodes = 0;
  double seconds = 0;
  std::string algorithm;
  std::optional<json> solutions;  // --all
  std::optional<json> count;      // --count (number, or decimal string when beyond 64 bits)
  std::string reason;             // why unsolvable
  json extra = json::object();    // family-specific fields
  std::string text;               // family rendering of the solution (may be empty)
};

struct ExploreReport {
  std::string puzzle, from;
  std::uint64_t states = 0;
  int depth = 0;
  std::vector<std::uint64_t> histogram;
  std::vector<std::string> farthest;
  std::uint64_t farthest_count = 0;
  double seconds = 0;
  json extra = json::object();
  std::string text;
};

class Puzzle {
 public:
  virtual ~Puzzle() = default;
  virtual std::string name() const = 0;
  virtual ShowReport show(const Options& o) const = 0;
  virtual SolveReport solve(const Options& o) const = 0;
  virtual ExploreReport explore(const Options& o) const = 0;
};

struct Builtin {
  std::string name;     // "sliding:3x3"
  std::string summary;  // one line for `tansaku list`
};

struct Family {
  std::string prefix;                // "sliding": names are "sliding" or "sliding:VARIANT"
  std::string summary;               // one line
  std::vector<Builtin> builtins;     // listed by `tansaku list`
  std::vector<std::pair<std::string, std::string>> aliases;  // {"8-puzzle", "sliding:3x3"}
  std::vector<std::string> options;  // family options it accepts beyond the common ones
  // Builds a puzzle from the variant (text after "prefix:", "" if none). Throws InputError.
  std::function<std::unique_ptr<Puzzle>(const std::string& variant, const Options& o)> make;
};

}  // namespace tansaku
