// Pattern databases by projection (see pdb.h).
#include "perm/pdb.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <numeric>
#include <optional>

#include <fmt/format.h>

#include "perm/piece_file.h"
#include "perm/ranked_domain.h"
#include "tansaku/core/cache_dir.h"
#include "tansaku/core/error.h"
#include "tansaku/core/input.h"
#include "tansaku/core/memory.h"
#include "tansaku/pdb/orbits.h"
#include "tansaku/pdb/table_file.h"
#include "tansaku/search/distance_table.h"

namespace tansaku::perm {

PatternDb::PatternDb(const Definition& d, const MoveSet& ms, const Position& goal, std::vector<bool> keep_label,
                     std::vector<bool> keep_ori, const Deadline* deadline)
    : positions_(d.positions), keep_ori_(std::move(keep_ori)), pd_(d), pms_(ms) {
  lab_map_.assign(static_cast<std::size_t>(positions_) * 256, 254);
  for (int i = 0; i < positions_; ++i)
    for (int l = 0; l < 254; ++l)
      if (keep_label[static_cast<std::size_t>(i) * 256 + static_cast<std::size_t>(l)])
        lab_map_[static_cast<std::size_t>(i) * 256 + static_cast<std::size_t>(l)] = static_cast<std::uint8_t>(l);
  for (int i = 0; i < positions_; ++i)
    if (!keep_ori_[static_cast<std::size_t>(i)]) pd_.omod[static_cast<std::size_t>(i)] = 1;
  for (auto& g : pms_.gens)
    for (int i = 0; i < positions_; ++i)
      if (!keep_ori_[static_cast<std::size_t>(i)]) g.p.twist[static_cast<std::size_t>(i)] = 0;
  pd_.solved = project(goal);
  space_ = std::make_unique<Space>(pd_, pms_, pd_.solved, 0, 1, deadline);
  // What is kept, for reports.
  std::vector<int> pieces, oris;
  for (int i = 0; i < positions_; ++i) {
    bool k = false;
    for (int l = 0; l < 254; ++l) k = k || (keep_label[static_cast<std::size_t>(i) * 256 + static_cast<std::size_t>(l)] && goal.lab[static_cast<std::size_t>(i)] == l);
    if (k) pieces.push_back(i);
    if (keep_ori_[static_cast<std::size_t>(i)] && d.omod[static_cast<std::size_t>(i)] > 1) oris.push_back(i);
  }
  auto names = [&](const std::vector<int>& v) {
    std::string s;
    for (const auto& sd : d.sets) {
      std::string part;
      for (int i : v)
        if (i >= sd.offset && i < sd.offset + sd.size) part += fmt::format("{}{}", part.empty() ? "" : " ", i - sd.offset + 1);
      if (!part.empty()) s += (s.empty() ? "" : ", ") + sd.name + " " + part;
    }
    return s.empty() ? std::string("none") : s;
  };
  description_ = fmt::format("pieces solved at [{}], orientations at [{}]", names(pieces), names(oris));
  // Found by content: what the distances depend on (instance_key: the positions, sets,
  // moves and goal) and what the projection keeps; the version of the ranking too.
  puzzle_ = "perm:" + d.name;
  pdb::ContentHash key;
  key.add(std::string_view("perm-projection 1")).add(instance_key(d, ms, goal));
  key.add_bytes(lab_map_.data(), lab_map_.size());
  for (int i = 0; i < positions_; ++i) key.add(std::uint64_t{keep_ori_[static_cast<std::size_t>(i)]});
  key_ = key.hex();
}

void PatternDb::build(const search::Limits& lim) {
  space_ = std::make_unique<Space>(pd_, pms_, pd_.solved, std::uint64_t{256} << 20, lim.threads, lim.deadline);
  RankedDomain dom(pd_, pms_, *space_);
  const std::uint64_t r0 = space_->rank(pd_.solved);
  auto t = search::distance_table(dom, std::span<const std::uint64_t>(&r0, 1), true, lim);
  dist_ = std::move(t.dist);
  max_ = static_cast<int>(t.histogram.size()) - 1;
  if (t.histogram.size() >= 254) throw InputError("a pattern database has distances beyond 253 moves");
}

namespace {

std::atomic<std::uint64_t> cache_from{std::uint64_t{1} << 20};

std::string cache_hint(const std::filesystem::path& file) {
  return fmt::format("`tansaku pdb remove {}` deletes it (a solve builds it again)",
                     printable(file.filename().string()));
}

}  // namespace

void set_projection_cache_from(std::uint64_t states) { cache_from.store(states, std::memory_order_relaxed); }

bool is_projection_file_name(const std::string& name) {
  return name.rfind("perm-projection-", 0) == 0 && name.ends_with(".tab");
}

std::filesystem::path PatternDb::cache_file() const {
  return table_cache_dir() / fmt::format("perm-projection-{}.tab", key_);
}

void PatternDb::load_or_build(const search::Limits& lim) {
  const std::filesystem::path file = cache_file();
  if (size() < cache_from.load(std::memory_order_relaxed) || !file_allowed(file.parent_path().string())) {
    build(lim);
    return;
  }
  std::error_code ec;
  if (std::filesystem::exists(file, ec)) {
    try {
      pdb::TableReader r(file, cache_hint(file), lim.memory);
      const pdb::TableHeader& h = r.header();
      if (h.kind == kProjectionKind && h.content == key_ && h.encoding == "u8-distance" && h.entries == size()) {
        const pdb::Bytes cells = r.section("cells", lim.threads);
        if (cells.size == size()) {
          dist_.assign(cells.data, cells.data + cells.size);
          max_ = h.info.value("max_distance", 0);
          loaded_ = true;
          return;
        }
      }
    } catch (const InputError&) {  // damaged, or not this table after all: built again, and replaced
    }
  }
  build(lim);
  pdb::TableHeader h{kProjectionKind, key_, "u8-distance", size(),
                     nlohmann::ordered_json{{"puzzle", puzzle_}, {"projection", description_}, {"max_distance", max_}}};
  const pdb::SectionData cells{"cells", dist_.data(), dist_.size(), pdb::Storage::raw};
  try {
    pdb::write_table_file(file, h, std::span<const pdb::SectionData>(&cells, 1), lim.threads);
  } catch (const InputError&) {  // a read-only or full directory: the table is in memory all the same
  } catch (const std::filesystem::filesystem_error&) {}
}

std::pair<std::string, nlohmann::ordered_json> describe_projection_file(const std::filesystem::path& file) {
  pdb::TableReader r(file, cache_hint(file));
  const pdb::TableHeader& h = r.header();
  if (h.kind != kProjectionKind) throw InputError(r.refusal("not a perm projection table"));
  const std::string puzzle = h.info.value("puzzle", ""), what = h.info.value("projection", "");
  const int max = h.info.value("max_distance", 0);
  return {fmt::format("{} projection {}, {} entries, max {}, {}  {}", puzzle, what, h.entries, max,
                      format_size(r.file_bytes()), file.string()),
          nlohmann::ordered_json{{"puzzle", puzzle},
                                 {"projection", what},
                                 {"entries", h.entries},
                                 {"max_distance", max},
                                 {"file", file.string()},
                                 {"file_bytes", r.file_bytes()}}};
}

void verify_projection_file(const std::filesystem::path& file, const search::Limits& lim) {
  pdb::TableReader r(file, cache_hint(file), lim.memory);
  if (r.header().kind != kProjectionKind) throw InputError(r.refusal("not a perm projection table"));
  r.verify(lim.threads);
}

namespace {

struct Atom {
  std::vector<int> cells;         // an orbit
  std::vector<std::uint8_t> labels;  // kept labels
  bool ori = false;
};

}  // namespace

std::vector<std::unique_ptr<PatternDb>> make_pattern_dbs(const Definition& d, const MoveSet& ms, const Position& goal,
                                                         std::uint64_t budget, const search::Limits& lim,
                                                         bool use_cache) {
  const int N = d.positions;
  pdb::Orbits orbit_of(N);
  std::vector<bool> twisted(static_cast<std::size_t>(N), false);
  for (const auto& g : ms.gens) {
    orbit_of.join_all(g.p.perm);
    for (int i = 0; i < N; ++i)
      if (g.p.twist[static_cast<std::size_t>(i)]) twisted[static_cast<std::size_t>(i)] = true;
  }
  const std::vector<std::vector<int>> orbits = orbit_of.groups();

  auto make = [&](const std::vector<Atom>& atoms) {
    std::vector<bool> kl(static_cast<std::size_t>(N) * 256, false), ko(static_cast<std::size_t>(N), false);
    for (const auto& a : atoms)
      for (int c : a.cells) {
        for (auto l : a.labels) kl[static_cast<std::size_t>(c) * 256 + l] = true;
        if (a.ori) ko[static_cast<std::size_t>(c)] = true;
      }
    return std::make_unique<PatternDb>(d, ms, goal, std::move(kl), std::move(ko), lim.deadline);
  };
  // A table whose coordinates have no move tables (too large) is slow to fill: such
  // projections get a budget 32 times smaller.
  auto size_of = [&](const std::vector<Atom>& atoms) -> std::uint64_t {
    try {
      auto p = make(atoms);
      const std::uint64_t table = p->space().largest_coordinate() * ms.gens.size() * 4;
      return table > (std::uint64_t{256} << 20) ? p->size() * 32 : p->size();
    } catch (const InputError&) {
      return ~std::uint64_t{0};
    }
  };
  std::vector<Atom> atoms;
  for (const auto& cells : orbits) {
    if (cells.empty()) continue;
    bool tw = false;
    for (int c : cells) tw = tw || (twisted[static_cast<std::size_t>(c)] && d.omod[static_cast<std::size_t>(c)] > 1);
    std::vector<std::uint8_t> labels;
    for (int c : cells) labels.push_back(goal.lab[static_cast<std::size_t>(c)]);
    std::sort(labels.begin(), labels.end());
    labels.erase(std::unique(labels.begin(), labels.end()), labels.end());
    if (cells.size() < 2 || labels.size() < 2) labels.clear();
    if (labels.size() < 2 && !tw) continue;
    // The first group keeps the orbit's orientations with as many pieces as fit; the
    // other pieces follow in groups as large as fit.
    auto largest = [&](std::size_t from, bool ori, std::size_t min_g) -> std::optional<Atom> {
      for (std::size_t g = labels.size() - from; g + 1 > min_g; --g) {
        Atom a{cells, {labels.begin() + static_cast<std::ptrdiff_t>(from), labels.begin() + static_cast<std::ptrdiff_t>(from + g)}, ori};
        if (size_of({a}) <= budget) return a;
        if (g == 0) break;
      }
      return std::nullopt;
    };
    std::size_t next = 0;
    if (tw)
      if (auto a = largest(0, true, 0)) atoms.push_back(*a), next = a->labels.size();
    while (labels.size() - next >= (next == 0 ? 1u : 2u)) {
      auto a = largest(next, false, 1);
      if (!a) break;
      atoms.push_back(*a);
      next += a->labels.size();
    }
  }
  // Merge atoms into tables, largest first, while the product fits.
  std::vector<std::pair<std::uint64_t, Atom>> sized;
  for (auto& a : atoms) sized.emplace_back(size_of({a}), a);
  std::sort(sized.begin(), sized.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
  std::vector<std::vector<Atom>> bins;
  for (auto& [s, a] : sized) {
    bool placed = false;
    for (auto& b : bins) {
      auto trial = b;
      trial.push_back(a);
      if (size_of(trial) <= budget) {
        b = std::move(trial);
        placed = true;
        break;
      }
    }
    if (!placed) bins.push_back({a});
  }
  std::vector<std::unique_ptr<PatternDb>> out;
  for (const auto& b : bins) {
    auto p = make(b);
    require_memory(p->size(), lim.memory, "a pattern database");
    if (use_cache) p->load_or_build(lim);
    else p->build(lim);
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace tansaku::perm
