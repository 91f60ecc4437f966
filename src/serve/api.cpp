// The JSON API's handlers: a body or query string read and checked into Options (typed as the
// CLI's), file options refused unless allowed, and a job run into its JSON reply.
#include "serve/api.h"

#include <algorithm>
#include <limits>
#include <optional>

#include <fmt/format.h>

#include "cli/output.h"
#include "cli/request.h"
#include "serve/budget.h"
#include "tansaku/core/error.h"
#include "tansaku/core/input.h"
#include "tansaku/core/suggest.h"
#include "tansaku/puzzles/registry.h"
#include "tansaku/render/page.h"

namespace tansaku::serve {

namespace {

constexpr std::size_t kMessageBytes = 4000;   // as the CLI's messages
constexpr std::size_t kDrawnFarthest = 24;     // explore: positions drawn for the app

std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

// The type of every option a request may name: the universal ones and the families' union.
const std::map<std::string, OptionSpec::Type>& option_types() {
  static const std::map<std::string, OptionSpec::Type> types = [] {
    std::map<std::string, OptionSpec::Type> t;
    for (const auto& n : kUniversal) t[n] = OptionSpec::Type::Text;
    t["quiet"] = t["json"] = OptionSpec::Type::Flag;
    for (const auto& s : declared_options()) t.emplace(s.name, s.type);
    return t;
  }();
  return types;
}

// Options that name a file on the server's disk, as the families mark them (OptionSpec::files):
// refused unless serve --allow-files. What the refusal says the option does, or nullptr.
constexpr const char* kHowToAllow = "refused by the web API (start the server with 'tansaku serve --allow-files' to allow it)";
const char* file_option(const std::string& key, const json& value) {
  static const std::map<std::string, OptionSpec> specs = [] {
    std::map<std::string, OptionSpec> m;
    for (const auto& s : declared_options()) m.emplace(s.name, s);
    return m;
  }();
  auto it = specs.find(key);
  if (it == specs.end()) return nullptr;
  const bool dir = it->second.value_name == "DIR";
  switch (it->second.files) {
    case OptionSpec::Files::none: return nullptr;
    case OptionSpec::Files::reads: return dir ? "reads files in a directory on the server" : "reads a file on the server";
    case OptionSpec::Files::writes: return dir ? "writes files in a directory on the server" : "writes a file on the server";
    case OptionSpec::Files::at_file:
      return value.is_string() && value.get<std::string>().starts_with("@") ? "given as @FILE reads a file on the server"
                                                                             : nullptr;
  }
  return nullptr;
}

// A name for the messages' examples: the registry's first alias (short), else its first family.
std::string example_puzzle() {
  for (const auto& f : families())
    if (!f.aliases.empty()) return f.aliases.front().first;
  return families().front().prefix;
}

}  // namespace

void take_paste(json& body, Job& job) {
  if (!body.is_object() || !body.contains("paste")) return;
  const json v = body["paste"];
  body.erase("paste");
  if (v.is_null()) return;
  if (!v.is_string()) throw InputError("\"paste\" must be a string: the text of the file the puzzle names");
  job.paste_text = v.get<std::string>();
  const std::string puzzle =
      body.contains("puzzle") && body["puzzle"].is_string() ? body["puzzle"].get<std::string>() : "";
  const auto colon = puzzle.find(':');
  const std::string name = colon == std::string::npos ? "" : puzzle.substr(colon + 1);
  if (name.empty() || name.find('/') != std::string::npos || name.size() > 100 || name == "." || name == "..")
    throw InputError(
        "a pasted puzzle is named FAMILY:NAME (NAME a file name such as 'mine.tws', no '/'), "
        "and its text is read as that file");
  const Family& f = family_of(puzzle);
  if (f.file_extension.empty())
    throw InputError(fmt::format("{} reads no puzzle from a file: nothing to paste", f.prefix));
  // A name without the extension names a builtin, which would be read in place of the paste.
  if (!name.ends_with(f.file_extension) || name.size() == f.file_extension.size())
    throw InputError(fmt::format("a pasted puzzle of {} is named {}:NAME{} (the name of the file it is), not '{}'",
                                 f.prefix, f.prefix, f.file_extension, printable(puzzle)));
  job.paste_name = name;
}

json family_json(const std::string& puzzle, const Caps& caps) {
  const Family& f = family_of(puzzle);
  unsigned commands = kShow;
  json solvers = json::array();
  for (const auto& s : f.solvers) {
    commands |= s.commands;
    json c = json::array();
    for (unsigned k : {kSolve, kExplore})
      if (s.commands & k) c.push_back(command_name(k));
    solvers.push_back({{"name", s.name}, {"summary", s.summary}, {"commands", c}, {"all", s.all}, {"count", s.count}});
  }
  json cmds = json::array();
  for (unsigned k : {kShow, kSolve, kExplore})
    if (commands & k) cmds.push_back(command_name(k));
  json options = json::array();
  for (const auto& o : f.options) {
    if (!(o.commands & (kShow | kSolve | kExplore))) continue;  // random's own
    json c = json::array();
    for (unsigned k : {kShow, kSolve, kExplore})
      if (o.commands & k) c.push_back(command_name(k));
    json j = {{"name", o.name},
              {"type", o.type == OptionSpec::Type::Flag      ? "flag"
                       : o.type == OptionSpec::Type::Integer ? "integer"
                                                             : "text"},
              {"help", o.help},
              {"commands", c}};
    if (!o.value_name.empty()) j["value_name"] = o.value_name;
    if (o.type == OptionSpec::Type::Integer) {
      if (o.min != std::numeric_limits<std::int64_t>::min()) j["min"] = o.min;
      if (o.max != std::numeric_limits<std::int64_t>::max()) j["max"] = o.max;
    }
    if (!o.default_value.empty()) j["default"] = o.default_value;
    const bool names_file = o.files == OptionSpec::Files::reads || o.files == OptionSpec::Files::writes;
    if (names_file) j["files"] = o.files == OptionSpec::Files::reads ? "reads" : "writes";
    if (names_file && !caps.files) j["refused"] = true;  // the API refuses it (--allow-files)
    if (o.batch) j["batch"] = true;
    options.push_back(std::move(j));
  }
  json out = {{"puzzle", puzzle},   {"family", f.prefix}, {"summary", f.summary},  {"commands", cmds},
              {"options", options}, {"solvers", solvers}, {"notation", f.notation}};
  if (!f.file_extension.empty()) out["paste"] = {{"extension", f.file_extension}, {"kind", f.file_kind}};
  return out;
}

std::string error_body(const std::string& message, int exit_code) {
  return dump(json{{"error", printable(message, kMessageBytes)}, {"exit", exit_code}});
}

json parse_body(const std::string& text) {
  try {
    return json::parse(text);
  } catch (const json::exception& e) {  // parse_error, and out_of_range 406 (number overflow)
    std::string what = e.what();          // "[json.exception.parse_error.101] parse error at ..."
    if (what.starts_with("[json.exception.")) {
      if (auto p = what.find("] "); p != std::string::npos) what = what.substr(p + 2);
    }
    throw InputError("malformed JSON: " + what);
  }
}

json body_of_query(const std::multimap<std::string, std::string>& params) {
  json j = json::object();
  for (const auto& [k, v] : params) {
    if (j.contains(k)) throw InputError(fmt::format("parameter '{}' is given twice", printable(k, 200)));
    const auto& types = option_types();
    auto it = types.find(k);
    if (it != types.end() && it->second == OptionSpec::Type::Flag && (v.empty() || v == "true" || v == "1")) j[k] = true;
    else if (it != types.end() && it->second == OptionSpec::Type::Flag && (v == "false" || v == "0")) j[k] = false;
    else j[k] = v;
  }
  return j;
}

Options options_of(unsigned command, const json& body, const Caps& caps) {
  if (!body.is_object())
    throw InputError(fmt::format("the request body must be a JSON object such as {{\"puzzle\": \"{}\"}}", example_puzzle()));
  if (!body.contains("puzzle") || !body["puzzle"].is_string())
    throw InputError(fmt::format("give the puzzle: {{\"puzzle\": \"{}\", ...}} (see GET /api/list)", example_puzzle()));
  Raw raw;
  raw.puzzle = body["puzzle"].get<std::string>();
  if (!valid_utf8(raw.puzzle)) throw InputError("the puzzle name is not valid UTF-8");
  std::set<std::string> given;
  const auto& types = option_types();
  for (const auto& [key, value] : body.items()) {
    if (key == "puzzle") continue;
    if (key == "svg" || key == "html")  // files on the server's disk: never through the API
      throw InputError(fmt::format("option '{}' writes a file: not through the API (use ?draw=1 or POST /api/draw)", key));
    if (!caps.files)
      if (const char* what = file_option(key, value))
        throw InputError(fmt::format("option '{}' {}: {}", key, what, kHowToAllow));
    auto it = types.find(key);
    if (it == types.end()) {
      std::vector<std::string> known;
      for (const auto& [n, t] : types) known.push_back(n);
      throw InputError(fmt::format("unknown option '{}'{}", printable(key, 200), did_you_mean(key, known)));
    }
    if (value.is_null()) continue;
    if (it->second == OptionSpec::Type::Flag) {
      if (!value.is_boolean()) throw InputError(fmt::format("option '{}' is a flag: give true or false", key));
      if (!value.get<bool>()) continue;
      raw.flags[key] = true;
    } else if (value.is_string()) {
      raw.text[key] = value.get<std::string>();
      if (!valid_utf8(raw.text[key])) throw InputError(fmt::format("option '{}' is not valid UTF-8", key));
    } else if (value.is_number_integer() || value.is_number_unsigned() || value.is_number_float()) {
      raw.text[key] = value.dump();
    } else {
      throw InputError(fmt::format("option '{}': give a string or a number", key));
    }
    given.insert(key);
  }
  Options o = request_options(command, given, raw);
  if (o.timeout == 0 || o.timeout > caps.timeout) o.timeout = caps.timeout;
  if (caps.memory) o.memory = std::min(o.memory, caps.memory);
  o.quiet = false;  // progress goes to the job (set_thread_progress_sink)
  o.json = true;
  return o;
}

// A play: the position, its legal moves and the position drawn (Puzzle::play).
json play_json(const Puzzle& puzzle, const Options& o, const std::string& state) {
  std::optional<Play> p = puzzle.play(o, state);
  if (!p) return json{{"puzzle", puzzle.name()}, {"playable", false}, {"state", state}, {"moves", json::array()}};
  json moves = json::array();
  for (auto& m : p->moves)
    moves.push_back({{"move", std::move(m.move)}, {"state", std::move(m.state)}, {"cells", m.cells}});
  json j = {{"puzzle", puzzle.name()},
            {"playable", true},
            {"state", p->state},
            {"goal", p->goal},
            {"moves", std::move(moves)}};
  if (!p->solve_start.empty()) j["solve_start"] = p->solve_start;
  return j;
}

void run_job(Job& job) {
  set_thread_progress_sink(&job);
  // A pasted puzzle: its text read in place of the file its name gives, on this thread.
  std::optional<PastedFile> pasted;
  if (!job.paste_name.empty()) pasted.emplace(job.paste_name, job.paste_text);
  int status = 200;
  std::string body;
  json drawing;
  double work = 0;
  try {
    if (job.cancel) throw LimitError("cancelled");
    Options& o = job.options;
    o.deadline = Deadline(o.timeout);  // from the start of the run, not of the queueing
    o.deadline.cancel_on(&job.cancel);
    Stopwatch w;
    auto puzzle = make_puzzle(job.puzzle, o);
    // The reply counts against the request's memory (serve/budget.h): drawings stop at the cap.
    const std::uint64_t cap = reply_cap(o.memory);
    std::uint64_t drawn = 0;
    auto count = [&](std::string part) {
      drawn += part.size();
      if (drawn > cap) throw LimitError(reply_too_large(drawn, cap));
      return part;
    };
    if (job.play) {
      json p = play_json(*puzzle, o, *job.play);
      work = w.seconds();
      body = dump(p);
      // (an empty position, as a row of no numbers yet, is drawn as show draws the puzzle)
      const bool positioned = p["playable"].get<bool>() && !p["state"].get<std::string>().empty();
      if (job.draw)
        drawing =
            json{{"board", count(positioned ? puzzle->draw_state(o, p["state"].get<std::string>()) : puzzle->draw(o))}};
    } else if (job.command == kShow) {
      ShowReport r = puzzle->show(o);
      work = w.seconds();
      body = dump(r.info);
      if (job.draw) {
        json states = json::array();
        for (const auto& st : job.states) states.push_back(count(puzzle->draw_state(o, st)));
        drawing = json{{"board", count(puzzle->draw(o))}, {"states", std::move(states)}};
      }
    } else if (job.command == kSolve) {
      std::optional<SolveReport> r, best;
      // The tables this solve loads stay loaded for the next request (budget.h).
      std::shared_ptr<void> hold = keeping_tables() ? puzzle->hold_tables() : nullptr;
      struct Handover {
        std::shared_ptr<void>& hold;
        ~Handover() {
          if (hold) keep_tables(std::move(hold));
        }
      } const handover{hold};
      try {
        r = run_solve(*puzzle, o);
        body = dump(solve_json(*r));
      } catch (const SolveStopped& e) {
        if (job.cancel) throw;
        // A limit: the CLI's stopped object (what was proved, the best solution found so far),
        // with the error and exit keys of every 422.
        json j = e.report;
        j["error"] = printable(e.what(), kMessageBytes);
        j["exit"] = 3;
        status = 422, body = dump(j), best = e.best;
      }
      work = w.seconds();
      // The player's data (render/page.h): frames beyond its byte budget keep the start and the end.
      if (job.draw && (r || best))
        drawing = json::parse(count(render::player_data(puzzle->draw_solution(o, r ? *r : *best))));
    } else {
      ExploreReport r = run_explore(*puzzle, o);
      work = w.seconds();
      body = dump(explore_json(r));
      if (job.draw) {
        json frames = json::array();
        for (std::size_t i = 0; i < r.farthest.size() && i < kDrawnFarthest; ++i)
          frames.push_back(count(puzzle->draw_state(o, r.farthest[i])));
        drawing = json{{"farthest", std::move(frames)}, {"board", count(puzzle->draw(o))},
                       {"chart", count(render::histogram_chart(r.histogram))}};
      }
    }
    if (body.size() + drawn > cap) {
      const std::uint64_t total = body.size() + drawn;
      body.clear(), body.shrink_to_fit(), drawing = json();
      throw LimitError(reply_too_large(total, cap));
    }
  } catch (const InputError& e) {
    status = 400, body = error_body(e.what(), 2);
  } catch (const LimitError& e) {
    status = 422, body = error_body(job.cancel ? "cancelled" : e.what(), 3);
  } catch (const std::bad_alloc&) {
    status = 422, body = error_body("out of memory", 3);
  } catch (const std::exception& e) {
    status = 500, body = error_body(std::string("internal error: ") + e.what(), 4);
  }
  set_thread_progress_sink(nullptr);
  job_finished();  // the server's idle thread gives the freed memory back (serve/budget.h)
  std::lock_guard lock(job.m);
  job.status = status;
  job.body = std::move(body);
  job.drawing = std::move(drawing);
  job.work = work;
}

}  // namespace tansaku::serve
