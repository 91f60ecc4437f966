// The JSON API's handlers: a body or query string read and checked into Options (typed as the
// CLI's), file options refused unless allowed, and a job run into its JSON reply.
#include "serve/api.h"

#include <algorithm>

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

void run_job(Job& job) {
  set_thread_progress_sink(&job);
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
    if (job.command == kShow) {
      ShowReport r = puzzle->show(o);
      work = w.seconds();
      body = dump(r.info);
      if (job.draw) {
        json states = json::array();
        for (const auto& st : job.states) states.push_back(count(puzzle->draw_state(o, st)));
        drawing = json{{"board", count(puzzle->draw(o))}, {"states", std::move(states)}};
      }
    } else if (job.command == kSolve) {
      SolveReport r = run_solve(*puzzle, o);
      work = w.seconds();
      body = dump(solve_json(r));
      if (job.draw) {
        // The player's data (render/page.h): frames beyond its byte budget keep the start and the end.
        drawing = json::parse(count(render::player_data(puzzle->draw_solution(o, r))));
      }
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
