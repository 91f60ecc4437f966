// The perm family's `pdb` subcommands (see pdb_cli.h).
#include "perm/pdb_cli.h"

#include <algorithm>
#include <filesystem>
#include <functional>

#include <fmt/format.h>

#include "perm/definition.h"
#include "perm/generators.h"
#include "perm/notation.h"
#include "perm/pattern_table.h"
#include "perm/pdb.h"
#include "perm/piece_file.h"
#include "perm/piece_table.h"
#include "perm/symmetry.h"
#include "perm/two_phase.h"
#include "tansaku/core/cache_dir.h"
#include "tansaku/core/deadline.h"
#include "tansaku/core/error.h"
#include "tansaku/core/input.h"
#include "tansaku/core/memory.h"
#include "tansaku/core/memory_error.h"
#include "tansaku/core/progress.h"
#include "tansaku/pdb/build.h"
#include "tansaku/pdb/stop_signals.h"

namespace tansaku::perm {
namespace {

// Tables `pdb build` makes by default: at most this many entries each (2 bits per entry:
// 128 MiB; the 3x3x3: the 8 corners, and the 12 edges as two groups of 7).
constexpr std::uint64_t kDefaultEntries = std::uint64_t{1} << 29;

// The tools' options (declared in pdb_tools() below).
struct PdbSettings {
  std::optional<std::string> dir, goal, moves, metric, only;
  std::optional<int> pieces, cells;
  bool force = false;
};

std::filesystem::path dir_of(const Options& o) {
  const auto& d = o.settings<PdbSettings>().dir;
  return d ? std::filesystem::path(*d) : table_cache_dir();
}

std::vector<int> piece_numbers(const Definition& d, const PieceSpec& s) {
  std::vector<int> v;
  for (int l : s.labels) v.push_back(d.sets[static_cast<std::size_t>(s.set)].numbers[static_cast<std::size_t>(l)]);
  return v;
}
std::string pieces_text(const Definition& d, const PieceSpec& s) { return fmt::format("{}", fmt::join(piece_numbers(d, s), ",")); }

// What a solve holds of a pattern's table: its cells, and a reduced one's class and sym-move
// tables (its file header's "bytes"). A solve takes tables up to seven eighths of its --memory (table_memory).
std::uint64_t solve_bytes(const PatternDomain& dom, int bits) {
  if (const PatternReduction* red = dom.reduction()) return red->solve_bytes(bits);
  return TwoBitTable::bytes_for(dom.size() * static_cast<std::uint64_t>(bits / 2));
}

int run_build(const Options& o, const std::vector<std::string>& args) {
  std::string name = args.empty() ? "" : args[0];
  for (const auto& [alias, target] : builtin_aliases())
    if (name == alias) name = target;
  const auto colon = name.find(':');
  if (colon == std::string::npos || name.substr(0, colon) != "perm")
    throw InputError(fmt::format("'{}': name a permutation puzzle as perm:NAME or perm:FILE.tws", printable(name)));
  const Definition d = load_definition(name.substr(colon + 1));
  const PdbSettings& s = o.settings<PdbSettings>();
  const MoveSet ms = build_moves(d, s.metric.value_or("htm"), s.moves.value_or(""));
  const Position goal = s.goal ? parse_position(d, *s.goal, "--goal") : d.solved;
  const int pieces = s.pieces.value_or(0);
  const std::string only = s.only.value_or("");
  if (!only.empty() && only != "pieces" && only != "patterns")
    throw InputError(fmt::format("--only '{}': pieces or patterns", printable(only)));
  // The companion file NAME.pat, when it lists tables: those (the patterns built after the
  // piece tables; --pieces K: groups of K in place of the piece tables it lists), else the
  // default piece tables.
  const TableList listed = load_table_list(d);
  const bool listing = !listed.pieces.empty() || !listed.patterns.empty();
  std::vector<PieceSpec> specs;
  if (only != "patterns" && (pieces > 0 || !listing)) specs = default_piece_specs(d, ms, goal, kDefaultEntries, pieces);
  else if (only != "patterns")
    for (const auto& [set, labels] : listed.pieces) specs.push_back(PieceSpec{set, labels});
  // The build holds the 2-bit distances mod 3 (tansaku/pdb/build.h).
  std::vector<std::unique_ptr<PieceDomain>> doms;
  for (const auto& s : specs) {
    doms.push_back(std::make_unique<PieceDomain>(d, ms, goal, s));
    require_memory(tansaku::pdb::build_bytes(doms.back()->size(), 2), o.memory,
                   fmt::format("building the piece table of set {} pieces {} ({} entries)",
                               d.sets[static_cast<std::size_t>(s.set)].name, pieces_text(d, s), doms.back()->size()));
  }
  const std::filesystem::path dir = dir_of(o);
  {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec || !std::filesystem::is_directory(dir, ec))
      throw InputError(fmt::format("--dir {}: cannot create the directory ({})", printable(dir.string()),
                                   ec ? ec.message() : "not a directory"));
  }
  // Pattern cells: --cells 2 (distances mod 3, the default) or 4 (exact: a bound at any
  // position, so a solve looks up the position's inverse too; on the cube half the nodes,
  // and about as much time per solve: docs/perm.md). Refused up front when the build (with
  // 4 bits, a 2-bit state table and the 4-bit cells) does not fit --memory or the disk has
  // not room for the files (below).
  const int bits = s.cells.value_or(2);
  if (bits != 2 && bits != 4) throw InputError(fmt::format("--cells {}: 2 or 4", bits));
  // The patterns: a reduced one builds its class table here (checked against --memory
  // first), unless its file is there already, reduced by the same symmetries (its header
  // says which; files without that are opened as before and their size compared). Of a
  // chain of patterns standing in for each other (`Replaces`), the first that fits --memory
  // and the disk is built (or found built), the others not: its build, and a solve with the
  // same --memory (which takes tables up to seven eighths of it).
  std::vector<std::unique_ptr<PatternDomain>> pats;
  std::vector<std::pair<PatternSpec, json>> present;  // patterns already built: their headers
  // What the tables chosen so far need on disk (the piece tables, and the patterns in `pats`).
  auto disk_need = [&] {
    tansaku::pdb::DiskNeed disk;
    for (const auto& dom : doms)
      disk.add(dir / table_file_name(d, ms, goal, dom->spec()), TwoBitTable::bytes_for(dom->size()),
               tansaku::pdb::build_state_bytes(dom->size(), 2), s.force);
    for (const auto& p : pats)
      disk.add(dir / pattern_file_name(d, ms, goal, p->spec(), bits), solve_bytes(*p, bits),
               tansaku::pdb::build_state_bytes(p->size(), bits), s.force);
    return disk;
  };
  // What the tables chosen so far and one more (its file, bytes and cells) need on disk.
  auto disk_with = [&](const std::filesystem::path& file, std::uint64_t bytes, std::uint64_t cells) {
    tansaku::pdb::DiskNeed disk = disk_need();
    disk.add(file, bytes, tansaku::pdb::build_state_bytes(cells, bits), s.force);
    return disk;
  };
  // A reduced pattern is refused for the disk before its class table is built, by its least
  // size (as many classes as values over symmetries), with the tables chosen before it; one
  // that another pattern stands in for gives way to it (DiskShort) as for the memory.
  struct DiskShort : InputError {
    using InputError::InputError;
  };
  auto disk_first = [&](const std::filesystem::path& file, bool soft) {
    return [&, file, soft](std::uint64_t least_bytes, std::uint64_t least_cells) {
      const tansaku::pdb::DiskNeed disk = disk_with(file, least_bytes, least_cells);
      if (soft && !disk.fits(dir)) throw DiskShort("no room on the disk");
      disk.require(dir);
    };
  };
  std::string group;  // the symmetry group's fingerprint, computed once when first asked
  auto fingerprint = [&]() -> const std::string& {
    if (group.empty()) group = symmetry_fingerprint(symmetry_group(d, ms, goal));
    return group;
  };
  if (only != "pieces") {
    Progress progress(!o.quiet);
    const search::Limits lim = o.limits(&progress);
    for (const auto& top : listed.patterns) {
      if (listed.stand_in(top.name)) continue;  // reached from the pattern standing in for it
      for (const PatternSpec* p = &top; p; p = listed.instead_of(p->name)) {
        const bool last = !listed.instead_of(p->name);
        const std::filesystem::path file = dir / pattern_file_name(d, ms, goal, *p, bits);
        std::error_code ec;
        if (p->reduced && !s.force && std::filesystem::exists(file, ec)) {
          try {
            json h = read_table_header(file);
            if (h.value("symmetries", "") == fingerprint() &&
                (last || h.value("bytes", std::uint64_t{0}) <= table_memory(o.memory))) {
              present.emplace_back(*p, std::move(h));
              break;
            }
          } catch (const InputError&) {  // a damaged file: opened below as before, and reported
          }
        }
        if (last) {
          pats.push_back(std::make_unique<PatternDomain>(d, ms, goal, *p, o.threads, &lim, nullptr, nullptr, false,
                                                         SolveCap{0, bits, disk_first(file, false)}));
          break;
        }
        try {  // a pattern another stands in for when its build or a solve with it does not fit
          // (refused before its class table is built when its least size shows that already)
          auto dom = std::make_unique<PatternDomain>(d, ms, goal, *p, o.threads, &lim, nullptr, nullptr, false,
                                                     SolveCap{table_memory(o.memory), bits, disk_first(file, true)});
          if (tansaku::pdb::build_bytes(dom->size(), bits) <= o.memory &&
              solve_bytes(*dom, bits) <= table_memory(o.memory) &&
              disk_with(file, solve_bytes(*dom, bits), dom->size()).fits(dir)) {
            pats.push_back(std::move(dom));
            break;
          }
        } catch (const MemoryRefused&) {
        } catch (const DiskShort&) {}
      }
    }
    progress.done();
  }
  if (specs.empty() && pats.empty() && present.empty())
    throw InputError(fmt::format(
        "perm:{}: no set of distinct pieces that some move changes and no pattern: no table to build", d.name));
  for (const auto& p : pats)
    require_memory(
        tansaku::pdb::build_bytes(p->size(), bits), o.memory,
        fmt::format("building the pattern table {} ({} entries, {}-bit cells)", p->spec().name, p->size(), bits));
  // A stopped build (--timeout, SIGINT, SIGTERM) keeps its state in the table's partial
  // file, and the same build goes on from it. Refused up front when the disk has not room
  // for the table files still to write and the largest partial build (twice its state while
  // a save replaces the previous one; a table file is written while its partial file is
  // still there).
  const tansaku::pdb::StopSignals signals(o.deadline);
  auto note = [&](const std::string& line) { fmt::print(stderr, "tansaku: {}\n", printable(line)); };
  const std::uint64_t key = instance_key(d, ms, goal);
  disk_need().require(dir);
  Stopwatch total;
  json tables = json::array();
  std::string text;
  double build_s = 0;
  std::optional<std::int64_t> resumed;
  // A build with its checkpoint, then its file saved (save(table)) and the partial file
  // removed: the table, or LimitError naming the partial build kept.
  auto checked = [&](const std::filesystem::path& file, tansaku::pdb::BuildIdentity id, auto&& run, auto&& save) {
    tansaku::pdb::Checkpoint cp(file, std::move(id), 60, note);
    Stopwatch sw;
    try {
      auto table = run(&cp);
      resumed = cp.resumed_layer();
      build_s = sw.seconds();
      save(*table);
      cp.finish();
      return table;
    } catch (const LimitError& e) {
      throw LimitError(tansaku::pdb::stopped_message(e.what(), cp.saved(), cp.file().string()));
    }
  };
  // One table: its report entry and line, built (and saved) unless present.
  auto one = [&](json t, const std::string& what, std::uint64_t entries, const std::filesystem::path& file,
                 const std::function<std::pair<int, std::uint64_t>(const search::Limits&)>& build, int cell_bits = 2) {
    t["entries"] = entries;
    t["cell_bits"] = cell_bits;
    t["bytes"] = TwoBitTable::bytes_for(entries * static_cast<std::uint64_t>(cell_bits / 2));
    t["file"] = file.string();
    std::error_code ec;
    // A file of another layout (a table reduced by other symmetries: another .sym file) is
    // replaced.
    const bool present = std::filesystem::exists(file, ec);
    const bool other = present && read_table_header(file).value("entries", std::uint64_t{0}) != entries;
    if (!s.force && present && !other) {
      const json h = read_table_header(file);  // a bad file is worth reporting
      t["status"] = "exists";
      t["max_distance"] = h.value("max_distance", 0);
      t["file_bytes"] = std::filesystem::file_size(file, ec);
      text += fmt::format("{} ({} entries): already built, {}\n", what, entries, file.string());
    } else {
      Stopwatch sw;
      Progress progress(!o.quiet);
      search::Limits lim = o.limits(&progress);
      // build: the table built and saved; {max distance, bytes}, the build's seconds in build_s
      // (a resumed build: the depth it went on from in resumed).
      resumed.reset();
      const auto [max, bytes] = build(lim);
      progress.done();
      if (resumed) t["resumed_at_depth"] = *resumed;
      t["status"] = "built";
      t["max_distance"] = max;
      t["build_seconds"] = build_s;
      t["seconds"] = sw.seconds();
      t["file_bytes"] = std::filesystem::file_size(file, ec);
      text +=
          fmt::format("{} ({} entries, {}): built in {:.1f} s{}, max distance {}, saved {} ({})\n", what, entries,
                      format_size(bytes), build_s, resumed ? fmt::format(" (going on from depth {})", *resumed) : "",
                      max, file.string(), format_size(std::filesystem::file_size(file, ec)));
    }
    tables.push_back(t);
  };
  for (auto& dom : doms) {
    const PieceSpec spec = dom->spec();
    const std::string set_name = d.sets[static_cast<std::size_t>(spec.set)].name;
    const std::filesystem::path file = dir / table_file_name(d, ms, goal, spec);
    const std::uint64_t entries = dom->size();
    one({{"set", set_name}, {"pieces", piece_numbers(d, spec)}, {"orientations", dom->orientations()}},
        fmt::format("set {} pieces {}", set_name, pieces_text(d, spec)), entries, file, [&](const search::Limits& lim) {
          auto table = checked(
              file, piece_identity(key, spec),
              [&](tansaku::pdb::Checkpoint* cp) { return build_piece_table(std::move(dom), lim, cp); },
              [&](const PieceTable& t) {
                if (lim.progress) lim.progress->update("saving {}", file.string());
                save_piece_table(t, "perm:" + d.name, key, set_name, file);
              });
          return std::pair<int, std::uint64_t>{table->max_distance(), table->bytes()};
        });
  }
  // The patterns a pattern stands in for, down its chain; its report entry ("replaces": those).
  auto replaced = [&](const PatternSpec& spec) {
    std::vector<std::string> names;
    for (const PatternSpec* of = listed.instead_of(spec.name); of; of = listed.instead_of(of->name))
      names.push_back(of->name);
    return names;
  };
  auto pattern_entry = [&](const PatternSpec& spec) {
    json t = {{"pattern", spec.name}, {"keeps", pattern_text(d, spec)}};
    if (const auto names = replaced(spec); !names.empty()) t["replaces"] = names;
    return t;
  };
  for (const auto& [spec, h] : present)
    one(
        pattern_entry(spec), fmt::format("pattern {} ({}, {}-bit cells)", spec.name, pattern_text(d, spec), bits),
        h.value("entries", std::uint64_t{0}), dir / pattern_file_name(d, ms, goal, spec, bits),
        [](const search::Limits&) -> std::pair<int, std::uint64_t> {
          throw std::logic_error("perm pdb build: a table already built");
        },
        bits);
  if (!pats.empty()) fingerprint();
  for (auto& pat : pats) {
    const PatternSpec spec = pat->spec();
    const std::filesystem::path file = dir / pattern_file_name(d, ms, goal, spec, bits);
    one(
        pattern_entry(spec), fmt::format("pattern {} ({}, {}-bit cells)", spec.name, pattern_text(d, spec), bits),
        pat->size(), file,
        [&](const search::Limits& lim) {
          auto table = checked(
              file, pattern_identity(d, key, spec, bits),
              [&](tansaku::pdb::Checkpoint* cp) { return build_pattern_table(std::move(pat), lim, bits, cp); },
              [&](const PatternTable& t) {
                if (lim.progress) lim.progress->update("saving {}", file.string());
                save_pattern_table(t, d, key, file, group, replaced(spec));
              });
          return std::pair<int, std::uint64_t>{table->max_distance(), table->bytes()};
        },
        bits);
  }
  if (o.json) {
    fmt::print("{}\n", json{{"puzzle", "perm:" + d.name}, {"metric", ms.metric}, {"dir", dir.string()},
                            {"tables", tables}, {"seconds", total.seconds()}, {"peak_rss", peak_rss()}}
                           .dump());
  } else {
    fmt::print("{}total {:.1f} s, peak RSS {}\n", text, total.seconds(), format_size(peak_rss()));
  }
  return 0;
}

}  // namespace

