// Pattern databases: the canonical frame, group specifications, and the choice of tables a
// solve uses (disk first, small in-memory tables for the rest), cached for the process.
#include "sliding/pdb.h"

#include "tansaku/core/cache_dir.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <mutex>
#include <numeric>
#include <set>
#include <stdexcept>

#include <fmt/format.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "tansaku/core/deadline.h"
#include "tansaku/core/error.h"
#include "tansaku/core/tokens.h"
#include "tansaku/pdb/orbits.h"

namespace tansaku::sliding::pdb {

std::vector<std::vector<std::uint8_t>> grid_symmetries(int rows, int cols) {
  const int n = rows * cols;
  std::vector<std::vector<std::uint8_t>> out;
  const int kinds = rows == cols ? 8 : 4;
  for (int s = 0; s < kinds; ++s) {
    std::vector<std::uint8_t> map(n);
    for (int c = 0; c < n; ++c) {
      int r = c / cols, x = c % cols;
      if (s & 1) x = cols - 1 - x;
      if (s & 2) r = rows - 1 - r;
      if (s & 4) std::swap(r, x);  // square boards only
      map[c] = static_cast<std::uint8_t>(r * cols + x);
    }
    if (std::find(out.begin(), out.end(), map) == out.end()) out.push_back(std::move(map));
  }
  return out;  // s = 0 (identity) first
}

Frame make_frame(const Geometry& geo, const Cells& goal) {
  Frame f;
  f.rows = geo.rows;
  f.cols = geo.cols;
  f.n = geo.n;
  auto syms = grid_symmetries(geo.rows, geo.cols);
  const int blank_goal = static_cast<int>(std::find(goal.begin(), goal.end(), 0) - goal.begin());
  // The first symmetry that takes the blank's goal cell to the least cell of its orbit.
  tansaku::pdb::Orbits orbit_of(geo.n);
  for (const auto& s : syms) orbit_of.join_all(s);
  const int least = orbit_of.root(blank_goal);
  std::size_t best = 0;
  while (syms[best][blank_goal] != least) ++best;
  f.to_canon = syms[best];
  f.blank = f.to_canon[blank_goal];
  f.from_canon.assign(f.n, 0);
  for (int c = 0; c < f.n; ++c) f.from_canon[f.to_canon[c]] = static_cast<std::uint8_t>(c);
  f.label_canon.assign(f.n, 0);
  for (int c = 0; c < f.n; ++c) {
    if (goal[c] >= f.n) throw std::logic_error("pdb frame: labels must be distinct");
    f.label_canon[goal[c]] = f.to_canon[c];
  }
  for (auto& s : syms)
    if (s[f.blank] == f.blank) f.views.push_back(s);
  return f;
}

std::vector<std::uint8_t> Frame::canonical(const Cells& cells) const {
  std::vector<std::uint8_t> out(n);
  for (int c = 0; c < n; ++c) out[to_canon[c]] = label_canon[cells[c]];
  return out;
}

std::uint64_t TableInfo::placements() const { return KPermRanker(n(), k()).size(); }
std::uint64_t TableInfo::entries() const { return reduced ? reduction_of(*this)->cells() : placements(); }

std::string TableInfo::file_name() const {
  std::string s = fmt::format("sliding-{}x{}-b{}-", rows, cols, blank);
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (i) s += '.';
    s += std::to_string(cells[i]);
  }
  return s + (reduced ? "-reduced.pdb.zst" : ".pdb.zst");
}

Table::Table(TableInfo info, HugeArray<std::uint8_t> data)
    : info_(std::move(info)), ranker_(info_.n(), info_.k()), red_(info_.reduced ? reduction_of(info_) : nullptr) {
  // The mapping is whole pages of zeros past info.bytes(), so it covers the last 64-bit word.
  const std::uint64_t bytes = info_.bytes();
  cells_ = std::make_unique<TwoBitTable>(2 * info_.entries(), reinterpret_cast<std::uint64_t*>(data.release()),
                                         static_cast<std::size_t>(bytes));
}

std::uint64_t Table::cell(const std::uint8_t* pos) const {
  if (red_) return red_->cell(pos);
  std::uint8_t p[KPermRanker::kMaxPieces];
  for (int i = 0; i < info_.k(); ++i) p[i] = pos[info_.cells[static_cast<std::size_t>(i)]];
  return ranker_.rank(p);
}

std::filesystem::path default_dir() { return table_cache_dir(); }

