// `pdb build`: the tables of a board (one file per group, skipped when present unless
// --force; a build stopped by --timeout, SIGINT or SIGTERM keeps its partial build, which the
// next run goes on from); and what `pdb list` and `pdb verify` need to know of the files.
#include "sliding/pdb_cli.h"
#include "sliding/settings.h"

#include <algorithm>
#include <atomic>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sliding/pdb.h"
#include "tansaku/core/deadline.h"
#include "tansaku/core/error.h"
#include "tansaku/core/input.h"
#include "tansaku/core/memory.h"
#include "tansaku/core/tokens.h"
#include "tansaku/pdb/stop_signals.h"
#include "tansaku/puzzles/sliding.h"

namespace tansaku::sliding::pdb {
namespace {

using json = nlohmann::ordered_json;

std::pair<int, int> board_of(std::string name) {
  for (const auto& [alias, target] : family().aliases)
    if (alias == name) name = target;
  if (name.rfind("sliding:", 0) != 0)
    throw InputError(fmt::format("pattern databases are for sliding puzzles (sliding:RxC, 15-puzzle, ...), not '{}'", name));
  auto [rows, cols] = parse_dims(name.substr(8), "sliding size");
  if (rows < 2 || cols < 2 || rows * cols > 64)
    throw InputError(fmt::format("{}: boards from 2x2 to 64 cells are supported", name));
  return {rows, cols};
}

std::string default_goal(int n) {
  std::string s;
  for (int i = 1; i < n; ++i) s += std::to_string(i) + " ";
  return s + "0";
}

std::filesystem::path dir_of(const PdbArgs& a) { return a.dir.empty() ? default_dir() : std::filesystem::path(a.dir); }

// The readable tables in `dir` (file, what it holds), by file name.
std::vector<std::pair<std::string, TableInfo>> tables_in(const std::filesystem::path& dir) {
  std::vector<std::pair<std::string, TableInfo>> found;
  std::error_code ec;
  if (std::filesystem::is_directory(dir, ec))
    for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
      if (!e.path().filename().string().ends_with(".pdb.zst")) continue;
      try {
        found.emplace_back(e.path().string(), read_table_info(e.path()));
      } catch (const InputError&) {
      }
    }
  std::sort(found.begin(), found.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  return found;
}

// The groups of the known partitions named in `spec` ("7-7-7-3,6-6-6-6" or "all"), each
// group once, in the order named (a group's mirror image comes after it, so it is derived).
std::vector<std::vector<std::uint8_t>> partition_groups(const std::string& spec, const Frame& f) {
  const auto known = known_partitions(f);
  std::string names;
  for (const auto& k : known) names += k.name + ", ";
  std::vector<std::vector<std::uint8_t>> out;
  auto add = [&](const KnownPartition& k) {
    for (const auto& g : k.groups)
      if (std::find(out.begin(), out.end(), g) == out.end()) out.push_back(g);
  };
  std::size_t at = 0;
  do {
    std::size_t comma = spec.find(',', at);
    if (comma == std::string::npos) comma = spec.size();
    const std::string name = spec.substr(at, comma - at);
    if (name == "all") {
      for (const auto& k : known) add(k);
    } else {
      auto it = std::find_if(known.begin(), known.end(), [&](const KnownPartition& k) { return k.name == name; });
      if (it == known.end())
        throw InputError(fmt::format("--partition '{}': the {}x{} board knows {}all", printable(name), f.rows, f.cols, names));
      add(*it);
    }
    at = comma + 1;
  } while (at <= spec.size());
  return out;
}

// The table of `group` as `pdb build` makes it: reduced with --reduced when a symmetry keeps
// the group (InputError when its reduction cannot be tabled).
TableInfo table_for(const Frame& f, const std::vector<std::uint8_t>& group, bool reduced) {
  TableInfo info{f.rows, f.cols, f.blank, group};
  if (reduced && group_symmetries(info).size() > 1) {
    info.reduced = true;
    (void)reduction_of(info);
  }
  return info;
}

// What building a table takes. A reduced table is read from its group's full table: from
// that table's file when it is in the directory (and not --force), else the full table is
// built (or mirrored) and saved first, so that a stop while reducing loses nothing.
struct Plan {
  TableInfo info;
  bool from_full_file = false;  // a reduced table read from its full table's file
  BuildState state = BuildState::cells;
  std::uint64_t memory = 0;  // at the peak
};
Plan plan_for(const TableInfo& info, std::uint64_t budget, const std::filesystem::path& dir, bool force) {
  Plan p{info};
  const TableInfo full = info.full();
  p.state = build_state_for(full, budget);
  if (info.reduced) {
    std::error_code ec;
    const std::filesystem::path full_file = dir / full.file_name();
    p.from_full_file = !force && std::filesystem::exists(full_file, ec) && read_table_info(full_file) == full;
    // The build's arrays are gone when the reduction starts: the full and reduced tables.
    p.memory = full.bytes() + info.bytes();
    if (!p.from_full_file) p.memory = std::max(p.memory, build_memory(full, p.state));
  } else {
    p.memory = build_memory(info, p.state);
  }
  return p;
}
// The files a plan writes and the partial build it keeps meanwhile.
void add_disk(tansaku::pdb::DiskNeed& disk, const Plan& p, const std::filesystem::path& dir, bool force) {
  const TableInfo full = p.info.full();
  if (p.info.reduced) disk.add(dir / p.info.file_name(), p.info.bytes(), 0, force);
  if (!p.from_full_file) disk.add(dir / full.file_name(), full.bytes(), state_bytes(full, p.state), force);
}

// What `pdb build` makes with neither --groups nor --partition: every known partition of the
// board (strongest first) whose tables can each be built within `budget` and whose files fit
// the disk beside those chosen before it; a board with one known partition gets it (and the
// refusals below name what it needs). `chosen`: the names taken; `left`: those left out, why.
struct AutoChoice {
  std::vector<std::vector<std::uint8_t>> groups;
  std::vector<std::string> chosen, left;
};
AutoChoice strongest_that_fit(const Frame& f, std::uint64_t budget, const std::filesystem::path& dir, bool force,
                              bool reduced) {
  const auto known = known_partitions(f);
  AutoChoice c;
  const std::uint64_t free_bytes = tansaku::pdb::free_disk_bytes(dir);
  tansaku::pdb::DiskNeed disk;  // of the partitions chosen
  for (const auto& k : known) {
    std::uint64_t build = 0;
    tansaku::pdb::DiskNeed with = disk;
    for (const auto& g : k.groups) {
      if (std::find(c.groups.begin(), c.groups.end(), g) != c.groups.end()) continue;
      const Plan p = plan_for(table_for(f, g, reduced), budget, dir, force);
      build = std::max(build, p.memory);
      add_disk(with, p, dir, force);
    }
    const bool last = &k == &known.back();
    if (known.size() > 1 && !(last && c.chosen.empty())) {
      if (build > budget) {
        c.left.push_back(fmt::format("{} (a build needs {})", k.name, format_size(build)));
        continue;
      }
      if (with.total() > free_bytes) {
        c.left.push_back(fmt::format("{} (its files need up to {} on disk)", k.name,
                                     format_size(with.files - disk.files + with.partial)));
        continue;
      }
    }
    disk = with;
    c.chosen.push_back(k.name);
    for (const auto& g : k.groups)
      if (std::find(c.groups.begin(), c.groups.end(), g) == c.groups.end()) c.groups.push_back(g);
  }
  return c;
}

}  // namespace

int run_pdb_build(const PdbArgs& a) {
  auto [rows, cols] = board_of(a.puzzle);
  Geometry geo(rows, cols);
  const std::string goal_text = a.goal.empty() ? default_goal(geo.n) : a.goal;
  auto tokens = split_state(goal_text, static_cast<std::size_t>(geo.n));
  if (static_cast<int>(tokens.size()) != geo.n)
    throw InputError(fmt::format("goal has {} tokens; a {}x{} board needs {}", tokens.size(), rows, cols, geo.n));
  Labels labels = make_labels(tokens, "goal");
  if (!labels.distinct()) throw InputError("pattern databases need distinct tiles (the goal repeats a label)");
  Frame f = make_frame(geo, parse_cells(geo, labels, goal_text, "goal"));
  if (a.groups_given && a.groups.find_first_not_of(" \t") == std::string::npos)
    throw InputError("--groups is empty: give group sizes (7-8) or tile lists (1,2,3/4,5,6)");
  if (a.groups_given && a.partition_given) throw InputError("give --groups or --partition, not both");
  const std::uint64_t budget = a.memory ? a.memory : default_memory_budget();
  const unsigned threads = a.threads ? a.threads : std::max(1u, std::thread::hardware_concurrency());
  const std::filesystem::path dir = dir_of(a);
  std::string partition = a.partition;  // the known partitions built (given, or chosen below)
  std::vector<std::vector<std::uint8_t>> groups;
  std::string chosen_note;  // said once the refusals below have passed
  if (a.partition_given) {
    groups = partition_groups(a.partition, f);
  } else if (a.groups_given && !a.groups.empty()) {
    groups = parse_groups(a.groups, f, labels);
  } else {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);  // for its free space (refused below if it fails)
    const AutoChoice c = strongest_that_fit(f, budget, dir, a.force, a.reduced);
    groups = c.groups;
    if (c.chosen.size() > 1 || !c.left.empty())
      for (const auto& name : c.chosen) partition += (partition.empty() ? "" : ",") + name;
    if (!partition.empty())
      chosen_note = fmt::format("building the known partitions that fit (--memory {}): {}{}", format_size(budget),
                                join(c.chosen, ", "), c.left.empty() ? "" : "; left out: " + join(c.left, ", "));
  }

