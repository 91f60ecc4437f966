// The cache directory's commands (see pdb.h): `pdb list` prints what each family's files
// say of themselves; `pdb verify` reads every byte of them and checks their checksums;
// `pdb remove` deletes named table files, or all of them, and nothing else.
#include "cli/pdb.h"

#include <fmt/format.h>

#include "cli/tools.h"
#include "tansaku/core/cache_dir.h"
#include "tansaku/core/error.h"
#include "tansaku/core/input.h"
#include "tansaku/core/memory.h"
#include "tansaku/core/progress.h"
#include "tansaku/pdb/cache.h"

namespace tansaku {
namespace {

constexpr const char* kDirHelp = "table directory (default $TANSAKU_PDB_DIR or ~/.cache/tansaku)";

// --dir (which must then be a directory), else the cache directory.
std::filesystem::path dir_of(const std::set<std::string>& given, Raw& raw) {
  if (!given.count("dir")) return table_cache_dir();
  const std::filesystem::path dir = raw.text["dir"];
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec))
    throw InputError(fmt::format("--dir {}: no such directory", printable(dir.string())));
  return dir;
}

// The table files named on the command line (a path, or a name in `dir`), each a file that
// some family's kind of table claims; InputError for the first that is not.
std::vector<pdb::TableFile> named_files(const std::vector<std::string>& names, const std::filesystem::path& dir,
                                        const std::vector<const pdb::TableKind*>& kinds) {
  std::vector<pdb::TableFile> out;
  for (const auto& n : names) {
    const std::filesystem::path p = n.find('/') == std::string::npos ? dir / n : std::filesystem::path(n);
    const pdb::TableKind* k = pdb::kind_of(p.filename().string(), kinds);
    if (!k)
      throw InputError(fmt::format("{}: not a pattern database file (`tansaku pdb list` shows them)", printable(n)));
    std::error_code ec;
    if (!std::filesystem::is_regular_file(p, ec))
      throw InputError(fmt::format("{}: no such file", printable(p.string())));
    out.push_back(pdb::TableFile{p, k});
  }
  return out;
}

}  // namespace

PdbCommands::PdbCommands(CLI::App& app, Raw& raw) {
  CLI::App* pdb = nullptr;
  for (CLI::App* c : app.get_subcommands({}))
    if (c->get_name() == "pdb") pdb = c;
  if (!pdb) pdb = app.add_subcommand("pdb"), pdb->require_subcommand(1);
  pdb->description("pattern databases: build them into the table cache, list, check and remove them");
  list_ = pdb->add_subcommand("list", "list the pattern databases in the cache dir");
  verify_ = pdb->add_subcommand("verify", "read the pattern databases in the cache dir and check their checksums");
  verify_->add_option("files", files_, "table files (a name in the cache dir, or a path; default: all)")
      ->type_name("FILE");
  remove_ = pdb->add_subcommand("remove", "delete pattern databases from the cache dir");
  remove_->add_option("files", files_, "table files (a name in the cache dir, or a path)")->type_name("FILE");
  remove_->add_flag("--all", all_, "every pattern database in the cache dir");
  for (CLI::App* cmd : {list_, verify_, remove_}) {
    add_universal(cmd, raw, false);
    cmd->add_option("--dir", raw.text["dir"], kDirHelp)->type_name("DIR");
  }
}

bool PdbCommands::run_parsed(Raw& raw, int& code) {
  CLI::App* cmd = list_->parsed() ? list_ : verify_->parsed() ? verify_ : remove_->parsed() ? remove_ : nullptr;
  if (!cmd) return false;
  const std::set<std::string> given = given_of(cmd);
  Options o;
  universal(given, raw, o);
  const std::filesystem::path dir = dir_of(given, raw);
  const auto kinds = pdb::registered_kinds();
  code = 0;
  if (cmd == list_) {
    auto [text, j] = pdb::list_tables(dir, kinds);
    if (o.json) fmt::print("{}\n", j.dump());
    else fmt::print("{}", text);
    return true;
  }
  if (cmd == verify_) {
    const auto files = files_.empty() ? pdb::table_files(dir, kinds) : named_files(files_, dir, kinds);
    Progress progress(!o.quiet);
    const search::Limits lim = o.limits(&progress);
    json tables = json::array();
    std::string text;
    int damaged = 0;
    for (const auto& f : files) {
      progress.update("checking {}", f.path.filename().string());
      const std::string why = pdb::verify_table(f, lim);
      json t{{"file", f.path.string()}, {"ok", why.empty()}};
      if (why.empty()) {
        text += fmt::format("  ok       {}\n", f.path.string());
      } else {
        ++damaged;
        t["error"] = why;
        text += fmt::format("  damaged  {}\n", why);
      }
      tables.push_back(std::move(t));
    }
    progress.done();
    if (o.json) {
      fmt::print(
          "{}\n",
          json{{"dir", dir.string()}, {"tables", tables}, {"checked", files.size()}, {"damaged", damaged}}.dump());
    } else {
      fmt::print("pattern databases in {}: {} checked, {} damaged\n{}", dir.string(), files.size(), damaged, text);
      if (damaged)
        fmt::print("a damaged table: `tansaku pdb remove FILE`, then `tansaku pdb build PUZZLE` builds it again\n");
    }
    code = damaged ? 1 : 0;
    return true;
  }
  // remove: the files named, or --all; every name checked before anything is removed.
  if (all_ == !files_.empty()) throw InputError("pdb remove: name the table files to remove, or give --all");
  const auto files = all_ ? pdb::table_files(dir, kinds) : named_files(files_, dir, kinds);
  json removed = json::array();
  std::string text;
  std::uint64_t total = 0;
  for (const auto& f : files) {
    std::error_code ec;
    const std::uint64_t bytes = std::filesystem::file_size(f.path, ec);
    if (!std::filesystem::remove(f.path, ec) || ec)
      throw InputError(fmt::format("cannot remove {}: {}", printable(f.path.string()), ec ? ec.message() : "gone"));
    total += bytes;
    removed.push_back(json{{"file", f.path.string()}, {"file_bytes", bytes}});
    text += fmt::format("removed {} ({})\n", f.path.string(), format_size(bytes));
  }
  if (o.json) fmt::print("{}\n", json{{"dir", dir.string()}, {"removed", removed}, {"bytes", total}}.dump());
  else
    fmt::print("{}{} table file{} removed, {}\n", text, files.size(), files.size() == 1 ? "" : "s", format_size(total));
  return true;
}

}  // namespace tansaku
