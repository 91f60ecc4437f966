// libFuzzer harness: permutation-puzzle definition files (src/perm/definition.cpp
// parse_definition, twsearch-style .tws), then a scramble file read against each definition
// that parses (parse_scrambles). Bad input must be an InputError; anything else is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "perm/definition.h"
#include "tansaku/core/error.h"

using namespace tansaku;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 1 << 14) return 0;
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const perm::Definition d = perm::parse_definition(text, "fuzz.tws");
    try {
      (void)perm::parse_scrambles(d, text, "fuzz.scr");
    } catch (const InputError&) {
    }
  } catch (const InputError&) {
  } catch (const LimitError&) {
  }
  return 0;
}
