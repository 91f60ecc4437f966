// The error require_memory (memory.h) throws: work refused before it starts because it cannot
// fit the memory budget. Still bad input (exit 2, an InputError to every caller); a type of its
// own so that the command line can name the way out where a puzzle has one (explore --spill).
#pragma once
#include "tansaku/core/error.h"

namespace tansaku {

struct MemoryRefused : InputError {
  using InputError::InputError;
};

}  // namespace tansaku
