// Budgets every search honours: memory (refuse before starting or stop with LimitError),
// a deadline, and an optional progress line.
#pragma once
#include <cstdint>
#include <limits>
#include <string>

#include "tansaku/core/deadline.h"
#include "tansaku/core/progress.h"

namespace tansaku {
class Cluster;
}

namespace tansaku::search {

// What a search has proved so far, kept up to date as it runs, so that a limit that stops it
// can still say it (--timeout): the least length a solution can have (an optimal search's
// completed bound), and a hint on how the next run gets faster. Written by the search's own
// thread (the one that called it), read after it returns or throws.
struct Proved {
  std::int64_t lower_bound = -1;  // -1: none proved
  std::string hint;               // "" = none
  void raise(std::int64_t b) {
    if (b > lower_bound) lower_bound = b;
  }
};

struct Limits {
  std::uint64_t memory = std::numeric_limits<std::uint64_t>::max();  // bytes
  Deadline* deadline = nullptr;
  Progress* progress = nullptr;
  int max_cost = std::numeric_limits<int>::max();  // give up (exhausted) beyond this bound
  unsigned threads = 1;
  // explore (search/explore.h): the ranks that share the state space (nullptr or one rank:
  // this process alone), and a directory for layers that do not fit `memory` ("" = none).
  Cluster* cluster = nullptr;
  std::string spill;
  Proved* proved = nullptr;  // where an optimal search records its lower bound (null: nowhere)
};

}  // namespace tansaku::search
