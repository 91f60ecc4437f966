// Additive pattern databases for sliding-tile puzzles with distinct tiles (any R x C board).
//
// Canonical frame: a table does not depend on tile names, only on goal cells. An instance is
// mapped by a symmetry of the grid that brings the blank's goal cell to the smallest cell of
// its orbit (a corner goes to cell 0), and every tile is renamed by its goal cell there; the
// goal becomes the identity. So one set of tables serves every goal with the blank in a
// corner (15-puzzle goals `0 1 ... 15` and `1 ... 15 0` alike).
//
// A table covers a group of k tiles (their goal cells): for each placement of the group
// (a k-permutation of the n cells, ranked by KPermRanker) the least number of moves OF THE
// GROUP'S TILES that bring them home, the blank anywhere (min over its position). It is
// filled by a backward breadth-first search over (placement, blank region): moving the blank
// inside the free cells costs nothing, moving a group tile costs 1. Disjoint groups add up.
// Stored per entry: e = (distance - manhattan of the group) / 2, in 4 bits (clamped at 15,
// which keeps it a lower bound), so h = manhattan(all tiles) + 2 * sum of e over groups.
// A group that a symmetry of the board fixing the blank's goal cell maps onto itself may be
// stored reduced: one entry per class of placements under those symmetries (Reduction).
#pragma once
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sliding/board.h"
#include "tansaku/core/deadline.h"
#include "tansaku/core/huge_array.h"
#include "tansaku/core/kperm.h"
#include "tansaku/core/progress.h"
#include "tansaku/core/two_bit_table.h"
#include "tansaku/pdb/checkpoint.h"
#include "tansaku/pdb/sym_classes.h"
#include "tansaku/search/limits.h"

namespace tansaku::sliding::pdb {

// Symmetries of an R x C grid as cell maps (identity first): 4, or 8 on a square board.
std::vector<std::vector<std::uint8_t>> grid_symmetries(int rows, int cols);

// An instance in its canonical frame.
struct Frame {
  int rows = 0, cols = 0, n = 0;
  int blank = 0;                          // canonical goal cell of the blank
  std::vector<std::uint8_t> to_canon;     // original cell -> canonical cell
  std::vector<std::uint8_t> from_canon;   // canonical cell -> original cell
  std::vector<std::uint8_t> label_canon;  // original label index -> canonical label (its canonical goal cell)
  // Symmetries of the canonical board that fix the blank's goal cell (identity first): the
  // reflections whose lookups are maxed with the direct one.
  std::vector<std::vector<std::uint8_t>> views;
  // canonical cell -> canonical label of what stands there (the blank is `blank`).
  std::vector<std::uint8_t> canonical(const Cells& cells) const;
};
// Requires distinct labels.
Frame make_frame(const Geometry& geo, const Cells& goal);

// What a table covers. `cells` are the group's goal cells in the canonical frame, sorted.
// `reduced`: stored one entry per class of placements (Reduction below).
struct TableInfo {
  int rows = 0, cols = 0, blank = 0;
  std::vector<std::uint8_t> cells;
  bool reduced = false;
  int n() const { return rows * cols; }
  int k() const { return static_cast<int>(cells.size()); }
  std::uint64_t placements() const;  // of the group: n! / (n - k)!
  std::uint64_t entries() const;     // stored: the placements, or their classes' cells when reduced
  std::uint64_t bytes() const { return (entries() + 1) / 2; }
  // sliding-4x4-b0-1.2.3.4.5.6.7.pdb.zst; reduced: ...-reduced.pdb.zst
  std::string file_name() const;
  TableInfo full() const {  // the same group, not reduced
    TableInfo f = *this;
    f.reduced = false;
    return f;
  }
  bool operator==(const TableInfo&) const = default;
};

// A table reduced by symmetry (pdb_reduce.cpp). The symmetries of the board that fix the
// blank's goal cell and map the group's goal cells onto themselves (the transpose of a square
// board with the blank in a corner; all 8 with the blank in the centre) map a placement to one
// as far from home: the build's start (group home, blank in the free region of its goal cell)
// is mapped onto itself, and so is every tile's Manhattan distance. The group's tiles are
// ranked in an order whose first tiles (the big part) are a union of orbits of tiles under
// those symmetries; the big part's placements fall into classes (pdb::SymClasses), and the
// table holds, per class, the entries of the placements whose big part is the class's
// representative: class x placements of the other tiles among the cells left. A lookup maps
// the placement by the symmetry that takes its big part to the representative.
class Reduction {
 public:
  // InputError when no symmetry but the identity keeps the group, or its big part cannot be
  // tabled.
  explicit Reduction(const TableInfo& info);
  int symmetries() const { return static_cast<int>(sym_.size()); }
  // The layout of the cells: the tiles (goal cells) in ranking order, and how many of the
  // first make the big part.
  std::vector<std::uint8_t> order() const { return {order_, order_ + k_}; }
  int big_tiles() const { return kb_; }
  std::uint64_t classes() const { return classes_->classes(); }
  std::uint64_t cells() const { return classes_->classes() * rest_size_; }
  // The cell of a placement: pos[tile] = its cell, tiles named by their goal cells.
  std::uint64_t cell(const std::uint8_t* pos) const;
  // The placement a cell stands for (its class's representative), as pos[tile].
  void placement(std::uint64_t cell, std::uint8_t* pos) const;

