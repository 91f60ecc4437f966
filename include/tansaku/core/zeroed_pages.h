// Big tables probed at random (hash tables): large zero-filled arrays as anonymous mappings,
// zero until first touched (no up-front memset), and an allocator for vectors; both marked
// for transparent huge pages so random probes into hundreds of megabytes cost fewer page
// faults and TLB misses.
#pragma once
#include <sys/mman.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
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

// n value-initialised-as-zero objects of a trivially constructible type T. `reserve`: the
// kernel commits the memory when the mapping is made, so a mapping the machine cannot give
// fails here with std::bad_alloc rather than at a later page fault (tables and build arrays);
// without it (hash tables probed sparsely) untouched pages cost nothing.
template <class T>
using ZeroedArray = std::unique_ptr<T[], PagesDeleter>;

template <class T>
ZeroedArray<T> zeroed_array(std::size_t n, bool reserve = false) {
  static_assert(std::is_trivially_destructible_v<T>, "zeroed_array holds trivially destructible objects");
  const std::size_t bytes = std::max<std::size_t>(1, n * sizeof(T));
  void* p =
      mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | (reserve ? 0 : MAP_NORESERVE), -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
  if (bytes >= (std::size_t{2} << 20)) madvise(p, bytes, MADV_HUGEPAGE);
#endif
  return ZeroedArray<T>(static_cast<T*>(p), PagesDeleter{bytes});
}

// A std::allocator for big vectors: transparent huge pages (one page fault and one TLB entry per
// 2 MiB instead of per 4 KiB; the tables are probed at random).
template <class T>
struct HugeAlloc {
  using value_type = T;
  static constexpr std::size_t kHuge = std::size_t{2} << 20;
  HugeAlloc() = default;
  template <class U>
  HugeAlloc(const HugeAlloc<U>&) {}  // NOLINT
  T* allocate(std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (bytes < kHuge) return static_cast<T*>(::operator new(bytes));
    const std::size_t rounded = (bytes + kHuge - 1) / kHuge * kHuge;
    void* p = std::aligned_alloc(kHuge, rounded);
    if (!p) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
    madvise(p, rounded, MADV_HUGEPAGE);
#endif
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t n) {
    if (n * sizeof(T) < kHuge) ::operator delete(p);
    else std::free(p);
  }
  template <class U>
  bool operator==(const HugeAlloc<U>&) const { return true; }
};

}  // namespace tansaku
