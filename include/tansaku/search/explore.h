// Layered breadth-first enumeration of a whole state space over a ranked table of 2 bits
// per state (twsearch's scheme): 0 unseen, 1 and 2 alternate as "frontier" and "next",
// 3 done. Reports the depth histogram, the largest depth and the farthest states (the
// lowest ranks, so results are identical for any number of threads). Parallel with TBB.
// Domains whose moves are symmetric (each move's inverse is a move; they say so with
// `bool symmetric() const`) switch to backward layers once fewer states are unseen than
// the frontier holds: each unseen state looks for a neighbour in the frontier and stops at
// the first, instead of every frontier state claiming all its neighbours. Domains with a
// batch path (BatchRankedDomain) get frontier and unseen states 64 at a time and give the
// neighbours in an order with locality; a single thread claims without locked
// instructions or branches on the table. Optionally every state's distance mod 3 is kept,
// from which shortest paths back to the sources follow (search/explore_path.h).
#pragma once
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "tansaku/core/cluster.h"
#include "tansaku/core/memory.h"
#include "tansaku/core/two_bit_table.h"
#include "tansaku/search/domain.h"
#include "tansaku/search/explore_layers.h"
#include "tansaku/search/limits.h"
#include "tansaku/search/stats.h"

namespace tansaku::search {

struct ExploreResult {
  std::vector<std::uint64_t> histogram;  // states at each distance
  std::uint64_t states = 0;              // total reachable
  int depth = 0;                         // largest distance
  std::vector<std::uint64_t> farthest;   // ranks of up to `farthest` states at `depth`, ascending
  std::uint64_t farthest_count = 0;
  std::uint64_t table_bytes = 0;
  Stats stats;
  std::unique_ptr<TwoBitTable> distances;  // keep_distances: distance mod 3 of every state (3: unreached)
  // keep_exact: every state's distance in 4 bits (TwoBitTable::get4; at most 14, 15: unreached)
  std::unique_ptr<TwoBitTable> exact;
  // A distributed explore (explore_distributed.h) keeps only this rank's block of
  // `distances`: states from distances_first on; distances_cluster answers for the others.
  std::uint64_t distances_first = 0;
  Cluster* distances_cluster = nullptr;
};

template <RankedDomain D>
ExploreResult explore_distributed(const D& d, std::span<const std::uint64_t> sources, std::size_t keep_farthest,
                                  const Limits& lim, bool keep_distances);
template <RankedDomain D>
ExploreResult explore_spill(const D& d, std::span<const std::uint64_t> sources, std::size_t keep_farthest,
                            const Limits& lim, bool keep_distances);

// Calls f(neighbour_rank) for each successor of the state ranked r: the domain's own fast
// path when it has one, unrank / for_each_move / rank otherwise.
template <RankedDomain D, class F>
inline void for_each_neighbor_rank(const D& d, std::uint64_t r, F&& f) {
  if constexpr (requires { d.for_each_neighbor_rank(r, f); }) {
    d.for_each_neighbor_rank(r, f);
  } else {
    const auto s = d.unrank(r);
    d.for_each_move(s, [&](const typename D::Move&, const typename D::State& t) { f(d.rank(t)); });
  }
}

// A domain with batch paths over n <= 64 states ranked r[0..n) (ascending), each returning
// {calls of its function, result}:
// - for_each_neighbor_rank_batch(r, n, f, touch): f(t) -> bool for each successor t of each
//   state, in an order of its choice; result: how many calls returned true;
// - any_neighbor_rank_batch(r, n, pred, touch): pred(t) for each state's successors in
//   move order up to the first true; result: bit i set iff r[i] has such a successor;
// both calling touch(lo, hi) before successors that fall in [lo, hi) (a hint: explore
// prefetches that part of its table).
template <class D>
concept BatchRankedDomain = RankedDomain<D> && requires(const D& d, const std::uint64_t* r, std::size_t n) {
  { d.for_each_neighbor_rank_batch(r, n, [](std::uint64_t) { return true; }, [](std::uint64_t, std::uint64_t) {}) }
      -> std::convertible_to<std::pair<std::uint64_t, std::uint64_t>>;
  { d.any_neighbor_rank_batch(r, n, [](std::uint64_t) { return true; }, [](std::uint64_t, std::uint64_t) {}) }
      -> std::convertible_to<std::pair<std::uint64_t, std::uint64_t>>;
};

namespace detail {

// explore()'s backend: the whole 2-bit table in memory, a layer scanned in chunks of words
// by TBB tasks (a single thread claims without locked instructions).
// `mod3` (a table builder's, pdb/build.h): the layers run on that table alone, with no state
// table: a cell holds its distance mod 3, plus 1 (0: not reached), the frontier of depth d
// is every cell holding d mod 3 + 1 and its next layer takes (d + 1) mod 3 + 1. The cells of
// depths d - 3, d - 6 ... hold that value too and are expanded again: their neighbours are
// all reached already, so nothing changes but the work, small where layers grow; a layer runs
// backwards, over the unreached cells, as soon as they are fewer than the cells a forward
// layer would expand (the small last layers after the big ones). A backward layer is exact:
// a reached neighbour of an unreached cell is at depth d or more, so holding d mod 3 + 1 it
// is at d. Half the memory of a state table beside the distances; no farthest ranks kept.
template <RankedDomain D>
class TableLayers {
 public:
  TableLayers(const D& d, std::span<const std::uint64_t> sources, std::size_t keep_farthest, const Limits& lim,
              TwoBitTable* dist3, TwoBitTable* dist4 = nullptr, TwoBitTable* mod3 = nullptr)
      : d_(d),
        n_(d.size()),
        own_(mod3 ? nullptr : std::make_unique<TwoBitTable>(n_)),
        table_(mod3 ? *mod3 : *own_),
        one_(mod3 != nullptr),
        dist3_(dist3),
        dist4_(dist4),
        keep_farthest_(keep_farthest),
        lim_(lim),
        threads_(std::max(1u, lim.threads)),
        arena_(static_cast<int>(threads_)) {
    for (std::uint64_t r : sources)
      if (table_.get(r) == 0) table_.set_plain(r, 1), ++layer_count_;
    words_ = table_.words();
    chunks_ = (words_ + chunk_words - 1) / chunk_words;
  }
  const char* progress_note() const { return ""; }
  void farthest(ExploreResult& res) const { res.farthest = layer_first_; }

