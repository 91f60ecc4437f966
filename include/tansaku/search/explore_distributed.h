// explore.h's layered BFS with the state space split among the ranks of a Cluster (MPI under
// mpirun): rank j owns a contiguous block of the ranked states and holds only that block's
// 2-bit table. Each layer, every rank expands its own frontier; a neighbour it owns is
// claimed at once, the others are buffered per owner and sent in rounds of all-to-all
// exchanges (each buffer holds at most `cap` ranks, so memory stays bounded whatever the
// layer's size), ordered and delta-coded (claim_coding.h); the owner claims what it receives. A dense layer (a frontier of at least
// n/64 states) sends bits instead when they fit the budget (claim_bitmaps.h): a bitmap of
// the other ranks' states, exchanged once the whole frontier is expanded (one round).
// Counts, flags (done, timeout, out of memory) and the farthest states are agreed by collective sums and exchanges, so every
// rank returns the same ExploreResult: the one a single process computes (the farthest
// states are the lowest ranks, gathered in rank order). With lim.threads > 1 a rank expands
// its block with that many threads (hybrid MPI + threads): TBB tasks take chunks of words,
// each thread buffers its claims per owner, and a round ends when one thread's buffer is
// full; the exchange and the collectives stay on the calling thread. Moves need not be
// symmetric. In a symmetric space the last layers go backward as in one process, when the
// unseen states are fewer than the frontier and a bitmap of the whole frontier (n/8 bytes,
// one all-reduce a layer) fits the budget besides the share: each rank then asks, for each
// of its unseen states, whether a neighbour is in that bitmap.
#pragma once
#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <memory>
#include <new>
#include <optional>
#include <stdexcept>
#include <span>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "tansaku/core/cluster.h"
#include "tansaku/core/error.h"
#include "tansaku/core/memory.h"
#include "tansaku/core/two_bit_table.h"
#include "tansaku/search/claim_bitmaps.h"
#include "tansaku/search/claim_coding.h"
#include "tansaku/search/explore.h"
#include "tansaku/search/explore_layers.h"

