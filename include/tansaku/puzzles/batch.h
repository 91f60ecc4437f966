// `tansaku solve PUZZLE --batch FILE`, for any family that declares --batch: the instances of
// a file (one a line, '#' starts a comment) solved one after another by the family's own
// solve in one process (so tables loaded once serve them all: Puzzle::hold_tables), one
// line per instance as it finishes (JSON Lines with --json), then the summary the CLI
// prints. Every line is parsed
// and checked before any search, so bad input prints nothing; a --timeout later on keeps
// the lines already printed (exit 3). The family says what a line holds.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "tansaku/puzzles/puzzle.h"

namespace tansaku {

// One instance of a batch file: its label (the line's leading instance number where the
// family takes one, else its position in the file), its start as text, its line number.
struct BatchItem {
  std::string id, start;
  int line = 0;
};

// The instances of a batch file's text (`file` names it in messages). `read(line, item)`
// fills item.start (and item.id when the line names it) from a line without its comment,
// not blank, or throws InputError saying what is wrong; the message gets FILE:LINE. Throws
// InputError too on a file without instances.
std::vector<BatchItem> parse_batch(const std::string& text, const std::string& file,
                                   const std::function<void(const std::string& line, BatchItem& item)>& read);

// Refuses what a batch cannot take with it (--start, --from: the file gives the starts;
// --all, --count): InputError. solve_batch checks it too; a family calls it first when it
// reads the file only after.
void check_batch_options(const Options& o);

// Solves every instance through p.solve(each) with each.start set to the instance's start
// (`each`: the options of one solve, --batch removed), prints one line per instance (JSON
// with each.json) and returns the summary report.
SolveReport solve_batch(const Puzzle& p, const Options& each, const std::string& file,
                        const std::vector<BatchItem>& items);

}  // namespace tansaku
