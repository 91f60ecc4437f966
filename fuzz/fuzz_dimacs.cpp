// libFuzzer harness: DIMACS .col graphs (src/coloring/dimacs.cpp parse_dimacs) under a
// 64 MiB budget: a malformed file or one too large for the budget must be an InputError.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "coloring/dimacs.h"
#include "tansaku/core/error.h"

using namespace tansaku;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 1 << 16) return 0;
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    coloring::DimacsInfo info;
    const coloring::Graph g = coloring::parse_dimacs(in, "fuzz.col", std::uint64_t{64} << 20, &info);
    if (g.edge_count() > info.edge_lines) __builtin_trap();
  } catch (const InputError&) {
  }
  return 0;
}
