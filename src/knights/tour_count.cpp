// The split frontier count of closed tours (tour_count.h): the plan of the steps, the compact
// key of a frontier state, the layers kept as parts in fixed-size chunks, and the merge of each
// part in a table of its own on the threads.
#include "knights/tour_count.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "tansaku/core/bits.h"
#include "tansaku/core/cluster.h"
#include "tansaku/core/error.h"
#include "tansaku/core/memory.h"

namespace tansaku::knights {
namespace {

using u128 = unsigned __int128;
constexpr std::uint64_t kEmpty = ~0ull;
constexpr int kMaxSlots = 30;
// States a chunk of a part holds; parts a layer is split into at most; states a part aims at.
constexpr std::uint32_t kChunk = 2048;
constexpr unsigned kMaxParts = 4096;
constexpr double kPartStates = 1 << 16;
// Ranks (a Cluster): each layer has at least this many parts a rank, the parts go round the
// ranks (part p is rank p mod K's), and the exchange sends at most this many 64-bit words to
// each rank a round.
constexpr unsigned kPartsPerRank = 16;
constexpr std::uint64_t kExchangeWords = 1 << 18;

// Bits a key of `slots` frontier vertices may need: two for each vertex's kind (degree 0,
// degree 2, the first or the second end of a path), and for each second end the position of
// its partner among the paths still open, which is largest when every path opens first.
int key_bits(int slots) {
  int bits = 2 * slots;
  for (int open = slots / 2; open >= 1; --open) bits += std::bit_width(static_cast<unsigned>(open - 1));
  return bits;
}

// What one step (taking vertex v) needs to know.
struct Step {
  int k = 0;                        // frontier before the step: slots 0..k-1; v is slot k
  std::vector<std::int8_t> back;    // slots of v's neighbours taken earlier
  std::vector<std::int8_t> leaves;  // slots 0..k that leave the frontier after this step
  std::vector<std::int8_t> keep;    // slots 0..k that stay, in order: the next frontier
  std::vector<std::int8_t> newpos;  // per slot 0..k: position in keep, or -1
  std::vector<std::int8_t> rem;     // per slot 0..k: neighbours taken after v
  std::vector<std::int8_t> watch;   // staying slots with rem < 2 (may be unable to reach degree 2)
  bool final = false;
  // Kind bits (of the key before this step) of the slots that neither touch v nor leave: their
  // degrees are the same before and after the step, so states that differ there never merge.
  std::uint64_t part_mask = 0;
};

std::vector<Step> make_steps(const graph::AdjacencyGraph& adj, int& width) {
  const int n = static_cast<int>(adj.size());
  std::vector<int> last(n);
  for (int u = 0; u < n; ++u) {
    last[u] = u;
    for (int w : adj[u]) last[u] = std::max(last[u], w);
  }
  std::vector<Step> steps(n);
  std::vector<int> front;
  width = 0;
  for (int v = 0; v < n; ++v) {
    Step& st = steps[v];
    st.k = static_cast<int>(front.size());
    if (st.k + 1 > kMaxSlots || key_bits(st.k) > 64)
      throw InputError(fmt::format("the split count: a frontier of {} vertices does not fit its 64-bit key", st.k));
    for (int u : adj[v])
      if (u < v)
        st.back.push_back(static_cast<std::int8_t>(std::lower_bound(front.begin(), front.end(), u) - front.begin()));
    std::sort(st.back.begin(), st.back.end());
    std::vector<int> cur = front;
    cur.push_back(v);
    std::vector<int> next;
    st.newpos.assign(cur.size(), -1);
    st.rem.assign(cur.size(), 0);
    for (std::size_t i = 0; i < cur.size(); ++i) {
      for (int w : adj[cur[i]]) st.rem[i] += w > v;
      const auto i8 = static_cast<std::int8_t>(i);
      if (last[cur[i]] <= v) {
        st.leaves.push_back(i8);
        continue;
      }
      st.newpos[i] = static_cast<std::int8_t>(st.keep.size());
      st.keep.push_back(i8);
      next.push_back(cur[i]);
      if (st.rem[i] < 2) st.watch.push_back(i8);
      const bool touched =
          static_cast<int>(i) == st.k || std::find(st.back.begin(), st.back.end(), i8) != st.back.end();
      if (!touched) st.part_mask |= 3ull << (2 * i);
    }
    st.final = v == n - 1;
    if (key_bits(static_cast<int>(st.keep.size())) > 64)
      throw InputError(
          fmt::format("the split count: a frontier of {} vertices does not fit its 64-bit key", st.keep.size()));
    width = std::max({width, st.k, static_cast<int>(st.keep.size())});
    front = std::move(next);
  }
  return steps;
}

// The part of a state (before a step with `mask`) among 2^bits parts: a hash of the degrees of
// the masked slots (kinds 2 and 3, the two ends of a path, are both degree 1).
inline unsigned part_of(std::uint64_t key, std::uint64_t mask, int bits) {
  if (bits == 0) return 0;
  std::uint64_t x = key & mask;
  x &= ~((x >> 1) & 0x5555555555555555ull);
  return static_cast<unsigned>(bits::mix64(x ^ 0x9e3779b97f4a7c15ull) >> (64 - bits));
}

struct CountOverflow {};

// What a checkpoint must match: the graph (its size and every adjacency list).
std::uint64_t fingerprint(const graph::AdjacencyGraph& g) {
  std::uint64_t h = bits::mix64(static_cast<std::uint64_t>(g.size()) + 0x51);
  for (int v = 0; v < static_cast<int>(g.size()); ++v)
    for (int w : g[v]) h = bits::mix64(h ^ (static_cast<std::uint64_t>(v) << 32 | static_cast<std::uint32_t>(w)));
  return h;
}

// The header of a checkpoint file (native byte order: it is read back on the same machine).
struct CheckpointHeader {
  char magic[8] = {'T', 'K', 'S', 'P', 'L', 'I', 'T', '1'};
  std::uint64_t graph = 0;
  std::uint32_t count_bytes = 0;
  std::int32_t step = 0;  // the next step to take
  std::uint64_t parts = 0, states = 0, widest = 0, done = 0;
  double growth = 0;
};

// Chunks of a layer written to disk when memory runs short (only with a checkpoint directory):
// appended under a lock, read back at their offsets from any thread.
class SpillFile {
 public:
  explicit SpillFile(std::filesystem::path path) : path_(std::move(path)) {}
  SpillFile(const SpillFile&) = delete;
  ~SpillFile() {
    if (fd_ >= 0) {
      ::close(fd_);
      std::error_code ec;
      std::filesystem::remove(path_, ec);
    }
  }
  std::uint64_t write(const void* data, std::size_t bytes) {
    std::lock_guard lock(mu_);
    if (fd_ < 0) {
      fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
      if (fd_ < 0) throw LimitError(fmt::format("the split count: cannot write {}", path_.string()));
    }
    const std::uint64_t at = end_;
    if (::pwrite(fd_, data, bytes, static_cast<off_t>(at)) != static_cast<ssize_t>(bytes))
      throw LimitError(fmt::format("the split count: cannot write {} (disk full?)", path_.string()));
    end_ += bytes;
    return at;
  }
  void read(std::uint64_t at, void* data, std::size_t bytes) const {
    if (::pread(fd_, data, bytes, static_cast<off_t>(at)) != static_cast<ssize_t>(bytes))
      throw LimitError(fmt::format("the split count: cannot read {}", path_.string()));
  }

