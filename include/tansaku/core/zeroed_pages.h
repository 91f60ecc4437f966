// Large zero-filled arrays for hash tables: anonymous mappings, zero until first touched (no
// up-front memset), and marked for transparent huge pages so random probes into hundreds of
// megabytes cost fewer page faults and TLB misses.
#pragma once
#include <sys/mman.h>

#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>

namespace tansaku {

struct PagesDeleter {
  std::size_t bytes = 0;
  void operator()(void* p) const {
    if (p) munmap(p, bytes);
  }
};

// n value-initialised-as-zero objects of a trivially constructible type T.
template <class T>
using ZeroedArray = std::unique_ptr<T[], PagesDeleter>;

template <class T>
ZeroedArray<T> zeroed_array(std::size_t n) {
  static_assert(std::is_trivially_destructible_v<T>, "zeroed_array holds trivially destructible objects");
  const std::size_t bytes = n * sizeof(T);
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
  if (bytes >= (std::size_t{4} << 20)) madvise(p, bytes, MADV_HUGEPAGE);
#endif
  return ZeroedArray<T>(static_cast<T*>(p), PagesDeleter{bytes});
}

}  // namespace tansaku
