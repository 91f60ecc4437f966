// explore.h's layered BFS for a state space whose 2-bit table does not fit the memory budget
// (--spill DIR): the ranked states are cut into parts small enough to hold one at a time,
// each part's table lives in a file, and a claim on a state of another part travels through
// a file of that part (a 32-bit offset each) to the next layer (a disk-based breadth-first
// search in the manner of Korf's, with 2 bits a state). Layer k loads each part in turn,
// applies the claims the parts sent it while expanding layer k-1 (they are the part's new
// states of layer k), expands the part's frontier (a neighbour in the same part is claimed
// at once for layer k+1; others are appended to the owner's claim file) and saves it. The
// result is the one explore() computes in memory. One thread; the files are removed at the end.
// Under MPI (several ranks, each of whose block of the table does not fit the budget) each
// rank does the same with its own block (explore_distributed.h's StatePartition) in its own
// directory: a claim on another rank's block is appended to a file for that rank (an
// "outbox", 8-byte ranks) and, once every rank has passed over its parts, the outboxes are
// sent in rounds of all-to-all exchanges (sorted and delta-coded, claim_coding.h); the owner
// appends what it receives to its parts' claim files for the next layer. Counts, flags
// (timeout, I/O errors) and the farthest states are agreed by collective sums.
#pragma once
#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <sys/statvfs.h>

#include <fmt/format.h>

#include "tansaku/core/cluster.h"
#include "tansaku/core/error.h"
#include "tansaku/core/memory.h"
#include "tansaku/core/two_bit_table.h"
#include "tansaku/search/claim_coding.h"
#include "tansaku/search/explore.h"
#include "tansaku/search/explore_distributed.h"
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
// `extra`: more buffers of 4-byte claims besides the parts' (a rank's outboxes of 8-byte
// ranks count twice each).
struct SpillPlan {
  std::uint64_t parts = 0, part_words = 0, buffer = 0;  // buffer: claims per part held before a write
  std::uint64_t extra = 0;
  std::uint64_t bytes() const { return part_words * 8 + (parts + 1 + extra) * buffer * 4; }
};
inline SpillPlan spill_plan(std::uint64_t n, std::uint64_t memory, std::uint64_t extra = 0) {
  const std::uint64_t words = (n + 31) / 32;
  SpillPlan best;
  for (std::uint64_t buffer : {std::uint64_t{1} << 16, std::uint64_t{1} << 12, std::uint64_t{1} << 8}) {
    for (std::uint64_t parts = 2; parts <= (std::uint64_t{1} << 16); parts += std::max<std::uint64_t>(1, parts / 8)) {
      SpillPlan p{parts, (words + parts - 1) / parts, buffer, extra};
      if (p.part_words > (std::uint64_t{1} << 27)) continue;  // offsets within a part fit 32 bits
      if (p.bytes() <= memory) return p;
      if (p.part_words * 8 < p.parts * p.buffer * 4) break;  // more parts only cost more
    }
  }
  return best;
}

// The states a spilled table covers: [lo, lo + cells) of the ranked states. One process: all
// of them. A rank of a cluster: its block (part: who owns the others), with `cap` claims per
// destination in an exchange round.
struct SpillBlock {
  std::uint64_t lo = 0, cells = 0;
  Cluster* cluster = nullptr;
  const StatePartition* part = nullptr;
  std::uint64_t cap = 0;
};

// Claims per destination in an exchange round of a spilled rank: send and receive buffers
// of k * cap ranks take an eighth of the budget.
inline std::uint64_t spill_exchange_cap(std::uint64_t memory, int ranks) {
  return std::clamp<std::uint64_t>(memory / (128 * static_cast<std::uint64_t>(ranks)), 256, std::uint64_t{1} << 20);
}