namespace {

// Largest group size whose table stays within `limit` entries (at most 16 pieces).
int largest_group(int n, std::uint64_t limit) {
  int best = 1;
  for (int k = 1; k <= std::min(n - 1, KPermRanker::kMaxPieces); ++k) {
    std::uint64_t size = 1;
    bool ok = true;
    for (int i = 0; i < k && ok; ++i) {
      size *= static_cast<std::uint64_t>(n - i);
      ok = size <= limit;
    }
    if (!ok) break;
    best = k;
  }
  return best;
}

// `tiles` split into groups of at most k, as even as possible, smaller groups first.
std::vector<int> split_even(int tiles, int k) {
  if (tiles <= 0) return {};
  const int m = (tiles + k - 1) / k;
  std::vector<int> sizes(m, tiles / m);
  for (int i = 0; i < tiles % m; ++i) ++sizes[m - 1 - i];
  return sizes;
}

std::string sizes_text(const std::vector<std::shared_ptr<const Table>>& tables) {
  std::vector<int> k;
  for (const auto& t : tables) k.push_back(t->info().k());
  std::sort(k.begin(), k.end());
  std::string s;
  for (int x : k) {
    if (!s.empty()) s += '-';
    s += std::to_string(x);
  }
  return s;
}

std::string group_key(const Frame& f, const std::vector<std::uint8_t>& cells) {
  return TableInfo{f.rows, f.cols, f.blank, cells}.file_name();
}

struct Cache {
  std::mutex m;
  std::map<std::string, std::shared_ptr<const Table>> tables;  // by file name
  std::map<std::string, std::shared_ptr<const Heuristic>> heuristics;
};
Cache& cache() {
  static Cache c;
  return c;
}

// The table for `info`: from the cache, else loaded from `file` (if given), else built.
std::shared_ptr<const Table> get_table(const TableInfo& info, const std::filesystem::path* file, unsigned threads,
                                       Deadline* deadline) {
  // A file's table by its path (its header says what it holds), a built one by its group.
  const std::string key = file ? file->string() : info.file_name();
  {
    std::lock_guard lock(cache().m);
    if (auto it = cache().tables.find(key); it != cache().tables.end()) return it->second;
  }
  Stopwatch sw;
  std::shared_ptr<Table> t;
  if (file) {
    t = load_table(*file, threads);
  } else {
    search::Limits bo;
    bo.threads = info.entries() >= (std::uint64_t{1} << 22) ? threads : 1;
    bo.deadline = deadline;
    t = build_table(info, bo);
  }
  t->setup_seconds = sw.seconds();
  std::lock_guard lock(cache().m);
  return cache().tables.emplace(key, t).first->second;
}

// Another complete partition whose tables are on disk: its lookups are maxed with the first's.
struct Extra {
  std::vector<std::vector<std::uint8_t>> groups;
  std::vector<std::filesystem::path> files;
};

std::string views_text(const Frame& f, const std::vector<std::vector<std::uint8_t>>& groups) {
  std::size_t views = 1;
  for (std::size_t v = 1; v < f.views.size(); ++v) views += !maps_onto_itself(groups, f.views[v]);
  if (views > 1) return f.views.size() == 2 ? " + reflection" : fmt::format(" + {} symmetries", views - 1);
  return f.views.size() > 1 ? " (symmetric: no reflected lookup)" : "";
}

std::shared_ptr<const Heuristic> assemble(const Frame& f, const std::vector<std::vector<std::uint8_t>>& groups,
                                          const std::vector<std::filesystem::path>& files, unsigned threads,
                                          const std::vector<Extra>& extra = {}, Deadline* deadline = nullptr) {
  // All tables in one list: the first partition (files for its first groups, the rest
  // built), then each extra partition (all files).
  std::vector<std::vector<std::uint8_t>> all = groups;
  std::vector<const std::filesystem::path*> where;
  std::vector<int> part(groups.size(), 0);
  for (std::size_t i = 0; i < groups.size(); ++i) where.push_back(i < files.size() ? &files[i] : nullptr);
  for (std::size_t p = 0; p < extra.size(); ++p)
    for (std::size_t i = 0; i < extra[p].groups.size(); ++i) {
      all.push_back(extra[p].groups[i]);
      where.push_back(&extra[p].files[i]);
      part.push_back(static_cast<int>(p + 1));
    }
  std::string key;
  for (std::size_t i = 0; i < all.size(); ++i) {
    key += group_key(f, all[i]);
    if (where[i]) key += '@', key += where[i]->string();
    key += fmt::format("#{}|", part[i]);
  }
  {
    std::lock_guard lock(cache().m);
    if (auto it = cache().heuristics.find(key); it != cache().heuristics.end()) return it->second;
  }
  auto h = std::make_shared<Heuristic>();
  // The tables of a partition are loaded or built side by side.
  Stopwatch sw;
  h->tables.resize(all.size());
  h->part = part;
  tbb::task_arena arena(static_cast<int>(std::max(1u, threads)));
  arena.execute([&] {
    tbb::parallel_for(std::size_t{0}, all.size(), [&](std::size_t i) {
      h->tables[i] = get_table(TableInfo{f.rows, f.cols, f.blank, all[i]}, where[i], threads, deadline);
    });
  });
  h->setup_seconds = sw.seconds();
  const auto first = h->tables.begin() + static_cast<std::ptrdiff_t>(groups.size());
  h->groups = sizes_text({h->tables.begin(), first});
  std::vector<std::shared_ptr<const Table>> disk(h->tables.begin(), h->tables.begin() + static_cast<std::ptrdiff_t>(files.size())),
      mem(h->tables.begin() + static_cast<std::ptrdiff_t>(files.size()), first);
  std::string d;
  if (!disk.empty()) d += sizes_text(disk) + " (disk)";
  if (!mem.empty()) {
    if (!d.empty()) d += " + ";
    d += sizes_text(mem);
    d += " (built in memory)";
  }
  h->description = "pdb " + (d.empty() ? std::string("none: manhattan") : d) + views_text(f, groups);
  std::vector<std::shared_ptr<const Table>> reduced;
  for (const auto& t : h->tables)
    if (t->reduction()) reduced.push_back(t);
  if (!reduced.empty()) h->description += ", " + sizes_text(reduced) + " reduced by symmetry";
  auto at = first;
  for (const auto& x : extra) {
    const auto end = at + static_cast<std::ptrdiff_t>(x.groups.size());
    h->description += ", max with " + sizes_text({at, end}) + " (disk)" + views_text(f, x.groups);
    h->groups += " max " + sizes_text({at, end});
    at = end;
  }
  // The cached copy says 0 setup seconds: only the call that paid for it reports them.
  auto stored = std::make_shared<Heuristic>(*h);
  stored->setup_seconds = 0;
  std::lock_guard lock(cache().m);
  cache().heuristics.emplace(key, stored);
  return h;
}

}  // namespace

