// --svg / --html: the option checks made before any search, and the SVG pictures and HTML pages
// for show, solve and explore, written once the result is verified.
#include "cli/pictures.h"

#include <fmt/format.h>

#include "cli/output.h"
#include "cli/request.h"
#include "tansaku/core/error.h"
#include "tansaku/render/page.h"

namespace tansaku {

namespace {
// Positions drawn on an explore page at most (the report lists them all).
constexpr std::size_t kMaxFarthestDrawn = 100;

// The given option that makes solve run a batch (OptionSpec::batch), or nullptr.
const OptionSpec* batch_option(const Options& o) {
  static const std::vector<OptionSpec> specs = declared_options();
  for (const auto& s : specs)
    if (s.batch && o.has(s.name)) return &s;
  return nullptr;
}
}  // namespace

void check_picture_options(const Options& o) {
  const bool svg = o.has("svg"), html = o.has("html");
  if (!svg && !html) return;
  if (svg && !(o.command & (kShow | kSolve)))
    throw InputError(fmt::format("--svg applies to show and solve (for '{}' use --html)", command_name(o.command)));
  if (html && !(o.command & (kShow | kSolve | kExplore)))
    throw InputError(fmt::format("--html does not apply to '{}'", command_name(o.command)));
  if (svg && html && o.svg == o.html)
    throw InputError(fmt::format("--svg and --html name the same file '{}'", o.svg == "-" ? "-" : o.svg));
  if (o.json && ((svg && o.svg == "-") || (html && o.html == "-")))
    throw InputError("--json and a picture on stdout (-) cannot share stdout: give the picture a file name");
  if (const OptionSpec* b = batch_option(o)) {
    if (svg) throw InputError(fmt::format("--svg draws one solution: with --{} use --html (a table of the results)", b->name));
    if (html && o.html == "-") throw InputError(fmt::format("--{} prints its results on stdout: give --html a file name", b->name));
  }
}

Pictures::Pictures(const Puzzle& p, const Options& o) : p_(p), o_(o) {
  const bool svg = o.has("svg"), html = o.has("html");
  if (!svg && !html) return;
  check_picture_options(o);
  // A batch page is a table: it draws nothing.
  if (!(batch_option(o) && !svg) && p.draw(o).empty()) throw InputError(fmt::format("{} has no pictures", p.name()));
  if (svg) svg_ = OutputFile(o.svg, "svg");
  if (html) html_ = OutputFile(o.html, "html");
}

std::string show_svg(const Puzzle& p, const Options& o) { return p.draw(o); }

std::string show_html(const Puzzle& p, const Options& o, const ShowReport& r) {
  const std::string svg = p.draw(o);
  return svg.empty() ? std::string() : render::show_page(r.info, svg, r.text);
}

namespace {
Drawing solution_drawing(const Puzzle& p, const Options& o, const SolveReport& r) {
  Drawing d = p.draw_solution(o, r);
  if (d.frames.empty()) throw std::logic_error(fmt::format("{} drew no frame of its solution", p.name()));
  return d;
}
}  // namespace

std::string solve_svg(const Puzzle& p, const Options& o, const SolveReport& r) {
  if (batch_option(o) || p.draw(o).empty()) return {};
  return solution_drawing(p, o, r).frames.back();
}

std::string solve_html(const Puzzle& p, const Options& o, const SolveReport& r) {
  if (batch_option(o)) return render::batch_page(solve_json(r), r.rows);
  if (p.draw(o).empty()) return {};
  return render::solution_page(solve_json(r), solution_drawing(p, o, r));
}

std::string explore_html(const Puzzle& p, const Options& o, const ExploreReport& r) {
  std::vector<std::string> drawn;
  for (std::size_t i = 0; i < r.farthest.size() && i < kMaxFarthestDrawn; ++i) drawn.push_back(p.draw_state(o, r.farthest[i]));
  return render::explore_page(explore_json(r), drawn);
}

void Pictures::show(const ShowReport& r) {
  if (!svg_.active() && !html_.active()) return;
  const std::string svg = p_.draw(o_);
  if (svg_.active()) svg_.write(svg + "\n");
  if (html_.active()) html_.write(render::show_page(r.info, svg, r.text));
}

void Pictures::solve(const SolveReport& r) {
  if (!svg_.active() && !html_.active()) return;
  if (batch_option(o_)) {
    html_.write(render::batch_page(solve_json(r), r.rows));
    return;
  }
  const Drawing d = solution_drawing(p_, o_, r);
  if (svg_.active()) svg_.write(d.frames.back() + "\n");
  if (html_.active()) html_.write(render::solution_page(solve_json(r), d));
}

void Pictures::explore(const ExploreReport& r) {
  if (!html_.active()) return;
  html_.write(explore_html(p_, o_, r));
}

}  // namespace tansaku
