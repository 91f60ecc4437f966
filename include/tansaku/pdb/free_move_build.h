// The engine's builder of tables over projections with free moves: a layered breadth-first
// search over states (rank, sub-state) where the moves among one rank's sub-states cost
// nothing and a move to another rank costs 1 (a 0-1 breadth-first search that keeps the
// sub-states of a rank as a set). A domain (FreeMoveDomain below) says what its ranks and
// sub-states are, closes a set of sub-states under the free moves, lists the successors, and
// writes a rank's cell in the table when the rank is first expanded; this owns the search.
// Per rank three bit-sets of sub-states (expanded, this layer's, the next layer's) in one
// struct, so a successor costs one cache miss; a rank's first expansion fixes its distance.
// Chunks of 2^16 ranks are expanded in parallel (TBB, `threads` of search::Limits); the next
// layer is written with relaxed atomic ORs (one thread: branch-free ORs), and a flag per chunk
// lets a layer skip chunks with nothing to do. Successors are applied one expansion late,
// their entries prefetched meanwhile. With a checkpoint (pdb/checkpoint.h) the whole state
// (table, entries, chunk flags, counters) is saved after a layer when a save is due and when
// the deadline stops the build: chunks are expanded whole or not at all, so a build stopped
// inside a layer goes on with that layer's chunks left, to the same table byte for byte.
#pragma once
#include <algorithm>
#include <atomic>
#include <concepts>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "tansaku/core/huge_array.h"
#include "tansaku/pdb/checkpoint.h"
#include "tansaku/search/limits.h"

namespace tansaku::pdb {

// Ranks per chunk: the unit of parallel work, of the per-chunk flags and of the looks at the
// deadline.
inline constexpr int kFreeMoveChunkBits = 16;

// What a build asks of its domain D, every call inlined into the layer loop:
//   D::Mask            an unsigned integer type, a bit per sub-state of a rank
//   D::kMaxSuccessors  the most successors one expand() emits
//   D::Cursor          a place in rank order: at(rank) goes there, advance() one rank on
//                      (cheap: a chunk's ranks are walked in order)
//   D::Node            a rank decoded for expansion (once per expansion, from the cursor)
//   size()             the number of ranks
//   cursor()           a cursor (then at(rank))
//   node(cursor)       the rank the cursor is at, decoded
//   start(emit)        emit(rank, sub-states) for the states of layer 0
//   first_expansion(rank, node, depth)
//                      writes the rank's cell into the table (the rank is expanded for the
//                      first time, at `depth`); the thread that expands a chunk writes its
//                      ranks' cells, and only it
//   expand(rank, node, m, emit) -> Mask
//                      closes the new sub-states `m` (not 0) under the free moves, calls
//                      emit(rank', bit) for every move of cost 1 out of the closure (a bit
//                      naming one sub-state of rank') and returns the closure
template <class D>
concept FreeMoveDomain = std::unsigned_integral<typename D::Mask> &&
    requires(D& d, const typename D::Node& node, typename D::Cursor& c, std::uint64_t r) {
  { D::kMaxSuccessors } -> std::convertible_to<int>;
  { d.size() } -> std::convertible_to<std::uint64_t>;
  { d.cursor() } -> std::same_as<typename D::Cursor>;
  c.at(r);
  c.advance();
  { d.node(c) } -> std::convertible_to<typename D::Node>;
  d.first_expansion(r, node, 0);
};

// How progress lines and notes name the build and its ranks (a family says what they are).
struct FreeMoveNames {
  std::string what = "pdb build";
  std::string units = "ranks";
};

struct FreeMoveResult {
  int last = 0;               // the deepest layer that expanded a rank for the first time
  std::uint64_t reached = 0;  // ranks expanded
};

// Bytes of a build's state, as a checkpoint saves it: the table, three masks per rank and a
// flag per chunk for each of two layers.
inline std::uint64_t free_move_state_bytes(std::uint64_t ranks, int mask_bytes, std::uint64_t table_bytes) {
  const std::uint64_t chunk = std::uint64_t{1} << kFreeMoveChunkBits;
  return table_bytes + 3 * ranks * static_cast<std::uint64_t>(mask_bytes) + 2 * ((ranks + chunk - 1) / chunk);
}

namespace detail {

// Per rank: sub-states expanded, in this layer's frontier, in the next layer's (frontier[depth
// & 1] is the current layer).
template <class M>
struct FreeMoveEntry {
  M seen, frontier[2];
};

template <FreeMoveDomain D, bool kParallel>
class FreeMoveBfs {
  using M = typename D::Mask;
  static constexpr std::uint64_t kChunk = std::uint64_t{1} << kFreeMoveChunkBits;

 public:
  FreeMoveBfs(D& d, std::span<std::uint8_t> table, const search::Limits& lim, Checkpoint* cp,
              const FreeMoveNames& names)
      : d_(d), table_(table), lim_(lim), cp_(cp), names_(names) {
    size_ = d_.size();
    chunks_ = (size_ + kChunk - 1) >> kFreeMoveChunkBits;
    entry_ = make_huge<FreeMoveEntry<M>>(size_);
    flag_[0].assign(chunks_, 0);
    flag_[1].assign(chunks_, 0);
  }