// What a pattern keeps, from its file header's sets (numbered: the header names no set):
// "set 1 orientations; set 2 orientations, class 9 12, distinct 1 2 3".
std::string sets_text(const json& sets) {
  std::string out;
  auto numbers = [](const json& a) {
    std::string t;
    for (const auto& n : a) t += (t.empty() ? "" : " ") + n.dump();
    return t;
  };
  for (const auto& st : sets) {
    std::string parts;
    auto add = [&](const std::string& x) { parts += (parts.empty() ? " " : ", ") + x; };
    if (st.value("orientations", false)) add("orientations");
    if (st.contains("distinct") && !st["distinct"].empty()) add("distinct " + numbers(st["distinct"]));
    if (st.contains("classes"))
      for (const auto& c : st["classes"]) add("class " + numbers(c));
    out += (out.empty() ? "" : "; ") + fmt::format("set {}{}", st.value("set", 0), parts);
  }
  return out;
}

// "; a solve uses it from --memory 20G" (an optimal solve takes cached tables up to 7/8 of
// --memory; the header's "bytes": what it holds), or nothing when the header does not say or
// the file is one of two-phase solving's (loaded whatever the budget).
std::string solve_memory_text(const json& h, const std::filesystem::path& file) {
  const std::uint64_t bytes = h.value("bytes", std::uint64_t{0});
  if (bytes == 0 || file.parent_path().filename() == kTwoPhaseFolder) return "";
  return "; a solve uses it from --memory " + solve_memory_for(bytes);
}

