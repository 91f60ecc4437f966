// One family's help page, assembled from its declaration: the commands it supports, its options,
// solvers, state notation and examples.
#include "cli/help.h"

#include <fmt/format.h>

#include "tansaku/puzzles/registry.h"

namespace tansaku {

namespace {
std::string commands_of(unsigned mask) {
  std::string s;
  for (auto [bit, name] : {std::pair{kShow, "show"}, {kSolve, "solve"}, {kExplore, "explore"}})
    if (mask & bit) s += (s.empty() ? "" : ", ") + std::string(name);
  return s;
}
}  // namespace

std::string family_help(const std::string& puzzle, unsigned commands) {
  const Family& f = family_of(puzzle);
  std::string out = fmt::format("{} — {}\n", f.prefix, f.summary);
  if (!f.builtins.empty()) {
    out += "\npuzzles:\n";
    std::size_t w = 0;
    for (const auto& b : f.builtins) w = std::max(w, b.name.size());
    for (const auto& b : f.builtins) out += fmt::format("  {:<{}}  {}\n", b.name, w, b.summary);
    for (const auto& [alias, target] : f.aliases) out += fmt::format("  {:<{}}  alias of {}\n", alias, w, target);
  }
  const unsigned shown = commands == kRandom ? kShow : commands;
  std::vector<std::pair<std::string, std::string>> rows;
  for (const auto& s : f.options) {
    if (!(s.commands & shown)) continue;
    std::string left = "--" + s.name;
    if (s.type != OptionSpec::Type::Flag) left += " " + (s.value_name.empty() ? std::string("VALUE") : s.value_name);
    std::string right = s.help;
    if (commands == kAllCommands) right += fmt::format(" [{}]", commands_of(s.commands));
    rows.emplace_back(left, right);
  }
  if (commands == kRandom) {
    rows.emplace_back("--seed S", "seed of the generator (default 1): the same seed gives the same positions");
    rows.emplace_back("--count K", "how many positions (default 1)");
  }
  std::size_t w = 0;
  for (const auto& r : rows) w = std::max(w, r.first.size());
  w = std::max<std::size_t>(w, 18);
  if (!rows.empty()) {
    out += "\noptions:\n";
    for (const auto& [l, r] : rows) out += fmt::format("  {:<{}}  {}\n", l, w, r);
  }
  out += fmt::format("\nevery command also takes:\n  {:<{}}  {}\n  {:<{}}  {}\n  {:<{}}  {}\n  {:<{}}  {}\n", "--threads N", w,
                     "worker threads (default: all cores; results are the same for any N)", "--memory SIZE", w,
                     "memory budget, e.g. 512M, 4G (default 3/4 of RAM); work that cannot fit is refused",
                     "--timeout SECONDS", w, "give up after SECONDS (exit 3)", "--quiet, --json", w,
                     "no progress on stderr; one JSON object on stdout");
  if (commands & (kShow | kSolve | kExplore))  // cli/pictures.h, docs/pictures.md
    out += fmt::format("  {:<{}}  {}\n  {:<{}}  {}\n", "--svg FILE", w, "show, solve: the board (solve: the last position) as SVG; - = stdout",
                       "--html FILE", w, "show, solve, explore: a self-contained page (solve: step through the solution)");
  bool any_solver = false;
  for (const auto& s : f.solvers) any_solver |= (s.commands & shown) != 0;
  if (any_solver) {
    out += "\nsolvers (--algorithm NAME; without it, the first that applies, in this order):\n";
    std::size_t sw = 0;
    std::vector<std::string> left;
    for (const auto& s : f.solvers) {
      std::string l = s.name;
      if (!s.aliases.empty()) {
        l += " (";
        for (std::size_t i = 0; i < s.aliases.size(); ++i) l += (i ? ", " : "") + s.aliases[i];
        l += ")";
      }
      left.push_back(l);
      sw = std::max(sw, l.size());
    }
    for (std::size_t i = 0; i < f.solvers.size(); ++i) {
      const auto& s = f.solvers[i];
      if (!(s.commands & shown)) continue;
      out += fmt::format("  {:<{}}  {}{}\n", left[i], sw, s.summary,
                         commands == kAllCommands ? fmt::format(" [{}]", commands_of(s.commands)) : "");
    }
  }
  if (!f.notation.empty()) out += "\nnotation:\n  " + f.notation + "\n";
  if (!f.examples.empty()) {
    out += "\nexamples:\n";
    for (const auto& e : f.examples) out += "  " + e + "\n";
  }
  out += "\nexit codes: 0 done; 1 proved unsolvable (the reason is printed); 2 bad input or work that cannot fit\n"
         "--memory (refused before starting); 3 --timeout or a budget stopped the work; 4 internal error\n";
  return out;
}

}  // namespace tansaku
