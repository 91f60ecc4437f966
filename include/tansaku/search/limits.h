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
};

}  // namespace tansaku::search
