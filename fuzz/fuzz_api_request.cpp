// libFuzzer harness: the web API's requests (`tansaku serve`, src/serve/api.cpp) as the server
// reads them: the input parsed as a JSON body (parse_body: POST /api/show, solve, explore) or,
// when it is not JSON, as GET /api/show's query (key=value pairs split on '&': body_of_query),
// then turned into the CLI's checked Options for show, solve and explore (options_of ->
// cli/request.cpp), capped by the server's limits.
// Bad input must be an InputError (a 400: "malformed JSON: ..." when it is not JSON), whose
// reply is one line of JSON; anything else is a finding: a crash, a sanitizer report, another
// exception (the server's 500; 1e999 was one), or accepted Options beyond the caps or naming
// a file on the server's disk.
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "cli/cores.h"
#include "serve/api.h"
#include "tansaku/core/error.h"

using namespace tansaku;

namespace {

// The 400 reply the server sends for `message`: one line of JSON, {"error": string, "exit": 2}.
// json::parse throwing here escapes the harness: a finding.
void check_error_reply(const std::string& message) {
  const std::string reply = serve::error_body(message, 2);
  if (reply.find('\n') != std::string::npos) __builtin_trap();
  const json j = json::parse(reply);
  if (!j.is_object() || !j.contains("error") || !j["error"].is_string() || j["exit"] != 2) __builtin_trap();
}

// GET /api/show?...: the query's pairs (httplib has decoded them already; a key may repeat).
std::multimap<std::string, std::string> query_of(const std::string& text) {
  std::multimap<std::string, std::string> params;
  std::size_t at = 0;
  while (at <= text.size()) {
    std::size_t amp = text.find('&', at);
    if (amp == std::string::npos) amp = text.size();
    const std::string pair = text.substr(at, amp - at);
    const std::size_t eq = pair.find('=');
    params.emplace(pair.substr(0, eq), eq == std::string::npos ? "" : pair.substr(eq + 1));
    at = amp + 1;
  }
  return params;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 1 << 16) return 0;
  const std::string text(reinterpret_cast<const char*>(data), size);
  serve::Caps caps;  // as `serve --timeout 1 --memory 64M --workers 1`
  caps.timeout = 1;
  caps.memory = std::uint64_t{64} << 20;
  json body;
  bool is_json = true;
  try {
    body = serve::parse_body(text);
  } catch (const InputError& e) {
    if (!std::string_view(e.what()).starts_with("malformed JSON: ")) __builtin_trap();
    check_error_reply(e.what());
    is_json = false;
  }
  if (!is_json) {
    try {
      body = serve::body_of_query(query_of(text));
    } catch (const InputError& e) {  // a key given twice
      check_error_reply(e.what());
      return 0;
    }
    if (!body.is_object()) __builtin_trap();
    for (const auto& [key, value] : body.items())
      if (!value.is_string() && !value.is_boolean()) __builtin_trap();  // every value a string, a flag a bool
  }
  const unsigned cores = usable_cores();
  for (unsigned command : {kShow, kSolve, kExplore}) {
    try {
      const Options o = serve::options_of(command, body, caps);
      if (o.command != command || !o.json) __builtin_trap();
      if (!(o.timeout > 0) || o.timeout > caps.timeout) __builtin_trap();       // the time cap
      if (o.memory == 0 || o.memory > caps.memory) __builtin_trap();            // the memory cap
      if (o.threads == 0 || o.threads > cores) __builtin_trap();                // the cores
      if (o.has("svg") || o.has("html") || !o.svg.empty() || !o.html.empty()) __builtin_trap();  // no files written
      // No file on the server named (serve without --allow-files: spill, batch, file, @FILE).
      if (o.has("spill") || o.has("batch") || o.has("file")) __builtin_trap();
      for (const auto* v : {&o.start, &o.goal, &o.from})
        if (*v && (*v)->starts_with('@')) __builtin_trap();
      // The server then reads the puzzle's name from the body (serve.cpp: submit).
      (void)body.at("puzzle").get<std::string>();
    } catch (const InputError& e) {
      check_error_reply(e.what());
    }
  }
  return 0;
}
