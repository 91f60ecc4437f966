// libFuzzer harness: the input layer's byte handling (core/input.h). printable() must turn
// any bytes into one line of valid UTF-8 without control characters, and valid_utf8 must
// agree with utf8_prefix.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tansaku/core/input.h"

using namespace tansaku;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::string p = printable(text, 64);
  if (!valid_utf8(p)) __builtin_trap();
  for (char c : p)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) __builtin_trap();
  if (valid_utf8(text) != (utf8_prefix(text) == text.size())) __builtin_trap();
  return 0;
}
