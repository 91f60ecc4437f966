// libFuzzer harness: random permutation-puzzle definitions generated from the input bytes
// (tws_generator.h: names that are powers of one another, piece numbers with gaps), each
// either refused as bad input or loaded with its promises kept (every move name written one
// way and read back as itself, pieces numbered 1..k). A broken promise aborts: a finding.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tws_generator.h"

using namespace tansaku;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return 0;
  fuzz::ByteSource bytes{data, size};
  const std::string text = fuzz::generate_tws(bytes);
  perm::Definition d;
  try {
    d = perm::parse_definition(text, "gen.tws");
  } catch (const InputError&) {
    return 0;
  }
  const std::string broken = fuzz::broken_promise(d);
  if (!broken.empty()) {
    std::fprintf(stderr, "%s\n--- the definition:\n%s", broken.c_str(), text.c_str());
    std::abort();
  }
  return 0;
}
