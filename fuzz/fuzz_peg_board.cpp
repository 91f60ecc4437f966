// libFuzzer harness: peg-solitaire board files (src/peg/board.cpp parse_board), then the
// things every parsed board is used for at once (numbering, a position of the standard
// vacancy read back). Bad input must be an InputError; anything else is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "peg/board.h"
#include "tansaku/core/error.h"

using namespace tansaku;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 1 << 16) return 0;
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const peg::Board bd = peg::parse_board(text, "fuzz.txt");
    (void)peg::render_numbers(bd);
    const peg::Bits start = bd.all & ~bd.standard_empty;
    if (peg::parse_position(bd, peg::format_position(bd, start), "start") != start) __builtin_trap();
  } catch (const InputError&) {
  }
  return 0;
}
