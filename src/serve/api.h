// The JSON API's side of a request: a body or query turned into the CLI's checked Options
// (cli/request.h, so both front ends accept and refuse alike), and a job's run: the family's
// work under the job's limits, turned into the reply the CLI's --json would print.
#pragma once
#include <map>
#include <string>

#include "serve/jobs.h"

namespace tansaku::serve {

struct Caps {
  double timeout = 300;           // seconds, the most any request runs
  std::uint64_t memory = 0;       // bytes, the most any request uses
  bool files = false;             // serve --allow-files: options that name files (marked by
                                  // OptionSpec::files, @FILE values) are taken; refused otherwise
};

// {"puzzle": ..., <options by long name>} -> Options for `command` (show / solve / explore),
// capped by `caps`. Throws InputError naming the problem (a 400). Unless caps.files, an option
// that names a file on the server (one its family marks OptionSpec::Files::reads or writes, an
// @FILE state) is refused here by name; paths given otherwise (a variant naming a file: a
// board, a graph) meet the file policy (core/input.h).
Options options_of(unsigned command, const json& body, const Caps& caps);
// A request's body (POST) as JSON. Throws InputError("malformed JSON: ...") (a 400) on any text
// nlohmann::json refuses: a syntax error, bad UTF-8, or a number beyond a double (1e999).
json parse_body(const std::string& text);
// Query parameters (GET /api/show) as the same object: every value a string, a flag "true".
json body_of_query(const std::multimap<std::string, std::string>& params);

// Takes a request's own fields out of `body` into the job: "paste" (the text of the file the
// puzzle names: "FAMILY:mine.txt" + its text) and, for POST /api/play, "state". Throws
// InputError (a 400) on a bad value.
void take_paste(json& body, Job& job);

// What the app needs to build its form for one puzzle's family (GET /api/family?puzzle=P):
// the commands it answers, its options as declared (name, type, help, range, default), its
// solvers, its notation, whether a variant may be pasted as a file. Throws InputError.
json family_json(const std::string& puzzle, const Caps& caps);

// Runs the job (never throws): status 200 + the CLI's JSON, or 400 / 422 / 500 + {"error"}.
void run_job(Job& job);

// A one-line {"error": message} body.
std::string error_body(const std::string& message, int exit_code);

}  // namespace tansaku::serve
