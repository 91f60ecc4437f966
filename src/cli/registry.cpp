// The registry: one line per puzzle family.
#include "tansaku/puzzles/registry.h"

#include <fmt/format.h>

#include "tansaku/core/error.h"
#include "tansaku/puzzles/flip.h"
#include "tansaku/puzzles/peg.h"
#include "tansaku/puzzles/knights.h"
#include "tansaku/puzzles/coloring.h"
#include "tansaku/puzzles/sliding.h"
#include "tansaku/puzzles/square_sum.h"

namespace tansaku {

const std::vector<Family>& families() {
  static const std::vector<Family> list = {
      sliding::family(),
      sliding::rotating_family(),
      flip::family(),
      peg::family(),
      knights::tour_family(), knights::swap_family(),
      coloring::family(),
      square_sum::family(),
  };
  return list;
}

namespace {
std::pair<const Family*, std::string> resolve(const std::string& name) {
  for (const auto& f : families())
    for (const auto& [alias, target] : f.aliases)
      if (alias == name) return resolve(target);
  std::string prefix = name, variant;
  if (auto colon = name.find(':'); colon != std::string::npos) prefix = name.substr(0, colon), variant = name.substr(colon + 1);
  for (const auto& f : families())
    if (f.prefix == prefix) return {&f, variant};
  return {nullptr, ""};
}
}  // namespace

const Family* find_family(const std::string& name) { return resolve(name).first; }

std::unique_ptr<Puzzle> make_puzzle(const std::string& name, const Options& o) {
  auto [family, variant] = resolve(name);
  if (!family) throw InputError(fmt::format("unknown puzzle '{}' (see 'tansaku list')", name));
  static const std::set<std::string> common = {"start", "goal", "from", "algorithm", "threads", "memory", "timeout",
                                               "all",   "count", "quiet", "json",     "farthest"};
  for (const auto& opt : o.given)
    if (!common.count(opt) && std::find(family->options.begin(), family->options.end(), opt) == family->options.end())
      throw InputError(fmt::format("option --{} does not apply to {}", opt, name));
  return family->make(variant, o);
}

}  // namespace tansaku