 private:
  int n_ = 0, k_ = 0, kb_ = 0;                        // cells, tiles, tiles of the big part
  std::uint8_t order_[KPermRanker::kMaxPieces] = {};  // tiles in ranking order (the big part first)
  std::vector<std::vector<std::uint8_t>> sym_;        // per symmetry: the cell (and tile) map
  // per symmetry: index j of order_ -> the index of the tile the symmetry maps onto order_[j]
  std::vector<std::vector<std::uint8_t>> from_;
  std::uint64_t rest_size_ = 1;
  std::unique_ptr<tansaku::pdb::SymClasses> classes_;  // of the big part's placements
};
// The symmetries that keep `info`'s group (identity first; only it when none does).
std::vector<std::vector<std::uint8_t>> group_symmetries(const TableInfo& info);
// The reduction of `info`'s group, made once per process.
std::shared_ptr<const Reduction> reduction_of(const TableInfo& info);

// A table's entries are the engine's 4-bit cells (TwoBitTable::get4, tansaku/core/two_bit_table.h,
// as permutation puzzles' exact pattern cells), in zeroed huge pages: builders fill the bytes
// of a HugeArray (entry r in the low or high half of byte r / 2, as get4 reads them), which
// the table takes over.
class Table {
 public:
  Table(TableInfo info, HugeArray<std::uint8_t> data);  // data: info.bytes() bytes
  const TableInfo& info() const { return info_; }
  const KPermRanker& ranker() const { return ranker_; }
  const TwoBitTable& cells() const { return *cells_; }
  const std::uint8_t* data() const { return reinterpret_cast<const std::uint8_t*>(cells_->lookup_cells()); }
  // The reduction of a reduced table (null: a full one).
  const Reduction* reduction() const { return red_.get(); }
  int excess(std::uint64_t rank) const { return static_cast<int>(cells_->get4(rank)); }
  // The entry index of a placement: pos[tile] = its cell, tiles named by their goal cells.
  std::uint64_t cell(const std::uint8_t* pos) const;
  std::string origin;         // "disk <path>" or "memory"
  double setup_seconds = 0;   // build or load time
  int max_distance = -1;      // largest group distance (known after a build)

