// libFuzzer harness: the web API's jobs themselves, not only their parsing (issue 24). The
// input is a request body (POST /api/show, solve, explore or draw; the first byte picks the
// endpoint and whether the result is drawn, the rest is the JSON body) run as the server runs
// it (serve::options_of, then serve::run_job) under tiny limits: 0.2 s and 64 MiB a request,
// as `serve --timeout 0.2 --memory 64M --workers 1`.
// Every answer must be a valid reply: 200 with a JSON object, 400 (exit 2), 413 or 422 (exit 3)
// with a one-line {"error"} object; the limits must hold: the run ends within the timeout plus
// a slack for the sanitizers, and the reply (body and drawing) within the reply cap of the
// request's memory (serve/budget.h). A 500 (an exception that is not InputError or
// LimitError), a crash, a sanitizer report or a hang (libFuzzer -timeout) is a finding.
// fuzz.sh's -rss_limit_mb bounds the process's memory as a whole.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

#include "serve/api.h"
#include "serve/budget.h"
#include "tansaku/core/error.h"

using namespace tansaku;

namespace {

constexpr double kTimeout = 0.2;
constexpr double kSlack = 5.0;  // sanitizers slow everything; a run past this is a finding

void check_error(const std::string& body, int exit_code) {
  if (body.find('\n') != std::string::npos) __builtin_trap();
  const json j = json::parse(body);  // throwing escapes the harness: a finding
  if (!j.is_object() || !j.contains("error") || !j["error"].is_string() || j["exit"] != exit_code) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1 || size > 1 << 14) return 0;
  const unsigned pick = data[0];
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  serve::Caps caps;
  caps.timeout = kTimeout;
  caps.memory = std::uint64_t{64} << 20;
  const unsigned commands[] = {kShow, kSolve, kExplore, kShow};
  const bool draw_endpoint = (pick & 3) == 3;  // POST /api/draw: show + states
  auto job = std::make_shared<serve::Job>();
  job->command = commands[pick & 3];
  job->draw = draw_endpoint || (pick & 4);
  try {
    json body = serve::parse_body(text);
    if (draw_endpoint && body.is_object() && body.contains("states")) {
      const json& st = body["states"];
      if (!st.is_array() || st.size() > serve::kMaxDrawStates) return 0;  // the server's 400 / 413
      for (const auto& s : st) {
        if (!s.is_string()) return 0;
        job->states.push_back(s.get<std::string>());
      }
      body.erase("states");
    }
    job->options = serve::options_of(job->command, body, caps);
    job->puzzle = body.at("puzzle").get<std::string>();
  } catch (const InputError& e) {
    check_error(serve::error_body(e.what(), 2), 2);
    return 0;
  }
  const auto t0 = std::chrono::steady_clock::now();
  serve::run_job(*job);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (secs > kTimeout + kSlack) __builtin_trap();  // the deadline did not hold
  std::lock_guard lock(job->m);
  switch (job->status) {
    case 200: {
      const json j = json::parse(job->body);
      if (!j.is_object()) __builtin_trap();
      const std::uint64_t reply = job->body.size() + (job->drawing.is_null() ? 0 : job->drawing.dump().size());
      // The cap counts the drawn pictures as text; JSON escaping (their quotes) and the object
      // around them add less than half again.
      if (reply > serve::reply_cap(job->options.memory) * 3 / 2 + (std::uint64_t{64} << 10)) __builtin_trap();
      break;
    }
    case 400: check_error(job->body, 2); break;
    case 422: check_error(job->body, 3); break;
    default: __builtin_trap();  // 500: an internal error
  }
  return 0;
}