 private:
  std::filesystem::path path_;
  std::mutex mu_;
  int fd_ = -1;
  std::uint64_t end_ = 0;
};

struct File {
  std::FILE* f = nullptr;
  File(const std::filesystem::path& p, const char* mode) : f(std::fopen(p.c_str(), mode)) {}
  ~File() {
    if (f) std::fclose(f);
  }
  File(const File&) = delete;
};

inline bool add_to(std::uint64_t& a, std::uint64_t b) { return __builtin_add_overflow(a, b, &a); }
inline bool add_to(u128& a, u128 b) {
  const u128 old = a;
  a += b;
  return a < old;
}

template <class Count>
struct Entry {
  std::uint64_t key;
  Count count;
};

// Every chunk ever made, kept for reuse until the count ends (all chunks are one size, so the
// memory held is the most that was live at once).
template <class Count>
class ChunkPool {
 public:
  struct Chunk {
    std::uint32_t n = 0;
    Entry<Count> e[kChunk];
  };
  ChunkPool(std::atomic<std::uint64_t>& bytes, std::uint64_t budget) : bytes_(bytes), budget_(budget) {}
  Chunk* get() {
    {
      std::lock_guard lock(mu_);
      if (!free_.empty()) {
        Chunk* c = free_.back();
        free_.pop_back();
        c->n = 0;
        return c;
      }
    }
    if (bytes_.fetch_add(sizeof(Chunk)) + sizeof(Chunk) > budget_)
      throw LimitError(fmt::format("the split count: its layers outgrow the memory budget ({})", format_size(budget_)));
    auto owned = std::make_unique<Chunk>();
    Chunk* c = owned.get();
    std::lock_guard lock(mu_);
    all_.push_back(std::move(owned));
    return c;
  }
  void put(Chunk* c) {
    std::lock_guard lock(mu_);
    free_.push_back(c);
  }

 private:
  std::atomic<std::uint64_t>& bytes_;
  std::uint64_t budget_;
  std::mutex mu_;
  std::vector<std::unique_ptr<Chunk>> all_;
  std::vector<Chunk*> free_;
};

template <class Count>
class SplitCount {
 public:
  using Pool = ChunkPool<Count>;
  using Chunk = typename Pool::Chunk;
  using E = Entry<Count>;

  struct Part {
    std::vector<Chunk*> chunks;
    std::vector<std::pair<std::uint64_t, std::uint32_t>> spilled;  // chunks on disk: offset, states
    std::uint64_t size = 0;
  };

  // One thread's merge table (open addressing, reused from part to part and left empty).
  class Table {
   public:
    Table() = default;
    Table(const Table&) = delete;
    ~Table() { release(); }
    void setup(std::atomic<std::uint64_t>* bytes, std::uint64_t budget) { bytes_ = bytes, budget_ = budget; }
    std::uint64_t bytes() const { return alloc_ * sizeof(E); }
    // Ready for about n states (the table is empty).
    void prepare(std::uint64_t n) {
      std::size_t want = 1024;
      while (static_cast<double>(want) * 0.6 < static_cast<double>(n)) want *= 2;
      if (want > alloc_) reallocate(want);
      cap_ = want, mask_ = want - 1, size_ = 0;
    }
    void prefetch(std::uint64_t h) const { __builtin_prefetch(&slots_[h & mask_], 1); }
    // False on a count overflow.
    bool add(std::uint64_t key, std::uint64_t h, Count c) {
      if ((size_ + 1) * 10 > cap_ * 7) grow(), h = bits::mix64(key);
      std::size_t i = h & mask_;
      while (slots_[i].key != kEmpty && slots_[i].key != key) i = (i + 1) & mask_;
      E& e = slots_[i];
      if (e.key == kEmpty) {
        e.key = key, e.count = c, ++size_;
        return true;
      }
      return !add_to(e.count, c);
    }
    // Calls f(key, count) for each state and empties the table.
    template <class F>
    void drain(F&& f) {
      for (std::size_t i = 0; i < cap_; ++i)
        if (slots_[i].key != kEmpty) {
          f(slots_[i].key, slots_[i].count);
          slots_[i].key = kEmpty;
        }
      size_ = 0;
    }

