// explore.h's layered BFS for a state space whose 2-bit table does not fit the memory budget
// (--spill DIR): the ranked states are cut into parts small enough to hold one at a time,
// each part's table lives in a file, and a claim on a state of another part travels through
// a file of that part (a 32-bit offset each) to the next layer (a disk-based breadth-first
// search in the manner of Korf's, with 2 bits a state). Layer k loads each part in turn,
// applies the claims the parts sent it while expanding layer k-1 (they are the part's new
// states of layer k), expands the part's frontier (a neighbour in the same part is claimed
// at once for layer k+1; others are appended to the owner's claim file) and saves it. The
// result is the one explore() computes in memory. One thread; the files are removed at the end.
#pragma once
#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include <sys/statvfs.h>

#include <fmt/format.h>

#include "tansaku/core/error.h"
#include "tansaku/core/memory.h"
#include "tansaku/core/two_bit_table.h"
#include "tansaku/search/explore.h"
#include "tansaku/search/explore_layers.h"

namespace tansaku::search {

// A private directory inside --spill DIR for the files of one run, removed at the end.
class SpillDirectory {
 public:
  explicit SpillDirectory(const std::string& parent) {
    std::error_code ec;
    if (!std::filesystem::is_directory(parent, ec)) throw InputError(fmt::format("--spill {}: not a directory", parent));
    std::string templ = (std::filesystem::path(parent) / "tansaku-spill-XXXXXX").string();
    if (!::mkdtemp(templ.data()))
      throw InputError(fmt::format("--spill {}: cannot create a directory there ({})", parent, std::strerror(errno)));
    path_ = templ;
  }
  ~SpillDirectory() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  SpillDirectory(const SpillDirectory&) = delete;
  SpillDirectory& operator=(const SpillDirectory&) = delete;
  std::string file(const std::string& name) const { return (std::filesystem::path(path_) / name).string(); }
  std::uint64_t free_bytes() const {
    struct statvfs st {};
    if (::statvfs(path_.c_str(), &st) != 0) return 0;
    return static_cast<std::uint64_t>(st.f_bavail) * st.f_frsize;
  }

 private:
  std::string path_;
};

// A file of the spill directory, read or written whole chunks at a time; an I/O failure is
// a LimitError (the disk is the budget here).
class SpillFile {
 public:
  SpillFile(const std::string& path, const char* mode) : path_(path), f_(std::fopen(path.c_str(), mode)) {
    if (!f_) fail("open");
  }
  ~SpillFile() {
    if (f_) std::fclose(f_);
  }
  SpillFile(const SpillFile&) = delete;
  SpillFile& operator=(const SpillFile&) = delete;
  void write(const void* p, std::size_t size, std::size_t count) {
    if (count && std::fwrite(p, size, count, f_) != count) fail("write");
  }
  std::size_t read(void* p, std::size_t size, std::size_t count) {
    const std::size_t got = std::fread(p, size, count, f_);
    if (got < count && std::ferror(f_)) fail("read");
    return got;
  }
  void close() {
    const int rc = std::fclose(f_);
    f_ = nullptr;
    if (rc != 0) fail("write");
  }