namespace tansaku::search {

// Which rank owns a state: runs of `block_words` table words (32 states a word), an even
// number, so that a block is whole 64-bit words of a bitmap of the states (claim_bitmaps.h).
struct StatePartition {
  std::uint64_t n = 0, block_words = 2;
  int parts = 1;
  StatePartition(std::uint64_t states, int k) : n(states), parts(k) {
    const std::uint64_t words = (states + 31) / 32;
    block_words = std::max<std::uint64_t>(1, (words + static_cast<std::uint64_t>(k) - 1) / static_cast<std::uint64_t>(k));
    block_words += block_words & 1;
  }
  int owner(std::uint64_t r) const { return static_cast<int>((r >> 5) / block_words); }
  std::uint64_t first(int j) const { return std::min(n, static_cast<std::uint64_t>(j) * block_words * 32); }
  std::uint64_t end(int j) const { return std::min(n, (static_cast<std::uint64_t>(j) + 1) * block_words * 32); }
  std::uint64_t block_bytes() const { return block_words * 8; }
  // Bits of an offset within a block.
  unsigned block_bits() const { return static_cast<unsigned>(std::bit_width(block_words * 32 - 1)); }
};

// Ranks per destination buffered before an exchange round, from the memory budget.
inline std::uint64_t exchange_cap(std::uint64_t memory, int ranks) {
  const std::uint64_t budget = std::min<std::uint64_t>(memory / 8, std::uint64_t{256} << 20);
  return std::clamp<std::uint64_t>(budget / (16 * static_cast<std::uint64_t>(ranks)), 1024, std::uint64_t{1} << 20);
}

// The exchange buffers of one rank: `cap` ranks per destination, split among `threads`
// (each thread's buffer holds cap/threads plus a slack for the neighbours of the state that
// fills it); send and receive buffers of threads * (share + slack) per destination, and the
// threads' own buffers of the same size when there are several.
struct ExchangeLayout {
  static constexpr std::uint64_t kSlack = 1024;
  std::uint64_t share, thread_stride, stride;
  unsigned threads;
  ExchangeLayout(std::uint64_t cap, unsigned t)
      : share(std::max<std::uint64_t>(1, cap / std::max(1u, t))), thread_stride(share + kSlack),
        stride(thread_stride * std::max(1u, t)), threads(std::max(1u, t)) {}
  std::uint64_t bytes(int ranks) const {
    return (threads > 1 ? 3 : 2) * stride * 8 * static_cast<std::uint64_t>(ranks);
  }
};

// Every rank's lowest ranks of the last layer (`first`, ascending, from its own block) to
// every rank: in rank order they ascend, and the first `keep` of them are res.farthest.
inline void gather_farthest(Cluster& cl, const std::vector<std::uint64_t>& first, std::size_t keep, ExploreResult& res) {
  const std::size_t kk = static_cast<std::size_t>(cl.size());
  const std::uint64_t fs = std::max<std::size_t>(1, keep);
  std::vector<std::uint64_t> all(kk * fs), all_counts(kk, std::min<std::uint64_t>(first.size(), fs)), got(kk * fs),
      got_counts(kk);
  for (std::size_t j = 0; j < kk; ++j)
    std::copy_n(first.begin(), all_counts[j], all.begin() + static_cast<std::ptrdiff_t>(j * fs));
  cl.exchange(all, all_counts, fs, got, got_counts);
  for (std::size_t j = 0; j < kk; ++j)
    for (std::uint64_t i = 0; i < got_counts[j] && res.farthest.size() < keep; ++i) res.farthest.push_back(got[j * fs + i]);
}

namespace detail {

// explore_distributed()'s backend: this rank's block of the 2-bit table, claims to other
// ranks sent in all-to-all rounds; every count and flag agreed by collective sums.
template <RankedDomain D>
class ClusterLayers {
 public:
  ClusterLayers(const D& d, std::span<const std::uint64_t> sources, std::size_t keep_farthest, const Limits& lim,
                const StatePartition& part, TwoBitTable* dist3)
      : d_(d), cl_(*lim.cluster), k_(cl_.size()), me_(cl_.rank()), part_(part),
        layout_(exchange_cap(lim.memory, k_), lim.threads), lo_(part.first(me_)), stride_(layout_.stride),
        table_(part.end(me_) - lo_), dist3_(dist3), keep_farthest_(keep_farthest), lim_(lim) {
    std::uint64_t layer_count = 0;
    for (std::uint64_t r : sources)
      if (part_.owner(r) == me_ && table_.get(r - lo_) == 0) table_.set_plain(r - lo_, 1), ++layer_count;
    std::uint64_t c[1] = {layer_count};
    cl_.sum(c);
    layer_count_ = c[0];
    const std::size_t kk = static_cast<std::size_t>(k_);
    recv_.resize(kk * stride_);
    send_counts_.assign(kk, 0);
    recv_counts_.assign(kk, 0);
    coded_counts_.assign(kk, 0);
    // What explore_distributed() reserved, plus the frontier bitmap of backward layers.
    const std::uint64_t reserved = part_.block_bytes() * (dist3 ? 2 : 1) + layout_.bytes(k_);
    backward_fits_ = reserved + (part_.n + 63) / 64 * 8 <= lim.memory;
    // Dense layers' claims as bitmaps of the ranks' states (ClaimBitmaps): when they fit besides.
    const std::uint64_t block_states = part_.block_words * 32;
    if (k_ > 1 && ClaimBitmaps::addressable(block_states, k_) &&
        reserved + ClaimBitmaps::bytes(block_states, k_) <= lim.memory)
      bitmaps_.emplace(block_states, k_);
    workers_.resize(layout_.threads);
    for (auto& wk : workers_) {
      wk.send.resize(kk * layout_.thread_stride);
      wk.counts.assign(kk, 0);
    }
    if (layout_.threads > 1) {  // the threads' buffers are merged into send_ for the exchange
      arena_ = std::make_unique<tbb::task_arena>(static_cast<int>(layout_.threads));
      send_.resize(kk * stride_);
    }
  }
  const char* progress_note() {
    if (me_ != 0) return nullptr;
    note_ = fmt::format(" ({} ranks)", k_);
    return note_.c_str();
  }

