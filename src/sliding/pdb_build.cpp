// Filling a sliding pattern database: the puzzle as the shared layer's free-move build
// (tansaku/pdb/free_move_build.h) sees it. A rank is a placement of the group's tiles, a
// sub-state a position of the blank; the blank roams its region of free cells for free, a
// group tile moving into that region costs 1, and a placement's first expansion writes its
// entry ((distance - manhattan) / 2 in a 4-bit cell). Two representations of a blank
// position, same table (BuildState): `cells`, a bit per free cell (in increasing cell order;
// fastest: a successor's bit is a popcount), and `regions`, a bit per connected region of the
// free cells (regions in order of their lowest cell; a successor's bit needs its regions, so
// a flood fill unless a bitmap over free-cell sets says it is connected): 7 tiles on 5x5
// split the 18 free cells into at most 8 regions, one byte per mask instead of four (3
// instead of 12 bytes per entry: 7.2 instead of 29 GB).
#include <algorithm>
#include <cstdlib>
#include <span>
#include <stdexcept>

#include <fmt/format.h>

#include "sliding/pdb.h"
#include "tansaku/core/bits.h"
#include "tansaku/pdb/free_move_build.h"

namespace tansaku::sliding::pdb {
namespace {

using tansaku::pdb::kFreeMoveChunkBits;

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

// The free-move domain of a group's table: ranks are placements (KPermRanker), the sub-states
// of one the blank's positions, M's bits naming free cells (kRegions false) or regions.
template <class M, bool kRegions>
class Placements {
 public:
  using Mask = M;
  static constexpr int kMaxSuccessors = 4 * KPermRanker::kMaxPieces;

  // The Lehmer digits of a placement, stepped like an odometer along a chunk.
  class Cursor {
   public:
    explicit Cursor(const KPermRanker& r) : ranker_(&r) {}
    void at(std::uint64_t rank) { ranker_->digits(rank, d_); }
    void advance() { ranker_->next_digits(d_); }
    const std::uint8_t* digits() const { return d_; }

   private:
    const KPermRanker* ranker_;
    std::uint8_t d_[KPermRanker::kMaxPieces];
  };
  // A placement: the cell of each tile, and the cells no group tile takes.
  struct Node {
    std::uint8_t pos[KPermRanker::kMaxPieces];
    std::uint64_t free;
  };

  Placements(const TableInfo& info, std::uint8_t* nib, const FreeSets* fs)
      : info_(info), board_(info.rows, info.cols), ranker_(info.n(), info.k()), nib_(nib), fs_(fs) {
    for (int i = 0; i < info.k(); ++i)
      for (int c = 0; c < board_.n; ++c) {
        const int g = info.cells[i];
        md_[i][c] = static_cast<std::uint8_t>(std::abs(c / info.cols - g / info.cols) + std::abs(c % info.cols - g % info.cols));
      }
  }

  std::uint64_t size() const { return ranker_.size(); }
  Cursor cursor() const { return Cursor(ranker_); }
  Node node(const Cursor& c) const {
    Node v;
    v.free = board_.full & ~ranker_.positions(c.digits(), v.pos);
    return v;
  }

  // The group home, the blank in the free region of its goal cell.
  template <class Emit>
  void start(Emit&& emit) const {
    std::uint8_t pos[KPermRanker::kMaxPieces];
    std::uint64_t used = 0;
    for (int i = 0; i < info_.k(); ++i) pos[i] = info_.cells[i], used |= std::uint64_t{1} << pos[i];
    const std::uint64_t free = board_.full & ~used;
    emit(ranker_.rank(pos),
         kRegions ? region_bit(info_.blank, free)
                  : static_cast<M>(bits::extract(board_.flood(std::uint64_t{1} << info_.blank, free), free)));
  }

  // e = (distance - manhattan of the group) / 2, clamped at 15 (so a lower bound), in the
  // rank's 4-bit cell (two ranks per byte: one chunk, one thread).
  void first_expansion(std::uint64_t p, const Node& v, int depth) const {
    int md = 0;
    for (int i = 0; i < info_.k(); ++i) md += md_[i][v.pos[i]];
    const int e = std::min(15, (depth - md) / 2);
    nib_[p >> 1] |= static_cast<std::uint8_t>(e << ((p & 1) * 4));
  }