tansaku::pdb::TableKind pdb_table_kind() {
  tansaku::pdb::TableKind k;
  k.heading = "perm tables (piece tables and patterns) in {}:";
  k.folders = {kTwoPhaseFolder};
  k.claims = [](const std::string& name) {
    return (name.rfind("perm-", 0) == 0 && is_table_file_name(name)) || is_projection_file_name(name);
  };
  k.describe = [](const std::filesystem::path& path) {
    if (is_projection_file_name(path.filename().string())) return describe_projection_file(path);
    const json h = read_table_header(path);
    const std::string file = path.string();
    std::error_code ec;
    const auto bytes = std::filesystem::file_size(path, ec);
    const std::uint64_t entries = h.value("entries", std::uint64_t{0});
    if (h.contains("pattern")) {
      const json& p = h["pattern"];
      return std::pair<std::string, json>{
          fmt::format("{} pattern {} ({}{}), {} entries, {}-bit cells, max {}, {}{}  {}", h.value("puzzle", ""),
                      p.value("name", ""), sets_text(p.value("sets", json::array())),
                      p.value("reduced", false) ? "; reduced by symmetry" : "", entries, h.value("cell_bits", 2),
                      h.value("max_distance", 0), format_size(bytes), solve_memory_text(h, path), file),
          json{{"puzzle", h.value("puzzle", "")},
               {"pattern", p.value("name", "")},
               {"pattern_sets", p.value("sets", json::array())},
               {"entries", entries},
               {"cell_bits", h.value("cell_bits", 2)},
               {"max_distance", h.value("max_distance", 0)},
               {"file", file},
               {"file_bytes", bytes}}};
    }
    return std::pair<std::string, json>{
        fmt::format("{} set {} pieces {}, {} entries, max {}, {}{}  {}", h.value("puzzle", ""), h.value("set_name", ""),
                    h["pieces"].dump(), entries, h.value("max_distance", 0), format_size(bytes),
                    solve_memory_text(h, path), file),
        json{{"puzzle", h.value("puzzle", "")},
             {"set", h.value("set_name", "")},
             {"pieces", h["pieces"]},
             {"orientations", h.value("orientations", false)},
             {"entries", entries},
             {"max_distance", h.value("max_distance", 0)},
             {"file", file},
             {"file_bytes", bytes}}};
  };
  k.verify = [](const std::filesystem::path& path, const search::Limits& lim) {
    if (is_projection_file_name(path.filename().string())) verify_projection_file(path, lim);
    else verify_table_file(path, lim);
  };
  return k;
}

