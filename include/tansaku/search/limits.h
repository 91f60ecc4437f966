// Budgets every search honours: memory (refuse before starting or stop with LimitError),
// a deadline, and an optional progress line.
#pragma once
#include <cstdint>
#include <limits>

#include "tansaku/core/deadline.h"
#include "tansaku/core/progress.h"

namespace tansaku::search {

struct Limits {
  std::uint64_t memory = std::numeric_limits<std::uint64_t>::max();  // bytes
  Deadline* deadline = nullptr;
  Progress* progress = nullptr;
  int max_cost = std::numeric_limits<int>::max();  // give up (exhausted) beyond this bound
  unsigned threads = 1;
};

}  // namespace tansaku::search