 private:
  [[noreturn]] void fail(const char* what) const {
    throw LimitError(fmt::format("--spill: cannot {} {} ({})", what, path_, std::strerror(errno)));
  }
  std::string path_;
  std::FILE* f_;
};

// The parts of a spilled table: the fewest whose one loaded part, the claim buffers of all
// parts and a read buffer fit the budget (0 parts: none fits).
struct SpillPlan {
  std::uint64_t parts = 0, part_words = 0, buffer = 0;  // buffer: claims per part held before a write
  std::uint64_t bytes() const { return part_words * 8 + (parts + 1) * buffer * 4; }
};
inline SpillPlan spill_plan(std::uint64_t n, std::uint64_t memory) {
  const std::uint64_t words = (n + 31) / 32;
  SpillPlan best;
  for (std::uint64_t buffer : {std::uint64_t{1} << 16, std::uint64_t{1} << 12, std::uint64_t{1} << 8}) {
    for (std::uint64_t parts = 2; parts <= (std::uint64_t{1} << 16); parts += std::max<std::uint64_t>(1, parts / 8)) {
      SpillPlan p{parts, (words + parts - 1) / parts, buffer};
      if (p.part_words > (std::uint64_t{1} << 27)) continue;  // offsets within a part fit 32 bits
      if (p.bytes() <= memory) return p;
      if (p.part_words * 8 < p.parts * p.buffer * 4) break;  // more parts only cost more
    }
  }
  return best;
}

namespace detail {

// explore_spill()'s backend: the parts of the 2-bit table in files of a SpillDirectory, loaded
// one at a time; claims on other parts travel through claim files to the next layer. A
// layer's count is known once its pass is over (the claims of other parts are applied as
// each part is loaded), so the pass after the last layer finds none.
template <RankedDomain D>
class SpillLayers {
 public:
  SpillLayers(const D& d, std::span<const std::uint64_t> sources, std::size_t keep_farthest, const Limits& lim,
              const SpillPlan& plan, const SpillDirectory& dir)
      : d_(d), n_(d.size()), plan_(plan), dir_(dir), parts_(plan.parts), part_cells_(plan.part_words * 32),
        keep_farthest_(keep_farthest), lim_(lim), out_(parts_), has_claims_(parts_, 0), has_claims_next_(parts_, 0),
        table_(part_cells_), in_(plan.buffer), counted_(parts_, 0), counted_next_(parts_, 0) {
    for (std::uint64_t r : sources) {
      const std::uint64_t q = part_of(r);
      out_[q].push_back(static_cast<std::uint32_t>(r - q * part_cells_));
    }
    for (std::uint64_t q = 0; q < parts_; ++q) flush(q, 0);  // the sources are the claims of layer 0
    has_claims_.swap(has_claims_next_);
  }
  const char* progress_note() const { return ""; }
  void farthest(ExploreResult& res) const { res.farthest = last_first_; }

  // Layer `layer`: each part with states of it is loaded, takes the claims sent to it (new
  // states of this layer), expands its frontier and is saved.
  LayerStep layer(std::size_t layer, unsigned frontier, unsigned next) {
    const D& d = d_;
    const std::uint64_t n = n_, parts = parts_, part_cells = part_cells_;
    const std::size_t keep_farthest = keep_farthest_;
    const Limits& lim = lim_;
    TwoBitTable& table = table_;
    std::uint64_t* const cells = table.data();
    auto& out = out_;
    auto& has_claims = has_claims_;
    auto& counted = counted_;
    auto& counted_next = counted_next_;
    auto& first = first_;
    std::uint64_t layer_count = 0, expanded = 0, generated = 0;
    first.clear();
    std::fill(has_claims_next_.begin(), has_claims_next_.end(), 0);
    std::fill(counted_next.begin(), counted_next.end(), 0);
    for (std::uint64_t p = 0; p < parts; ++p) {
      if (!has_claims[p] && !counted[p]) continue;  // nothing of this layer in part p
      if (lim.deadline && lim.deadline->expired()) throw LimitError("time limit reached (--timeout)");
      const std::uint64_t plo = p * part_cells;
      const std::uint64_t pwords = (std::min(n, plo + part_cells) - plo + 31) / 32;
      std::fill(cells, cells + plan_.part_words, std::uint64_t{0});
      if (std::filesystem::exists(table_file(p))) {
        SpillFile f(table_file(p), "rb");
        if (f.read(cells, 8, pwords) != pwords) throw LimitError(fmt::format("--spill: {} is short", table_file(p)));
      }
      layer_count += counted[p];
      if (has_claims[p]) {
        SpillFile f(claims_file(p, layer), "rb");
        for (std::size_t got; (got = f.read(in_.data(), 4, in_.size())) > 0;)
          for (std::size_t i = 0; i < got; ++i) layer_count += TwoBitTable::claim_alone(cells, in_[i], frontier);
        f.close();
        std::filesystem::remove(claims_file(p, layer));
      }
      for (std::uint64_t w = 0; w < pwords; ++w) {
        const std::uint64_t m = table.match(w, frontier);
        if (!m) continue;
        for (std::uint64_t b = m; b; b &= b - 1) {
          const std::uint64_t r = plo + w * 32 + static_cast<std::uint64_t>(std::countr_zero(b)) / 2;
          if (first.size() < keep_farthest) first.push_back(r);
          ++expanded;
          for_each_neighbor_rank(d, r, [&](std::uint64_t t) {
            ++generated;
            const std::uint64_t q = t / part_cells;
            if (q == p) {
              counted_next[p] += TwoBitTable::claim_alone(cells, t - plo, next);
            } else {
              out[q].push_back(static_cast<std::uint32_t>(t - q * part_cells));
              if (out[q].size() >= plan_.buffer) flush(q, layer + 1);
            }
          });
        }
        table.set_cells_owned(w, m, 3);
      }
      SpillFile f(table_file(p), "wb");
      f.write(cells, 8, pwords);
      f.close();
      if (lim.progress)
        lim.progress->update("explore: depth {}, part {} of {} on disk, {} states so far", layer, p + 1, parts,
                             states_ + layer_count);
    }
    for (std::uint64_t q = 0; q < parts; ++q) flush(q, layer + 1);
    if (layer_count == 0) return {0, 0, expanded, generated};
    states_ += layer_count;
    last_first_.swap(first);
    has_claims_.swap(has_claims_next_);
    counted_.swap(counted_next_);
    return {layer_count, LayerStep::kUnknown, expanded, generated};
  }