std::vector<ToolCommand> pdb_tools() {
  const OptionSpec dir = opt::table_dir(&PdbSettings::dir);
  ToolCommand build;
  build.path = {"pdb", "build"};
  build.group_help = "pattern databases: build them into the table cache, list what is there";
  build.help = "build the pattern databases of a puzzle into the cache dir";
  build.positional = "puzzle";
  build.options = {
      opt::text(&PdbSettings::goal, "goal", "STATE", "goal state (default: the puzzle's)"),
      opt::flag(&PdbSettings::force, "force", "rebuild tables already present"),
      opt::writes(dir),
      opt::text(&PdbSettings::moves, "moves", "A,B,...", "use only these base moves (all their powers)"),
      opt::text(&PdbSettings::metric, "metric", "htm|qtm",
                "htm: every power of a move is one move (default); qtm: only the move and its inverse"),
      opt::integer(&PdbSettings::pieces, "pieces",
                   "perm: this many pieces per table (default: as many as fit 2^29 entries)", kShow | kSolve | kExplore,
                   {1, KPermRanker::kMaxPieces}),
      opt::text(&PdbSettings::only, "only", "pieces|patterns",
                "perm: only the piece tables, or only the patterns of the companion NAME.pat"),
      opt::integer(&PdbSettings::cells, "cells",
                   "perm: bits per pattern cell: 2 (distances mod 3, default) or 4 (exact, twice the memory; "
                   "solves also look up the position's inverse)",
                   kShow | kSolve | kExplore, {2, 4})};
  build.settings = opt::settings<PdbSettings>();
  build.run = run_build;
  return {build};
}

}  // namespace tansaku::perm