std::vector<int> build_sizes(int n) {
  // As large as the 8-tile group of the 15-puzzle (2^29 entries), at most 8 tiles; the
  // smaller remainder first (7-8 on 4x4, 3-8 on 3x4, 6-6-6-6 on 5x5).
  const int k = std::min(8, largest_group(n, std::uint64_t{1} << 29));
  std::vector<int> sizes;
  for (int left = n - 1; left > 0; left -= k) sizes.insert(sizes.begin(), std::min(left, k));
  return sizes;
}
std::vector<int> quick_sizes(int n) { return split_even(n - 1, largest_group(n, std::uint64_t{1} << 21)); }

std::vector<std::vector<std::uint8_t>> default_groups(const Frame& f) {
  // Blocks beat row strips on 5x5 (row strips: 287 M nodes on Korf & Felner's #40, these:
  // docs/pdb.md); with the reflection about the main diagonal the two views use different
  // blocks, which is what makes their max strong.
  if (f.rows == 5 && f.cols == 5 && f.blank == 0)
    return {{1, 2, 5, 6, 7, 12}, {3, 4, 8, 9, 13, 14}, {10, 11, 15, 16, 20, 21}, {17, 18, 19, 22, 23, 24}};
  return groups_of_sizes(f, build_sizes(f.n));
}

bool maps_onto_itself(const std::vector<std::vector<std::uint8_t>>& groups, const std::vector<std::uint8_t>& sym) {
  std::vector<std::vector<std::uint8_t>> sorted = groups;
  for (auto& g : sorted) std::sort(g.begin(), g.end());
  return std::all_of(sorted.begin(), sorted.end(), [&](const std::vector<std::uint8_t>& g) {
    std::vector<std::uint8_t> image;
    for (auto c : g) image.push_back(sym[c]);
    std::sort(image.begin(), image.end());
    return std::find(sorted.begin(), sorted.end(), image) != sorted.end();
  });
}