   private:
    void reallocate(std::size_t want) {
      const std::uint64_t need = want * sizeof(E);
      if (bytes_->fetch_add(need) + need > budget_) {
        bytes_->fetch_sub(need);
        throw LimitError(
            fmt::format("the split count: its tables outgrow the memory budget ({})", format_size(budget_)));
      }
      std::unique_ptr<E[]> fresh(new E[want]);
      for (std::size_t i = 0; i < want; ++i) fresh[i].key = kEmpty;
      const std::size_t mask = want - 1;
      for (std::size_t i = 0; i < cap_; ++i) {
        if (slots_[i].key == kEmpty) continue;
        std::size_t j = bits::mix64(slots_[i].key) & mask;
        while (fresh[j].key != kEmpty) j = (j + 1) & mask;
        fresh[j] = slots_[i];
      }
      release();
      slots_ = std::move(fresh), alloc_ = want;
    }
    void grow() {
      const std::size_t keep = size_;
      reallocate(cap_ * 2);
      cap_ = alloc_, mask_ = cap_ - 1, size_ = keep;
    }
    void release() {
      if (bytes_ && alloc_) bytes_->fetch_sub(alloc_ * sizeof(E));
      slots_.reset(), alloc_ = 0;
    }
    std::unique_ptr<E[]> slots_;
    std::size_t alloc_ = 0, cap_ = 0, mask_ = 0, size_ = 0;
    std::atomic<std::uint64_t>* bytes_ = nullptr;
    std::uint64_t budget_ = ~0ull;
  };

  SplitCount(const std::vector<Step>& steps, const search::Limits& lim, const SplitCountOptions& o, std::uint64_t graph)
      : steps_(steps), lim_(lim), o_(o), graph_(graph) {
    if (lim.cluster && lim.cluster->size() > 1) cl_ = lim.cluster, ranks_ = cl_->size(), me_ = cl_->rank();
    counting_ = ranks_ > 1 ? fmt::format("{} on {} ranks (this rank's share)", o.counting, ranks_) : o.counting;
  }

  // Successors of `key` at step st: emit(next_key) for each, accept() for each complete cycle.
  template <class Emit, class Accept>
  static void expand(const Step& st, std::uint64_t key, Emit&& emit, Accept&& accept) {
    const int k = st.k;
    std::int8_t deg0[kMaxSlots + 1], mate0[kMaxSlots + 1];
    {
      // Paths opened so far, by opening order: their first ends, and the ones still open.
      std::int8_t opener[kMaxSlots];
      unsigned open = 0;
      int opened = 0;
      std::uint64_t extra = k ? key >> (2 * k) : key;
      for (int i = 0; i < k; ++i) {
        const unsigned t = static_cast<unsigned>(key >> (2 * i)) & 3u;
        const auto i8 = static_cast<std::int8_t>(i);
        mate0[i] = i8;
        deg0[i] = static_cast<std::int8_t>(t == 0 ? 0 : t == 1 ? 2 : 1);
        if (t == 2) {
          opener[opened] = i8, open |= 1u << opened, ++opened;
        } else if (t == 3) {
          const int w = std::bit_width(static_cast<unsigned>(std::popcount(open) - 1));
          int p = static_cast<int>(extra & ((1ull << w) - 1));
          extra >>= w;
          unsigned m = open;
          for (; p > 0; --p) m &= m - 1;
          const int q = std::countr_zero(m);
          open &= ~(1u << q);
          const std::int8_t j = opener[q];
          mate0[i] = j, mate0[j] = i8;
        }
      }
    }
    deg0[k] = 0, mate0[k] = static_cast<std::int8_t>(k);
    // A leaving vertex that is not complete needs its last edge now (degree 1) or is dead.
    const int nb = static_cast<int>(st.back.size());
    unsigned avail = 0, required = 0;
    for (int j = 0; j < nb; ++j)
      if (deg0[st.back[j]] < 2) avail |= 1u << j;
    for (const std::int8_t i : st.leaves) {
      if (i == k || deg0[i] == 2) continue;
      if (deg0[i] == 0) return;
      const auto at = std::find(st.back.begin(), st.back.end(), i);
      if (at == st.back.end()) return;
      required |= 1u << (at - st.back.begin());
    }
    if ((required & avail) != required || std::popcount(required) > 2) return;
    // Untouched slots that can no longer reach degree 2: dead whatever v does.
    for (const std::int8_t i : st.watch)
      if (i != k && deg0[i] + st.rem[i] < 2 && std::find(st.back.begin(), st.back.end(), i) == st.back.end()) return;
    const unsigned free_edges = avail & ~required;
    auto one = [&](unsigned mask) {
      std::int8_t deg[kMaxSlots + 1], mate[kMaxSlots + 1];
      std::memcpy(deg, deg0, static_cast<std::size_t>(k + 1));
      std::memcpy(mate, mate0, static_cast<std::size_t>(k + 1));
      bool cycle = false;
      for (unsigned m = mask; m; m &= m - 1) {
        const int a = st.back[std::countr_zero(m)];
        const int oa = deg[a] == 0 ? a : mate[a], ob = deg[k] == 0 ? k : mate[k];
        ++deg[a], ++deg[k];
        if (oa == k) {  // joins the two ends of one path
          if (!st.final) return;
          cycle = true;
          continue;
        }
        mate[oa] = static_cast<std::int8_t>(ob), mate[ob] = static_cast<std::int8_t>(oa);
      }
      for (const std::int8_t i : st.leaves)
        if (deg[i] != 2) return;
      if (st.final) {
        if (cycle) accept();
        return;
      }
      for (const std::int8_t i : st.watch)
        if (deg[i] + st.rem[i] < 2) return;
      // The key: kinds in the low bits, then the partners of second ends.
      std::uint64_t out = 0, extra = 0;
      int ebits = 0, opened = 0;
      unsigned open = 0;              // paths still open, by opening order
      std::int8_t id[kMaxSlots + 1];  // per first end: its path's opening order
      const int kk = static_cast<int>(st.keep.size());
      for (int j = 0; j < kk; ++j) {
        const int i = st.keep[j];
        if (deg[i] != 1) {
          out |= static_cast<std::uint64_t>(deg[i] >> 1) << (2 * j);
          continue;
        }
        if (st.newpos[mate[i]] > j) {
          out |= 2ull << (2 * j);
          id[i] = static_cast<std::int8_t>(opened), open |= 1u << opened, ++opened;
          continue;
        }
        out |= 3ull << (2 * j);
        const unsigned q = static_cast<unsigned>(id[mate[i]]);
        const int p = std::popcount(open & ((1u << q) - 1));
        extra |= static_cast<std::uint64_t>(p) << ebits;
        ebits += std::bit_width(static_cast<unsigned>(std::popcount(open) - 1));
        open &= ~(1u << q);
      }
      if (kk < 32) out |= extra << (2 * kk);
      emit(out);
    };
    // v takes at most two edges: the required ones and up to 2 - |required| more.
    one(required);
    for (unsigned a = free_edges; a; a &= a - 1) {
      const unsigned ea = a & -a;
      if (std::popcount(required) < 2) one(required | ea);
      if (std::popcount(required) == 0)
        for (unsigned b = a & (a - 1); b; b &= b - 1) one(ea | (b & -b));
    }
  }

