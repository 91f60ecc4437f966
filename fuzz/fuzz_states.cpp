// libFuzzer harness: the state notation of every family, through the path the command line
// takes (Family::make, then Puzzle::show with --start / --goal / --from), plus the core
// token parsers (split_state, parse_uint, parse_dims, parse_size). The first byte picks the
// target; the rest is the text. Bad input must be an InputError (exit 2); anything else
// that escapes (std::logic_error = exit 4, a crash, a sanitizer report) is a finding.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tansaku/core/error.h"
#include "tansaku/core/input.h"
#include "tansaku/core/memory.h"
#include "tansaku/core/tokens.h"
#include "tansaku/puzzles/flip.h"
#include "tansaku/puzzles/knights.h"
#include "tansaku/puzzles/peg.h"
#include "tansaku/puzzles/sliding.h"

using namespace tansaku;

namespace {

struct Target {
  std::unique_ptr<Puzzle> puzzle;
  const char* field;  // "start", "goal" or "from"
  unsigned command;
};

Options base_options() {
  Options o;
  o.command = kShow;
  o.memory = std::uint64_t{256} << 20;
  o.threads = 1;
  o.quiet = true;
  return o;
}

const std::vector<Target>& targets() {
  static const std::vector<Target> t = [] {
    std::vector<Target> v;
    const Options o = base_options();
    auto add = [&](const Family& f, const char* variant, const char* field, unsigned command = kShow) {
      v.push_back({f.make(variant, o), field, command});
    };
    const Family sliding = sliding::family(), rotating = sliding::rotating_family(), peg = peg::family(),
                 flip = flip::family(), tour = knights::tour_family(), swap = knights::swap_family();
    add(sliding, "3x3", "start");
    add(sliding, "3x3", "goal");
    add(sliding, "2x4", "start");
    add(sliding, "4x4", "start");
    add(rotating, "", "start");
    add(peg, "triangle5", "start");
    add(peg, "triangle5", "goal");
    add(peg, "english", "start");
    add(flip, "4x4", "start");
    add(flip, "3x5", "goal");
    add(tour, "5x5", "from");
    add(swap, "4x3", "start");
    add(swap, "4x3", "goal");
    add(swap, "guarini", "start");
    return v;
  }();
  return t;
}

void core_parsers(const std::string& text) {
  try {
    (void)split_state(text, 9);
  } catch (const InputError&) {
  }
  try {
    (void)parse_uint(text, "n");
  } catch (const InputError&) {
  }
  try {
    (void)parse_int(text, "n");
  } catch (const InputError&) {
  }
  try {
    (void)parse_dims(text, "size");
  } catch (const InputError&) {
  }
  try {
    (void)parse_size(text);
  } catch (const InputError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0 || size > 4096) return 0;
  const auto& ts = targets();
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] == 0xFF) {
    core_parsers(text);
    return 0;
  }
  const Target& t = ts[data[0] % ts.size()];
  Options o = base_options();
  o.command = t.command;
  o.given.insert(t.field);
  o.values[t.field] = text;
  if (std::string(t.field) == "start") o.start = text;
  else if (std::string(t.field) == "goal") o.goal = text;
  else o.from = text;
  try {
    (void)t.puzzle->show(o);
  } catch (const InputError& e) {
    if (!valid_utf8(printable(e.what()))) __builtin_trap();
  } catch (const LimitError&) {
  }
  return 0;
}
