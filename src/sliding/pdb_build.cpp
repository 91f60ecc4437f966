// Filling a pattern database: a layered backward breadth-first search over (placement of the
// group's tiles, region of the blank). The blank roams its region of free cells for free;
// a group tile moving into that region costs 1. Per placement three bit-sets hold the blank
// positions already expanded (`seen`), those of the current layer (`cur`) and of the next
// (`nxt`); a placement's first expansion fixes its distance. Two representations of a blank
// position, same table (BuildState): `cells`, a bit per free cell (in increasing cell
// order; fastest: a successor's bit is a popcount), and `regions`, a bit per connected
// region of the free cells (regions in order of their lowest cell; a successor's bit needs
// its regions, so a flood fill unless a bitmap over free-cell sets says it is connected):
// 7 tiles on 5x5 split the 18 free cells into at most 8 regions, one byte per mask instead
// of four (3 instead of 12 bytes per entry: 7.2 instead of 29 GB). Chunks of placements are
// expanded in parallel; the next layer is written with relaxed atomic ORs, and a flag per
// chunk lets a layer skip chunks with nothing to do. With a checkpoint (tansaku/pdb/
// checkpoint.h) the whole state (table, entries, chunk flags, counters) is saved after a
// layer when a save is due and when the deadline stops the build: chunks are expanded whole
// or not at all, so a build stopped inside a layer goes on with that layer's chunks left.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "sliding/pdb.h"
#include "tansaku/core/bits.h"
#include "tansaku/core/error.h"

