// The table cache directory, one listing and one check for every family's tables (see
// tansaku/pdb/cache.h).
#include "tansaku/pdb/cache.h"

#include <algorithm>
#include <set>
#include <system_error>

#include <fmt/format.h>

#include "tansaku/core/error.h"
#include "tansaku/core/memory.h"
#include "tansaku/pdb/checkpoint.h"
#include "tansaku/puzzles/registry.h"
#include "tansaku/search/move_pruning.h"

namespace tansaku::pdb {

namespace {

// The redundant move strings a search skips (tansaku/search/move_pruning.h), kept per
// puzzle and depth as NAME-DEPTH.fsm.zst by whichever family enumerated them.
const TableKind& move_strings_kind() {
  static const TableKind k = [] {
    TableKind k;
    k.heading = "redundant move strings in {} (searches skip them):";
    k.hide_when_empty = true;
    k.claims = [](const std::string& name) { return name.ends_with(".fsm.zst"); };
    k.describe = [](const std::filesystem::path& file) {
      const auto s = search::MoveAutomaton::summarize(file, false);
      std::string name = file.filename().string();
      name.resize(name.size() - std::string_view(".fsm.zst").size());
      if (const auto dash = name.rfind('-'); dash != std::string::npos) name.resize(dash);
      std::error_code ec;
      const auto bytes = std::filesystem::file_size(file, ec);
      json j{{"move_strings", name},
             {"depth", s.depth},
             {"words", s.words},
             {"file", file.string()},
             {"file_bytes", ec ? 0 : bytes}};
      return std::pair<std::string, json>{fmt::format("{}: up to {} moves, {} strings, {}  {}", name, s.depth, s.words,
                                                      format_size(ec ? 0 : bytes), file.string()),
                                          std::move(j)};
    };
    k.verify = [](const std::filesystem::path& file, const search::Limits&) {
      (void)search::MoveAutomaton::summarize(file, true);
    };
    return k;
  }();
  return k;
}

}  // namespace

std::vector<const TableKind*> registered_kinds() {
  std::vector<const TableKind*> out;
  for (const auto& f : families())
    for (const auto& k : f.table_kinds) out.push_back(&k);
  out.push_back(&move_strings_kind());
  out.push_back(&partial_kind());
  return out;
}

const TableKind* kind_of(const std::string& file_name, const std::vector<const TableKind*>& kinds) {
  for (const TableKind* k : kinds)
    if (k->claims(file_name)) return k;
  return nullptr;
}

std::vector<TableFile> table_files(const std::filesystem::path& dir, const std::vector<const TableKind*>& kinds) {
  std::vector<TableFile> found;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return found;
  // The directory, and the folders in it that kinds keep files in.
  std::set<std::filesystem::path> dirs{dir};
  for (const TableKind* k : kinds)
    for (const auto& f : k->folders)
      if (std::filesystem::is_directory(dir / f, ec) && !std::filesystem::is_symlink(dir / f, ec)) dirs.insert(dir / f);
  for (const auto& d : dirs)
    for (const auto& e : std::filesystem::directory_iterator(d, ec))
      if (!e.is_directory(ec))
        if (const TableKind* k = kind_of(e.path().filename().string(), kinds)) found.push_back(TableFile{e.path(), k});
  auto order = [&](const TableKind* k) { return std::find(kinds.begin(), kinds.end(), k) - kinds.begin(); };
  std::sort(found.begin(), found.end(), [&](const TableFile& a, const TableFile& b) {
    return order(a.kind) != order(b.kind) ? order(a.kind) < order(b.kind) : a.path.string() < b.path.string();
  });
  return found;
}

std::pair<std::string, json> list_tables(const std::filesystem::path& dir, const std::vector<const TableKind*>& kinds) {
  const auto files = table_files(dir, kinds);
  std::string text;
  json tables = json::array(), unreadable = json::array();
  for (const TableKind* k : kinds) {
    const std::size_t heading_at = text.size();
    text += fmt::format(fmt::runtime(k->heading), dir.string()) + "\n";
    bool any = false;
    for (const auto& f : files) {
      if (f.kind != k) continue;
      try {
        auto [line, j] = k->describe(f.path);
        text += "  " + line + "\n";
        tables.push_back(std::move(j));
      } catch (const InputError& e) {  // not readable as a table: why, and the way out
        text += fmt::format("  unreadable: {}\n", e.what());
        unreadable.push_back(json{{"file", f.path.string()}, {"error", e.what()}});
      }
      any = true;
    }
    if (!any && k->hide_when_empty) text.resize(heading_at);
    else if (!any) text += "  (none)\n";
  }
  json j{{"dir", dir.string()}, {"tables", tables}};
  if (!unreadable.empty()) j["unreadable"] = std::move(unreadable);
  return {text, std::move(j)};
}

std::string verify_table(const TableFile& f, const search::Limits& lim) {
  try {
    f.kind->verify(f.path, lim);
    return "";
  } catch (const InputError& e) {
    return e.what();
  } catch (const std::bad_alloc&) {
    return "not enough memory to read it";
  }
}

}  // namespace tansaku::pdb