  SplitCountStats run() {
    SplitCountStats stats;
    std::atomic<std::uint64_t> bytes{0};
    std::atomic<std::uint64_t> peak{0};
    auto note_peak = [&] {
      const std::uint64_t now = bytes.load();
      std::uint64_t seen = peak.load();
      while (now > seen && !peak.compare_exchange_weak(seen, now)) {}
    };
    Pool pool(bytes, lim_.memory);
    // Spill files of the layer being read and of the layer being written (declared after the
    // pool and before the parts, so they go before the chunks they index).
    std::unique_ptr<SpillFile> cur_spill, next_spill;
    if (!o_.checkpoint.empty())
      spill_at_ = o_.spill_above         ? o_.spill_above
                  : lim_.memory == ~0ull ? 0
                                         : static_cast<std::uint64_t>(0.8 * static_cast<double>(lim_.memory));
    const int n = static_cast<int>(steps_.size());
    const unsigned threads = std::max(1u, lim_.threads);
    tbb::task_arena arena(static_cast<int>(threads));
    struct Worker {
      Table table;
      std::vector<Chunk*> out;
      Count acc = 0;
      bool over = false;
    };
    tbb::enumerable_thread_specific<Worker> workers;
    // The first layer: the empty frontier, once (part 0: rank 0's).
    std::vector<Part> cur(1);
    if (me_ == 0) {
      cur[0].chunks.push_back(pool.get());
      cur[0].chunks[0]->e[0] = {0, Count(1)};
      cur[0].chunks[0]->n = 1;
      cur[0].size = 1;
    }
    // States of the layer (all ranks'), of this rank's share, and expanded by this rank in the
    // steps before.
    std::uint64_t cur_size = 1, cur_local = me_ == 0 ? 1 : 0, done_states = 0;
    double growth = 2.0;
    const auto t0 = std::chrono::steady_clock::now();
    Count total = 0;
    int first = 0;
    if (!o_.checkpoint.empty() && load(pool, cur, first, stats, growth, done_states)) {
      cur_size = 0;
      for (const Part& p : cur) cur_size += p.size;
      stats.resumed_at = first;
      resumed_states_ = done_states;
    }
    Stopwatch since_save;
    for (int v = first; v < n; ++v) {
      if (lim_.deadline && !cl_) lim_.deadline->check();  // ranks: agreed after the step
      const Step& st = steps_[v];
      // The parts of the next layer.
      int next_bits = 0;
      if (!st.final && steps_[v + 1].part_mask) {
        unsigned want = o_.parts;
        if (want == 0) {
          const double expect = static_cast<double>(cur_size) * growth;
          want = 1;
          while (want < kMaxParts && static_cast<double>(want) * kPartStates < expect) want *= 2;
          if (cl_) want = std::max(want, std::bit_ceil(kPartsPerRank * static_cast<unsigned>(ranks_)));
        }
        next_bits = std::bit_width(std::min(std::max(want, 1u), kMaxParts)) - 1;
      }
      const unsigned next_parts = 1u << next_bits;
      stats.parts = std::max(stats.parts, next_parts);
      const std::uint64_t next_mask = st.final ? 0 : steps_[v + 1].part_mask;
      std::vector<Part> next(next_parts);
      std::vector<std::mutex> next_mu(next_parts);
      std::vector<unsigned> order(cur.size());
      for (unsigned i = 0; i < cur.size(); ++i) order[i] = i;
      std::sort(order.begin(), order.end(), [&](unsigned a, unsigned b) { return cur[a].size > cur[b].size; });
      std::atomic<std::uint64_t> step_done{0}, step_parts{0};
      const std::size_t my_parts = (cur.size() + static_cast<std::size_t>(ranks_ - me_ - 1)) / ranks_;
      if (spill_at_ && !next_spill)
        next_spill = std::make_unique<SpillFile>(std::filesystem::path(o_.checkpoint) /
                                                 fmt::format("{}.spill{}", file_name(), v % 2));
      auto push = [&](unsigned p, Chunk* c) {
        if (spill_at_ && bytes.load(std::memory_order_relaxed) > spill_at_) {  // memory runs short: to disk
          const std::uint64_t at = next_spill->write(c->e, c->n * sizeof(E));
          {
            std::lock_guard lock(next_mu[p]);
            next[p].spilled.emplace_back(at, c->n);
            next[p].size += c->n;
          }
          spilled_states_ += c->n;
          pool.put(c);
          return;
        }
        std::lock_guard lock(next_mu[p]);
        next[p].chunks.push_back(c);
        next[p].size += c->n;
      };
      auto expand_layer = [&] {
        arena.execute([&] {
          tbb::parallel_for(
              tbb::blocked_range<std::size_t>(0, order.size(), 1),
              [&](const auto& range) {
                Worker& w = workers.local();
                if (w.table.bytes() == 0) w.table.setup(&bytes, lim_.memory);
                w.out.resize(std::max<std::size_t>(w.out.size(), next_parts), nullptr);
                for (std::size_t r = range.begin(); r < range.end(); ++r) {
                  Part& part = cur[order[r]];
                  if (part.size == 0) continue;
                  w.table.prepare(static_cast<std::uint64_t>(static_cast<double>(part.size) * growth * 1.2) + 16);
                  // Pending table adds, prefetched a few adds ahead (the lookups miss the cache).
                  constexpr unsigned kRing = 8;
                  struct Pending {
                    std::uint64_t key, hash;
                    Count count;
                  };
                  Pending ring[kRing];
                  unsigned head = 0, pending = 0;
                  auto flush_one = [&] {
                    const Pending& e = ring[(head - pending) % kRing];
                    w.over |= !w.table.add(e.key, e.hash, e.count);
                    --pending;
                  };
                  auto eat = [&](Chunk* c) {
                    if (lim_.deadline && lim_.deadline->expired()) throw LimitError(lim_.deadline->message());
                    for (std::uint32_t i = 0; i < c->n; ++i) {
                      const Count cnt = c->e[i].count;
                      expand(
                          st, c->e[i].key,
                          [&](std::uint64_t key) {
                            if (pending == kRing) flush_one();
                            const std::uint64_t h = bits::mix64(key);
                            w.table.prefetch(h);
                            ring[head++ % kRing] = {key, h, cnt};
                            ++pending;
                          },
                          [&] { w.over |= add_to(w.acc, cnt); });
                    }
                    const std::uint64_t done = step_done.fetch_add(c->n) + c->n;
                    pool.put(c);
                    if (lim_.progress && tbb::this_task_arena::current_thread_index() == 0)
                      progress(v, n, step_parts.load(), my_parts, done, cur_local, done_states, t0);
                  };
                  for (Chunk* c : part.chunks) eat(c);
                  part.chunks.clear();
                  for (auto [at, count] : part.spilled) {
                    Chunk* c = pool.get();
                    cur_spill->read(at, c->e, count * sizeof(E));
                    c->n = count;
                    eat(c);
                  }
                  part.spilled.clear();
                  while (pending) flush_one();
                  if (w.over) throw CountOverflow{};
                  w.table.drain([&](std::uint64_t key, Count cnt) {
                    const unsigned p = part_of(key, next_mask, next_bits);
                    Chunk*& o = w.out[p];
                    if (!o) o = pool.get();
                    o->e[o->n++] = {key, cnt};
                    if (o->n == kChunk) push(p, o), o = nullptr;
                  });
                  step_parts.fetch_add(1);
                  note_peak();
                }
              },
              tbb::simple_partitioner());
        });
        for (Worker& w : workers) {
          if (w.over) throw CountOverflow{};
          for (unsigned p = 0; p < w.out.size(); ++p)
            if (w.out[p]) push(p, w.out[p]), w.out[p] = nullptr;
        }
      };
      std::uint64_t next_size = 0, next_local = 0;
      if (!cl_) {
        expand_layer();
        for (const Part& p : next) next_size += p.size, stats.largest_part = std::max(stats.largest_part, p.size);
        next_local = next_size;
      } else {
        // Ranks: a failure here is agreed before anyone stops, so no rank is left waiting in
        // a collective; then the next layer's parts go to the ranks that own them.
        std::uint64_t fails[kFails] = {};
        try {
          expand_layer();
        } catch (const CountOverflow&) {
          fails[kOverflow] = 1;
        } catch (const LimitError&) {
          fails[lim_.deadline && lim_.deadline->expired() ? kLate : kMemory] = 1;
        } catch (const std::bad_alloc&) {
          fails[kMemory] = 1;
        } catch (const std::exception&) {
          fails[kBroken] = 1;
        }
        if (lim_.deadline && lim_.deadline->expired()) fails[kLate] = 1;
        std::vector<std::uint64_t> global(next_parts, 0);
        share_layer(pool, bytes, fails, next, next_mask, next_bits, global);
        note_peak();
        for (std::uint64_t size : global) next_size += size, stats.largest_part = std::max(stats.largest_part, size);
        for (const Part& p : next) next_local += p.size;
      }
      done_states += cur_local;
      if (cur_size > 0 && next_size > 0)
        growth = std::clamp(static_cast<double>(next_size) / static_cast<double>(cur_size), 0.25, 4.0);
      cur.swap(next);
      cur_spill = std::move(next_spill);  // the file just read is removed
      cur_size = next_size, cur_local = next_local;
      stats.states += next_size;
      stats.widest = std::max(stats.widest, next_size);
      const int square = v + 1 - o_.leading;  // board squares taken so far
      const bool row_end = o_.row_width > 0 && square > 0 && square % o_.row_width == 0;
      const bool overdue = o_.checkpoint_seconds > 0 && since_save.seconds() >= o_.checkpoint_seconds;
      if (!o_.checkpoint.empty() && (row_end || overdue) && v + 1 < n) {
        save(pool, cur_spill.get(), cur, v + 1, stats, growth, done_states);
        since_save = Stopwatch();
        if (++saved_ == o_.stop_after) throw LimitError("the split count: stopped after its checkpoint");
      }
    }
    if (!o_.checkpoint.empty()) {
      std::error_code ec;
      std::filesystem::remove(std::filesystem::path(o_.checkpoint) / file_name(), ec);
    }
    bool over = false;
    for (Worker& w : workers) over |= add_to(total, w.acc);
    note_peak();
    stats.peak_bytes = peak.load();
    stats.spilled = spilled_states_.load();
    if (!cl_) {
      if (over) throw CountOverflow{};
      stats.count = to_mpz(total);
      return stats;
    }
    // Ranks: the counts summed exactly (as 32-bit limbs, each summed in 64 bits), the most
    // memory one rank held.
    const u128 t = total;
    std::vector<std::uint64_t> sums(5 + static_cast<std::size_t>(ranks_), 0);
    sums[0] = over ? 1 : 0;
    for (int i = 0; i < 4; ++i)
      sums[1 + static_cast<std::size_t>(i)] = static_cast<std::uint64_t>(t >> (32 * i)) & 0xffffffffu;
    sums[5 + static_cast<std::size_t>(me_)] = stats.peak_bytes;
    cl_->sum(sums);
    if (sums[0]) throw CountOverflow{};
    stats.count = 0;
    for (int i = 3; i >= 0; --i) stats.count = (stats.count << 32) + to_mpz(sums[1 + static_cast<std::size_t>(i)]);
    stats.peak_bytes = *std::max_element(sums.begin() + 5, sums.end());
    return stats;
  }