namespace tansaku::sliding::pdb {
namespace {

constexpr int kChunkBits = 16;
constexpr std::uint64_t kChunk = std::uint64_t{1} << kChunkBits;

int mask_bytes(int free_cells) { return free_cells <= 8 ? 1 : free_cells <= 16 ? 2 : free_cells <= 32 ? 4 : 8; }

struct Board {
  int rows, cols, n;
  std::uint64_t full, not_first_col = 0, not_last_col = 0;
  std::uint64_t adj[64] = {};
  Board(int r, int c) : rows(r), cols(c), n(r * c), full(n == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1) {
    for (int i = 0; i < n; ++i) {
      const int x = i % c;
      if (x != 0) not_first_col |= std::uint64_t{1} << i;
      if (x != c - 1) not_last_col |= std::uint64_t{1} << i;
    }
    for (int i = 0; i < n; ++i) adj[i] = grow(std::uint64_t{1} << i) & ~(std::uint64_t{1} << i);
  }
  std::uint64_t grow(std::uint64_t m) const {
    return (m | ((m & not_last_col) << 1) | ((m & not_first_col) >> 1) | (m << cols) | (m >> cols)) & full;
  }
  // The connected part of `free` that holds `start`.
  std::uint64_t flood(std::uint64_t start, std::uint64_t free) const {
    std::uint64_t r = start;
    while (true) {
      const std::uint64_t g = grow(r) & free;
      if (g == r) return r;
      r = g;
    }
  }
};

// What the placements' free-cell sets look like: the most regions one splits into, and (on
// boards of at most kConnectedCells cells) a bitmap indexed by the free-cell mask saying
// whether it is connected. Found by enumerating the k-subsets of cells, when there are at
// most kEnumerate of them; otherwise a bound (each region touches a tile, a tile touches at
// most 4 regions) and no bitmap.
constexpr int kConnectedCells = 26;
constexpr std::uint64_t kEnumerate = std::uint64_t{1} << 26;

std::uint64_t choose(int n, int k) {
  std::uint64_t c = 1;
  for (int i = 0; i < k; ++i) {
    c = c * static_cast<std::uint64_t>(n - i) / static_cast<std::uint64_t>(i + 1);
    if (c > kEnumerate) return kEnumerate + 1;
  }
  return c;
}

struct FreeSets {
  int max_regions = 1;
  std::vector<std::uint64_t> connected;  // bit f: the free-cell set f is connected
  bool is_connected(std::uint64_t f) const { return (connected[f >> 6] >> (f & 63)) & 1; }
};

FreeSets free_sets(int rows, int cols, int k, bool bitmap) {
  const Board board(rows, cols);
  const int n = board.n;
  FreeSets fs;
  if (choose(n, k) > kEnumerate) {
    fs.max_regions = std::min(n - k, 4 * k);
    return fs;
  }
  bitmap = bitmap && n <= kConnectedCells;
  if (bitmap) fs.connected.assign((std::uint64_t{1} << n) / 64 + 1, 0);
  // Gosper's hack over the k-subsets of n cells (the tiles); 0 < k < n.
  std::uint64_t t = (std::uint64_t{1} << k) - 1;
  for (std::uint64_t left = choose(n, k); left; --left) {
    const std::uint64_t free = board.full & ~t;
    int regions = 0;
    for (std::uint64_t rest = free; rest; ++regions) rest &= ~board.flood(rest & (~rest + 1), free);
    fs.max_regions = std::max(fs.max_regions, regions);
    if (bitmap && regions == 1) fs.connected[free >> 6] |= std::uint64_t{1} << (free & 63);
    if (left > 1) {
      const std::uint64_t low = t & (~t + 1), ripple = t + low;
      t = ripple | (((t ^ ripple) >> 2) / low);
    }
  }
  return fs;
}

// Per placement: blank positions expanded, in this layer's frontier, in the next layer's
// (frontier[depth & 1] is the current layer). One struct so a successor costs one cache miss.
template <class M>
struct Entry {
  M seen, frontier[2];
};

template <class M, bool kParallel, bool kRegions>
class Bfs {
 public:
  Bfs(const TableInfo& info, std::uint8_t* nib, const search::Limits& bo, const FreeSets* fs,
      tansaku::pdb::Checkpoint* cp)
      : info_(info), board_(info.rows, info.cols), ranker_(info.n(), info.k()), nib_(nib), bo_(bo), fs_(fs), cp_(cp) {
    const int k = info.k();
    for (int i = 0; i < k; ++i)
      for (int c = 0; c < board_.n; ++c) {
        const int g = info.cells[i];
        md_[i][c] = static_cast<std::uint8_t>(std::abs(c / info.cols - g / info.cols) + std::abs(c % info.cols - g % info.cols));
      }
    size_ = ranker_.size();
    chunks_ = (size_ + kChunk - 1) >> kChunkBits;
    entry_ = make_huge<Entry<M>>(size_);
    flag_[0].assign(chunks_, 0);
    flag_[1].assign(chunks_, 0);
  }

