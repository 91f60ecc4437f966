// The families' own subcommands (tools.h): registration, the choice of which families' tools
// run, and each tool's typed settings filled from its declaration.
#include "cli/tools.h"

#include <fmt/format.h>

#include "tansaku/core/error.h"
#include "tansaku/core/input.h"
#include "tansaku/puzzles/registry.h"

namespace tansaku {

void add_spec(CLI::App* cmd, const OptionSpec& s, Raw& raw) {
  const std::string flag = "--" + s.name;
  if (s.type == OptionSpec::Type::Flag) cmd->add_flag(flag, raw.flags[s.name], s.help);
  else cmd->add_option(flag, raw.text[s.name], s.help)->type_name(s.value_name.empty() ? "VALUE" : s.value_name);
}

void add_universal(CLI::App* cmd, Raw& raw, bool with_algorithm, bool with_pictures) {
  cmd->add_option("--threads", raw.text["threads"], "worker threads (default, or 0: all cores)")->type_name("N");
  cmd->add_option("--memory", raw.text["memory"], "memory budget, e.g. 512M, 4G (default: 3/4 of RAM)")
      ->type_name("SIZE");
  cmd->add_option("--timeout", raw.text["timeout"], "give up after SECONDS (exit 3)")->type_name("SECONDS");
  cmd->add_flag("--quiet", raw.flags["quiet"], "no progress on stderr");
  cmd->add_flag("--json", raw.flags["json"], "one JSON object on stdout");
  if (with_algorithm)
    cmd->add_option("--algorithm", raw.text["algorithm"], "solver (see 'tansaku help PUZZLE')")->type_name("NAME");
  if (with_pictures) {  // cli/pictures.h
    cmd->add_option("--svg", raw.text["svg"],
                    "show, solve: write the board (solve: the last position) as SVG (- = stdout)")
        ->type_name("FILE");
    cmd->add_option("--html", raw.text["html"],
                    "write a self-contained page: the board, the solution player, the explore chart, the batch table "
                    "(- = stdout)")
        ->type_name("FILE");
  }
}

std::set<std::string> given_of(const CLI::App* cmd) {
  std::set<std::string> given;
  for (const CLI::Option* opt : cmd->get_options()) {
    if (opt->get_lnames().empty() || opt->count() == 0) continue;
    const std::string& name = opt->get_lnames().front();
    if (name != "help") given.insert(name);
  }
  return given;
}

namespace {
// The subcommand at `path` under `app`, made where missing (an inner one requires a further
// subcommand and says which ones it has).
CLI::App* subcommand_at(CLI::App& app, const ToolCommand& t) {
  CLI::App* parent = &app;
  for (std::size_t i = 0; i < t.path.size(); ++i) {
    CLI::App* next = nullptr;
    for (CLI::App* c : parent->get_subcommands({}))
      if (c->get_name() == t.path[i]) next = c;
    if (!next) {
      const bool leaf = i + 1 == t.path.size();
      next = parent->add_subcommand(t.path[i], leaf ? t.help : "");
      if (!leaf) next->require_subcommand(1);
    }
    if (i + 1 < t.path.size() && next->get_description().empty()) next->description(t.group_help);
    parent = next;
  }
  return parent;
}

// One tool's options: the universal ones, then those it declares, typed into its settings.
Options tool_options(const ToolCommand& t, const std::set<std::string>& given, Raw& raw) {
  Options o;
  universal(given, raw, o);
  o.settings_value = t.settings ? t.settings() : std::any{};
  for (const auto& s : t.options)
    if (o.has(s.name)) store_option(s, raw.text[s.name], o);
  return o;
}
}  // namespace

ToolCommands::ToolCommands(CLI::App& app, Raw& raw) {
  for (const auto& f : families())
    for (const auto& t : f.tools) {
      CLI::App* cmd = subcommand_at(app, t);
      Slot* slot = nullptr;
      for (auto& s : slots_)
        if (s.cmd == cmd) slot = &s;
      if (!slot) {
        slots_.push_back(Slot{cmd, {}, {}});
        slot = &slots_.back();
        if (!t.positional.empty()) cmd->add_option(t.positional, raw.puzzle, t.positional)->required();
        add_universal(cmd, raw, false);
      } else if (slot->tools.front().second->positional != t.positional) {
        throw std::logic_error("families declare the same tool command with different positional arguments");
      }
      for (const auto& s : t.options)
        if (slot->options.insert(s.name).second) add_spec(cmd, s, raw);
      slot->tools.emplace_back(&f, &t);
    }
}

bool ToolCommands::run_parsed(Raw& raw, int& code) const {
  for (const auto& slot : slots_)
    if (slot.cmd->parsed()) {
      code = run(slot, raw);
      return true;
    }
  return false;
}

int ToolCommands::run(const Slot& slot, Raw& raw) const {
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
      throw InputError(
          fmt::format("'{}' is not for {} (it is for: {})", slot.cmd->get_name(), printable(raw.puzzle), which));
  } else {
    for (const auto& [f, t] : slot.tools) run.push_back(t);
  }
  const std::set<std::string> given = given_of(slot.cmd);
  for (const auto& name : given) {
    bool declared = false;
    for (const auto* tool : run)
      for (const auto& s : tool->options) declared |= s.name == name;
    if (!declared && slot.options.count(name))
      throw InputError(fmt::format("--{} does not apply to {}", name, printable(raw.puzzle)));
  }
  std::vector<std::string> args;
  if (positional) args.push_back(raw.puzzle);
  for (const auto* tool : run)
    if (int code = tool->run(tool_options(*tool, given, raw), args)) return code;
  return 0;
}

}  // namespace tansaku
