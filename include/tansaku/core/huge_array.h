// The name tables and build arrays use for zeroed memory straight from the kernel, on
// transparent huge pages where allowed (zeroed_pages.h), committed when it is made: an array
// the machine cannot give fails at once with std::bad_alloc rather than at a later page fault.
#pragma once
#include <cstddef>

#include "tansaku/core/zeroed_pages.h"

namespace tansaku {

template <class T>
using HugeArray = ZeroedArray<T>;

// Throws std::bad_alloc.
template <class T>
HugeArray<T> make_huge(std::size_t n) {
  return zeroed_array<T>(n, /*reserve=*/true);
}

}  // namespace tansaku
