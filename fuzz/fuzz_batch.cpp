// libFuzzer harness: `solve --batch FILE` files (src/sliding/pdb_batch.cpp parse_batch) for
// the 8- and 15-puzzle, each parsed instance then read as a start state the way the solver
// reads it (labels, cells). Bad input must be an InputError; anything else is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "sliding/board.h"
#include "sliding/pdb_solve.h"
#include "tansaku/core/error.h"
#include "tansaku/core/tokens.h"

using namespace tansaku;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 1 << 16) return 0;
  const std::string text(reinterpret_cast<const char*>(data), size);
  for (int side : {3, 4}) {
    const sliding::Geometry geo(side, side);
    try {
      for (const auto& item : sliding::pdb::parse_batch(text, geo.n, "fuzz.txt")) {
        try {
          const auto labels = sliding::make_labels(split_state(item.start, static_cast<std::size_t>(geo.n)), "start");
          (void)sliding::parse_cells(geo, labels, item.start, "start");
        } catch (const InputError&) {
        }
      }
    } catch (const InputError&) {
    }
  }
  return 0;
}