  // With --reduced, the groups a symmetry keeps are stored reduced (refused when none is).
  std::vector<TableInfo> infos;
  for (const auto& g : groups) infos.push_back(table_for(f, g, a.reduced));
  if (a.reduced && std::none_of(infos.begin(), infos.end(), [](const TableInfo& i) { return i.reduced; }))
    throw InputError(fmt::format(
        "--reduced: no symmetry of the {}x{} board that fixes the blank's goal cell keeps any of these groups, so "
        "there is nothing to reduce (on a square board with the blank in a corner, a group its transpose keeps: "
        "--groups with tiles symmetric about the main diagonal)",
        rows, cols));
  // Refuse before starting: the largest build must fit the budget.
  std::vector<Plan> plans;
  for (const auto& info : infos) {
    plans.push_back(plan_for(info, budget, dir, a.force));
    const Plan& p = plans.back();
    const char* how = p.from_full_file                 ? "reduced from the full table's file"
                      : p.state == BuildState::regions ? "a bit per region of the free cells"
                                                       : "a bit per free cell";
    require_memory(p.memory, budget,
                   fmt::format("building the {}-tile pattern database of {}x{} ({}{})", info.k(), rows, cols, how,
                               info.reduced && !p.from_full_file ? ", then reduced" : ""));
  }
  {
    // Refuse before building: the tables must have somewhere to go.
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec || !std::filesystem::is_directory(dir, ec))
      throw InputError(fmt::format("--dir {}: cannot create the directory ({})", printable(dir.string()),
                                   ec ? ec.message() : "not a directory"));
  }
  {
    // Refuse before building: the files must fit the disk (zstd makes them far smaller than
    // the tables; the check assumes no compression at all), and so must the largest build's
    // partial file (its whole state, twice while a save replaces the previous one).
    tansaku::pdb::DiskNeed disk;
    for (const auto& p : plans) add_disk(disk, p, dir, a.force);
    disk.require(dir);
  }
  if (!chosen_note.empty() && !a.quiet) fmt::print(stderr, "tansaku: {}\n", chosen_note);
  std::vector<std::size_t> canon_label(geo.n);  // canonical label -> the goal's label index
  for (std::size_t L = 0; L < labels.names.size(); ++L) canon_label[f.label_canon[L]] = L;

  Deadline deadline = a.deadline ? *a.deadline : Deadline();
  const tansaku::pdb::StopSignals signals(deadline);
  auto note = [&](const std::string& line) { fmt::print(stderr, "tansaku: {}\n", printable(line)); };

  Stopwatch total;
  json tables = json::array();
  std::string text;
  for (std::size_t i = 0; i < infos.size(); ++i) {
    const TableInfo& info = infos[i];
    const std::filesystem::path file = dir / info.file_name();
    json tiles = json::array();
    std::string tile_text;
    std::vector<std::size_t> mine;
    for (auto c : info.cells) mine.push_back(canon_label[c]);
    std::sort(mine.begin(), mine.end());
    for (auto L : mine) {
      tiles.push_back(labels.names[L]);
      if (!tile_text.empty()) tile_text += ' ';
      tile_text += labels.names[L];
    }
    json t = {{"tiles", tiles}, {"entries", info.entries()}, {"bytes", info.bytes()}, {"file", file.string()}};
    if (info.reduced) t["reduced"] = true, t["placements"] = info.placements();
    const std::string size_text =
        info.reduced ? fmt::format("{} entries, one per class of its {} placements", info.entries(), info.placements())
                     : fmt::format("{} entries", info.entries());
    std::error_code ec;
    if (!a.force && std::filesystem::exists(file, ec)) {
      TableInfo on_disk = read_table_info(file);  // a bad file is an error worth reporting
      if (!(on_disk == info)) throw InputError(fmt::format("{} holds another table; use --force", file.string()));
      t["status"] = "exists";
      t["file_bytes"] = std::filesystem::file_size(file);
      text += fmt::format("tiles {} ({}): already built, {}\n", tile_text, size_text, file.string());
    } else {
      Stopwatch sw;
      Progress progress(!a.quiet);
      search::Limits bo;
      bo.threads = threads;
      bo.progress = &progress;
      bo.memory = budget;  // picks the representation checked above
      bo.deadline = &deadline;
      // The full table: a reduced one's is read from its file when there is one; the mirror
      // image of a table on disk is read through the symmetry, not searched.
      const TableInfo full = info.full();
      const std::filesystem::path full_file = dir / full.file_name();
      std::shared_ptr<Table> table;
      if (plans[i].from_full_file) {
        progress.update("pdb {} tiles: loading {}", info.k(), full_file.string());
        table = load_table(full_file, threads);
        t["reduced_from"] = full_file.string();
      }
      for (const auto& [other_file, other] : table ? decltype(tables_in(dir)){} : tables_in(dir)) {
        auto sym = image_symmetry(other, full);
        if (!sym || other == full) continue;
        progress.update("pdb {} tiles: loading {}", info.k(), other_file);
        auto src = load_table(other_file, threads);
        try {
          table = derive_table(*src, full, *sym, bo);
        } catch (const LimitError& e) {  // nothing to keep: a derivation starts over (minutes)
          progress.done();
          throw LimitError(tansaku::pdb::stopped_message(e.what(), false, ""));
        }
        t["derived_from"] = other_file;
        break;
      }
      // The partial build of a reduced table's is the full table's (one build of the group).
      auto cp = checkpoint(full, full_file, 60, note);
      if (!table) {
        try {
          table = build_table(full, bo, BuildState::automatic, &cp);
        } catch (const LimitError& e) {
          progress.done();
          throw LimitError(tansaku::pdb::stopped_message(e.what(), cp.saved(), cp.file().string()));
        }
        if (cp.resumed_layer()) t["resumed_at_depth"] = *cp.resumed_layer();
      }
      if (info.reduced) {
        if (!plans[i].from_full_file) {  // kept, so that a stop while reducing loses nothing
          progress.update("pdb {} tiles: saving {}", info.k(), full_file.string());
          save_table(*table, full_file, threads);
          cp.finish();
          t["full_file"] = full_file.string();
        }
        try {
          table = reduce_table(*table, bo);
        } catch (const LimitError& e) {
          progress.done();
          throw LimitError(
              fmt::format("{}; the full table is saved in {}: the same `tansaku pdb build` again reduces it",
                          tansaku::pdb::stopped_message(e.what(), false, ""), full_file.string()));
        }
      }
      const double build_s = sw.seconds();
      progress.update("pdb {} tiles: saving {}", info.k(), file.string());
      save_table(*table, file, threads);
      cp.finish();
      progress.done();
      t["status"] = t.contains("derived_from") ? "derived" : t.contains("reduced_from") ? "reduced" : "built";
      t["max_distance"] = table->max_distance;
      t["build_seconds"] = build_s;
      t["seconds"] = sw.seconds();
      t["file_bytes"] = std::filesystem::file_size(file);
      text +=
          fmt::format("tiles {} ({}, {}): {} in {:.1f} s{}, max distance {}, saved {} ({}){}\n", tile_text, size_text,
                      format_size(info.bytes()),
                      t.contains("reduced_from")   ? "reduced"
                      : t.contains("derived_from") ? (info.reduced ? "mirrored and reduced" : "mirrored")
                                                   : (info.reduced ? "built and reduced" : "built"),
                      build_s, cp.resumed_layer() ? fmt::format(" (going on from depth {})", *cp.resumed_layer()) : "",
                      table->max_distance, file.string(), format_size(std::filesystem::file_size(file)),
                      t.contains("full_file") ? fmt::format(", and the full table {}", full_file.string()) : "");
    }
    tables.push_back(t);
  }
  if (a.json) {
    json out{{"puzzle", fmt::format("sliding:{}x{}", rows, cols)}, {"goal", join(tokens)}};
    if (!partition.empty()) out["partition"] = partition;
    out["dir"] = dir.string();
    out["tables"] = tables;
    out["seconds"] = total.seconds();
    fmt::print("{}\n", out.dump());
  } else {
    fmt::print("{}total {:.1f} s\n", text, total.seconds());
  }
  return 0;
}

