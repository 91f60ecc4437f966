// `tansaku serve`: the local web app and its JSON API (docs/serve.md). Part of the command
// line program, not of the library: main.cpp registers the subcommand through add_serve().
#pragma once
#include <string>

#include <CLI/CLI.hpp>

namespace tansaku::serve {

struct Config {
  std::string bind = "127.0.0.1";
  int port = 8080;            // 0: any free port (printed on stderr)
  std::string timeout;        // seconds: the most a request may run ("" = 300)
  std::string memory;         // the budget shared by the workers ("" = the CLI's default)
  std::string workers;        // concurrent requests ("" = the cores)
  std::string queue = "64";   // requests waiting beyond those (then 503)
  std::string body = "1M";    // largest request body (then 413)
  std::string connections;    // open connections at most (then 503; "" = 1024, or fewer by the file limit)
  bool allow_files = false;   // requests may name files on this machine (options, variants, @FILE)
  bool no_keep_tables = false;  // load a puzzle's tables for every solve (none kept between requests)
};

CLI::App* add_serve(CLI::App& app, Config& c);
int run(const Config& c);  // the exit code

}  // namespace tansaku::serve