  LayerStep layer(std::size_t depth, unsigned frontier, unsigned next) {
    seen_ += layer_count_;
    if constexpr (requires { { d_.symmetric() } -> std::convertible_to<bool>; }) {
      if (layer_count_ && backward_fits_ && d_.symmetric() && part_.n - seen_ < layer_count_)
        return layer_backward(depth, frontier, next);
    }
    return layer_forward(depth, frontier, next);
  }

  // The layer's counts summed over the ranks (the next layer's size among them).
  LayerStep agree(std::uint64_t layer_count, std::uint64_t found, std::uint64_t expanded, std::uint64_t generated) {
    std::uint64_t c[3] = {found, expanded, generated};
    cl_.sum(c);
    layer_count_ = c[0];
    return {layer_count, c[0], c[1], c[2]};
  }
  // This rank's lowest ranks of the layer, from the lists of its chunks (in chunk order).
  void keep_first(const std::vector<std::vector<std::uint64_t>>& firsts) {
    first_.clear();
    for (auto& f : firsts)
      for (auto r : f) {
        if (first_.size() >= keep_farthest_) return;
        first_.push_back(r);
      }
  }

  // A forward layer: the threads (TBB tasks; the calling thread alone when there is one)
  // take chunks of this rank's words in turn; each claims the neighbours this rank owns at
  // once (locked claims unless alone) and buffers the others per owner; a round ends when
  // some thread's buffer is full (the others stop at their next word) or every chunk is
  // done, then the calling thread exchanges and claims what arrived.
  LayerStep layer_forward(std::size_t depth, unsigned frontier, unsigned next) {
    const D& d = d_;
    Cluster& cl = cl_;
    const int k = k_;
    const StatePartition& part = part_;
    const std::uint64_t lo = lo_, share = layout_.share, ts = layout_.thread_stride;
    const std::size_t kk = static_cast<std::size_t>(k), keep_farthest = keep_farthest_;
    TwoBitTable& table = table_;
    TwoBitTable* const dist3 = dist3_;
    const Limits& lim = lim_;
    const std::uint64_t words = table.words(), mine = table.cells();
    const std::uint64_t chunks = (words + kChunkWords - 1) / kChunkWords;
    const std::uint64_t layer_count = layer_count_;
    if (layer_count == 0) return {};
    const unsigned layer_mod3 = static_cast<unsigned>(depth % 3);
    // A dense layer: other ranks' neighbours as bits, exchanged once at the end (one round).
    ClaimBitmaps* const bitmaps = bitmaps_ && ClaimBitmaps::worth(layer_count, part.n) ? &*bitmaps_ : nullptr;
    std::vector<std::vector<std::uint64_t>> firsts(chunks);
    std::atomic<std::uint64_t> next_chunk{0};
    std::atomic<bool> stop{false};
    for (auto& wk : workers_) wk.reset();
    // One thread's share of a round: chunks until its buffer for some owner is full.
    // Dense: no buffer fills, the thread takes chunks until none is left.
    auto work = [&]<bool Alone, bool Dense>(Worker& wk) {
      try {
        constexpr std::size_t kPending = 128;
        std::uint64_t pending[kPending], marks[kPending];
        std::size_t npending = 0, nmarks = 0;
        // Locals, not the Worker's fields, in the loops: the table's writes may alias those
        // (reloads after every claim); written back when the thread stops.
        std::uint64_t nf = 0, ne = 0, ng = 0;
        std::uint64_t chunk = wk.chunk, w = wk.w, rest = wk.rest, word_mask = wk.word_mask;
        bool resume = wk.resume;
        std::uint64_t* const cells = table.data();
        std::uint64_t* const counts = wk.counts.data();
        std::uint64_t* const send = wk.send.data();
        auto claim_pending = [&] {
          std::uint64_t got = 0;
          for (std::size_t i = 0; i < npending; ++i) {
            if constexpr (Alone)
              got += TwoBitTable::claim_alone(cells, pending[i], next);
            else
              got += table.claim(pending[i], next);
          }
          nf += got, ng += npending, npending = 0;
          if constexpr (Dense) {
            for (std::size_t i = 0; i < nmarks; ++i) bitmaps->template mark<Alone>(marks[i]);
            ng += nmarks, nmarks = 0;
          }
        };
        bool full = false;
        while (!full && !stop.load(std::memory_order_relaxed)) {
          if (chunk == Worker::kNone) {
            const std::uint64_t c = next_chunk.fetch_add(1, std::memory_order_relaxed);
            if (c >= chunks) break;
            if (lim.deadline && lim.deadline->expired()) {
              wk.late = true;
              break;
            }
            chunk = c, w = c * kChunkWords, resume = false;
          }
          auto& first = firsts[chunk];
          const std::uint64_t w_end = std::min(words, (chunk + 1) * kChunkWords);
          while (w < w_end && !full && (resume || !stop.load(std::memory_order_relaxed))) {
            if (!resume) rest = word_mask = table.match(w, frontier);
            resume = false;
            for (; rest && !full; rest &= rest - 1) {
              const std::uint64_t r = lo + w * 32 + static_cast<std::uint64_t>(std::countr_zero(rest)) / 2;
              if (first.size() < keep_farthest) first.push_back(r);
              ++ne;
              for_each_neighbor_rank(d, r, [&](std::uint64_t t) {
                if (t - lo < mine) {  // this rank's (no division)
                  table.prefetch(t - lo);
                  pending[npending++] = t - lo;
                  if (npending == kPending) claim_pending();
                } else if constexpr (Dense) {
                  bitmaps->prefetch(t);
                  marks[nmarks++] = t;
                  if (nmarks == kPending) claim_pending();
                } else {
                  ++ng;
                  const auto o = static_cast<std::size_t>(part.owner(t));
                  const std::uint64_t c = counts[o];
                  if (c == ts) throw std::length_error("explore_distributed: a state with more neighbours than the slack");
                  send[o * ts + c] = t;
                  counts[o] = c + 1;
                  full |= c + 1 >= share;
                }
              });
            }
            if (npending >= kPending / 2 || nmarks >= kPending / 2) claim_pending();
            if (rest) {  // the buffer is full: the rest of this word after the exchange
              resume = true;
              break;
            }
            if (word_mask) {  // frontier -> done (other threads may be claiming cells of this word)
              if constexpr (Alone)
                table.set_cells_owned(w, word_mask, 3);
              else
                table.or_word(w, word_mask | (word_mask << 1));
              if (dist3) dist3->set_cells_owned(w, word_mask, layer_mod3);
            }
            ++w;
          }
          if (!resume && w >= w_end) chunk = Worker::kNone;
        }
        claim_pending();
        wk.chunk = chunk, wk.w = w, wk.rest = rest, wk.word_mask = word_mask, wk.resume = resume;
        wk.found += nf, wk.expanded += ne, wk.generated += ng;
        if (full) stop.store(true, std::memory_order_relaxed);
      } catch (const std::bad_alloc&) {
        wk.failed = true;
      } catch (const std::exception&) {
        wk.broken = true;
      }
    };
    std::uint64_t found = 0;
    for (;;) {  // rounds
      stop = false;
      if (!arena_) {
        if (bitmaps)
          work.template operator()<true, true>(workers_[0]);
        else
          work.template operator()<true, false>(workers_[0]);
      } else {
        arena_->execute([&] {
          tbb::parallel_for(std::size_t{0}, workers_.size(), [&](std::size_t i) {
            if (bitmaps)
              work.template operator()<false, true>(workers_[i]);
            else
              work.template operator()<false, false>(workers_[i]);
          }, tbb::simple_partitioner());
        });
      }
      bool more = next_chunk.load() < chunks, late = false, failed = false, broken = false;
      for (auto& wk : workers_) {
        more |= wk.chunk != Worker::kNone;
        late |= wk.late, failed |= wk.failed, broken |= wk.broken;
      }
      std::uint64_t flags[4] = {more ? 1u : 0u, late ? 1u : 0u, failed ? 1u : 0u, broken ? 1u : 0u};
      cl.sum(flags);
      if (flags[3]) throw std::runtime_error(fmt::format("explore failed on {} of {} ranks", flags[3], k));
      if (flags[2]) throw LimitError(fmt::format("out of memory on {} of {} ranks", flags[2], k));
      if (flags[1]) throw LimitError("time limit reached (--timeout)");
      if (bitmaps) {  // every rank has expanded its whole frontier: one exchange of bits
        found += bitmaps->exchange(cl, table, next, arena_.get());
        break;
      }
      // The threads' buffers, owner by owner, into the exchange's (a single thread's is it).
      for (std::size_t j = 0; j < kk && arena_; ++j) {
        std::uint64_t c = 0;
        for (auto& wk : workers_) {
          const std::uint64_t* from = wk.send.data() + j * ts;
          std::copy(from, from + wk.counts[j], send_.begin() + static_cast<std::ptrdiff_t>(j * stride_ + c));
          c += wk.counts[j];
          wk.counts[j] = 0;
        }
        send_counts_[j] = c;
      }
      // Each owner's list ordered and delta-coded in place (claim_coding.h; recv_ is the
      // ordering's scratch before it receives), then decoded and claimed by this thread.
      std::vector<std::uint64_t>& out = arena_ ? send_ : workers_[0].send;
      std::uint64_t* const out_counts = arena_ ? send_counts_.data() : workers_[0].counts.data();
      for (std::size_t j = 0; j < kk; ++j) {
        coded_counts_[j] = pack_claims(out.data() + j * stride_, out_counts[j], part.first(static_cast<int>(j)),
                                       recv_.data() + j * stride_, part.block_bits());
        out_counts[j] = 0;
      }
      cl.exchange(out, coded_counts_, stride_, recv_, recv_counts_);
      std::uint64_t* const cells = table.data();
      for (std::size_t j = 0; j < kk; ++j)
        decode_gaps(recv_.data() + j * stride_, recv_counts_[j],
                    [&](std::uint64_t o) { found += TwoBitTable::claim_alone(cells, o, next); });
      if (flags[0] == 0) break;  // every rank has expanded its frontier and received its claims
    }
    keep_first(firsts);
    std::uint64_t expanded = 0, generated = 0;
    for (auto& wk : workers_) found += wk.found, expanded += wk.expanded, generated += wk.generated;
    return agree(layer_count, found, expanded, generated);
  }