tansaku::pdb::TableKind table_kind() {
  tansaku::pdb::TableKind k;
  k.heading = "pattern databases in {}:";
  k.claims = [](const std::string& name) { return name.ends_with(".pdb.zst"); };
  k.describe = [](const std::filesystem::path& file) {
    const TableInfo info = read_table_info(file);
    json cells = json::array();
    for (auto c : info.cells) cells.push_back(c);
    std::error_code ec;
    const auto bytes = std::filesystem::file_size(file, ec);
    json j{{"board", fmt::format("{}x{}", info.rows, info.cols)},
           {"blank", info.blank},
           {"cells", cells},
           {"entries", info.entries()},
           {"file", file.string()},
           {"file_bytes", bytes}};
    if (info.reduced) j["reduced"] = true, j["placements"] = info.placements();
    return std::pair<std::string, json>{
        fmt::format("{}x{} blank {} {}-tile group, {} entries{}, {}  {}", info.rows, info.cols, info.blank, info.k(),
                    info.entries(),
                    info.reduced ? fmt::format(" (reduced by {} symmetries from {} placements)",
                                               reduction_of(info)->symmetries(), info.placements())
                                 : "",
                    format_size(bytes), file.string()),
        std::move(j)};
  };
  // Loading decompresses every frame and checks zstd's content checksums.
  k.verify = [](const std::filesystem::path& file, const search::Limits& lim) { (void)load_table(file, lim.threads); };
  return k;
}

