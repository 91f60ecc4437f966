// Runs the tansaku binary for CLI tests: exit code, stdout, stderr, parsed JSON.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

struct CliResult {
  int code = -1;
  std::string out, err;
  nlohmann::json json() const { return nlohmann::json::parse(out); }
};

// `args` is appended to the binary path and run through /bin/sh.
CliResult run_cli(const std::string& args);
// The same as `PREFIX BIN ARGS` (PREFIX: e.g. a ulimit), stdout to `out` when it is given.
CliResult run_sh(const std::string& prefix, const std::string& args, const std::string& out = "");