std::vector<KnownPartition> known_partitions(const Frame& f) {
  if (f.rows == 5 && f.cols == 5 && f.blank == 0) {
    // 7-7-7-3, a partition the reflection about the main diagonal maps onto itself: A (the
    // 3x3 corner block around the blank) and D (12 18 24, the rest of the diagonal) onto
    // themselves, the 3x2+1 blocks B and C onto each other, so C's table is B's mirror
    // image (derived, not searched: derive_table). The reflected lookup then equals the
    // direct one (a sum over the same groups, permuted), so it adds nothing here.
    std::vector<std::vector<std::uint8_t>> seven = {
        {1, 2, 5, 6, 7, 10, 11}, {3, 4, 8, 9, 13, 14, 19}, {15, 16, 17, 20, 21, 22, 23}, {12, 18, 24}};
    // 7-7-7-3 whose mirror image is another partition, so the reflected lookup counts (as in
    // Korf & Felner's): A and B again, the bottom-left 2x3 block with the centre 12, and 18
    // 23 24 in the far corner.
    std::vector<std::vector<std::uint8_t>> corner = {
        {1, 2, 5, 6, 7, 10, 11}, {3, 4, 8, 9, 13, 14, 19}, {12, 15, 16, 17, 20, 21, 22}, {18, 23, 24}};
    // Another: B, its half-turn image H (5 10 11 15 16 20 21, derived from B), the middle
    // column with 1 2 6 7, and 18 23 24. Weaker than the others (docs/pdb.md), kept for
    // the max when its tables are there.
    std::vector<std::vector<std::uint8_t>> columns = {
        {3, 4, 8, 9, 13, 14, 19}, {5, 10, 11, 15, 16, 20, 21}, {1, 2, 6, 7, 12, 17, 22}, {18, 23, 24}};
    return {{"7-7-7-3", corner}, {"7-7-7-3-sym", seven}, {"7-7-7-3-columns", columns}, {"6-6-6-6", default_groups(f)}};
  }
  auto groups = default_groups(f);
  std::string name;
  for (const auto& g : groups) name += fmt::format("{}{}", name.empty() ? "" : "-", g.size());
  return {{name, groups}};
}

std::vector<std::vector<std::uint8_t>> groups_of_sizes(const Frame& f, const std::vector<int>& sizes) {
  // Groups are runs of goal cells along the board's longer side, so they come out as blocks
  // spanning the short side: row-major when rows >= cols, else column-major (on 3x4 the
  // 8-3 split is then two columns and a half against the rest, ~20x fewer nodes than rows).
  std::vector<std::uint8_t> tiles;
  for (int i = 0; i < f.n; ++i) {
    const int c = f.rows >= f.cols ? i : (i % f.rows) * f.cols + i / f.rows;
    if (c != f.blank) tiles.push_back(static_cast<std::uint8_t>(c));
  }
  const int total = std::accumulate(sizes.begin(), sizes.end(), 0);
  if (total > static_cast<int>(tiles.size()))
    throw InputError(fmt::format("groups of {} tiles in all, but the board has {} tiles", total, tiles.size()));
  std::vector<std::vector<std::uint8_t>> out;
  std::size_t at = 0;
  for (int s : sizes) {
    if (s < 1 || s > KPermRanker::kMaxPieces)
      throw InputError(fmt::format("a group has {} tiles; groups hold 1 to {}", s, KPermRanker::kMaxPieces));
    out.emplace_back(tiles.begin() + static_cast<std::ptrdiff_t>(at), tiles.begin() + static_cast<std::ptrdiff_t>(at + s));
    std::sort(out.back().begin(), out.back().end());
    at += static_cast<std::size_t>(s);
  }
  return out;
}