  FreeMoveResult run() {
    int last = 0, start = 0;
    std::uint64_t start_before = 0;
    if (!resume(start, start_before, last)) {
      start_before = 0;
      d_.start([&](std::uint64_t r, M m) {
        entry_[r].frontier[0] |= m;
        flag_[0][r >> kFreeMoveChunkBits] = 1;
      });
    }
    tbb::task_arena arena(static_cast<int>(std::max(1u, lim_.threads)));
    for (depth_ = start;; ++depth_) {
      std::vector<std::uint32_t> todo;
      for (std::uint64_t c = 0; c < chunks_; ++c)
        if (flag_[depth_ & 1][c]) todo.push_back(static_cast<std::uint32_t>(c));
      if (todo.empty()) break;
      const std::size_t batch = std::max<std::size_t>(4 * std::max(1u, lim_.threads), todo.size() / 32);
      // reached_ when the layer began (a build resumed inside a layer saved it).
      const std::uint64_t before = depth_ == start ? start_before : reached_.load();
      for (std::size_t b = 0; b < todo.size(); b += batch) {
        const std::size_t e = std::min(todo.size(), b + batch);
        // A chunk is the unit of work between looks at the deadline, so a limit stops the
        // build within a chunk per thread, however large the batch.
        std::atomic<bool> stop{false};
        auto work = [&](std::size_t i) {
          if (stop.load(std::memory_order_relaxed)) return;
          if (lim_.deadline && lim_.deadline->expired()) {
            stop = true;
            return;
          }
          chunk(todo[i]);
        };
        if constexpr (!kParallel) {
          for (std::size_t i = b; i < e; ++i) work(i);
        } else {
          arena.execute([&] {
            tbb::parallel_for(tbb::blocked_range<std::size_t>(b, e, 1), [&](const tbb::blocked_range<std::size_t>& r) {
              for (std::size_t i = r.begin(); i != r.end(); ++i) work(i);
            });
          });
        }
        if (stop.load() || (lim_.deadline && lim_.deadline->expired())) {
          save(depth_, before, reached_.load() != before ? depth_ : last);  // inside the layer
          lim_.deadline->check();
        }
        if (lim_.progress)
          lim_.progress->update("{}: depth {}, {} of {} {} ({:.1f}%)", names_.what, depth_, reached_.load(), size_,
                                names_.units,
                                100.0 * static_cast<double>(reached_.load()) / static_cast<double>(size_));
      }
      if (reached_.load() != before) last = depth_;
      // The chunks just expanded left their frontier all zero: it serves the layer after next.
      std::fill(flag_[depth_ & 1].begin(), flag_[depth_ & 1].end(), 0);
      if (cp_ && cp_->due()) save(depth_ + 1, reached_.load(), last);
      if (cp_ && cp_->after_layer) cp_->after_layer(depth_);
    }
    // Ranks never reached keep their cell as it was (0 in a zeroed table).
    if (reached_.load() == 0) throw std::logic_error("pdb build reached nothing");
    return {last, reached_.load()};
  }

 private:
  std::uint64_t entry_bytes() const { return size_ * sizeof(FreeMoveEntry<M>); }

  // Saves the state: the build goes on at `layer`, which began with `before` ranks reached;
  // `last` is the deepest layer that reached one so far.
  void save(int layer, std::uint64_t before, int last) {
    if (!cp_) return;
    if (lim_.progress)
      lim_.progress->update("{}: saving the partial build at depth {} ({})", names_.what, layer, cp_->file().string());
    BuildPoint p;
    p.layer = layer;
    p.done = reached_.load();
    p.total = size_;
    p.info = {{"layer_start", before}, {"last", last}};
    const SectionData sections[] = {{"table", table_.data(), table_.size()},
                                    {"entries", entry_.get(), entry_bytes()},
                                    {"flags0", flag_[0].data(), chunks_},
                                    {"flags1", flag_[1].data(), chunks_}};
    cp_->save(p, sections, lim_.threads);
  }

  // Reads a partial build of this table and state layout, if the checkpoint has one.
  bool resume(int& layer, std::uint64_t& before, int& last) {
    if (!cp_) return false;
    auto r = cp_->resume(lim_.memory, lim_.threads);
    if (!r) return false;
    auto size = [&](const char* name) { return r->has(name) ? r->section_bytes(name) : UINT64_MAX; };
    if (size("table") != table_.size() || size("entries") != entry_bytes() || size("flags0") != chunks_ ||
        size("flags1") != chunks_)
      return false;  // same identity, other sizes: cannot happen unless the layout changed unnamed
    const auto p = Checkpoint::point_of(*r);
    r->section_into("table", table_.data(), lim_.threads, false);  // resume() checked every section
    r->section_into("entries", entry_.get(), lim_.threads, false);
    r->section_into("flags0", flag_[0].data(), 1, false);
    r->section_into("flags1", flag_[1].data(), 1, false);
    layer = static_cast<int>(p.layer);
    reached_ = p.done;
    before = p.info.at("layer_start").get<std::uint64_t>();
    last = p.info.at("last").get<int>();
    cp_->note(fmt::format("{}: going on from depth {} ({} of {} {} reached)", cp_->file().string(), layer, p.done,
                          size_, names_.units));
    return true;
  }

