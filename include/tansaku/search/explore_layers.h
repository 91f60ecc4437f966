// The layer loop every layered explore shares, so that the depth histogram, the state count,
// the largest depth, the farthest layer and the progress line are kept in one place. A
// backend holds the states (a 2-bit table in memory, a rank's slice of it, parts of it on
// disk, hash sets) and expands one layer at a time: it scans the frontier, expands it,
// claims the unseen neighbours and counts them, honouring the deadline and the memory budget
// its own way (per task, per exchange round, per part). The loop stops at an empty layer.
#pragma once
#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <concepts>

#include "tansaku/search/limits.h"
#include "tansaku/search/stats.h"

namespace tansaku::search {

// What a backend's layer() reports about the layer it has just expanded.
struct LayerStep {
  static constexpr std::uint64_t kUnknown = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t width = 0;          // states at this depth (0: the explore is over before it)
  std::uint64_t next = kUnknown;    // states of the next layer, when the backend knows them (0: over)
  std::uint64_t expanded = 0, generated = 0;
};

// A layered explore's storage: layer(depth, frontier, next) expands the layer at `depth`
// (a 2-bit table marks its states `frontier` and the states it claims `next`; 1 and 2
// alternate); farthest(res) fills res.farthest from the last layer with states;
// progress_note() is what follows the common progress line, nullptr if this process does
// not print it (a rank other than the first).
template <class B>
concept LayerBackend = requires(B& b, std::size_t depth, unsigned v) {
  { b.layer(depth, v, v) } -> std::convertible_to<LayerStep>;
  { b.progress_note() } -> std::convertible_to<const char*>;
};

// Runs the layers to the first empty one; res has histogram, states, depth, farthest_count
// and stats (ExploreResult, StatesExploreResult). `size`: the number of states when known
// (0: not known), for the progress line.
template <class Result, LayerBackend B>
void run_layers(B& b, Result& res, const Limits& lim, std::uint64_t size) {
  unsigned frontier = 1;
  for (;;) {
    const std::size_t depth = res.histogram.size();
    const LayerStep s = b.layer(depth, frontier, 3 - frontier);
    res.stats.expanded += s.expanded;
    res.stats.generated += s.generated;
    if (s.width == 0) break;
    res.histogram.push_back(s.width);
    res.states += s.width;
    res.depth = static_cast<int>(depth);
    res.farthest_count = s.width;
    if (s.next == 0) break;
    frontier = 3 - frontier;
    if (lim.progress && s.next != LayerStep::kUnknown) {
      const char* note = b.progress_note();
      if (!note) continue;  // another process prints it
      if (size)
        lim.progress->update("explore: depth {}, {} new, {} of {} states{}", depth + 1, s.next, res.states + s.next, size,
                             note);
      else
        lim.progress->update("explore: depth {}, {} states{}", depth + 1, res.states, note);
    }
  }
  b.farthest(res);
}

// A backend from two functions: layer(depth) -> LayerStep, and farthest(res).
template <class Layer, class Farthest>
struct FunctionLayers {
  Layer layer_fn;
  Farthest farthest_fn;
  LayerStep layer(std::size_t depth, unsigned, unsigned) { return layer_fn(depth); }
  template <class Result>
  void farthest(Result& res) {
    farthest_fn(res);
  }
  const char* progress_note() const { return ""; }
};
template <class Layer, class Farthest>
FunctionLayers<Layer, Farthest> function_layers(Layer layer, Farthest farthest) {
  return {std::move(layer), std::move(farthest)};
}

}  // namespace tansaku::search