 private:
  // The checkpoint's file, named by the graph so counts of different boards share a directory.
  std::string file_name() const { return fmt::format("knight-tour-split-{:016x}.layer", graph_); }

  // Writes the layer before step `step` to the checkpoint directory (a new file, then renamed
  // over the old one, so a crash leaves the previous checkpoint whole).
  void save(Pool& pool, const SpillFile* spill, const std::vector<Part>& parts, int step, const SplitCountStats& stats,
            double growth, std::uint64_t done) const {
    const std::filesystem::path dir(o_.checkpoint), tmp = dir / (file_name() + ".new");
    CheckpointHeader h;
    h.graph = graph_, h.count_bytes = sizeof(Count), h.step = step, h.parts = parts.size();
    h.states = stats.states, h.widest = stats.widest, h.done = done, h.growth = growth;
    {
      File out(tmp, "wb");
      bool ok = out.f && std::fwrite(&h, sizeof h, 1, out.f) == 1;
      for (const Part& p : parts) {
        if (lim_.deadline) lim_.deadline->check();
        ok = ok && std::fwrite(&p.size, sizeof p.size, 1, out.f) == 1;
        for (const Chunk* c : p.chunks) ok = ok && std::fwrite(c->e, sizeof(E), c->n, out.f) == c->n;
        if (!p.spilled.empty()) {
          Chunk* c = pool.get();
          for (auto [at, count] : p.spilled) {
            spill->read(at, c->e, count * sizeof(E));
            ok = ok && std::fwrite(c->e, sizeof(E), count, out.f) == count;
          }
          pool.put(c);
        }
      }
      ok = ok && std::fflush(out.f) == 0;
      if (!ok) throw LimitError(fmt::format("the split count: cannot write its checkpoint {}", tmp.string()));
    }
    std::error_code ec;
    std::filesystem::rename(tmp, dir / file_name(), ec);
    if (ec)
      throw LimitError(
          fmt::format("the split count: cannot write its checkpoint in {}: {}", dir.string(), ec.message()));
  }

