// A packed array of 2-bit cells, 32 per 64-bit word, zero-initialised lazily by the OS
// (calloc), with atomic per-cell "claim" for parallel layered BFS; or a read-only view of
// cells mapped from a file (a table loaded for lookups: no copy, pages shared), which a copy
// of the same cells may replace while lookups run (adopt: a copy in huge pages).
#pragma once
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>

#include "tansaku/core/zeroed_pages.h"

namespace tansaku {
namespace detail {

struct TwoBitFree {
  std::size_t mapped = 0;  // bytes of an anonymous mapping (0: calloc)
  void operator()(std::uint64_t* p) const {
    if (mapped) PagesDeleter{mapped}(p);
    else std::free(p);
  }
};

}  // namespace detail

class TwoBitTable {
 public:
  // The cells of a mapping of `mapped` bytes at `data` (munmap'd with the table); only
  // the reading members may be used.
  TwoBitTable(std::uint64_t cells, std::uint64_t* data, std::size_t mapped)
      : cells_(cells), words_((cells + 31) / 32), data_(data, Free{mapped}) {}
  explicit TwoBitTable(std::uint64_t cells) : cells_(cells), words_((cells + 31) / 32) {
    data_.reset(static_cast<std::uint64_t*>(std::calloc(words_ ? words_ : 1, sizeof(std::uint64_t))));
    if (!data_) throw std::bad_alloc();
    view_ = data_.get();
  }
  void fill(unsigned v) {  // every cell to v (single-threaded setup)
    const std::uint64_t x = 0x5555555555555555ull * v;
    for (std::uint64_t w = 0; w < words_; ++w) data_[w] = x;
  }
  static std::uint64_t bytes_for(std::uint64_t cells) { return (cells + 31) / 32 * 8; }
  std::uint64_t cells() const { return cells_; }
  std::uint64_t words() const { return words_; }
  std::uint64_t bytes() const { return words_ * 8; }

