// The request layer shared by the CLI and `tansaku serve`: the universal and family options
// checked into Options, `random`'s arguments, and the timed runs of solve and explore.
#include "cli/request.h"

#include "cli/cores.h"
#include "cli/pictures.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <numeric>
#include <thread>
#include <tuple>

#include <fmt/format.h>

#include "tansaku/core/error.h"
#include "tansaku/core/input.h"
#include "tansaku/core/memory.h"
#include "tansaku/core/memory_error.h"
#include "tansaku/core/suggest.h"
#include "tansaku/puzzles/registry.h"

namespace tansaku {

const std::vector<std::string> kUniversal = {"threads", "memory", "timeout", "quiet", "json", "algorithm", "svg", "html"};

// The union of what the families declare, one spec per name (the first declaration wins;
// families must agree on an option's type).
std::vector<OptionSpec> declared_options() {
  std::vector<OptionSpec> out;
  std::map<std::string, std::size_t> seen;
  for (const auto& f : families())
    for (const auto& s : f.options) {
      auto [it, fresh] = seen.emplace(s.name, out.size());
      if (!fresh) {
        const OptionSpec& first = out[it->second];
        if (first.type != s.type)
          throw std::logic_error(fmt::format("option --{} is declared with two types by the families", s.name));
        if (first.files != s.files || first.batch != s.batch)
          throw std::logic_error(fmt::format("option --{} is declared with two file or batch marks by the families", s.name));
        continue;
      }
      out.push_back(s);
    }
  return out;
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
  if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos)
    throw InputError(fmt::format("--{} '{}' is not a whole number >= 0", name, printable(v)));
  std::uint64_t x = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
  if (ec == std::errc::result_out_of_range || x > max)
    throw InputError(fmt::format("--{} {} is too large (at most {})", name, printable(v, 40), max));
  if (ec != std::errc() || end != v.data() + v.size())
    throw InputError(fmt::format("--{} '{}' is not a whole number >= 0", name, printable(v)));
  return x;
}