  // Where the layers stand, for a build that saves its state and goes on from it later
  // (pdb/build.h): the states of the layer to expand next, the states of the layers before
  // it, and the states of the layer after it already claimed (a layer the deadline stopped
  // part way: its chunks are expanded whole or not at all, and a later call of layer() with
  // the same depth expands those left).
  // With `mod3`, `residue`: the states of the layers before it by depth mod 3.
  struct Point {
    std::uint64_t width = 0, seen = 0, claimed = 0;
    std::uint64_t residue[3] = {0, 0, 0};
  };
  Point point() const { return {layer_count_, seen_, claimed_, {residue_[0], residue_[1], residue_[2]}}; }
  void restore(const Point& p) {
    layer_count_ = p.width, seen_ = p.seen, claimed_ = p.claimed;
    for (int i = 0; i < 3; ++i) residue_[i] = p.residue[i];
  }
  // The 2-bit state table (0 unseen, 1 and 2 frontier and next, 3 done); with `mod3`, that table.
  TwoBitTable& states() { return table_; }

  LayerStep layer(std::size_t depth, unsigned frontier, unsigned next) {
    // Locals, as the loops below want them (no reloads through `this` after table writes).
    const D& d = d_;
    const std::uint64_t n = n_, words = words_, chunks = chunks_, layer_count = layer_count_;
    TwoBitTable& table = table_;
    const bool one = one_;
    TwoBitTable* const dist3 = dist3_;
    TwoBitTable* const dist4 = dist4_;
    const unsigned layer4 = static_cast<unsigned>(std::min<std::size_t>(depth, 14));
    const std::size_t keep_farthest = keep_farthest_;
    const Limits& lim = lim_;
    const unsigned threads = threads_;
    tbb::task_arena& arena = arena_;
    if (layer_count == 0) return {};
    const unsigned layer_mod3 = static_cast<unsigned>(depth % 3);
    seen_ += layer_count;
    const std::uint64_t seen = seen_;
    residue_[depth % 3] += layer_count;  // with `mod3`, what a forward layer expands
    const std::uint64_t forward_work = one ? residue_[depth % 3] : layer_count;
    std::vector<std::vector<std::uint64_t>> firsts(chunks);
    bool backward = false;
    if constexpr (requires { { d.symmetric() } -> std::convertible_to<bool>; })
      backward = d.symmetric() && n - seen < forward_work;
    tbb::enumerable_thread_specific<std::uint64_t> found(0), expanded(0), generated(0);
    std::atomic<bool> late{false};
    // One chunk of words; Alone: the only thread (claims need no locked instruction); Three:
    // claims of value 3 (`mod3` only: two bits, a compare-exchange each).
    auto chunk = [&]<bool Alone, bool Three>(std::uint64_t c) {
      if (lim.deadline && lim.deadline->expired()) {
        late = true;
        return;
      }
      std::uint64_t nf = 0, ne = 0, ng = 0;
      auto& first = firsts[c];
      std::uint64_t pending[kCap];
      std::size_t npending = 0;
      auto flush = [&] {
        ng += npending;
        std::uint64_t got = 0;
        for (std::size_t i = 0; i < npending; ++i) {
          if constexpr (Alone)
            got += table.claim_alone(pending[i], next);
          else if constexpr (Three) got += table.claim3(pending[i]);
          else
            got += table.claim(pending[i], next);
        }
        nf += got;
        npending = 0;
      };
      auto flush_claims = [&] {  // claims of the pending neighbours (counted in `generated` already)
        std::uint64_t got = 0;
        for (std::size_t i = 0; i < npending; ++i) {
          if constexpr (Three) got += table.claim3(pending[i]);
          else got += table.claim(pending[i], next);
        }
        nf += got;
        npending = 0;
      };
      // Domains with a batch path get the frontier kRanks states at a time (ascending
      // ranks) and give neighbours in an order with locality (touch(lo, hi): the next
      // ones fall in [lo, hi), whose words are prefetched): they are claimed at once.
      std::uint64_t batch[kRanks];
      std::size_t nbatch = 0;
      auto expand = [&] {
        if constexpr (BatchRankedDomain<D>) {
          TwoBitTable& tb = table;
          std::uint64_t* const words_of = table.data();
          const unsigned v = next;
          if constexpr (Alone) {
            const auto [calls, got] = d.for_each_neighbor_rank_batch(
                batch, nbatch, [words_of, v](std::uint64_t t) { return TwoBitTable::claim_alone(words_of, t, v); },
                [&tb](std::uint64_t lo, std::uint64_t hi) { tb.prefetch_range(lo, hi); });
            nf += got;
            ng += calls;
          } else {
            // Neighbours seen empty are kept without a branch; only they are claimed
            // (a locked instruction each).
            std::uint64_t* const keep = pending;
            std::size_t& nkeep = npending;
            const auto [calls, unused] = d.for_each_neighbor_rank_batch(
                batch, nbatch,
                [&tb, keep, &nkeep, &flush_claims](std::uint64_t t) {
                  keep[nkeep] = t;
                  nkeep += tb.get(t) == 0;
                  if (nkeep == kCap) flush_claims();
                  return false;
                },
                [&tb](std::uint64_t lo, std::uint64_t hi) { tb.prefetch_range(lo, hi); });
            flush_claims();
            ng += calls;
          }
        }
        nbatch = 0;
      };
      // Backward layers with a batch path: unseen states kRanks at a time.
      std::uint64_t back[kRanks];
      std::size_t nback = 0;
      auto look_back = [&] {
        if constexpr (BatchRankedDomain<D>) {
          if (!nback) return;
          const unsigned f = frontier;
          const TwoBitTable& tb = table;
          const auto [tested, hit] = d.any_neighbor_rank_batch(
              back, nback, [&tb, f](std::uint64_t t) { return tb.get(t) == f; }, [](std::uint64_t, std::uint64_t) {});
          ng += tested;
          for (std::uint64_t h = hit; h; h &= h - 1) {
            const std::uint64_t r = back[std::countr_zero(h)];
            table.set_cells_owned(r >> 5, std::uint64_t{1} << ((r & 31) * 2), next);  // only this task writes r's word
          }
          nf += static_cast<std::uint64_t>(std::popcount(hit));
          nback = 0;
        }
      };
      const std::uint64_t w_end = std::min(words, (c + 1) * chunk_words);
      if (backward) {
        for (std::uint64_t w = c * chunk_words; w < w_end; ++w) {
          const std::uint64_t fm = table.match(w, frontier);
          for (std::uint64_t b = fm; b && first.size() < keep_farthest; b &= b - 1)
            first.push_back(w * 32 + static_cast<std::uint64_t>(std::countr_zero(b)) / 2);
          ne += static_cast<std::uint64_t>(std::popcount(fm));
          // Unseen cells (value 0) among the table's cells.
          const std::uint64_t x = table.word(w);
          std::uint64_t unseen = ~(x | (x >> 1)) & 0x5555555555555555ull;
          if (w == words - 1 && n % 32) unseen &= (std::uint64_t{1} << (2 * (n % 32))) - 1;
          std::uint64_t hits = 0;
          // A neighbour claimed in this layer holds `next`, never `frontier`: no race.
          if constexpr (BatchRankedDomain<D>) {
            for (; unseen; unseen &= unseen - 1) {
              back[nback++] = w * 32 + static_cast<std::uint64_t>(std::countr_zero(unseen)) / 2;
              if (nback == kRanks) look_back();
            }
          } else {
            for (; unseen; unseen &= unseen - 1) {
              const unsigned bit = static_cast<unsigned>(std::countr_zero(unseen));
              const std::uint64_t r = w * 32 + bit / 2;
              bool hit = false;
              if constexpr (requires { d.any_neighbor_rank(r, [](std::uint64_t) { return true; }); }) {
                hit = d.any_neighbor_rank(r, [&](std::uint64_t t) { return ++ng, table.get(t) == frontier; });
              } else {
                for_each_neighbor_rank(d, r, [&](std::uint64_t t) {
                  if (!hit) ++ng, hit = table.get(t) == frontier;
                });
              }
              if (hit) hits |= std::uint64_t{1} << bit;
            }
          }
          // Only this task writes word w in a backward layer (others just read it).
          if (hits) table.set_cells_owned(w, hits, next), nf += static_cast<std::uint64_t>(std::popcount(hits));
        }
        look_back();
      } else {
        for (std::uint64_t w = c * chunk_words; w < w_end; ++w) {
          const std::uint64_t m = table.match(w, frontier);
          if (!m) continue;
          for (std::uint64_t bitsleft = m; bitsleft; bitsleft &= bitsleft - 1) {
            const std::uint64_t r = w * 32 + static_cast<std::uint64_t>(std::countr_zero(bitsleft)) / 2;
            if (first.size() < keep_farthest) first.push_back(r);
            ++ne;
            if constexpr (BatchRankedDomain<D>) {
              batch[nbatch++] = r;
              if (nbatch == kRanks) expand();
            } else {
              // Neighbour ranks are buffered and their words prefetched; claiming them a
              // few states later hides the cache misses of the random table accesses.
              for_each_neighbor_rank(d, r, [&](std::uint64_t t) {
                table.prefetch(t);
                pending[npending++] = t;
                if (npending == kCap) flush();
              });
              if (npending >= kBatch) flush();
            }
          }
          if (!one) {  // frontier -> done (with `mod3` the cells keep their distances)
            if constexpr (Alone) table.set_cells_owned(w, m, 3);
            else table.or_word(w, m | (m << 1));
          }
          if (dist3) dist3->set_cells_owned(w, m, layer_mod3);
          if (dist4) dist4->set_cells4_owned(w, m, layer4);
        }
        expand();
        flush();
      }
      found.local() += nf;
      expanded.local() += ne;
      generated.local() += ng;
    };
    if (threads == 1) {
      for (std::uint64_t c = 0; c < chunks; ++c) chunk.template operator()<true, false>(c);
    } else {
      arena.execute([&] {
        if (next == 3)
          tbb::parallel_for(std::uint64_t{0}, chunks,
                            [&](std::uint64_t c) { chunk.template operator()<false, true>(c); });
        else
          tbb::parallel_for(std::uint64_t{0}, chunks,
                            [&](std::uint64_t c) { chunk.template operator()<false, false>(c); });
      });
    }
    if (late) {  // the layer is to be expanded again (point())
      seen_ -= layer_count;
      residue_[depth % 3] -= layer_count;
      for (auto v : found) claimed_ += v;
      throw LimitError("time limit reached (--timeout)");
    }
    // A backward layer's frontier is done only now: the unseen states looked at it.
    if (backward && !one) {
      auto close = [&](std::uint64_t w) {  // one task per word: plain stores
        const std::uint64_t m = table.match(w, frontier);
        if (m) {
          table.set_cells_owned(w, m, 3);
          if (dist3) dist3->set_cells_owned(w, m, layer_mod3);
          if (dist4) dist4->set_cells4_owned(w, m, layer4);
        }
      };
      if (threads == 1) {
        for (std::uint64_t w = 0; w < words; ++w) close(w);
      } else {
        arena.execute([&] { tbb::parallel_for(std::uint64_t{0}, words, close); });
      }
    }
    layer_first_.clear();
    for (auto& f : firsts) {
      for (auto r : f) {
        if (layer_first_.size() >= keep_farthest) break;
        layer_first_.push_back(r);
      }
    }
    LayerStep step{layer_count, claimed_, 0, 0};
    claimed_ = 0;
    for (auto v : found) step.next += v;
    for (auto v : expanded) step.expanded += v;
    for (auto v : generated) step.generated += v;
    layer_count_ = step.next;
    return step;
  }

