// `tansaku solve PUZZLE --batch FILE` for sliding boards: a line is an instance's cells,
// optionally after its number; the shared runner (tansaku/puzzles/batch.h) does the rest.

#include <fmt/format.h>

#include "sliding/pdb_solve.h"
#include "sliding/settings.h"
#include "tansaku/core/deadline.h"
#include "tansaku/core/error.h"
#include "tansaku/core/input.h"
#include "tansaku/core/tokens.h"
#include "tansaku/puzzles/batch.h"

namespace tansaku::sliding::pdb {

std::vector<BatchItem> parse_batch(const std::string& text, int cells, const std::string& file) {
  const auto n = static_cast<std::size_t>(cells);
  return tansaku::parse_batch(text, file, [n](const std::string& line, BatchItem& it) {
    auto tokens = split_state(line, n);
    if (tokens.size() == n + 1) {
      it.id = tokens.front();
      tokens.erase(tokens.begin());
    } else if (tokens.size() != n) {
      throw InputError(
          fmt::format("{} tokens; expected {} cells, optionally after an instance number", tokens.size(), n));
    }
    it.start = join(tokens);
  });
}

SolveReport solve_batch(const Puzzle& p, int cells, const Options& o) {
  const std::string file = *o.settings<Settings>().batch;
  Options one = o;  // an instance is solved as a single solve
  one.values.erase("batch");
  one.given.erase("batch");
  Settings each = o.settings<Settings>();
  each.batch.reset();
  one.settings_value = each;
  check_batch_options(o);
  const std::vector<BatchItem> items =
      parse_batch(read_text_file(file, "batch file", o.memory, &o.deadline), cells, file);
  return tansaku::solve_batch(p, one, file, items);
}

}  // namespace tansaku::sliding::pdb
