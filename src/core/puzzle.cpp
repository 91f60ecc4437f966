// The declarations families use for their options, and the Puzzle interface's defaults.
#include "tansaku/puzzles/puzzle.h"

#include <fmt/format.h>

#include "tansaku/core/error.h"

namespace tansaku {

namespace opt {
namespace {
OptionSpec make(std::string name, OptionSpec::Type type, std::string value_name, std::string help, unsigned commands) {
  OptionSpec s;
  s.name = std::move(name);
  s.type = type;
  s.value_name = std::move(value_name);
  s.help = std::move(help);
  s.commands = commands;
  return s;
}

OptionSpec state(std::string name, unsigned commands, std::string help) {
  OptionSpec s = make(std::move(name), OptionSpec::Type::Text, "STATE", std::move(help), commands);
  s.files = OptionSpec::Files::at_file;  // families that take "@FILE" states read them through core/input.h
  return s;
}
}  // namespace

OptionSpec start(unsigned commands, std::string help) { return state("start", commands, std::move(help)); }
OptionSpec goal(unsigned commands, std::string help) { return state("goal", commands, std::move(help)); }
OptionSpec from(unsigned commands, std::string help) { return state("from", commands, std::move(help)); }
OptionSpec all() { return make("all", OptionSpec::Type::Flag, "", "every optimal solution", kSolve); }
OptionSpec count() { return make("count", OptionSpec::Type::Flag, "", "count the optimal solutions", kSolve); }
OptionSpec farthest() {
  return defaults_to("20", make("farthest", OptionSpec::Type::Integer, "K",
                                "how many farthest positions to print (default 20)", kExplore));
}
OptionSpec spill() {
  return writes(make("spill", OptionSpec::Type::Text, "DIR",
                     "keep the table on disk in DIR, a part at a time, when it does not fit --memory", kExplore));
}
OptionSpec weight() {
  return defaults_to("2", make("weight", OptionSpec::Type::Text, "W",
                               "weighted A*'s (or weighted IDA*'s) weight, a decimal >= 1 (default 2): the length is "
                               "at most W times the optimum",
                               kSolve));
}
OptionSpec beam_width() {
  OptionSpec s = defaults_to("1000", make("beam-width", OptionSpec::Type::Integer, "N",
                                          "beam search: positions kept per depth (default 1000)", kSolve));
  s.min = 1;
  s.max = 10000000;
  return s;
}
std::vector<OptionSpec> heuristic_search() { return {weight(), beam_width()}; }
OptionSpec text(std::string name, std::string value_name, std::string help, unsigned commands) {
  return make(std::move(name), OptionSpec::Type::Text, std::move(value_name), std::move(help), commands);
}
OptionSpec integer(std::string name, std::string help, unsigned commands) {
  return make(std::move(name), OptionSpec::Type::Integer, "N", std::move(help), commands);
}
OptionSpec flag(std::string name, std::string help, unsigned commands) {
  return make(std::move(name), OptionSpec::Type::Flag, "", std::move(help), commands);
}
OptionSpec reads(OptionSpec s) {
  s.files = OptionSpec::Files::reads;
  return s;
}
OptionSpec writes(OptionSpec s) {
  s.files = OptionSpec::Files::writes;
  return s;
}
OptionSpec batch(OptionSpec s) {
  s.batch = true;
  return s;
}
OptionSpec defaults_to(std::string value, OptionSpec s) {
  s.default_value = std::move(value);
  return s;
}
}  // namespace opt

std::vector<std::string> Puzzle::random(const Options&, std::uint64_t, std::size_t) const {
  throw InputError(fmt::format("random positions are not defined for {}", name()));
}

std::string Puzzle::draw(const Options&) const { return {}; }
Drawing Puzzle::draw_solution(const Options&, const SolveReport&) const { return {}; }
std::shared_ptr<const DepthTable> Puzzle::depth_table(const Options&) const { return nullptr; }
std::shared_ptr<void> Puzzle::hold_tables() const { return nullptr; }

std::string Puzzle::draw_state(const Options&, const std::string&) const { return {}; }
std::optional<Play> Puzzle::play(const Options&, const std::string&) const { return std::nullopt; }

}  // namespace tansaku