std::vector<std::vector<std::uint8_t>> parse_groups(const std::string& spec, const Frame& f, const Labels& labels) {
  if (spec.empty()) throw InputError("--groups is empty");
  std::vector<std::vector<std::uint8_t>> out;
  if (spec.find_first_not_of("0123456789-") == std::string::npos) {
    std::vector<int> sizes;
    std::size_t at = 0;
    while (at <= spec.size()) {
      std::size_t dash = spec.find('-', at);
      if (dash == std::string::npos) dash = spec.size();
      sizes.push_back(static_cast<int>(parse_uint(spec.substr(at, dash - at), "--groups size")));
      at = dash + 1;
    }
    out = groups_of_sizes(f, sizes);
  } else {
    std::set<int> used;
    std::size_t at = 0;
    while (at <= spec.size()) {
      std::size_t slash = spec.find('/', at);
      if (slash == std::string::npos) slash = spec.size();
      std::vector<std::uint8_t> g;
      for (const auto& tok : split_state(spec.substr(at, slash - at))) {
        const int L = labels.index(tok);
        if (L < 0) throw InputError(fmt::format("--groups: tile '{}' is not on the board", tok));
        if (L == 0) throw InputError("--groups: the blank (0) cannot be in a group");
        if (!used.insert(L).second) throw InputError(fmt::format("--groups: tile '{}' is in two groups", tok));
        g.push_back(f.label_canon[L]);
      }
      if (g.empty()) throw InputError("--groups: an empty group");
      if (g.size() > static_cast<std::size_t>(KPermRanker::kMaxPieces))
        throw InputError(fmt::format("--groups: a group has {} tiles; at most {}", g.size(), KPermRanker::kMaxPieces));
      std::sort(g.begin(), g.end());
      out.push_back(std::move(g));
      at = slash + 1;
    }
  }
  for (const auto& g : out) {
    try {
      (void)KPermRanker(f.n, static_cast<int>(g.size()));
    } catch (const std::invalid_argument&) {
      throw InputError(fmt::format("--groups: a group of {} tiles on {} cells is too large to tabulate", g.size(), f.n));
    }
  }
  return out;
}

std::shared_ptr<const Heuristic> memory_heuristic(const Frame& f, const std::vector<std::vector<std::uint8_t>>& groups,
                                                  unsigned threads) {
  return assemble(f, groups, {}, threads);
}