 private:
  TableInfo info_;
  KPermRanker ranker_;
  std::shared_ptr<const Reduction> red_;
  std::unique_ptr<TwoBitTable> cells_;
};

// The table of a reduced group (info().reduced) read from its full table (one pass over the
// reduced entries; threads, progress and deadline of `lim`).
std::shared_ptr<Table> reduce_table(const Table& full, const search::Limits& lim = {});

// How a build keeps the blank positions seen / in this layer / in the next, per placement
// (the table comes out the same): `cells`, a bit per free cell (fastest), or `regions`, a
// bit per connected region of the free cells (smaller when the free cells are many: 7 tiles
// on 5x5 take 3 bytes per placement instead of 12). `automatic`: cells when they fit the
// memory budget, else regions when they take less.
enum class BuildState { automatic, cells, regions };
// Bytes a build needs at its peak (the table + three masks per entry + small change), for
// `cells` or `regions`; the representation `automatic` picks within `budget`.
std::uint64_t build_memory(const TableInfo& info, BuildState state);
BuildState build_state_for(const TableInfo& info, std::uint64_t budget);
// The most regions the free cells of one placement split into (enumerated; a bound on
// boards with too many placements' tile sets to enumerate).
int max_regions(const TableInfo& info);

// The build's budget is search::Limits' threads, progress, deadline, and memory for the
// automatic choice of representation (memory is the caller's to refuse: build_memory).
// With a checkpoint (checkpoint(): the partial file beside `file`), the build goes on from a
// partial build of the same table and representation (`automatic` picks the saved one when
// it fits the budget), saves its state after a layer when one is due, and saves it when the
// deadline stops it (then throws LimitError as without); the caller finishes the checkpoint
// once the table is saved.
std::shared_ptr<Table> build_table(const TableInfo& info, const search::Limits& lim = {},
                                   BuildState state = BuildState::automatic,
                                   tansaku::pdb::Checkpoint* checkpoint = nullptr);
// The checkpoint of the build of `info` into `file` (saves at most every `interval` seconds).
tansaku::pdb::Checkpoint checkpoint(const TableInfo& info, const std::filesystem::path& file, double interval = 60,
                                    std::function<void(const std::string&)> note = {});
// Bytes the saved state of a build takes (the build's arrays), for the disk check.
std::uint64_t state_bytes(const TableInfo& info, BuildState state);
// The content hash table files and partial builds of `info` are found by.
std::string content_hash(const TableInfo& info);
std::string table_kind_name();  // "sliding-pdb"

// Groups that are images of each other under a grid symmetry (pdb_symmetry.cpp): the
// symmetry that maps `from`'s group onto `to`'s and its build start (group home, blank in
// the free region of its goal cell) onto `to`'s, if any; then `to`'s table is `from`'s read
// through it (derive_table: one pass, no search; threads, progress and deadline of `lim`).
std::optional<std::vector<std::uint8_t>> image_symmetry(const TableInfo& from, const TableInfo& to);
std::shared_ptr<Table> derive_table(const Table& src, const TableInfo& to, const std::vector<std::uint8_t>& sym,
                                    const search::Limits& lim = {});

// The entries of a table written from another table's (derive_table, reduce_table):
// `fill(lo, hi, out)` sets entries [lo, hi) in `out` (zeroed; entry r in the low or high half
// of byte r / 2), for chunks of 2^20 entries on the threads of `lim` (no byte is shared),
// stopping at its deadline (LimitError) and showing `doing` and the share done.
HugeArray<std::uint8_t> fill_entries(std::uint64_t entries, const search::Limits& lim, const std::string& doing,
                                     const std::function<void(std::uint64_t, std::uint64_t, std::uint8_t*)>& fill);

// Compressed file (zstd frames): a small header, then the 4-bit entries.
void save_table(const Table& t, const std::filesystem::path& file, unsigned threads = 1);
TableInfo read_table_info(const std::filesystem::path& file);  // throws InputError on a bad file
std::shared_ptr<Table> load_table(const std::filesystem::path& file, unsigned threads = 1);

// $TANSAKU_PDB_DIR, else $XDG_CACHE_HOME/tansaku, else ~/.cache/tansaku.
std::filesystem::path default_dir();

// Group specifications, in the canonical frame. `spec` is either sizes ("7-8", "5-5-5": tiles
// taken in row-major order of their canonical goal cells) or explicit tile lists
// ("1,2,5/3,4,8": labels of `goal`, groups separated by '/').
std::vector<std::vector<std::uint8_t>> parse_groups(const std::string& spec, const Frame& f, const Labels& labels);
// Groups of the given sizes in row-major canonical order.
std::vector<std::vector<std::uint8_t>> groups_of_sizes(const Frame& f, const std::vector<int>& sizes);
// Sizes `tansaku pdb build` uses by default (7-8 on 4x4, 6-6-6-6 on 5x5, ...), and the small
// ones `solve` builds in memory when nothing better is on disk (5-5-5 on 4x4, 6-5 on 3x4).
std::vector<int> build_sizes(int n);
std::vector<int> quick_sizes(int n);
// The partition `tansaku pdb build` makes by default: on 5x5 (blank in a corner) Korf &
// Felner's 6-6-6-6 (AIJ 2002): tiles 1 2 5 6 7 12 around the blank, the 3x2 block 3 4 8 9 13
// 14, the 3x2 block 10 11 15 16 20 21, the 2x3 block 17 18 19 22 23 24 (goal cells, blank at
// 0); elsewhere groups_of_sizes(build_sizes(n)).
std::vector<std::vector<std::uint8_t>> default_groups(const Frame& f);
// The partitions `solve` looks for on disk before anything else, by name (`pdb build
// --partition NAME`); the one with the most entries whose tables are all there (and fit half
// the memory budget) wins, the first listed on a tie, and the others there are maxed with it.
// On 5x5 (blank in a corner): `7-7-7-3` (1 2 5 6 7 10 11 / 3 4 8 9 13 14 19 / 12 15 16 17
// 20 21 22 / 18 23 24, goal cells, blank at 0: its mirror image is another partition),
// `7-7-7-3-sym` (1 2 5 6 7 10 11 / 3 4 8 9 13 14 19 / 15 16 17 20 21 22 23 / 12 18 24:
// symmetric about the main diagonal), `7-7-7-3-columns` (3 4 8 9 13 14 19 / 5 10 11 15 16
// 20 21 / 1 2 6 7 12 17 22 / 18 23 24), Korf & Felner's `6-6-6-6`; elsewhere the default
// (named by its sizes, e.g. `7-8`).
struct KnownPartition {
  std::string name;
  std::vector<std::vector<std::uint8_t>> groups;
};
std::vector<KnownPartition> known_partitions(const Frame& f);

// Whether the cell map `sym` (a grid symmetry) maps every group onto a group of `groups`:
// then a view through it looks up the same sum as the direct one.
bool maps_onto_itself(const std::vector<std::vector<std::uint8_t>>& groups, const std::vector<std::uint8_t>& sym);

// The heuristic a solve uses: disjoint tables, their names, where they came from.
struct Heuristic {
  std::vector<std::shared_ptr<const Table>> tables;
  // Partition of each table (empty: all 0). Each partition's sum is a lower bound (in every
  // view); h takes the max over partitions and views.
  std::vector<int> part;
  std::string groups;       // "7-8"
  std::string description;  // "pdb 7-8 (disk) + reflection"
  double setup_seconds = 0; // spent loading or building for this call
  // Files of the board in the directory that do not read (an earlier version's layout,
  // damaged): "FILE: why; the way out", for the solve to say.
  std::vector<std::string> left_out;
  // The largest table of the board in the directory that was left out because it alone does
  // not fit half the memory budget (its group covered by no table taken), and its bytes:
  // for the solve's hint (empty: none).
  std::filesystem::path too_big;
  std::uint64_t too_big_bytes = 0;
};
// The best heuristic available for the frame: the strongest complete known partition on
// disk, else the largest disjoint tables found in `dir` that fit `memory`, the remaining
// tiles covered by small tables built in memory (cached for the life of the process); the
// other complete known partitions on disk that fit beside it are maxed with it. Never
// writes to disk. A table built in memory stops when `deadline` expires (LimitError).
std::shared_ptr<const Heuristic> choose_heuristic(const Frame& f, const std::filesystem::path& dir,
                                                  std::uint64_t memory, unsigned threads, Deadline* deadline = nullptr);
// Tables built in memory for explicit groups (tests, --groups): cached like the others.
std::shared_ptr<const Heuristic> memory_heuristic(const Frame& f, const std::vector<std::vector<std::uint8_t>>& groups,
                                                  unsigned threads);

}  // namespace tansaku::sliding::pdb
