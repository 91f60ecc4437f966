// `tansaku serve`'s options (serve.h), apart from the server itself (serve.cpp): the lean
// `tansaku` program parses them too, then hands the command to tansaku-full (cli/full.h).
#include "serve/serve.h"

namespace tansaku::serve {

CLI::App* add_serve(CLI::App& app, Config& c) {
  auto* cmd = app.add_subcommand("serve", "the local web app and its JSON API (docs/serve.md)");
  cmd->add_option("--port", c.port, "TCP port (default 8080; 0: any free port)")->type_name("N");
  cmd->add_option("--bind", c.bind, "address to listen on (default 127.0.0.1: this machine only)")->type_name("ADDR");
  cmd->add_option("--timeout", c.timeout, "the most a request may run (default 300)")->type_name("SECONDS");
  cmd->add_option("--memory", c.memory, "budget of all requests together (default: 3/4 of RAM)")->type_name("SIZE");
  cmd->add_option("--workers", c.workers, "requests run at once (default: the cores)")->type_name("N");
  cmd->add_option("--queue", c.queue, "requests waiting beyond those, then 503 (default 64)")->type_name("N");
  cmd->add_option("--body", c.body, "largest request body, then 413 (default 1M)")->type_name("SIZE");
  cmd->add_option("--connections", c.connections,
                  "open connections at most, then 503 at once (default 1024, fewer if the open file limit is low)")
      ->type_name("N");
  cmd->add_flag("--allow-files", c.allow_files,
                "let requests read and write files on this machine (puzzles and options naming files, @FILE states); "
                "without it only the shipped data is read (docs/serve.md, Security)");
  cmd->add_flag("--no-keep-tables", c.no_keep_tables,
                "load a puzzle's tables for every solve; by default the tables of the last puzzle solved stay "
                "loaded for the next request, and half a request's share of --memory is set aside for them");
  return cmd;
}

}  // namespace tansaku::serve