  struct Succ {
    std::uint64_t rank;
    M bit;
  };
  // What expand() emits into: the successors, each entry prefetched for its apply().
  struct Emit {
    FreeMoveEntry<M>* entry;
    Succ* at;
    void operator()(std::uint64_t rank, M bit) {
      __builtin_prefetch(&entry[rank], 1);
      *at++ = Succ{rank, bit};
    }
  };

  void chunk(std::uint64_t c) {
    const std::uint64_t lo = c << kFreeMoveChunkBits, hi = std::min(size_, lo + kChunk);
    typename D::Cursor cursor = d_.cursor();
    cursor.at(lo);
    std::uint64_t q = lo;  // the cursor's rank
    std::uint64_t reached = 0;
    const int cur = depth_ & 1;
    // Successors are applied one expanded rank late, so that their cache lines, fetched
    // ahead, arrive while the next rank is worked on.
    Succ pending[2][D::kMaxSuccessors];
    int npending = 0, side = 0;
    for (std::uint64_t p = lo; p < hi; ++p) {
      FreeMoveEntry<M>& e = entry_[p];
      const M m = e.frontier[cur];
      if (!m) continue;
      e.frontier[cur] = 0;
      Emit out{entry_.get(), pending[side ^ 1]};
      const M s = load(e.seen);
      const M fresh = static_cast<M>(m & ~s);
      if (fresh) {
        if (p - q <= 64) {
          for (; q < p; ++q) cursor.advance();
        } else {
          cursor.at(p);
          q = p;
        }
        const typename D::Node node = d_.node(cursor);
        if (s == 0) {
          d_.first_expansion(p, node, depth_);
          ++reached;
        }
        store(e.seen, static_cast<M>(s | d_.expand(p, node, fresh, out)));
      }
      apply(pending[side], npending);
      side ^= 1;
      npending = static_cast<int>(out.at - pending[side]);
    }
    apply(pending[side], npending);
    reached_.fetch_add(reached, std::memory_order_relaxed);
  }

  void apply(const Succ* succ, int n) {
    const int nxt = (depth_ + 1) & 1;
    for (int i = 0; i < n; ++i) {
      FreeMoveEntry<M>& e = entry_[succ[i].rank];
      const M bit = succ[i].bit;
      std::uint8_t& flag = flag_[nxt][succ[i].rank >> kFreeMoveChunkBits];
      if constexpr (kParallel) {
        if ((load(e.seen) | load(e.frontier[nxt])) & bit) continue;
        std::atomic_ref<M>(e.frontier[nxt]).fetch_or(bit, std::memory_order_relaxed);
        if (!load(flag)) store(flag, std::uint8_t{1});
      } else {  // branch-free: whether the bit is new is a coin toss for the predictor
        const M add = static_cast<M>(bit & ~e.seen);
        e.frontier[nxt] |= add;
        flag |= static_cast<std::uint8_t>(add != 0);
      }
    }
  }

  // Other threads read and OR these bytes concurrently: relaxed atomics when parallel.
  template <class T>
  static T load(T& x) {
    if constexpr (kParallel) return std::atomic_ref<T>(x).load(std::memory_order_relaxed);
    else return x;
  }
  template <class T>
  static void store(T& x, T v) {
    if constexpr (kParallel) std::atomic_ref<T>(x).store(v, std::memory_order_relaxed);
    else x = v;
  }

  D& d_;
  std::span<std::uint8_t> table_;
  const search::Limits& lim_;
  Checkpoint* cp_;
  const FreeMoveNames& names_;
  std::uint64_t size_ = 0, chunks_ = 0;
  HugeArray<FreeMoveEntry<M>> entry_;
  std::vector<std::uint8_t> flag_[2];  // per chunk: something in frontier[i]
  std::atomic<std::uint64_t> reached_{0};
  int depth_ = 0;
};

}  // namespace detail

// Builds `d`'s table into `table` (the cells the domain writes; saved and restored with the
// build): lim's threads, progress and deadline (LimitError when it stops the build, after
// saving the state when `cp` is given). `cp`: the build's checkpoint, its builder's name
// already set to one naming the state's layout (the domain and D::Mask), or none.
template <FreeMoveDomain D>
FreeMoveResult free_move_build(D& d, std::span<std::uint8_t> table, const search::Limits& lim, Checkpoint* cp = nullptr,
                               const FreeMoveNames& names = {}) {
  if (lim.threads > 1) return detail::FreeMoveBfs<D, true>(d, table, lim, cp, names).run();
  return detail::FreeMoveBfs<D, false>(d, table, lim, cp, names).run();
}

}  // namespace tansaku::pdb