 private:
  std::uint64_t part_of(std::uint64_t r) const { return r / part_cells_; }
  std::string table_file(std::uint64_t p) const { return dir_.file(fmt::format("table-{}", p)); }
  std::string claims_file(std::uint64_t p, std::size_t layer) const {
    return dir_.file(fmt::format("claims-{}-{}", p, layer % 2));
  }
  // Claims for the next layer, by part: buffered, appended to the part's file when full.
  void flush(std::uint64_t q, std::size_t to_layer) {
    if (out_[q].empty()) return;
    SpillFile f(claims_file(q, to_layer), "ab");
    f.write(out_[q].data(), sizeof(std::uint32_t), out_[q].size());
    f.close();
    out_[q].clear();
    has_claims_next_[q] = 1;
  }
  const D& d_;
  const std::uint64_t n_;
  const SpillPlan plan_;
  const SpillDirectory& dir_;
  const std::uint64_t parts_, part_cells_;
  const std::size_t keep_farthest_;
  const Limits& lim_;
  std::vector<std::vector<std::uint32_t>> out_;
  std::vector<char> has_claims_, has_claims_next_;
  TwoBitTable table_;
  std::vector<std::uint32_t> in_;
  std::vector<std::uint64_t> counted_, counted_next_;  // states claimed within a part for the layer
  std::vector<std::uint64_t> first_, last_first_;
  std::uint64_t states_ = 0;
};

}  // namespace detail

template <RankedDomain D>
ExploreResult explore_spill(const D& d, std::span<const std::uint64_t> sources, std::size_t keep_farthest,
                            const Limits& lim, bool keep_distances) {
  if (keep_distances)
    throw InputError("the distances mod 3 are not kept on disk: give --memory for both 2-bit tables");
  ExploreResult res;
  const std::uint64_t n = d.size();
  res.table_bytes = TwoBitTable::bytes_for(n);
  const SpillPlan plan = spill_plan(n, lim.memory);
  if (plan.parts == 0)
    throw InputError(fmt::format("--spill: a part of the 2-bit state table ({}) and its buffers do not fit the memory budget {}",
                                 format_size(res.table_bytes), format_size(lim.memory)));
  SpillDirectory dir(lim.spill);
  if (dir.free_bytes() < res.table_bytes)
    throw InputError(fmt::format("--spill {}: the 2-bit state table needs {} on disk but {} is free", lim.spill,
                                 format_size(res.table_bytes), format_size(dir.free_bytes())));
  detail::SpillLayers<D> layers(d, sources, keep_farthest, lim, plan, dir);
  run_layers(layers, res, lim, n);
  res.stats.stored = n;
  return res;
}

}  // namespace tansaku::search
