// The engine's one builder of distance tables: a layered breadth-first search from the goal
// ranks of a ranked projection (any search::RankedDomain: its size, the neighbours of a rank,
// and optionally batch paths and symmetric moves, as search/explore.h takes them), filling
// each rank's cell with its distance mod 3 in 2 bits or its distance in 4 bits. The layers are
// explore's (both cores, a 2-bit state table beside the cells; where that does not fit the
// memory budget, 2-bit cells are built in place, with nothing beside them: search/explore.h,
// `mod3`, in 0.9-1.05 times the time); this adds what a table build
// needs on top: refusal up front when the build cannot fit the memory budget, a progress line,
// and resumability through a checkpoint (pdb/checkpoint.h): the cells (and a state table) are
// saved after a layer when a save is due and when the deadline (--timeout, a signal) stops the
// build, and a later build of the same table goes on from there to the same cells, byte for
// byte, whatever the threads before and after.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "tansaku/core/error.h"
#include "tansaku/core/memory.h"
#include "tansaku/core/two_bit_table.h"
#include "tansaku/pdb/checkpoint.h"
#include "tansaku/search/domain.h"
#include "tansaku/search/explore.h"
#include "tansaku/search/limits.h"

namespace tansaku::pdb {

// A built table: `cells` holds every rank's distance from the goal ranks, mod 3 in 2-bit
// cells (TwoBitTable::get; 3: not reached) or in 4-bit cells (TwoBitTable::get4 over twice
// the 2-bit cells; distances above 14 kept as 14; 15: not reached).
struct BuiltTable {
  std::unique_ptr<TwoBitTable> cells;
  int bits = 2;
  int max_distance = 0;                  // the largest distance
  std::uint64_t reached = 0;             // ranks reached
  std::vector<std::uint64_t> histogram;  // ranks at each distance
};

// Bytes a build of `size` ranks with `bits`-bit cells holds at the least: the cells, and with
// 4-bit cells the 2-bit state table.
std::uint64_t build_bytes(std::uint64_t size, int bits);
// Whether a build of 2-bit cells within `memory` runs in place (no state table beside them):
// where the state table and the cells would not fit `memory`, or three quarters of the
// machine's memory.
bool build_in_place(std::uint64_t size, int bits, std::uint64_t memory);
// Bytes of the state a checkpoint saves (the same).
inline std::uint64_t build_state_bytes(std::uint64_t size, int bits) { return build_bytes(size, bits); }
// The builder's name in a partial file (its version and the layout of its state).
std::string builder_name(int bits, bool in_place = false);

namespace detail {

// Where a layered build stands (saved in a partial file, read back by resume_layers).
struct LayersPoint {
  std::int64_t depth = 0;                          // the layer to expand next
  std::uint64_t width = 0, seen = 0, claimed = 0;  // search::detail::TableLayers::Point
  std::vector<std::uint64_t> histogram;            // of the layers done
};
// Reads a partial build of `cp`'s table into `states` (none: built in place) and `cells`;
// nothing when there is none to go on from (none, another build's, damaged: noted).
std::optional<LayersPoint> resume_layers(Checkpoint& cp, TwoBitTable* states, TwoBitTable& cells, std::uint64_t size,
                                         const search::Limits& lim);
// Saves the state (the progress line says so).
void save_layers(Checkpoint& cp, const LayersPoint& p, TwoBitTable* states, TwoBitTable& cells, std::uint64_t size,
                 const search::Limits& lim);
// The cells of an in-place build (1 + distance mod 3, 0: not reached) as a table keeps them
// (distance mod 3, 3: not reached).
void finish_in_place(TwoBitTable& cells, unsigned threads);
void progress_layers(const search::Limits& lim, const LayersPoint& p, std::uint64_t size);

}  // namespace detail

// Builds the table of `d` from `goals` (lim: threads, progress, deadline, memory; InputError
// before anything is allocated when build_bytes() exceeds lim.memory; LimitError when the
// deadline stops it, after saving the state when `cp` is given). `cp`: the build's
// checkpoint (its identity names the table; the builder's name is set here), or none.
template <search::RankedDomain D>
BuiltTable build_table(const D& d, std::span<const std::uint64_t> goals, int bits, const search::Limits& lim,
                       Checkpoint* cp = nullptr) {
  if (bits != 2 && bits != 4) throw std::logic_error("pdb build: cells of 2 or 4 bits");
  const std::uint64_t n = d.size();
  require_memory(build_bytes(n, bits), lim.memory,
                 bits == 4 ? "the 2-bit state table and the 4-bit distances" : "the distances mod 3");
  const bool in_place = build_in_place(n, bits, lim.memory);
  BuiltTable out;
  out.bits = bits;
  out.cells = std::make_unique<TwoBitTable>(bits == 4 ? 2 * n : n);
  if (!in_place) out.cells->fill(3);  // not reached (a 4-bit cell: 15)
  search::detail::TableLayers<D> layers(d, goals, 0, lim, bits == 2 && !in_place ? out.cells.get() : nullptr,
                                        bits == 4 ? out.cells.get() : nullptr, in_place ? out.cells.get() : nullptr);
  TwoBitTable* const states = in_place ? nullptr : &layers.states();
  detail::LayersPoint at;
  if (cp) {
    cp->set_builder(builder_name(bits, in_place));
    if (auto p = detail::resume_layers(*cp, states, *out.cells, n, lim)) {
      at = std::move(*p);
      typename search::detail::TableLayers<D>::Point q{at.width, at.seen, at.claimed};
      for (std::size_t i = 0; i < at.histogram.size(); ++i) q.residue[i % 3] += at.histogram[i];
      layers.restore(q);
    }
  }
  auto save = [&] {
    const auto q = layers.point();
    at.width = q.width, at.seen = q.seen, at.claimed = q.claimed;
    detail::save_layers(*cp, at, states, *out.cells, n, lim);
  };
  for (;;) {
    const auto depth = static_cast<unsigned>(at.depth);
    const unsigned frontier = in_place ? depth % 3 + 1 : depth % 2 + 1;
    const unsigned next = in_place ? (depth + 1) % 3 + 1 : 3 - frontier;
    search::LayerStep s;
    try {
      s = layers.layer(static_cast<std::size_t>(at.depth), frontier, next);
    } catch (const LimitError&) {
      if (cp) save();  // this layer goes on where it stopped
      throw;
    }
    if (s.width == 0) break;
    at.histogram.push_back(s.width);
    if (s.next == 0) break;
    ++at.depth;
    detail::progress_layers(lim, at, n);
    if (cp && cp->due()) save();
    if (cp && cp->after_layer) cp->after_layer(at.depth - 1);
  }
  if (at.histogram.empty()) throw std::logic_error("pdb build: no goal rank");
  if (in_place) detail::finish_in_place(*out.cells, lim.threads);
  out.histogram = std::move(at.histogram);
  out.max_distance = static_cast<int>(out.histogram.size()) - 1;
  for (auto w : out.histogram) out.reached += w;
  return out;
}

}  // namespace tansaku::pdb