  // Expands the blank positions m of placement p: closes them into regions of free cells and
  // emits the moves of group tiles into those regions; returns the positions expanded.
  template <class Emit>
  M expand(std::uint64_t p, const Node& v, M m, Emit& emit) const {
    const std::uint64_t free = v.free;
    // Re-ranking after tile i moves c -> b: its digit changes by the cells it passes that are
    // not taken by tiles before it, and every later tile standing strictly between c and b
    // changes its digit by one (+1 if c < its cell < b, -1 if b < its cell < c).
    const int k = info_.k();
    std::uint64_t prefix[KPermRanker::kMaxPieces + 1];  // cells of tiles 0..i-1
    std::int8_t tile_at[64];
    prefix[0] = 0;
    for (int i = 0; i < k; ++i) {
      prefix[i + 1] = prefix[i] | (std::uint64_t{1} << v.pos[i]);
      tile_at[v.pos[i]] = static_cast<std::int8_t>(i);
    }
    M s = 0;
    if constexpr (kRegions) {
      if (connected(free)) {  // one region: m is its bit
        s = m;
        successors(p, free, free, v.pos, prefix, tile_at, emit);
      } else {
        std::uint64_t rest = free;
        for (M bit = 1; m; bit = static_cast<M>(bit << 1)) {
          const std::uint64_t region = board_.flood(rest & (~rest + 1), free);
          rest &= ~region;
          if (!(m & bit)) continue;
          m &= static_cast<M>(~bit);
          s |= bit;
          successors(p, free, region, v.pos, prefix, tile_at, emit);
        }
      }
    } else {
      while (m) {
        const std::uint64_t start = bits::deposit(std::uint64_t{1} << bits::lowest(m), free);
        const std::uint64_t region = board_.flood(start, free);
        const M rc = static_cast<M>(bits::extract(region, free));
        m &= static_cast<M>(~rc);
        s |= rc;
        successors(p, free, region, v.pos, prefix, tile_at, emit);
      }
    }
    return s;
  }

 private:
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
  template <class Emit>
  void successors(std::uint64_t p, std::uint64_t free, std::uint64_t region, const std::uint8_t* pos,
                  const std::uint64_t* prefix, const std::int8_t* tile_at, Emit& emit) const {
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
        emit(r, kRegions ? region_bit(c, nfree)
                         : static_cast<M>(M{1} << bits::popcount(nfree & ((std::uint64_t{1} << c) - 1))));
      }
    }
  }

  const TableInfo& info_;
  Board board_;
  KPermRanker ranker_;
  std::uint8_t* nib_;
  const FreeSets* fs_;  // regions only
  std::uint8_t md_[KPermRanker::kMaxPieces][64];
};

using Cp = tansaku::pdb::Checkpoint;

template <class M, bool kRegions>
int run(const TableInfo& info, std::uint8_t* nib, const search::Limits& lim, const FreeSets* fs, Cp* cp) {
  Placements<M, kRegions> d(info, nib, fs);
  const tansaku::pdb::FreeMoveNames names{fmt::format("pdb {} tiles", info.k()), "placements"};
  // Placements never reached (possible on small boards, and the unsolvable half when the
  // group is the whole board) keep 0: no real position projects onto them.
  return tansaku::pdb::free_move_build(d, std::span<std::uint8_t>(nib, info.bytes()), lim, cp, names).last;
}

template <bool kRegions>
int run_width(int bytes, const TableInfo& info, std::uint8_t* nib, const search::Limits& lim, const FreeSets* fs,
              Cp* cp) {
  switch (bytes) {
    case 1:
      return run<std::uint8_t, kRegions>(info, nib, lim, fs, cp);
    case 2:
      return run<std::uint16_t, kRegions>(info, nib, lim, fs, cp);
    case 4:
      return run<std::uint32_t, kRegions>(info, nib, lim, fs, cp);
    default:
      return run<std::uint64_t, kRegions>(info, nib, lim, fs, cp);
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
  return info.bytes() + 3 * e * static_cast<std::uint64_t>(mask) + (e >> kFreeMoveChunkBits) * 2 + 4096 +
         (regions ? bitmap_bytes(info) : 0);
}

BuildState build_state_for(const TableInfo& info, std::uint64_t budget) {
  // The faster bit per free cell when it fits, else bits per region when they take less.
  const std::uint64_t cells = build_memory(info, BuildState::cells);
  if (cells <= budget) return BuildState::cells;
  return build_memory(info, BuildState::regions) < cells ? BuildState::regions : BuildState::cells;
}

std::uint64_t state_bytes(const TableInfo& info, BuildState state) {
  const int mask = mask_bytes(state == BuildState::regions ? max_regions(info) : info.n() - info.k());
  return tansaku::pdb::free_move_state_bytes(info.entries(), mask, info.bytes());
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
