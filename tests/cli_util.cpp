#include "cli_util.h"

#include <sys/wait.h>
#include <unistd.h>

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