  // A backward layer: the frontier of every rank as one bitmap (each rank sets its block's
  // bits; as no two ranks share a state, the sum is the union), then each rank's unseen states
  // that have a neighbour in it join the next layer, and the frontier is closed.
  LayerStep layer_backward(std::size_t depth, unsigned frontier, unsigned next) {
    const D& d = d_;
    TwoBitTable& table = table_;
    TwoBitTable* const dist3 = dist3_;
    const std::uint64_t lo = lo_, words = table.words(), cells = table.cells(), layer_count = layer_count_;
    const std::size_t keep_farthest = keep_farthest_;
    const unsigned layer_mod3 = static_cast<unsigned>(depth % 3);
    std::vector<std::uint64_t> bits((part_.n + 63) / 64, 0);
    for (std::uint64_t w = 0; w < words; ++w) {
      std::uint64_t x = table.match(w, frontier);  // bit 2c: cell c; compacted to bit c
      if (!x) continue;
      x = (x | x >> 1) & 0x3333333333333333ull;
      x = (x | x >> 2) & 0x0f0f0f0f0f0f0f0full;
      x = (x | x >> 4) & 0x00ff00ff00ff00ffull;
      x = (x | x >> 8) & 0x0000ffff0000ffffull;
      x = (x | x >> 16) & 0x00000000ffffffffull;
      const std::uint64_t g = lo + w * 32;  // a multiple of 32
      bits[g >> 6] |= x << (g & 63);
    }
    cl_.sum(bits);
    const std::uint64_t* const in = bits.data();
    auto in_frontier = [in](std::uint64_t t) { return (in[t >> 6] >> (t & 63)) & 1u; };
    const std::uint64_t chunks = (words + kChunkWords - 1) / kChunkWords;
    std::vector<std::vector<std::uint64_t>> firsts(chunks);
    std::atomic<std::uint64_t> found{0}, expanded{0}, generated{0};
    std::atomic<bool> late{false};
    auto chunk = [&](std::uint64_t c) {
      if (lim_.deadline && lim_.deadline->expired()) {
        late = true;
        return;
      }
      std::uint64_t nf = 0, ne = 0, ng = 0;
      auto& first = firsts[c];
      const std::uint64_t w_end = std::min(words, (c + 1) * kChunkWords);
      for (std::uint64_t w = c * kChunkWords; w < w_end; ++w) {
        const std::uint64_t fm = table.match(w, frontier);
        for (std::uint64_t b = fm; b && first.size() < keep_farthest; b &= b - 1)
          first.push_back(lo + w * 32 + static_cast<std::uint64_t>(std::countr_zero(b)) / 2);
        ne += static_cast<std::uint64_t>(std::popcount(fm));
        const std::uint64_t x = table.word(w);
        std::uint64_t unseen = ~(x | (x >> 1)) & 0x5555555555555555ull;
        if (w == words - 1 && cells % 32) unseen &= (std::uint64_t{1} << (2 * (cells % 32))) - 1;
        std::uint64_t hits = 0;
        for (; unseen; unseen &= unseen - 1) {
          const unsigned bit = static_cast<unsigned>(std::countr_zero(unseen));
          const std::uint64_t r = lo + w * 32 + bit / 2;
          bool hit = false;
          if constexpr (requires { d.any_neighbor_rank(r, [](std::uint64_t) { return true; }); }) {
            hit = d.any_neighbor_rank(r, [&](std::uint64_t t) { return ++ng, in_frontier(t) != 0; });
          } else {
            for_each_neighbor_rank(d, r, [&](std::uint64_t t) {
              if (!hit) ++ng, hit = in_frontier(t) != 0;
            });
          }
          if (hit) hits |= std::uint64_t{1} << bit;
        }
        if (hits) table.set_cells_owned(w, hits, next), nf += static_cast<std::uint64_t>(std::popcount(hits));
      }
      found += nf, expanded += ne, generated += ng;
    };
    auto close = [&](std::uint64_t w) {  // the frontier is done only now: the unseen states looked at it
      const std::uint64_t m = table.match(w, frontier);
      if (m) {
        table.set_cells_owned(w, m, 3);
        if (dist3) dist3->set_cells_owned(w, m, layer_mod3);
      }
    };
    if (arena_) {
      arena_->execute([&] { tbb::parallel_for(std::uint64_t{0}, chunks, chunk); });
    } else {
      for (std::uint64_t c = 0; c < chunks; ++c) chunk(c);
    }
    std::uint64_t flags[1] = {late ? 1u : 0u};
    cl_.sum(flags);
    if (flags[0]) throw LimitError("time limit reached (--timeout)");
    for (std::uint64_t w = 0; w < words; ++w) close(w);
    keep_first(firsts);
    return agree(layer_count, found.load(), expanded.load(), generated.load());
  }

