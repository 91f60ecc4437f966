// Runs the tansaku binary for CLI tests: exit code, stdout, stderr, parsed JSON; and the one
// check of the contract for bad input (exit 2, one line on stderr, nothing on stdout).
// Compiled once into tansaku_test_util (tests/CMakeLists.txt), which every test links.
#pragma once
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "sanitized.h"

// Where a helper was called from, for its failure messages (std::source_location is not
// usable with clang 14 and libstdc++ 12, which the sanitizer build uses).
struct CallSite {
  const char* file;
  int line;
  CallSite(const char* f = __builtin_FILE(), int l = __builtin_LINE()) : file(f), line(l) {}
};

struct CliResult {
  int code = -1;
  std::string out, err;
  // stdout parsed; out of line (cli_util.cpp), so the JSON parser is compiled once, not in
  // every test program.
  nlohmann::json json() const;
};

// Text parsed as JSON (out of line, like CliResult::json).
nlohmann::json parse_json(const std::string& text);

// How GoogleTest prints a JSON value in a failure message (found by argument-dependent
// lookup; out of line, so the serializer is compiled once, not in every test program).
namespace nlohmann {
void PrintTo(const json& value, std::ostream* os);
}  // namespace nlohmann

// `args` is appended to the binary path and run through /bin/sh.
CliResult run_cli(const std::string& args);
// The same as `PREFIX BIN ARGS` (PREFIX: e.g. a ulimit), stdout to `out` when it is given.
CliResult run_sh(const std::string& prefix, const std::string& args, const std::string& out = "");

// Refused (or stopped) cleanly: exit `code`, nothing on stdout, exactly one line on stderr,
// holding `needle` ("" = any), and no "internal error". Use as EXPECT_TRUE(refused_cleanly(r, ...)).
::testing::AssertionResult refused_cleanly(const CliResult& r, const std::string& needle = "", int code = 2);
// The same as a check: expect_clean(run_cli(args), 3, "time limit"). A failure names the caller's line.
void expect_clean(const CliResult& r, int code, const std::string& needle, CallSite at = CallSite());
// Runs `args` and expects it refused as bad input: exit 2, one line on stderr holding `needle`.
void expect_refused(const std::string& args, const std::string& needle = "", CallSite at = CallSite());

namespace tansaku {
struct Options;
// For tests that call a family directly: gives one option of the puzzle's family as the
// command line would (checked and stored into the family's typed settings by the request
// layer), keeping what `o` already holds.
void give_option(Options& o, const std::string& puzzle, const std::string& name, const std::string& value);
}  // namespace tansaku