namespace detail {

// explore_spill()'s backend: the parts of the 2-bit table (of a block) in files of a
// SpillDirectory, loaded one at a time; claims on other parts travel through claim files to
// the next layer, claims on the other ranks' states through outboxes and exchanges. A layer's
// count is known once its pass is over (the claims of other parts are applied as each part
// is loaded), so the pass after the last layer finds none.
template <RankedDomain D>
class SpillLayers {
 public:
  SpillLayers(const D& d, std::span<const std::uint64_t> sources, std::size_t keep_farthest, const Limits& lim,
              const SpillPlan& plan, const SpillDirectory& dir, const SpillBlock& block)
      : d_(d), block_(block), k_(block.cluster ? static_cast<std::size_t>(block.cluster->size()) : 1), plan_(plan),
        dir_(dir), parts_(plan.parts), part_cells_(plan.part_words * 32), keep_farthest_(keep_farthest), lim_(lim),
        out_(parts_), has_claims_(parts_, 0), has_claims_next_(parts_, 0), table_(part_cells_), in_(plan.buffer),
        counted_(parts_, 0), counted_next_(parts_, 0) {
    if (block.cluster) {
      outbox_.resize(k_);
      has_outbox_.assign(k_, 0);
      send_.resize(k_ * block.cap);
      recv_.resize(k_ * block.cap);
      counts_.assign(k_, 0);
      coded_.assign(k_, 0);
      got_.assign(k_, 0);
    }
    for (std::uint64_t r : sources) {
      const std::uint64_t o = r - block.lo;
      if (o >= block.cells) continue;  // another rank's
      const std::uint64_t q = o / part_cells_;
      out_[q].push_back(static_cast<std::uint32_t>(o - q * part_cells_));
    }
    try {
      for (std::uint64_t q = 0; q < parts_; ++q) flush(q, 0);  // the sources are the claims of layer 0
    } catch (const LimitError& e) {
      if (!block.cluster) throw;
      pending_failure_ = e.what();  // agreed at the first layer
    }
    has_claims_.swap(has_claims_next_);
  }
  const char* progress_note() const { return block_.cluster && block_.cluster->rank() != 0 ? nullptr : ""; }
  void farthest(ExploreResult& res) const {
    if (block_.cluster)
      gather_farthest(*block_.cluster, last_first_, keep_farthest_, res);
    else
      res.farthest = last_first_;
  }