  // Reads a checkpoint of this graph, if there is one: true when the count resumes from it.
  bool load(Pool& pool, std::vector<Part>& parts, int& step, SplitCountStats& stats, double& growth,
            std::uint64_t& done) const {
    File in(std::filesystem::path(o_.checkpoint) / file_name(), "rb");
    if (!in.f) return false;
    CheckpointHeader h, want;
    if (std::fread(&h, sizeof h, 1, in.f) != 1 || std::memcmp(h.magic, want.magic, sizeof h.magic) != 0 ||
        h.graph != graph_ || h.count_bytes != sizeof(Count) || h.step <= 0 ||
        h.step >= static_cast<int>(steps_.size()) || h.parts == 0 || h.parts > kMaxParts)
      return false;
    std::vector<Part> got(h.parts);
    for (Part& p : got) {
      if (lim_.deadline) lim_.deadline->check();
      std::uint64_t size = 0;
      if (std::fread(&size, sizeof size, 1, in.f) != 1)
        throw InputError("the split count: its checkpoint is cut short");
      while (p.size < size) {
        Chunk* c = pool.get();
        c->n = static_cast<std::uint32_t>(std::min<std::uint64_t>(kChunk, size - p.size));
        p.chunks.push_back(c);
        if (std::fread(c->e, sizeof(E), c->n, in.f) != c->n)
          throw InputError("the split count: its checkpoint is cut short");
        p.size += c->n;
      }
    }
    parts.swap(got);
    step = h.step, growth = h.growth, done = h.done;
    stats.states = h.states, stats.widest = h.widest;
    return true;
  }

  void progress(int v, int n, std::uint64_t parts_done, std::size_t parts, std::uint64_t done, std::uint64_t layer,
                std::uint64_t before, std::chrono::steady_clock::time_point t0) const {
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    // Work left, in states to expand: the rest of this layer and as many again for each step
    // to come (the layers of the last rows shrink, so this errs long).
    // The rate counts only the states expanded since this run started (not before a resume).
    const double so_far = static_cast<double>(before + done - resumed_states_);
    const double left =
        static_cast<double>(layer - std::min(done, layer)) + static_cast<double>(layer) * (n - v - 1) * 0.8;
    const double eta = so_far > 0 ? secs * left / so_far : 0;
    const int squares = n - o_.leading, square = std::max(0, v - o_.leading);
    const int w = o_.row_width > 0 ? o_.row_width : squares;
    lim_.progress->update(
        "{}: row {} of {}, square {} of {}, part {} of {}, {} of {} states; {} states so far, about {} left", counting_,
        square / w + 1, (squares + w - 1) / w, square + 1, squares, parts_done + 1, parts, done, layer, before + done,
        format_duration(eta));
  }
  static std::string format_duration(double s) {
    if (s < 90) return fmt::format("{:.0f} s", s);
    if (s < 5400) return fmt::format("{:.0f} min", s / 60);
    return fmt::format("{:.1f} h", s / 3600);
  }

