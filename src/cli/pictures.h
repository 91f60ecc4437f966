// --svg FILE and --html FILE on show / solve / explore: the family's drawings (Puzzle::draw*)
// and the pages around them (render/page.h), written through OutputFile. Built before the
// work: a family that cannot draw, a file that cannot be written, or a misuse is refused
// (InputError, exit 2) before any search; the files are written after the verified result.
#pragma once
#include <string>

#include "cli/output_file.h"
#include "tansaku/puzzles/puzzle.h"

namespace tansaku {

// Checks --svg / --html against the subcommand (no puzzle needed): the request checks.
void check_picture_options(const Options& o);

// The pictures as text, what --svg / --html write (the Python module draws with these).
// "" where there is no such picture (explore has no SVG; a family that cannot draw).
std::string show_svg(const Puzzle& p, const Options& o);
std::string show_html(const Puzzle& p, const Options& o, const ShowReport& r);
std::string solve_svg(const Puzzle& p, const Options& o, const SolveReport& r);
std::string solve_html(const Puzzle& p, const Options& o, const SolveReport& r);
std::string explore_html(const Puzzle& p, const Options& o, const ExploreReport& r);

class Pictures {
 public:
  Pictures(const Puzzle& p, const Options& o);
  // A file is "-": the page goes to stdout and the report is not printed.
  bool stdout_taken() const { return svg_.is_stdout() || html_.is_stdout(); }
  void show(const ShowReport& r);
  void solve(const SolveReport& r);
  void explore(const ExploreReport& r);

 private:
  const Puzzle& p_;
  const Options& o_;
  OutputFile svg_, html_;
};

}  // namespace tansaku
