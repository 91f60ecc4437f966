// Counting knight's tours on boards whose frontier tables outgrow memory (8x8 closed): a
// frontier dp whose states take 16 bytes (a compact canonical key and a 64-bit count) and whose
// layers are split into parts by the degrees of frontier squares a step does not touch, so each
// part is merged in a small table of its own and the parts run on every thread; under mpirun
// (limits.cluster) the parts of each layer are shared among the ranks.
#pragma once
#include <cstdint>
#include <string>

#include "tansaku/core/count.h"
#include "tansaku/graph/graph.h"
#include "tansaku/search/limits.h"

namespace tansaku::knights {

struct SplitCountOptions {
  // Parts each layer is split into: 0 = chosen from the layer's size; 1 = no split.
  unsigned parts = 0;
  // The board's width, for the progress line (which row the count is in) and the checkpoints;
  // 0 = unknown.
  int row_width = 0;
  // A directory for a checkpoint: the layer after each finished row is saved there, and a
  // count of the same graph resumes from it ("" = none). Removed when the count ends.
  std::string checkpoint;
  // With a checkpoint directory: also save after any step once this many seconds have passed
  // since the last save (or the start), so a long row is not lost whole (0: at row ends only).
  double checkpoint_seconds = 1800;
  // With a checkpoint directory: once the layers hold this many bytes, finished chunks of the
  // next layer go to a file there and are read back when their part is taken (0: 80% of
  // limits.memory).
  std::uint64_t spill_above = 0;
  // Stop with a LimitError after saving this many checkpoints, as an interrupted count would
  // (0: never).
  int stop_after = 0;
  // Vertices placed before the board's squares (count_paths_split's hub vertices): the
  // progress line and the row ends count squares after them.
  int leading = 0;
  // What the progress line says is being counted.
  std::string counting = "closed tours";
};

struct SplitCountStats {
  mpz_class count = 0;             // Hamiltonian cycles, each once
  std::uint64_t states = 0;        // frontier states summed over all steps
  std::uint64_t widest = 0;        // largest layer
  int frontier = 0;                // largest number of frontier vertices
  unsigned parts = 1;              // most parts of one layer
  std::uint64_t largest_part = 0;  // most states in one part
  std::uint64_t peak_bytes = 0;    // largest memory the layers and tables held at once
  int resumed_at = -1;             // the step a checkpoint resumed the count at (-1: none)
  std::uint64_t spilled = 0;       // states written to disk for lack of memory, all steps
};

// Hamiltonian cycles of `g`, whose vertices are processed in index order (number them along
// the board's narrow direction). Uses limits.threads, memory, deadline and progress; throws
// LimitError on the memory budget or the deadline, InputError when a frontier state does not
// fit the 64-bit key (graphs much wider than a 9-wide board).
// With limits.cluster of K > 1 ranks (every rank calls it with the same graph and options),
// part p of each layer is rank p mod K's: each rank expands its parts and sends the next
// layer's parts to their owners through the cluster's exchange; limits.memory is each rank's
// budget; a deadline or a budget met on one rank stops all of them (agreed after each step,
// the same LimitError on every rank); every rank returns the same count and statistics
// (peak_bytes: the most one rank held). No checkpoint: o.checkpoint is refused (InputError).
SplitCountStats count_cycles_split(const graph::AdjacencyGraph& g, const search::Limits& limits,
                                   const SplitCountOptions& o = {});

// Hamiltonian paths of `g` (open tours): each path once when `from` < 0, else the paths that
// start at vertex `from`. Counted as the cycles of `g` with a hub in front of vertex 0 (joined
// to every vertex, so a cycle through it is a path of `g` between two of them; from a given
// vertex, a second hub joined to the first and to that vertex only). Fails as
// count_cycles_split does; `o.leading` and `o.counting` are set here.
SplitCountStats count_paths_split(const graph::AdjacencyGraph& g, int from, const search::Limits& limits,
                                  SplitCountOptions o = {});

// Bytes count_cycles_split is expected to need when its widest layer holds `widest` states (on
// each of `ranks` ranks: its share of the layer and the exchange's buffers).
std::uint64_t split_count_bytes(double widest, unsigned threads, int ranks = 1);

// The one-line refusal of a checkpoint directory for a count on `ranks` > 1 ranks.
std::string split_checkpoint_refusal(int ranks);

// The same within a memory budget when it may spill (a checkpoint directory): the memory it
// keeps (its layers stop at 80% of the budget) and the disk it needs in that directory (the
// spilled chunks of two layers and a checkpoint of the widest layer).
struct SplitNeed {
  std::uint64_t memory = 0, disk = 0;
};
SplitNeed split_count_need(double widest, unsigned threads, std::uint64_t budget);

}  // namespace tansaku::knights