  // Ranks: what stops a step, agreed by every rank before any stops.
  enum Fail : std::size_t { kLate, kMemory, kOverflow, kBroken, kFails };

  static void put_count(std::uint64_t* out, Count c) {
    out[0] = static_cast<std::uint64_t>(c);
    if constexpr (sizeof(Count) > 8) out[1] = static_cast<std::uint64_t>(static_cast<u128>(c) >> 64);
  }
  static Count get_count(const std::uint64_t* in) {
    if constexpr (sizeof(Count) > 8) return static_cast<Count>(in[0]) | static_cast<Count>(in[1]) << 64;
    else return in[0];
  }

  std::string memory_message(std::uint64_t failed) const {
    return fmt::format("the split count: its layers outgrow the memory budget ({} a rank) on {} of {} ranks",
                       format_size(lim_.memory), failed, ranks_);
  }

  // Ranks, after each rank has expanded its parts of a layer: agrees on the step's failures
  // (`fails`: every rank then throws the same), sums the sizes of the next layer's parts into
  // `global`, and sends each part this rank made to the rank that owns it (part p is rank
  // p mod K's), in rounds of at most kExchangeWords words to each rank. The parts of
  // different ranks hold different states (a layer's parts have disjoint successors), so
  // what arrives joins its part as it is.
  void share_layer(Pool& pool, std::atomic<std::uint64_t>& bytes, const std::uint64_t* fails, std::vector<Part>& next,
                   std::uint64_t next_mask, int next_bits, std::vector<std::uint64_t>& global) {
    const auto k = static_cast<std::size_t>(ranks_), me = static_cast<std::size_t>(me_);
    const std::size_t parts = next.size();
    std::vector<std::uint64_t> agreed(kFails + parts + k * k, 0);
    std::copy_n(fails, kFails, agreed.begin());
    for (std::size_t p = 0; p < parts; ++p) {
      agreed[kFails + p] = next[p].size;
      if (p % k != me) agreed[kFails + parts + me * k + p % k] += next[p].size;
    }
    cl_->sum(agreed);
    if (agreed[kBroken])
      throw std::runtime_error(fmt::format("the split count failed on {} of {} ranks", agreed[kBroken], k));
    if (agreed[kMemory]) throw LimitError(memory_message(agreed[kMemory]));
    if (agreed[kLate]) throw LimitError(lim_.deadline ? lim_.deadline->message() : "time limit reached (--timeout)");
    if (agreed[kOverflow]) throw CountOverflow{};
    std::copy_n(agreed.begin() + kFails, parts, global.begin());
    const std::uint64_t* const flows = agreed.data() + kFails + parts;  // [from * k + to]: states
    constexpr std::uint64_t words = 1 + sizeof(Count) / 8;              // an entry: its key, its count
    constexpr std::uint64_t per = kExchangeWords / words;               // entries to one rank a round
    std::uint64_t most = 0;
    for (std::size_t i = 0; i < k; ++i)
      for (std::size_t j = 0; j < k; ++j)
        if (i != j) most = std::max(most, flows[i * k + j]);
    if (most == 0) return;
    const std::uint64_t stride = std::min(most, per) * words;
    if (send_.size() < k * stride) {
      bytes.fetch_add(2 * (k * stride - send_.size()) * sizeof(std::uint64_t));
      send_.resize(k * stride), recv_.resize(k * stride);
    }
    std::vector<std::uint64_t> send_counts(k), recv_counts(k);
    std::vector<std::size_t> at(k);  // per rank: the next of its parts to send
    for (std::size_t j = 0; j < k; ++j) at[j] = j;
    std::vector<Chunk*> inbox(parts, nullptr);
    bool failed = false;
    for (std::uint64_t round = 0, rounds = (most + per - 1) / per; round < rounds; ++round) {
      for (std::size_t j = 0; j < k; ++j) {
        std::uint64_t* const out = send_.data() + j * stride;
        std::uint64_t c = 0;
        while (j != me && c + words <= stride && at[j] < parts) {
          Part& part = next[at[j]];
          if (part.chunks.empty()) {
            part.size = 0;
            at[j] += k;
            continue;
          }
          Chunk* ch = part.chunks.back();
          while (ch->n > 0 && c + words <= stride) {
            const E& e = ch->e[--ch->n];
            out[c] = e.key;
            put_count(out + c + 1, e.count);
            c += words;
          }
          if (ch->n == 0) pool.put(ch), part.chunks.pop_back();
        }
        send_counts[j] = c;
      }
      cl_->exchange(send_, send_counts, stride, recv_, recv_counts);
      for (std::size_t i = 0; i < k && !failed; ++i) {
        if (i == me) continue;
        const std::uint64_t* const in = recv_.data() + i * stride;
        for (std::uint64_t c = 0; c < recv_counts[i]; c += words) {
          const std::uint64_t key = in[c];
          const unsigned p = part_of(key, next_mask, next_bits);
          Chunk*& o = inbox[p];
          if (!o) {
            try {
              o = pool.get();
            } catch (const LimitError&) {
              failed = true;  // the rounds go on (the others wait for them), then all stop
              break;
            } catch (const std::bad_alloc&) {
              failed = true;
              break;
            }
          }
          o->e[o->n++] = {key, get_count(in + c + 1)};
          ++next[p].size;
          if (o->n == kChunk) next[p].chunks.push_back(o), o = nullptr;
        }
      }
    }
    for (std::size_t p = 0; p < parts; ++p) {
      if (inbox[p]) next[p].chunks.push_back(inbox[p]);
      if (p % k != me) next[p].size = 0;
    }
    std::uint64_t fail = failed ? 1 : 0;
    cl_->sum(std::span<std::uint64_t>(&fail, 1));
    if (fail) throw LimitError(memory_message(fail));
  }

