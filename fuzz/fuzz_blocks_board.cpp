// libFuzzer harness: sliding-block pictures (src/blocks: parse_board, and Knuth's SLIDING
// format parse_knuth; the first byte picks which). Bad input must be an InputError;
// anything else is a finding.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "blocks/board.h"
#include "tansaku/core/error.h"

using namespace tansaku;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0 || size > 1 << 14) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    if (data[0] & 1) (void)blocks::parse_knuth(text, "fuzz.txt");
    else (void)blocks::parse_board(text, "fuzz.txt");
  } catch (const InputError&) {
  } catch (const LimitError&) {
  }
  return 0;
}