std::int64_t integer_value(const std::string& name, const std::string& v) {
  std::size_t used = 0;
  std::int64_t x = 0;
  try {
    x = std::stoll(v, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != v.size())
    throw InputError(fmt::format("--{} '{}' is not a whole number", name, printable(v)));
  return x;
}

void store_option(const OptionSpec& s, const std::string& value, Options& o) {
  if (s.type == OptionSpec::Type::Flag) {
    o.values[s.name] = "true";
  } else {
    if (value.empty() && (s.files == OptionSpec::Files::reads || s.files == OptionSpec::Files::writes))
      throw InputError(
          fmt::format("--{}: an empty {} names nothing", s.name, s.value_name.empty() ? "value" : s.value_name));
    o.values[s.name] = value;
    if (s.type == OptionSpec::Type::Integer) {
      const std::int64_t x = integer_value(s.name, value);
      if (x < s.min) throw InputError(fmt::format("--{} must be at least {} (got {})", s.name, s.min, x));
      if (x > s.max)
        throw InputError(fmt::format("--{} {} is more than this solver supports (at most {})", s.name, x, s.max));
    }
  }
  if (s.store) s.store(o.settings_value, o.values[s.name]);
}

// --weight W: a decimal (at most 6 places) or a fraction A/B, at least 1 and at most 10^6,
// as num / den in lowest terms.
void weight_value(const std::string& v, Options& o) {
  const auto bad = [&] {
    return InputError(
        fmt::format("--weight '{}': give a number at least 1 and at most 1000000 (1.5, 3/2)", printable(v)));
  };
  std::int64_t num = 0, den = 1;
  const auto digits = [](const std::string& t) {
    return !t.empty() && t.size() <= 7 && t.find_first_not_of("0123456789") == std::string::npos;
  };
  if (const auto slash = v.find('/'); slash != std::string::npos) {
    const std::string a = v.substr(0, slash), b = v.substr(slash + 1);
    if (!digits(a) || !digits(b)) throw bad();
    num = std::stoll(a), den = std::stoll(b);
  } else {
    const auto dot = v.find('.');
    const std::string a = v.substr(0, dot), b = dot == std::string::npos ? "" : v.substr(dot + 1);
    if (!digits(a) || (dot != std::string::npos && (b.empty() || b.size() > 6 || !digits(b)))) throw bad();
    num = std::stoll(a);
    for (char c : b) num = num * 10 + (c - '0'), den *= 10;
  }
  if (den == 0 || num < den || num > 1000000 * den) throw bad();
  const std::int64_t g = std::gcd(num, den);
  o.weight_num = num / g, o.weight_den = den / g;
  o.weight = v;
}

// Fills the universal fields of `o` from the raw values.
void universal(const std::set<std::string>& given, Raw& raw, Options& o) {
  o.given = given;
  const unsigned cores = usable_cores();  // under mpirun: the cores this rank is bound to
  o.threads = cores;
  if (given.count("threads")) {
    const auto t = static_cast<unsigned>(whole("threads", raw.text["threads"], kMaxThreadsOption));
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
      throw InputError(fmt::format("--timeout '{}': give a number of seconds above 0 and at most 1e9", printable(v)));
    o.timeout = t;
  }
  o.quiet = raw.flags["quiet"];
  o.json = raw.flags["json"];
  if (given.count("svg")) o.svg = raw.text["svg"];
  if (given.count("html")) o.html = raw.text["html"];
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
  o.settings_value = f.settings ? f.settings() : std::any{};
  for (const auto& name : o.given) {
    if (std::find(kUniversal.begin(), kUniversal.end(), name) != kUniversal.end()) continue;
    const OptionSpec* s = takes(name);
    if (!s) {
      bool elsewhere = false;
      for (const auto& d : f.options) elsewhere |= d.name == name;
      if (elsewhere) throw InputError(fmt::format("option --{} does not apply to '{} {}'", name, command_name(command), puzzle));
      throw InputError(fmt::format("option --{} does not apply to {} (see 'tansaku help {}')", name, puzzle, puzzle));
    }
    store_option(*s, raw.text[name], o);
  }
  // The common options keep their typed fields.
  auto text = [&](const char* n) { return o.values.count(n) ? std::optional<std::string>(o.values[n]) : std::nullopt; };
  o.start = text("start");
  o.goal = text("goal");
  o.from = text("from");
  o.spill = text("spill").value_or("");
  if (!o.spill.empty()) {  // checked up front, whether or not the explore comes to need it
    std::error_code ec;
    if (!std::filesystem::is_directory(o.spill, ec))
      throw InputError(fmt::format("--spill {}: not a directory", printable(o.spill)));
  }
  o.all = o.values.count("all") != 0;
  o.count = o.values.count("count") != 0;
  if (o.values.count("farthest")) o.farthest = whole("farthest", o.values["farthest"], std::uint64_t{1} << 32);
  if (o.values.count("weight")) weight_value(o.values["weight"], o);
  if (o.values.count("beam-width")) o.beam_width = static_cast<std::size_t>(std::stoll(o.values["beam-width"]));
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
      throw InputError(fmt::format("unknown algorithm '{}' for {} {}{}: use one of {}", printable(raw.text["algorithm"]),
                                   command_name(command), puzzle, did_you_mean(a, names), list));
    }
  }
  // --weight is weighted A*'s (and weighted IDA*'s), --beam-width beam search's: each names
  // its solver when no --algorithm does, and is refused beside another.
  for (const auto& [option, solver, also] :
       {std::tuple<const char*, const char*, const char*>{"weight", "wastar", "wida"},
        {"beam-width", "beam", "beam"}}) {
    if (!o.values.count(option)) continue;
    if (o.algorithm.empty()) o.algorithm = solver;
    else if (o.algorithm != solver && o.algorithm != also)
      throw InputError(fmt::format("--{} applies to --algorithm {}{}, not {}", option, solver,
                                   std::string(also) == solver ? "" : std::string(" or ") + also, o.algorithm));
  }
}

