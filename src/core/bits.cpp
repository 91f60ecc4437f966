// The run-time choice of core/bits.h in a portable x86-64 build (TANSAKU_NATIVE=OFF): the
// rankings and pattern-database builds extract and deposit bits in their inner loops, one
// instruction each with BMI2 and a loop over the mask's bits without it (most of what the
// portable build lost in `tansaku bench`). A build for its own machine uses the instructions
// inline and compiles nothing here.
#include "tansaku/core/bits.h"

#ifdef TANSAKU_BITS_RUNTIME_BMI2
#include <immintrin.h>

namespace tansaku::bits {
namespace {

bool fast_bmi2() {
  __builtin_cpu_init();
  // AMD's cores before Zen 3 run pext/pdep in microcode, slower than the loops.
  return __builtin_cpu_supports("bmi2") && !__builtin_cpu_is("znver1") && !__builtin_cpu_is("znver2");
}

}  // namespace

extern const bool kCpuHasBmi2 = fast_bmi2();

__attribute__((target("bmi2"))) std::uint64_t extract_bmi2(std::uint64_t x, std::uint64_t mask) {
  return _pext_u64(x, mask);
}

__attribute__((target("bmi2"))) std::uint64_t deposit_bmi2(std::uint64_t x, std::uint64_t mask) {
  return _pdep_u64(x, mask);
}

}  // namespace tansaku::bits
#endif