  // Layer `layer`: each part with states of it is loaded, takes the claims sent to it (new
  // states of this layer), expands its frontier and is saved. Under MPI the claims on other
  // ranks' states are then delivered, and the counts summed over the ranks.
  LayerStep layer(std::size_t layer, unsigned frontier, unsigned next) {
    Cluster* const cl = block_.cluster;
    const D& d = d_;
    const std::uint64_t lo = block_.lo, block_cells = block_.cells, parts = parts_, part_cells = part_cells_;
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
    bool late = false;
    std::string failure;
    failure.swap(pending_failure_);
    try {
      for (std::uint64_t p = 0; p < parts && failure.empty(); ++p) {
        if (!has_claims[p] && !counted[p]) continue;  // nothing of this layer in part p
        if (lim.deadline && lim.deadline->expired()) {
          if (!cl) throw LimitError("time limit reached (--timeout)");
          late = true;  // agreed with the other ranks below
          break;
        }
        const std::uint64_t plo = p * part_cells;  // within the block
        const std::uint64_t pwords = (std::min(block_cells, plo + part_cells) - plo + 31) / 32;
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
            const std::uint64_t r = lo + plo + w * 32 + static_cast<std::uint64_t>(std::countr_zero(b)) / 2;
            if (first.size() < keep_farthest) first.push_back(r);
            ++expanded;
            for_each_neighbor_rank(d, r, [&](std::uint64_t t) {
              ++generated;
              const std::uint64_t o = t - lo;
              if (o >= block_cells) {  // another rank's: to its outbox
                const auto j = static_cast<std::size_t>(block_.part->owner(t));
                outbox_[j].push_back(t);
                if (outbox_[j].size() >= plan_.buffer) flush_outbox(j);
                return;
              }
              const std::uint64_t q = o / part_cells;
              if (q == p) {
                counted_next[p] += TwoBitTable::claim_alone(cells, o - plo, next);
              } else {
                out[q].push_back(static_cast<std::uint32_t>(o - q * part_cells));
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
      if (failure.empty() && !late) {
        for (std::uint64_t q = 0; q < parts; ++q) flush(q, layer + 1);
        for (std::size_t j = 0; j < outbox_.size(); ++j) flush_outbox(j);
      }
    } catch (const LimitError& e) {
      if (!cl) throw;
      failure = e.what();
    } catch (const std::bad_alloc&) {
      if (!cl) throw;
      failure = "out of memory";
    }
    std::uint64_t c[4] = {layer_count, expanded, generated, 0};
    if (cl) {
      deliver(layer + 1, late, failure);  // every rank throws if one was late or failed so far
      try {
        for (std::uint64_t q = 0; q < parts; ++q) flush(q, layer + 1);
      } catch (const LimitError& e) {
        failure = e.what();
      }
      c[3] = failure.empty() ? 0 : 1;
      cl->sum(c);
      if (c[3]) fail_agreed(failure, c[3]);
    }
    if (c[0] == 0) return {0, 0, c[1], c[2]};
    states_ += c[0];
    last_first_.swap(first);
    has_claims_.swap(has_claims_next_);
    counted_.swap(counted_next_);
    return {c[0], LayerStep::kUnknown, c[1], c[2]};
  }

 private:
  std::string table_file(std::uint64_t p) const { return dir_.file(fmt::format("table-{}", p)); }
  std::string claims_file(std::uint64_t p, std::size_t layer) const {
    return dir_.file(fmt::format("claims-{}-{}", p, layer % 2));
  }
  std::string outbox_file(std::size_t j) const { return dir_.file(fmt::format("outbox-{}", j)); }
  // Claims for the next layer, by part: buffered, appended to the part's file when full.
  void flush(std::uint64_t q, std::size_t to_layer) {
    if (out_[q].empty()) return;
    SpillFile f(claims_file(q, to_layer), "ab");
    f.write(out_[q].data(), sizeof(std::uint32_t), out_[q].size());
    f.close();
    out_[q].clear();
    has_claims_next_[q] = 1;
  }
  // Claims on rank j's block (its ranks), buffered, appended to its outbox when full.
  void flush_outbox(std::size_t j) {
    if (outbox_[j].empty()) return;
    SpillFile f(outbox_file(j), "ab");
    f.write(outbox_[j].data(), sizeof(std::uint64_t), outbox_[j].size());
    f.close();
    outbox_[j].clear();
    has_outbox_[j] = 1;
  }
  // Every rank throws a LimitError: its own message, else how many failed, else the timeout.
  [[noreturn]] void fail_agreed(const std::string& mine, std::uint64_t failed) const {
    if (!mine.empty()) throw LimitError(mine);
    if (failed)
      throw LimitError(fmt::format("--spill: failed on {} of {} ranks (a file could not be written or read, or out of memory)",
                                   failed, k_));
    throw LimitError("time limit reached (--timeout)");
  }
  // The outboxes to their owners, in rounds of at most cap claims per destination (sorted and
  // delta-coded); each owner appends what it receives to its parts' claim files for
  // `to_layer`. Each round first agrees on the flags (late, failed, more to send, anything
  // to send), so that all ranks leave together; an error after the last round is left in
  // `failure` for the caller's sum.
  void deliver(std::size_t to_layer, bool late, std::string& failure) {
    Cluster& cl = *block_.cluster;
    const std::uint64_t cap = block_.cap, part_cells = part_cells_;
    std::vector<std::unique_ptr<SpillFile>> readers(k_);
    bool opened = false;
    for (;;) {
      std::uint64_t more = 0, any = 0;
      if (!late && failure.empty()) {
        try {
          for (std::size_t j = 0; j < k_; ++j) {
            if (!opened && has_outbox_[j]) readers[j] = std::make_unique<SpillFile>(outbox_file(j), "rb");
            counts_[j] = readers[j] ? readers[j]->read(send_.data() + j * cap, sizeof(std::uint64_t), cap) : 0;
            more |= counts_[j] == cap ? 1 : 0;
            any |= counts_[j] ? 1 : 0;
          }
          opened = true;
        } catch (const LimitError& e) {
          failure = e.what();
        }
      }
      std::uint64_t flags[4] = {late ? 1u : 0u, failure.empty() ? 0u : 1u, more, any};
      cl.sum(flags);
      if (flags[0] || flags[1]) fail_agreed(failure, flags[1]);
      if (flags[3] == 0) break;  // nothing left anywhere
      for (std::size_t j = 0; j < k_; ++j)
        coded_[j] = pack_claims(send_.data() + j * cap, counts_[j], block_.part->first(static_cast<int>(j)),
                                recv_.data() + j * cap, block_.part->block_bits());
      cl.exchange(send_, coded_, cap, recv_, got_);
      try {
        for (std::size_t j = 0; j < k_; ++j)
          decode_gaps(recv_.data() + j * cap, got_[j], [&](std::uint64_t o) {
            const std::uint64_t q = o / part_cells;
            out_[q].push_back(static_cast<std::uint32_t>(o - q * part_cells));
            if (out_[q].size() >= plan_.buffer) flush(q, to_layer);
          });
      } catch (const LimitError& e) {
        failure = e.what();
      }
      if (flags[2] == 0) break;  // the last round (an error in it: agreed by the caller's sum)
    }
    readers.clear();
    for (std::size_t j = 0; j < k_; ++j)
      if (has_outbox_[j]) {
        std::error_code ec;
        std::filesystem::remove(outbox_file(j), ec);
        has_outbox_[j] = 0;
      }
  }

  const D& d_;
  const SpillBlock block_;
  const std::size_t k_;
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
  std::string pending_failure_;
  // Under MPI: claims on the other ranks' states (outbox_[j]: rank j's), the exchange's buffers.
  std::vector<std::vector<std::uint64_t>> outbox_;
  std::vector<char> has_outbox_;
  std::vector<std::uint64_t> send_, recv_, counts_, coded_, got_;
};

}  // namespace detail

// Under MPI (lim.cluster of several ranks) each rank spills its own block, the same plan on
// every rank (from the largest block), so that they all refuse or start together.
template <RankedDomain D>
ExploreResult explore_spill(const D& d, std::span<const std::uint64_t> sources, std::size_t keep_farthest,
                            const Limits& lim, bool keep_distances) {
  if (keep_distances)
    throw InputError("the distances mod 3 are not kept on disk: give --memory for both 2-bit tables");
  ExploreResult res;
  const std::uint64_t n = d.size();
  res.table_bytes = TwoBitTable::bytes_for(n);
  Cluster* const cl = lim.cluster && lim.cluster->size() > 1 ? lim.cluster : nullptr;
  if (!cl) {
    const SpillPlan plan = spill_plan(n, lim.memory);
    if (plan.parts == 0)
      throw InputError(fmt::format("--spill: a part of the 2-bit state table ({}) and its buffers do not fit the memory budget {}",
                                   format_size(res.table_bytes), format_size(lim.memory)));
    SpillDirectory dir(lim.spill);
    if (dir.free_bytes() < res.table_bytes)
      throw InputError(fmt::format("--spill {}: the 2-bit state table needs {} on disk but {} is free", lim.spill,
                                   format_size(res.table_bytes), format_size(dir.free_bytes())));
    detail::SpillLayers<D> layers(d, sources, keep_farthest, lim, plan, dir, SpillBlock{0, n});
    run_layers(layers, res, lim, n);
    res.stats.stored = n;
    return res;
  }
  const int k = cl->size(), me = cl->rank();
  const StatePartition part(n, k);
  const SpillBlock block{part.first(me), part.end(me) - part.first(me), cl, &part, spill_exchange_cap(lim.memory, k)};
  const std::uint64_t exchange = 2 * static_cast<std::uint64_t>(k) * block.cap * 8;
  // The outboxes (k buffers of 8-byte ranks) count as 2k more buffers of 4-byte claims.
  const SpillPlan plan =
      exchange < lim.memory ? spill_plan(part.block_words * 32, lim.memory - exchange, 2 * static_cast<std::uint64_t>(k))
                            : SpillPlan{};
  if (plan.parts == 0)
    throw InputError(fmt::format("--spill: a part of a share of the 2-bit state table ({} ranks) and its buffers do not fit the memory budget {}",
                                 k, format_size(lim.memory)));
  // Each rank its own directory in DIR; a rank that cannot make one (or lacks the disk for its
  // block) makes all of them refuse.
  std::optional<SpillDirectory> dir;
  std::string error;
  try {
    dir.emplace(lim.spill);
    if (dir->free_bytes() < part.block_bytes())
      throw InputError(fmt::format("--spill {}: a share of the 2-bit state table needs {} on disk but {} is free", lim.spill,
                                   format_size(part.block_bytes()), format_size(dir->free_bytes())));
  } catch (const InputError& e) {
    error = e.what();
  }
  std::uint64_t refused[1] = {error.empty() ? 0u : 1u};
  cl->sum(refused);
  if (refused[0])
    throw InputError(error.empty() ? fmt::format("--spill {}: refused on {} of {} ranks", lim.spill, refused[0], k) : error);
  {
    detail::SpillLayers<D> layers(d, sources, keep_farthest, lim, plan, *dir, block);
    run_layers(layers, res, lim, n);
  }
  res.stats.stored = n;
  return res;
}

}  // namespace tansaku::search