Options request_options(unsigned command, const std::set<std::string>& given, Raw& raw) {
  Options o;
  o.command = command;
  universal(given, raw, o);
  family_options(family_of(raw.puzzle), raw.puzzle, command, raw, o);
  check_picture_options(o);
  return o;
}

RandomRun run_random(const std::set<std::string>& given, Raw& raw, const std::string& seed_text, const std::string& count_text) {
  Options o;
  o.command = kRandom;
  universal(given, raw, o);
  const Family& family = family_of(raw.puzzle);
  o.given.erase("seed");
  o.given.erase("count");
  // random takes the options that define the instance (those `show` takes) and its own.
  family_options(family, raw.puzzle, kShow | kRandom, raw, o);
  RandomRun run;
  run.seed = whole("seed", seed_text, UINT64_MAX);
  const std::uint64_t count = whole("count", count_text, 1000000);
  auto puzzle = make_puzzle(raw.puzzle, o);
  run.puzzle = puzzle->name();
  run.positions = puzzle->random(o, run.seed, count);
  return run;
}

namespace {
// One of a puzzle's reports, with what the caller owns filled in: the name and the time.
template <class Report, class Run>
Report named_and_timed(const Puzzle& p, Run run) {
  Stopwatch sw;
  Report r = run();
  r.puzzle = p.name();
  r.seconds = sw.seconds();
  return r;
}
}  // namespace

// What a stopped solve had proved: the limit that stopped it, the least length proved, the
// hint; in one line of text and as the JSON object. (The best solution found so far is added
// by with_best.)
SolveStopped stopped(const Puzzle& p, const Options& o, const std::string& what, double seconds, bool memory) {
  const search::Proved& proved = o.proved;
  json j = {{"puzzle", p.name()},
            {"complete", false},
            {"stopped", memory                   ? "memory"
                        : o.deadline.cancelled() ? "cancelled"
                        : o.deadline.expired()   ? "timeout"
                                                 : "limit"},
            {"message", what},
            {"seconds", seconds}};
  std::string text = what;
  if (proved.lower_bound >= 0) {
    j["lower_bound"] = proved.lower_bound;
    text += fmt::format("; proved so far: no solution is shorter than {}", proved.lower_bound);
  }
  if (!proved.hint.empty()) {
    j["hint"] = proved.hint;
    text += "; hint: " + proved.hint;
  }
  return SolveStopped(text, std::move(j));
}

