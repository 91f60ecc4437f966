// Whether this test program is built with AddressSanitizer or ThreadSanitizer (gcc defines
// __SANITIZE_*__; clang 14 answers __has_feature): such builds run several times slower and
// reserve terabytes of address space for their shadow memory. The sanitizer runs are the
// longest part of `make check`, so a test that repeats one check over many instances runs
// fewer of them there (the same code paths; the Release run keeps them all).
#pragma once

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define TANSAKU_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define TANSAKU_TEST_SANITIZED 1
#endif
#endif

// `all` in a normal build, `fewer` under a sanitizer.
constexpr int all_or_under_sanitizer(int all, int fewer) {
#ifdef TANSAKU_TEST_SANITIZED
  (void)all;
  return fewer;
#else
  (void)fewer;
  return all;
#endif
}
