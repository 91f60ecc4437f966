// The registry: one line per puzzle family. It is part of the library (library users list
// and build puzzles through it); the CLI includes only registry.h.
#include "tansaku/puzzles/registry.h"

#include <fmt/format.h>

#include "tansaku/core/suggest.h"
#include "tansaku/core/error.h"
#include "tansaku/core/input.h"
#include "tansaku/puzzles/blocks.h"
#include "tansaku/puzzles/coloring.h"
#include "tansaku/puzzles/flip.h"
#include "tansaku/puzzles/knights.h"
#include "tansaku/puzzles/peg.h"
#include "tansaku/puzzles/perm.h"
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
      blocks::family(),
      perm::family(),
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

std::vector<std::string> puzzle_names() {
  std::vector<std::string> names;
  for (const auto& f : families()) {
    names.push_back(f.prefix);
    for (const auto& b : f.builtins) names.push_back(b.name);
    for (const auto& a : f.aliases) names.push_back(a.first);
  }
  return names;
}

const Family& family_of(const std::string& name) {
  const Family* f = find_family(name);
  if (!f) throw InputError(fmt::format("unknown puzzle '{}'{} (see 'tansaku list')", printable(name), did_you_mean(name, puzzle_names())));
  return *f;
}

std::unique_ptr<Puzzle> make_puzzle(const std::string& name, const Options& o) {
  auto [family, variant] = resolve(name);
  if (!family) family_of(name);  // throws with a suggestion
  return family->make(variant, o);
}

}  // namespace tansaku