  void farthest(ExploreResult& res) { gather_farthest(cl_, first_, keep_farthest_, res); }

 private:
  // One thread's state in layer_threads(): where it stopped, its buffers and counts.
  struct Worker {
    static constexpr std::uint64_t kNone = ~std::uint64_t{0};
    std::vector<std::uint64_t> send, counts;  // per owner j: send[j * thread_stride, + counts[j])
    std::uint64_t chunk = kNone, w = 0, rest = 0, word_mask = 0;
    bool resume = false, late = false, failed = false, broken = false;
    std::uint64_t found = 0, expanded = 0, generated = 0;
    void reset() {
      chunk = kNone, resume = late = failed = broken = false;
      found = expanded = generated = 0;
    }
  };
  static constexpr std::uint64_t kChunkWords = 1 << 10;  // 32768 states a task

  const D& d_;
  Cluster& cl_;
  const int k_, me_;
  const StatePartition& part_;
  const ExchangeLayout layout_;
  const std::uint64_t lo_, stride_;
  TwoBitTable table_;
  TwoBitTable* const dist3_;
  const std::size_t keep_farthest_;
  const Limits& lim_;
  // Claims for rank j are buffered in send_[j*stride_, ...), send_counts_[j] of them.
  std::vector<std::uint64_t> send_, recv_, send_counts_, recv_counts_, coded_counts_;
  std::vector<std::uint64_t> first_;  // the lowest ranks of this rank's part of the last layer
  std::uint64_t layer_count_ = 0;
  std::string note_;
  std::unique_ptr<tbb::task_arena> arena_;  // with several threads (none: the calling thread alone)
  std::uint64_t seen_ = 0;                  // states of every layer so far (all ranks)
  bool backward_fits_ = false;              // a bitmap of the whole frontier fits the budget
  std::vector<Worker> workers_;
  std::optional<ClaimBitmaps> bitmaps_;  // when they fit the budget (and there are other ranks)
};

}  // namespace detail

template <RankedDomain D>
ExploreResult explore_distributed(const D& d, std::span<const std::uint64_t> sources, std::size_t keep_farthest,
                                  const Limits& lim, bool keep_distances) {
  Cluster& cl = *lim.cluster;
  const int k = cl.size(), me = cl.rank();
  const std::uint64_t n = d.size();
  const StatePartition part(n, k);
  const std::uint64_t lo = part.first(me), mine = part.end(me) - lo;
  const std::uint64_t cap = exchange_cap(lim.memory, k);
  ExploreResult res;
  res.table_bytes = TwoBitTable::bytes_for(n) * (keep_distances ? 2 : 1);  // over all ranks
  // The same need on every rank (the largest block), so all ranks agree to refuse, or to
  // keep their shares on disk (--spill: explore_spill.h, a rank's block in parts).
  const std::uint64_t need = part.block_bytes() * (keep_distances ? 2 : 1) + ExchangeLayout(cap, lim.threads).bytes(k);
  if (!lim.spill.empty() && need > lim.memory) return explore_spill(d, sources, keep_farthest, lim, keep_distances);
  require_memory(need, lim.memory,
                 fmt::format("a share of the 2-bit state table ({} ranks){} and its exchange buffers", k,
                             keep_distances ? " with the distances mod 3" : ""));
  std::unique_ptr<TwoBitTable> dist3;
  if (keep_distances) {
    dist3 = std::make_unique<TwoBitTable>(mine);
    dist3->fill(3);
  }
  {
    detail::ClusterLayers<D> layers(d, sources, keep_farthest, lim, part, dist3.get());
    run_layers(layers, res, lim, n);
  }
  res.stats.stored = n;
  if (dist3) {
    res.distances = std::move(dist3);
    res.distances_first = lo;
    res.distances_cluster = &cl;
  }
  return res;
}

}  // namespace tansaku::search