 private:
  static constexpr std::size_t kBatch = 48, kCap = 256, kRanks = 64;
  static constexpr std::uint64_t chunk_words = 1 << 12;  // 131072 states per task
  const D& d_;
  const std::uint64_t n_;
  std::unique_ptr<TwoBitTable> own_;  // the state table (none with `mod3`)
  TwoBitTable& table_;
  const bool one_;
  TwoBitTable* const dist3_;
  TwoBitTable* const dist4_;
  const std::size_t keep_farthest_;
  const Limits& lim_;
  const unsigned threads_;
  tbb::task_arena arena_;
  std::uint64_t words_ = 0, chunks_ = 0;
  std::uint64_t layer_count_ = 0, seen_ = 0;  // states of the layer to expand; of every layer so far
  std::uint64_t claimed_ = 0;                 // of the next layer, claimed before the deadline stopped this one
  std::uint64_t residue_[3] = {0, 0, 0};      // states of every layer so far, by depth mod 3
  std::vector<std::uint64_t> layer_first_;    // lowest ranks of the layer expanded last
};

}  // namespace detail

// With lim.cluster of more than one rank, the ranks share the table (explore_distributed.h);
// with lim.spill and a table beyond lim.memory, its parts live on disk (explore_spill.h).
// keep_distances: the result also holds every state's distance from the sources mod 3
// (`distances`; 3 = not reached), written as each layer is closed (a sequential pass over
// the words the scan visits anyway). In a symmetric domain a neighbour of a state at
// distance k whose value is (k - 1) mod 3 is one step closer: shortest paths follow
// (search/explore_path.h). keep_exact: the result holds every state's distance in 4 bits
// (`exact`, written likewise; distances above 14 kept as 14; in memory only, no cluster or
// spill).
template <RankedDomain D>
ExploreResult explore(const D& d, std::span<const std::uint64_t> sources, std::size_t keep_farthest,
                      const Limits& lim = {}, bool keep_distances = false, bool keep_exact = false) {
  if (lim.cluster && lim.cluster->size() > 1 && !keep_exact)
    return explore_distributed(d, sources, keep_farthest, lim, keep_distances);
  ExploreResult res;
  const std::uint64_t n = d.size();
  res.table_bytes = TwoBitTable::bytes_for(n) * (1 + (keep_distances ? 1 : 0) + (keep_exact ? 2 : 0));
  if (!lim.spill.empty() && res.table_bytes > lim.memory && !keep_exact)
    return explore_spill(d, sources, keep_farthest, lim, keep_distances);
  require_memory(res.table_bytes, lim.memory,
                 keep_exact       ? "the 2-bit state table and the 4-bit distances"
                 : keep_distances ? "the 2-bit state table and the distances mod 3"
                                  : "the 2-bit state table");
  if (keep_distances) {
    res.distances = std::make_unique<TwoBitTable>(n);
    res.distances->fill(3);
  }
  if (keep_exact) {
    res.exact = std::make_unique<TwoBitTable>(2 * n);
    res.exact->fill(3);  // every 4-bit cell 15
  }
  detail::TableLayers<D> layers(d, sources, keep_farthest, lim, res.distances.get(), res.exact.get());
  run_layers(layers, res, lim, n);
  res.stats.stored = n;
  return res;
}

}  // namespace tansaku::search

#include "tansaku/search/explore_distributed.h"
#include "tansaku/search/explore_spill.h"