std::shared_ptr<const Heuristic> choose_heuristic(const Frame& f, const std::filesystem::path& dir,
                                                  std::uint64_t memory, unsigned threads, Deadline* deadline) {
  // Tables on disk for this board and blank cell.
  struct Found {
    TableInfo info;
    std::filesystem::path file;
  };
  std::vector<Found> found;
  std::vector<std::string> left_out;
  const std::string prefix = fmt::format("sliding-{}x{}-b{}-", f.rows, f.cols, f.blank);
  std::error_code ec;
  if (std::filesystem::is_directory(dir, ec)) {
    for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
      const std::string name = e.path().filename().string();
      if (name.rfind(prefix, 0) != 0 || !name.ends_with(".pdb.zst")) continue;
      try {
        TableInfo info = read_table_info(e.path());
        if (info.rows == f.rows && info.cols == f.cols && info.blank == f.blank) found.push_back({info, e.path()});
      } catch (const InputError& e) {  // not a table this solve can use: said
        left_out.push_back(e.what());
      }
    }
  }
  // Largest groups first; of one group's full and reduced tables, the full one first (its
  // lookups are quicker; the reduced one takes its place where memory is short).
  std::sort(found.begin(), found.end(), [](const Found& a, const Found& b) {
    if (a.info.placements() != b.info.placements()) return a.info.placements() > b.info.placements();
    if (a.info.reduced != b.info.reduced) return !a.info.reduced;
    return a.file < b.file;
  });
  // The strongest known partition (most entries) all of whose tables are on disk and fit
  // half the budget comes first (tables of other partitions may sit beside it); then
  // greedy: the largest disjoint tables that fit half the budget (the rest for the search).
  std::vector<std::vector<std::uint8_t>> groups;
  std::vector<std::filesystem::path> files;
  std::vector<Extra> extra;
  std::set<int> covered;
  std::uint64_t bytes = 0, entries = 0;
  {
    struct Complete {
      std::vector<Found> tables;
      std::uint64_t need, size;
    };
    std::vector<Complete> complete;
    std::vector<Found> best;
    for (const auto& known : known_partitions(f)) {
      const auto& partition = known.groups;
      // Full tables where they are on disk; if those do not fit, reduced ones where they are.
      for (const bool reduced : {false, true}) {
        std::vector<Found> preferred;
        std::uint64_t need = 0, size = 0;
        for (const auto& g : partition) {
          auto it = std::find_if(found.begin(), found.end(),
                                 [&](const Found& x) { return x.info.cells == g && (!reduced || x.info.reduced); });
          if (it == found.end() && reduced)
            it = std::find_if(found.begin(), found.end(), [&](const Found& x) { return x.info.cells == g; });
          if (it == found.end()) break;
          preferred.push_back(*it);
          need += it->info.bytes();
          size += it->info.placements();
        }
        if (preferred.size() == partition.size() && need <= memory / 2) {
          complete.push_back({std::move(preferred), need, size});
          break;
        }
      }
    }
    std::stable_sort(complete.begin(), complete.end(), [](const Complete& x, const Complete& y) { return x.size > y.size; });
    if (!complete.empty()) best = complete[0].tables;
    // The other complete ones that still fit beside it: maxed with it. A table two
    // partitions share is loaded once (assemble's cache), so it counts once.
    std::set<std::filesystem::path> loaded;
    auto more = [&](const Complete& c) {
      std::uint64_t b = 0;
      for (const auto& t : c.tables)
        if (!loaded.count(t.file)) b += t.info.bytes();
      return b;
    };
    std::uint64_t used = 0;
    if (!complete.empty())
      for (const auto& t : complete[0].tables) used += loaded.insert(t.file).second ? t.info.bytes() : 0;
    for (std::size_t i = 1; i < complete.size(); ++i)
      if (used + more(complete[i]) <= memory / 2) {
        used += more(complete[i]);
        for (const auto& t : complete[i].tables) loaded.insert(t.file);
        Extra x;
        for (const auto& t : complete[i].tables) x.groups.push_back(t.info.cells), x.files.push_back(t.file);
        extra.push_back(std::move(x));
      }
    std::stable_partition(found.begin(), found.end(), [&](const Found& x) {
      return std::any_of(best.begin(), best.end(), [&](const Found& p) { return p.file == x.file; });
    });
  }
  // The extras' tables, each once; a table the partition below shares with them is not
  // counted again (assemble loads a file once).
  std::set<std::filesystem::path> extra_files;
  for (const auto& x : extra) extra_files.insert(x.files.begin(), x.files.end());
  std::uint64_t extra_bytes = 0;
  for (const auto& file : extra_files)
    extra_bytes += std::find_if(found.begin(), found.end(), [&](const Found& y) { return y.file == file; })->info.bytes();
  for (const auto& x : found) {
    bool disjoint = std::none_of(x.info.cells.begin(), x.info.cells.end(), [&](int c) { return covered.count(c); });
    const std::uint64_t adds = extra_files.count(x.file) ? 0 : x.info.bytes();
    if (!disjoint || extra_bytes + bytes + adds > memory / 2) continue;
    groups.push_back(x.info.cells);
    files.push_back(x.file);
    covered.insert(x.info.cells.begin(), x.info.cells.end());
    bytes += adds;
    entries += x.info.placements();
  }
  // Small tables for the tiles left over, built in memory.
  const int qk = largest_group(f.n, std::uint64_t{1} << 21);
  std::vector<std::uint8_t> rest;
  for (int c = 0; c < f.n; ++c)
    if (c != f.blank && !covered.count(c)) rest.push_back(static_cast<std::uint8_t>(c));
  std::size_t at = 0;
  for (int s : split_even(static_cast<int>(rest.size()), qk)) {
    groups.emplace_back(rest.begin() + static_cast<std::ptrdiff_t>(at), rest.begin() + static_cast<std::ptrdiff_t>(at + s));
    entries += TableInfo{f.rows, f.cols, f.blank, groups.back()}.entries();
    at += static_cast<std::size_t>(s);
  }
  // Pure in-memory tables when the disk brings nothing larger.
  auto quick = groups_of_sizes(f, quick_sizes(f.n));
  std::uint64_t quick_entries = 0;
  for (const auto& g : quick) quick_entries += TableInfo{f.rows, f.cols, f.blank, g}.entries();
  std::shared_ptr<const Heuristic> h = files.empty() || entries < quick_entries
                                           ? assemble(f, quick, {}, threads, {}, deadline)
                                           : assemble(f, groups, files, threads, extra, deadline);
  // The largest table left out only because it alone does not fit half the budget.
  const Found* too_big = nullptr;
  for (const auto& x : found) {
    const bool covered = std::any_of(h->tables.begin(), h->tables.end(), [&](const auto& t) {
      return t->info().cells == x.info.cells && t->origin.rfind("disk", 0) == 0;
    });
    if (!covered && x.info.bytes() > memory / 2 && (!too_big || x.info.placements() > too_big->info.placements()))
      too_big = &x;
  }
  if (left_out.empty() && !too_big) return h;
  auto said = std::make_shared<Heuristic>(*h);  // the cached heuristic, with what was left out
  said->left_out = std::move(left_out);
  if (too_big) said->too_big = too_big->file, said->too_big_bytes = too_big->info.bytes();
  return said;
}

}  // namespace tansaku::sliding::pdb