  int run() {
    int last = 0, start = 0;
    std::uint64_t start_before = 0;
    if (!resume(start, start_before, last)) {
      start_before = 0;
      std::uint8_t pos[KPermRanker::kMaxPieces];
      std::uint64_t used = 0;
      for (int i = 0; i < info_.k(); ++i) pos[i] = info_.cells[i], used |= std::uint64_t{1} << pos[i];
      const std::uint64_t free = board_.full & ~used;
      const std::uint64_t r0 = ranker_.rank(pos);
      entry_[r0].frontier[0] =
          kRegions ? region_bit(info_.blank, free)
                   : static_cast<M>(bits::extract(board_.flood(std::uint64_t{1} << info_.blank, free), free));
      flag_[0][r0 >> kChunkBits] = 1;
    }
    tbb::task_arena arena(static_cast<int>(std::max(1u, bo_.threads)));
    for (depth_ = start;; ++depth_) {
      std::vector<std::uint32_t> todo;
      for (std::uint64_t c = 0; c < chunks_; ++c)
        if (flag_[depth_ & 1][c]) todo.push_back(static_cast<std::uint32_t>(c));
      if (todo.empty()) break;
      const std::size_t batch = std::max<std::size_t>(4 * std::max(1u, bo_.threads), todo.size() / 32);
      // reached_ when the layer began (a build resumed inside a layer saved it).
      const std::uint64_t before = depth_ == start ? start_before : reached_.load();
      for (std::size_t b = 0; b < todo.size(); b += batch) {
        const std::size_t e = std::min(todo.size(), b + batch);
        // A chunk (65,536 placements) is the unit of work between looks at the deadline, so a
        // limit stops the build within a chunk per thread, however large the batch.
        std::atomic<bool> stop{false};
        auto work = [&](std::size_t i) {
          if (stop.load(std::memory_order_relaxed)) return;
          if (bo_.deadline && bo_.deadline->expired()) {
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
        if (stop.load() || (bo_.deadline && bo_.deadline->expired())) {
          save(depth_, before, reached_.load() != before ? depth_ : last);  // inside the layer
          bo_.deadline->check();
        }
        if (bo_.progress)
          bo_.progress->update("pdb {} tiles: depth {}, {} of {} placements ({:.1f}%)", info_.k(), depth_,
                               reached_.load(), size_, 100.0 * static_cast<double>(reached_.load()) / static_cast<double>(size_));
      }
      if (reached_.load() != before) last = depth_;
      // The chunks just expanded left their frontier all zero: it serves the layer after next.
      std::fill(flag_[depth_ & 1].begin(), flag_[depth_ & 1].end(), 0);
      if (cp_ && cp_->due()) save(depth_ + 1, reached_.load(), last);
      if (cp_ && cp_->after_layer) cp_->after_layer(depth_);
    }
    // Placements never reached (possible on small boards, and the unsolvable half when the
    // group is the whole board) keep 0: no real position projects onto them.
    if (reached_.load() == 0) throw std::logic_error("pdb build reached nothing");
    return last;
  }

 private:
  std::uint64_t entry_bytes() const { return size_ * sizeof(Entry<M>); }

  // Saves the state: the build goes on at `layer`, which began with `before` placements
  // reached; `last` is the deepest layer that reached one so far.
  void save(int layer, std::uint64_t before, int last) {
    if (!cp_) return;
    if (bo_.progress)
      bo_.progress->update("pdb {} tiles: saving the partial build at depth {} ({})", info_.k(), layer,
                           cp_->file().string());
    tansaku::pdb::BuildPoint p;
    p.layer = layer;
    p.done = reached_.load();
    p.total = size_;
    p.info = {{"layer_start", before}, {"last", last}};
    const tansaku::pdb::SectionData sections[] = {{"table", nib_, info_.bytes()},
                                                  {"entries", entry_.get(), entry_bytes()},
                                                  {"flags0", flag_[0].data(), chunks_},
                                                  {"flags1", flag_[1].data(), chunks_}};
    cp_->save(p, sections, bo_.threads);
  }

  // Reads a partial build of this table and representation, if the checkpoint has one.
  bool resume(int& layer, std::uint64_t& before, int& last) {
    if (!cp_) return false;
    auto r = cp_->resume(bo_.memory, bo_.threads);
    if (!r) return false;
    auto size = [&](const char* name) { return r->has(name) ? r->section_bytes(name) : UINT64_MAX; };
    if (size("table") != info_.bytes() || size("entries") != entry_bytes() || size("flags0") != chunks_ ||
        size("flags1") != chunks_)
      return false;  // same identity, other sizes: cannot happen unless the layout changed unnamed
    const auto p = tansaku::pdb::Checkpoint::point_of(*r);
    r->section_into("table", nib_, bo_.threads, false);  // resume() checked every section
    r->section_into("entries", entry_.get(), bo_.threads, false);
    r->section_into("flags0", flag_[0].data(), 1, false);
    r->section_into("flags1", flag_[1].data(), 1, false);
    layer = static_cast<int>(p.layer);
    reached_ = p.done;
    before = p.info.at("layer_start").get<std::uint64_t>();
    last = p.info.at("last").get<int>();
    cp_->note(fmt::format("{}: going on from depth {} ({} of {} placements reached)", cp_->file().string(), layer,
                          p.done, size_));
    return true;
  }

  void chunk(std::uint64_t c) {
    const std::uint64_t lo = c << kChunkBits, hi = std::min(size_, lo + kChunk);
    std::uint8_t d[KPermRanker::kMaxPieces];
    std::uint64_t q = lo;
    ranker_.digits(lo, d);
    std::uint64_t reached = 0;
    const int cur = depth_ & 1;
    // Successors are applied one expanded placement late, so that their cache lines, fetched
    // ahead, arrive while the next placement is worked on.
    Succ pending[2][kMaxSucc];
    int npending = 0, side = 0;
    for (std::uint64_t p = lo; p < hi; ++p) {
      const M m = entry_[p].frontier[cur];
      if (!m) continue;
      entry_[p].frontier[cur] = 0;
      if (p - q <= 64) {
        for (; q < p; ++q) ranker_.next_digits(d);
      } else {
        ranker_.digits(p, d);
        q = p;
      }
      int nsucc = 0;
      reached += expand(p, m, d, pending[side ^ 1], nsucc);
      apply(pending[side], npending);
      side ^= 1;
      npending = nsucc;
    }
    apply(pending[side], npending);
    reached_.fetch_add(reached, std::memory_order_relaxed);
  }

  struct Succ {
    std::uint64_t rank;
    M bit;
  };
  static constexpr int kMaxSucc = 4 * KPermRanker::kMaxPieces;

  void apply(const Succ* succ, int n) {
    const int nxt = (depth_ + 1) & 1;
    for (int i = 0; i < n; ++i) {
      Entry<M>& e = entry_[succ[i].rank];
      const M bit = succ[i].bit;
      std::uint8_t& flag = flag_[nxt][succ[i].rank >> kChunkBits];
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

  // Expands the blank regions of placement p named in m into successors (prefetched);
  // returns 1 on its first expansion.
  int expand(std::uint64_t p, M m, const std::uint8_t* d, Succ* succ, int& nsucc) {
    std::uint8_t pos[KPermRanker::kMaxPieces];
    const std::uint64_t free = board_.full & ~ranker_.positions(d, pos);
    M s = load(entry_[p].seen);
    m &= static_cast<M>(~s);
    if (!m) return 0;
    int first = s == 0;
    if (first) {
      int md = 0;
      for (int i = 0; i < info_.k(); ++i) md += md_[i][pos[i]];
      const int e = std::min(15, (depth_ - md) / 2);
      nib_[p >> 1] |= static_cast<std::uint8_t>(e << ((p & 1) * 4));
    }
    // Re-ranking after tile i moves c -> b: its digit changes by the cells it passes that are
    // not taken by tiles before it, and every later tile standing strictly between c and b
    // changes its digit by one (+1 if c < its cell < b, -1 if b < its cell < c).
    const int k = info_.k();
    std::uint64_t prefix[KPermRanker::kMaxPieces + 1];  // cells of tiles 0..i-1
    std::int8_t tile_at[64];
    prefix[0] = 0;
    for (int i = 0; i < k; ++i) {
      prefix[i + 1] = prefix[i] | (std::uint64_t{1} << pos[i]);
      tile_at[pos[i]] = static_cast<std::int8_t>(i);
    }
    if constexpr (kRegions) {
      if (connected(free)) {  // one region: m is its bit
        s |= m;
        successors(p, free, free, pos, prefix, tile_at, succ, nsucc);
      } else {
        std::uint64_t rest = free;
        for (M bit = 1; m; bit = static_cast<M>(bit << 1)) {
          const std::uint64_t region = board_.flood(rest & (~rest + 1), free);
          rest &= ~region;
          if (!(m & bit)) continue;
          m &= static_cast<M>(~bit);
          s |= bit;
          successors(p, free, region, pos, prefix, tile_at, succ, nsucc);
        }
      }
    } else {
      while (m) {
        const std::uint64_t start = bits::deposit(std::uint64_t{1} << bits::lowest(m), free);
        const std::uint64_t region = board_.flood(start, free);
        const M rc = static_cast<M>(bits::extract(region, free));
        m &= static_cast<M>(~rc);
        s |= rc;
        successors(p, free, region, pos, prefix, tile_at, succ, nsucc);
      }
    }
    store(entry_[p].seen, s);
    return first;
  }

  bool connected(std::uint64_t free) const {
    if (!fs_->connected.empty()) return fs_->is_connected(free);
    return board_.flood(free & (~free + 1), free) == free;
  }

  // The bit of the region of `free` holding cell c: regions are numbered by their lowest cell.
  M region_bit(int c, std::uint64_t free) const {
    if (connected(free)) return 1;
    const std::uint64_t r = board_.flood(std::uint64_t{1} << c, free);
    std::uint64_t below = free & ((r & (~r + 1)) - 1);
    int index = 0;
    for (; below; ++index) below &= ~board_.flood(below & (~below + 1), free);
    return static_cast<M>(M{1} << index);
  }

  // The moves of group tiles into `region` (the blank's) from placement p.
  void successors(std::uint64_t p, std::uint64_t free, std::uint64_t region, const std::uint8_t* pos,
                  const std::uint64_t* prefix, const std::int8_t* tile_at, Succ* succ, int& nsucc) {
    const int k = info_.k();
    for (int i = 0; i < k; ++i) {
      const int c = pos[i];
      std::uint64_t to = board_.adj[c] & region;
      while (to) {
        const int b = bits::lowest(to);
        to &= to - 1;
        std::uint64_t r = p;
        const int lo = std::min(b, c), hi = std::max(b, c);
        const std::uint64_t between = ((std::uint64_t{1} << hi) - 1) & ~((std::uint64_t{2} << lo) - 1);
        const std::int64_t dir = b > c ? 1 : -1;
        // digit of tile i: cells between not taken by earlier tiles, plus the step itself
        r += static_cast<std::uint64_t>(dir * (1 + (hi - lo - 1) - bits::popcount(between & prefix[i]))) * ranker_.weight(i);
        for (std::uint64_t later = between & ~prefix[i + 1] & ~free; later; later &= later - 1)
          r += static_cast<std::uint64_t>(dir) * ranker_.weight(tile_at[bits::lowest(later)]);
        const std::uint64_t nfree = free ^ (std::uint64_t{1} << b) ^ (std::uint64_t{1} << c);
        __builtin_prefetch(&entry_[r], 1);
        const M bit = kRegions ? region_bit(c, nfree)
                               : static_cast<M>(M{1} << bits::popcount(nfree & ((std::uint64_t{1} << c) - 1)));
        succ[nsucc++] = Succ{r, bit};
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

  const TableInfo& info_;
  Board board_;
  KPermRanker ranker_;
  std::uint8_t* nib_;
  const search::Limits& bo_;
  const FreeSets* fs_;  // regions only
  tansaku::pdb::Checkpoint* cp_;
  std::uint8_t md_[KPermRanker::kMaxPieces][64];
  std::uint64_t size_ = 0, chunks_ = 0;
  HugeArray<Entry<M>> entry_;
  std::vector<std::uint8_t> flag_[2];  // per chunk: something in frontier[i]
  std::atomic<std::uint64_t> reached_{0};
  int depth_ = 0;
};

using Cp = tansaku::pdb::Checkpoint;

template <class M, bool kRegions>
int run(const TableInfo& info, std::uint8_t* nib, const search::Limits& bo, const FreeSets* fs, Cp* cp) {
  if (bo.threads > 1) return Bfs<M, true, kRegions>(info, nib, bo, fs, cp).run();
  return Bfs<M, false, kRegions>(info, nib, bo, fs, cp).run();
}

template <bool kRegions>
int run_width(int bytes, const TableInfo& info, std::uint8_t* nib, const search::Limits& bo, const FreeSets* fs,
              Cp* cp) {
  switch (bytes) {
    case 1:
      return run<std::uint8_t, kRegions>(info, nib, bo, fs, cp);
    case 2:
      return run<std::uint16_t, kRegions>(info, nib, bo, fs, cp);
    case 4:
      return run<std::uint32_t, kRegions>(info, nib, bo, fs, cp);
    default:
      return run<std::uint64_t, kRegions>(info, nib, bo, fs, cp);
  }
}

// The builder's name in a partial file: the state's layout (a bit per cell or per region,
// mask bytes) is part of it, so a partial build resumes only with the same layout.
std::string layout_name(BuildState state) {
  return state == BuildState::regions ? "sliding-bfs 1 regions " : "sliding-bfs 1 cells ";
}
std::string builder_name(BuildState state, int mask) { return layout_name(state) + std::to_string(mask); }

std::uint64_t bitmap_bytes(const TableInfo& info) {
  return info.n() <= kConnectedCells && choose(info.n(), info.k()) <= kEnumerate ? (std::uint64_t{1} << info.n()) / 8 + 8 : 0;
}

}  // namespace

int max_regions(const TableInfo& info) { return free_sets(info.rows, info.cols, info.k(), false).max_regions; }

std::uint64_t build_memory(const TableInfo& info, BuildState state) {
  if (state == BuildState::automatic) throw std::logic_error("build_memory: choose a representation");
  const std::uint64_t e = info.entries();
  const bool regions = state == BuildState::regions;
  const int mask = mask_bytes(regions ? max_regions(info) : info.n() - info.k());
  return info.bytes() + 3 * e * static_cast<std::uint64_t>(mask) + (e >> kChunkBits) * 2 + 4096 +
         (regions ? bitmap_bytes(info) : 0);
}

BuildState build_state_for(const TableInfo& info, std::uint64_t budget) {
  // The faster bit per free cell when it fits, else bits per region when they take less.
  const std::uint64_t cells = build_memory(info, BuildState::cells);
  if (cells <= budget) return BuildState::cells;
  return build_memory(info, BuildState::regions) < cells ? BuildState::regions : BuildState::cells;
}

std::uint64_t state_bytes(const TableInfo& info, BuildState state) {
  const std::uint64_t e = info.entries();
  const int mask = mask_bytes(state == BuildState::regions ? max_regions(info) : info.n() - info.k());
  return info.bytes() + 3 * e * static_cast<std::uint64_t>(mask) + 2 * ((e + kChunk - 1) >> kChunkBits);
}

tansaku::pdb::Checkpoint checkpoint(const TableInfo& info, const std::filesystem::path& file, double interval,
                                    std::function<void(const std::string&)> note) {
  return tansaku::pdb::Checkpoint(file, {table_kind_name(), content_hash(info), ""}, interval, std::move(note));
}

std::shared_ptr<Table> build_table(const TableInfo& info, const search::Limits& bo, BuildState state, Cp* cp) {
  if (info.k() < 1 || info.k() >= info.n() || info.blank < 0 || info.blank >= info.n())
    throw std::logic_error("build_table: bad table description");
  if (state == BuildState::automatic && cp) {
    // A partial build goes on in its own layout when that fits the budget.
    const auto saved = cp->saved_builder();
    for (BuildState s : {BuildState::cells, BuildState::regions})
      if (saved && saved->starts_with(layout_name(s)) && build_memory(info, s) <= bo.memory) state = s;
  }
  if (state == BuildState::automatic) state = build_state_for(info, bo.memory);
  auto data = make_huge<std::uint8_t>(info.bytes());  // zeroed
  int last = 0;
  if (state == BuildState::regions) {
    const FreeSets fs = free_sets(info.rows, info.cols, info.k(), true);
    if (cp) cp->set_builder(builder_name(state, mask_bytes(fs.max_regions)));
    last = run_width<true>(mask_bytes(fs.max_regions), info, data.get(), bo, &fs, cp);
  } else {
    if (cp) cp->set_builder(builder_name(state, mask_bytes(info.n() - info.k())));
    last = run_width<false>(mask_bytes(info.n() - info.k()), info, data.get(), bo, nullptr, cp);
  }
  auto t = std::make_shared<Table>(info, std::move(data));
  t->origin = "memory";
  t->max_distance = last;
  return t;
}

}  // namespace tansaku::sliding::pdb