namespace {
PdbArgs args_of(const Options& o, const std::vector<std::string>& args) {
  PdbArgs a;
  if (!args.empty()) a.puzzle = args[0];
  const PdbSettings& s = o.settings<PdbSettings>();
  a.groups = s.groups.value_or("");
  a.groups_given = s.groups.has_value();
  a.partition = s.partition.value_or("");
  a.partition_given = s.partition.has_value();
  a.dir = s.dir.value_or("");
  a.dir_given = s.dir.has_value();
  a.goal = s.goal.value_or("");
  a.memory = o.memory;
  a.threads = o.threads;
  a.deadline = &o.deadline;
  a.quiet = o.quiet;
  a.json = o.json;
  a.force = s.force;
  a.reduced = s.reduced;
  return a;
}
}  // namespace

std::vector<ToolCommand> tools() {
  const OptionSpec dir = opt::table_dir(&PdbSettings::dir);
  ToolCommand build;
  build.path = {"pdb", "build"};
  build.group_help = "pattern databases: build them into the table cache, list what is there";
  build.help = "build the pattern databases of a puzzle into the cache dir";
  build.positional = "puzzle";
  build.options = {
      opt::text(&PdbSettings::groups, "groups", "GROUPS",
                "sliding: tile groups: sizes (7-8) or tile lists (1,2,3/4,5,6)"),
      opt::text(&PdbSettings::partition, "partition", "NAME",
                "sliding: the tables of known partitions (24-puzzle: 7-7-7-3, 7-7-7-3-sym, "
                "7-7-7-3-columns, 6-6-6-6; comma-separated, or all; default: every one that fits --memory)"),
      opt::text(&PdbSettings::goal, "goal", "STATE", "goal state (default: the puzzle's)"),
      opt::flag(&PdbSettings::reduced, "reduced",
                "sliding: store the tables of groups a symmetry of the board keeps (the transpose of a square "
                "board) one entry per class of placements: about half the memory, slower lookups"),
      opt::flag(&PdbSettings::force, "force", "rebuild tables already present"),
      opt::writes(dir)};
  build.settings = opt::settings<PdbSettings>();
  build.run = [](const Options& o, const std::vector<std::string>& args) { return run_pdb_build(args_of(o, args)); };
  return {build};
}

}  // namespace tansaku::sliding::pdb
