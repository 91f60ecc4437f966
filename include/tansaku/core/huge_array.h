// Zeroed memory straight from the kernel, on transparent huge pages where allowed: tables and
// build arrays are hundreds of MiB, and 4 KiB page faults dominated loading them. The mapping
// is reserved when it is made (unlike zeroed_pages.h's), so one that the machine cannot give
// fails there with std::bad_alloc rather than later.
#pragma once
#include <sys/mman.h>

#include <cstddef>
#include <memory>
#include <new>

namespace tansaku {

struct Unmap {
  std::size_t size = 0;
  void operator()(void* p) const {
    if (p) ::munmap(p, size ? size : 1);
  }
};
template <class T>
using HugeArray = std::unique_ptr<T[], Unmap>;

// Throws std::bad_alloc.
inline void* huge_zeroed(std::size_t bytes) {
  if (bytes == 0) bytes = 1;
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  if (bytes >= (std::size_t{2} << 20)) ::madvise(p, bytes, MADV_HUGEPAGE);
  return p;
}
template <class T>
HugeArray<T> make_huge(std::size_t n) {
  return HugeArray<T>(static_cast<T*>(huge_zeroed(n * sizeof(T))), Unmap{n * sizeof(T)});
}

}  // namespace tansaku