  const std::vector<Step>& steps_;
  const search::Limits& lim_;
  const SplitCountOptions& o_;
  std::uint64_t graph_;
  Cluster* cl_ = nullptr;  // the ranks that share the count (nullptr: this process alone)
  int ranks_ = 1, me_ = 0;
  std::string counting_;                    // what the progress line says is counted
  std::vector<std::uint64_t> send_, recv_;  // the exchange's buffers (ranks)
  int saved_ = 0;
  std::uint64_t spill_at_ = 0;                    // pool bytes beyond which finished chunks go to disk
  std::atomic<std::uint64_t> spilled_states_{0};  // states written to disk, all steps
  std::uint64_t resumed_states_ = 0;              // states expanded before the checkpoint this run resumed
};

}  // namespace

SplitCountStats count_cycles_split(const graph::AdjacencyGraph& g, const search::Limits& limits,
                                   const SplitCountOptions& o) {
  if (!o.checkpoint.empty() && limits.cluster && limits.cluster->size() > 1)
    throw InputError(split_checkpoint_refusal(limits.cluster->size()));
  SplitCountStats stats;
  const int n = static_cast<int>(g.size());
  if (n < 3) return stats;
  // A cycle alternates the two colours of a bipartite graph: with unequal classes there is none.
  std::vector<int> colour(n, -1);
  int balance = 0;
  for (int s = 0; s < n; ++s) {
    if (colour[s] >= 0) continue;
    colour[s] = 0;
    std::vector<int> queue{s};
    for (std::size_t h = 0; h < queue.size(); ++h)
      for (int w : g[queue[h]]) {
        if (colour[w] < 0) colour[w] = 1 - colour[queue[h]], queue.push_back(w);
        else if (colour[w] == colour[queue[h]]) balance = n;  // not bipartite: no argument
      }
  }
  if (balance == 0) {
    for (int s = 0; s < n; ++s) balance += colour[s] ? 1 : -1;
    if (balance != 0) return stats;
  }
  int width = 0;
  const std::vector<Step> steps = make_steps(g, width);
  if (!o.checkpoint.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(o.checkpoint, ec);
    if (!std::filesystem::is_directory(o.checkpoint))
      throw InputError(fmt::format("--checkpoint {}: not a directory that can be made", o.checkpoint));
  }
  const std::uint64_t graph = fingerprint(g);
  try {
    stats = SplitCount<std::uint64_t>(steps, limits, o, graph).run();
  } catch (const CountOverflow&) {
    stats = SplitCount<u128>(steps, limits, o, graph).run();
  }
  stats.frontier = width;
  return stats;
}

SplitCountStats count_paths_split(const graph::AdjacencyGraph& g, int from, const search::Limits& limits,
                                  SplitCountOptions o) {
  const int n = static_cast<int>(g.size());
  if (n == 1 && from <= 0) {  // the path of one vertex: no cycle stands for it
    SplitCountStats one;
    one.count = 1;
    return one;
  }
  // From a given vertex: hub 0 is joined to that vertex and to hub 1, hub 1 to every other
  // vertex, so each cycle is from - ... - x - hub 1 - hub 0 - from: one directed path from it.
  const int hubs = from >= 0 ? 2 : 1;
  std::vector<std::vector<int>> lists(static_cast<std::size_t>(n + hubs));
  const int spoke = hubs - 1;  // the hub joined to the board's squares
  if (from >= 0) lists[0] = {1, from + hubs}, lists[1] = {0};
  for (int v = 0; v < n; ++v) {
    auto& l = lists[static_cast<std::size_t>(v + hubs)];
    if (v == from) l.push_back(0);
    else l.push_back(spoke), lists[static_cast<std::size_t>(spoke)].push_back(v + hubs);
    for (int w : g[v]) l.push_back(w + hubs);
  }
  o.leading = hubs;
  o.counting = "open tours";
  return count_cycles_split(graph::AdjacencyGraph(lists), limits, o);
}

std::string split_checkpoint_refusal(int ranks) {
  return fmt::format(
      "--checkpoint: the split count keeps no checkpoint when it runs on {} ranks (mpirun); run it "
      "in one process to keep one",
      ranks);
}

namespace {
// The widest layer in chunks: 16 bytes a state, chunks about 95% full.
double layer_bytes(double widest) { return widest * 16 / 0.95; }
// Each thread's merge table for its largest part (2% of the layer) and its open chunks, and
// the program itself.
double overhead_bytes(double widest, unsigned threads) {
  return std::max(1u, threads) * (widest * 0.02 * 16 / 0.6 + 4096.0 * kChunk * 16) + 64e6;
}
std::uint64_t clamp_bytes(double b) { return static_cast<std::uint64_t>(std::min(b, 1e19)); }
}  // namespace

std::uint64_t split_count_bytes(double widest, unsigned threads, int ranks) {
  if (ranks <= 1) return clamp_bytes(layer_bytes(widest) + overhead_bytes(widest, threads));
  // A rank's share of the layer (the parts do not fall quite evenly: a quarter more), and
  // while a step ends its share of the next layer with what it still has to send; the
  // exchange's buffers, to send and to receive.
  const double k = ranks;
  const double share = layer_bytes(widest) / k * 1.25;
  return clamp_bytes(share + overhead_bytes(widest, threads) + 2 * k * kExchangeWords * 8);
}

SplitNeed split_count_need(double widest, unsigned threads, std::uint64_t budget) {
  const double layer = layer_bytes(widest), cap = 0.8 * static_cast<double>(budget);
  SplitNeed need;
  need.memory = clamp_bytes(std::min(layer, cap) + overhead_bytes(widest, threads));
  need.disk = clamp_bytes(2 * std::max(0.0, layer - cap) + widest * 16);
  return need;
}

}  // namespace tansaku::knights