namespace {

// The family's quick solvers (SolverSpec::quick) that may find a solution for a solve of
// `o` that a limit stops: none when it asks for more than one solution, runs a batch or names
// a quick one.
std::vector<std::string> quick_solvers(const Puzzle& p, const Options& o) {
  std::vector<std::string> out;
  const Family* f = find_family(p.name());
  if (!f || o.want() != Want::one) return out;
  for (const auto& s : f->options)  // a batch of instances has no one solution to better
    if (s.batch && o.has(s.name)) return out;
  for (const auto& s : f->solvers) {
    if (!s.quick || !(s.commands & kSolve)) continue;
    if (s.name == o.algorithm) return {};
    out.push_back(s.name);
  }
  return out;
}

// Runs the quick solvers in turn under `until` (a stopped one gives way to the next while
// time is left) and returns the shortest solution, or a proof that there is none.
std::optional<SolveReport> best_found(const Puzzle& p, const Options& o, const std::vector<std::string>& quick,
                                      const Deadline& until) {
  std::optional<SolveReport> best;
  for (const auto& name : quick) {
    if (until.expired()) break;
    Options q = o;
    q.algorithm = name;
    q.deadline = until;
    q.proved = {};
    try {
      Stopwatch sw;
      SolveReport r = p.solve(q);
      r.puzzle = p.name();
      r.seconds = sw.seconds();
      if (!r.solvable) return r;  // the search saw every position: a proof
      if (r.length && (!best || *r.length < *best->length)) best = std::move(r);
    } catch (const LimitError&) {
    } catch (const InputError&) {  // the solver does not apply to this instance
    } catch (const std::bad_alloc&) {}
  }
  return best;
}

// `s` with the best solution found so far: the JSON object's `best_solution` and the line's
// "best found so far".
SolveStopped with_best(SolveStopped s, SolveReport best) {
  const std::int64_t length = best.length.value_or(0);
  const bool optimal = s.report.contains("lower_bound") && s.report["lower_bound"].get<std::int64_t>() == length;
  s.report["best_solution"] = {{"length", length},
                               {"moves", best.moves},
                               {"algorithm", best.algorithm},
                               {"optimal", optimal},
                               {"seconds", best.seconds}};
  std::string text = s.what();
  const auto hint = text.find("; hint: ");
  std::string moves;
  for (const auto& m : best.moves)
    moves += (moves.empty() ? "" : " ") + (m.is_string() ? m.get<std::string>() : m.dump());
  text.insert(hint == std::string::npos ? text.size() : hint,
              fmt::format("; best found so far: {} move{} ({}{}){}{}", length, length == 1 ? "" : "s", best.algorithm,
                          optimal ? ", as short as the bound: optimal" : "", moves.empty() ? "" : ": ", moves));
  return SolveStopped(text, std::move(s.report), std::move(best));
}

}  // namespace

SolveReport run_solve(const Puzzle& p, const Options& o) {
  Stopwatch sw;
  o.proved = {};
  const std::vector<std::string> quick = quick_solvers(p, o);
  // The share of --timeout kept back for the quick solvers; o.deadline is given back after.
  const Deadline full = o.deadline;
  if (!quick.empty() && o.timeout > 0) o.deadline = full.sooner(std::min(o.timeout * kQuickShare, kQuickSeconds));
  struct GiveBack {
    const Options& o;
    const Deadline& full;
    ~GiveBack() { o.deadline = full; }
  } give_back{o, full};
  std::optional<SolveStopped> stop;
  try {
    SolveReport r = named_and_timed<SolveReport>(p, [&] { return p.solve(o); });
    if (!o.proved.hint.empty() && !r.extra.contains("hint")) r.extra["hint"] = o.proved.hint;
    return r;
  } catch (const SolveStopped&) {
    throw;
  } catch (const LimitError& e) {
    stop = stopped(p, o, e.what(), sw.seconds(), std::string(e.what()).find("memory") != std::string::npos);
  } catch (const std::bad_alloc&) {
    stop = stopped(p, o, "out of memory", sw.seconds(), true);
  }
  // (out of the handlers: what the stopped search held is freed)
  if (quick.empty() || full.cancelled()) throw *stop;
  std::optional<SolveReport> best = best_found(p, o, quick, full.within(kQuickSeconds));
  if (best && !best->solvable) {  // a quick solver saw every position: the answer
    best->seconds = sw.seconds();
    return *best;
  }
  stop->report["seconds"] = sw.seconds();
  if (best) throw with_best(std::move(*stop), std::move(*best));
  throw *stop;
}

// An explore whose table is beyond --memory names --spill where the puzzle takes it (the
// same message for the CLI, serve and Python).
ExploreReport run_explore(const Puzzle& p, const Options& o) {
  try {
    return named_and_timed<ExploreReport>(p, [&] { return p.explore(o); });
  } catch (const MemoryRefused& e) {
    const Family* f = find_family(p.name());
    const auto spill = [](const OptionSpec& s) { return s.name == "spill" && (s.commands & kExplore); };
    if (!o.spill.empty() || !f || std::none_of(f->options.begin(), f->options.end(), spill)) throw;
    throw MemoryRefused(std::string(e.what()) + "; --spill DIR keeps it on disk, a part at a time");
  }
}

}  // namespace tansaku
