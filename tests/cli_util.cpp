#include "cli_util.h"

#include "cli/request.h"
#include "tansaku/puzzles/registry.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace {
std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}
}  // namespace

CliResult run_sh(const std::string& prefix, const std::string& args, const std::string& out) {
  char out_tmpl[] = "/tmp/tansaku-out-XXXXXX";
  char err_tmpl[] = "/tmp/tansaku-err-XXXXXX";
  int fo = mkstemp(out_tmpl), fe = mkstemp(err_tmpl);
  close(fo);
  close(fe);
  const std::string cmd = prefix + " " + std::string(TANSAKU_BIN) + " " + args + " >" +
                          (out.empty() ? std::string(out_tmpl) : out) + " 2>" + err_tmpl + " </dev/null";
  int status = std::system(cmd.c_str());
  CliResult r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(out_tmpl);
  r.err = slurp(err_tmpl);
  std::remove(out_tmpl);
  std::remove(err_tmpl);
  return r;
}

CliResult run_cli(const std::string& args) { return run_sh("", args); }

nlohmann::json parse_json(const std::string& text) { return nlohmann::json::parse(text); }
nlohmann::json CliResult::json() const { return parse_json(out); }
void nlohmann::PrintTo(const json& value, std::ostream* os) { *os << value.dump(); }

::testing::AssertionResult refused_cleanly(const CliResult& r, const std::string& needle, int code) {
  auto fail = [&]() {
    return ::testing::AssertionFailure() << "\n  exit " << r.code << "\n  stdout: " << r.out.substr(0, 400)
                                         << "\n  stderr: " << r.err.substr(0, 400) << "\n  ";
  };
  if (r.code != code) return fail() << "expected exit " << code;
  if (!r.out.empty()) return fail() << "expected nothing on stdout";
  if (r.err.empty() || r.err.back() != '\n' || std::count(r.err.begin(), r.err.end(), '\n') != 1)
    return fail() << "expected exactly one line on stderr";
  if (r.err.find(needle) == std::string::npos) return fail() << "expected '" << needle << "' on stderr";
  if (r.err.find("internal error") != std::string::npos) return fail() << "an internal error is not a refusal";
  return ::testing::AssertionSuccess();
}

void expect_clean(const CliResult& r, int code, const std::string& needle, CallSite at) {
  ::testing::ScopedTrace trace(at.file, at.line, "called here");
  EXPECT_TRUE(refused_cleanly(r, needle, code));
}

void expect_refused(const std::string& args, const std::string& needle, CallSite at) {
  ::testing::ScopedTrace trace(at.file, at.line, "tansaku " + args);
  EXPECT_TRUE(refused_cleanly(run_cli(args), needle));
}

namespace tansaku {
void give_option(Options& o, const std::string& puzzle, const std::string& name, const std::string& value) {
  Raw raw;
  raw.puzzle = puzzle;
  o.values[name] = value;
  o.given.insert(name);
  for (const auto& [k, v] : o.values) raw.text[k] = v;
  family_options(family_of(puzzle), puzzle, o.command, raw, o);
}
}  // namespace tansaku