  unsigned get(std::uint64_t i) const {
    return static_cast<unsigned>(std::atomic_ref<std::uint64_t>(view()[i >> 5]).load(std::memory_order_relaxed) >>
                                 ((i & 31) * 2)) & 3u;
  }
  // A table loaded for lookups may move its cells: `copy` (a mapping of `mapped` bytes,
  // the same cells) takes over, the first stays mapped until the table goes. Lookups (get,
  // prefetch_read) may run meanwhile; nothing else may.
  void adopt(std::uint64_t* copy, std::size_t mapped) {
    old_ = std::move(data_);
    data_ = std::unique_ptr<std::uint64_t[], Free>(copy, Free{mapped});
    std::atomic_ref<std::uint64_t*>(view_).store(copy, std::memory_order_release);
    adopted_.store(true, std::memory_order_release);
  }
  // Where lookups read now, and whether a copy took over (tests).
  const std::uint64_t* lookup_cells() const { return view(); }
  bool adopted() const { return adopted_.load(std::memory_order_acquire); }
  // Work on the table's cells (a BackgroundTask adopting a copy): ended before the table.
  void attach(std::shared_ptr<void> task) { task_ = std::move(task); }
  std::uint64_t word(std::uint64_t w) const {
    return std::atomic_ref<std::uint64_t>(data_[w]).load(std::memory_order_relaxed);
  }
  void set_plain(std::uint64_t i, unsigned v) {  // single-threaded setup only
    data_[i >> 5] = (data_[i >> 5] & ~(std::uint64_t{3} << ((i & 31) * 2))) | (std::uint64_t{v} << ((i & 31) * 2));
  }
  // Sets cell i to v (1 or 2) if it is 0; true if this call did it. Safe across threads
  // as long as the only concurrent writes to empty cells are claims of the same v.
  bool claim(std::uint64_t i, unsigned v) {
    std::atomic_ref<std::uint64_t> w(data_[i >> 5]);
    const unsigned sh = static_cast<unsigned>(i & 31) * 2;
    if ((w.load(std::memory_order_relaxed) >> sh) & 3u) return false;
    // A cell seen empty can only change by another claim of the same value v (1 or 2, a
    // single bit), so testing that one bit decides the race — and compiles to `lock bts`.
    const std::uint64_t bit = std::uint64_t{1} << (sh + v - 1);
    return (w.fetch_or(bit, std::memory_order_relaxed) & bit) == 0;
  }
  // claim() of value 3: two bits, so a compare-exchange of the word (no one instruction sets
  // both and tells what they were).
  bool claim3(std::uint64_t i) {
    std::atomic_ref<std::uint64_t> w(data_[i >> 5]);
    const unsigned sh = static_cast<unsigned>(i & 31) * 2;
    std::uint64_t x = w.load(std::memory_order_relaxed);
    do {
      if ((x >> sh) & 3u) return false;
    } while (!w.compare_exchange_weak(x, x | std::uint64_t{3} << sh, std::memory_order_relaxed));
    return true;
  }
  // claim() for a table only this thread uses (a single-threaded run): plain accesses,
  // no locked instruction, and no branch (whether a neighbour is new is unpredictable,
  // and a mispredicted branch would also cancel the loads that follow it). Static, on the
  // words (data()), so that a hot loop keeps the pointer in a register.
  static bool claim_alone(std::uint64_t* data, std::uint64_t i, unsigned v) {
    std::uint64_t& w = data[i >> 5];
    const unsigned sh = static_cast<unsigned>(i & 31) * 2;
    const std::uint64_t x = w;
    const std::uint64_t empty = ((x >> sh) & 3u) == 0;
    w = x | (empty * v) << sh;
    return empty != 0;
  }
  bool claim_alone(std::uint64_t i, unsigned v) { return claim_alone(data_.get(), i, v); }
  std::uint64_t* data() { return data_.get(); }
  // Sets the cells of `mask` (bit 2k: cell k) in word w to v, the others unchanged. Only
  // the thread that owns word w may call it (no other thread writes w meanwhile).
  void set_cells_owned(std::uint64_t w, std::uint64_t mask, unsigned v) {
    std::atomic_ref<std::uint64_t> a(data_[w]);
    const std::uint64_t both = mask | (mask << 1);
    a.store((a.load(std::memory_order_relaxed) & ~both) | (mask * v), std::memory_order_relaxed);
  }
  // The same words read as 4-bit cells (16 per word; a table of 2n 2-bit cells holds n
  // 4-bit cells: cell i is 2-bit cells 2i and 2i + 1), for tables of exact small values.
  unsigned get4(std::uint64_t i) const {
    return static_cast<unsigned>(std::atomic_ref<std::uint64_t>(view()[i >> 4]).load(std::memory_order_relaxed) >>
                                 ((i & 15) * 4)) &
           15u;
  }
  void prefetch_read4(std::uint64_t i) const { __builtin_prefetch(&view()[i >> 4], 0, 3); }
  // Sets the 4-bit cells 32w .. 32w + 31 (words 2w and 2w + 1) whose 2-bit cell k has bit 2k
  // in `mask` (a mask of a 2-bit table's word w) to v < 16. Only the thread that owns 2-bit
  // word w of the other table may call it.
  void set_cells4_owned(std::uint64_t w, std::uint64_t mask, unsigned v) {
    for (int half = 0; half < 2; ++half) {
      // Bits 2k (k < 16) to bits 4k: the 16 cells of this half, one bit each nibble.
      std::uint64_t z = half ? mask >> 32 : mask & 0xffffffffull;
      z = (z | (z << 16)) & 0x0000ffff0000ffffull;
      z = (z | (z << 8)) & 0x00ff00ff00ff00ffull;
      z = (z | (z << 4)) & 0x0f0f0f0f0f0f0f0full;
      z = (z | (z << 2)) & 0x3333333333333333ull;
      if (!z) continue;
      std::atomic_ref<std::uint64_t> a(data_[2 * w + static_cast<std::uint64_t>(half)]);
      a.store((a.load(std::memory_order_relaxed) & ~(z * 15)) | (z * v), std::memory_order_relaxed);
    }
  }
  void prefetch(std::uint64_t i) const { __builtin_prefetch(&data_[i >> 5], 1, 3); }
  // For lookups only (a mapped table is read-only: a prefetch for writing is dropped there).
  void prefetch_read(std::uint64_t i) const { __builtin_prefetch(&view()[i >> 5], 0, 3); }
  // The cache lines of cells [lo, hi).
  void prefetch_range(std::uint64_t lo, std::uint64_t hi) const {
    const auto first = reinterpret_cast<std::uintptr_t>(&data_[lo >> 5]) & ~std::uintptr_t{63};
    const auto last = reinterpret_cast<std::uintptr_t>(&data_[(hi - 1) >> 5]);
    for (std::uintptr_t a = first; a <= last; a += 64) __builtin_prefetch(reinterpret_cast<const void*>(a), 1, 3);
  }
  void or_word(std::uint64_t w, std::uint64_t bits) {
    std::atomic_ref<std::uint64_t>(data_[w]).fetch_or(bits, std::memory_order_relaxed);
  }
  // Bitmask (bit 2k set) of the cells in word w that hold value v (v != 0).
  std::uint64_t match(std::uint64_t w, unsigned v) const {
    constexpr std::uint64_t lo = 0x5555555555555555ull;
    const std::uint64_t x = word(w) ^ (lo * v);
    return ~(x | (x >> 1)) & lo;
  }

 private:
  using Free = detail::TwoBitFree;
  std::uint64_t* view() const { return std::atomic_ref<std::uint64_t*>(view_).load(std::memory_order_acquire); }
  std::uint64_t cells_, words_;
  std::unique_ptr<std::uint64_t[], Free> data_, old_;
  mutable std::uint64_t* view_ = data_.get();  // where lookups read: data_, once adopted too
  std::atomic<bool> adopted_{false};
  std::shared_ptr<void> task_;                 // last: ended first
};

}  // namespace tansaku
