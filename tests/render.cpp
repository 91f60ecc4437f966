// Pictures and pages (render/page.h, the families' draw*): the SVG is well-formed, a solution
// is drawn as moves + 1 frames ending on the goal, the pages fetch nothing and their player
// data decodes.
#include <gtest/gtest.h>

#include <regex>

#include "cli_util.h"
#include "tansaku/puzzles/registry.h"
#include "tansaku/render/page.h"
#include "tansaku/render/svg.h"
#include "xml_check.h"

using namespace tansaku;

namespace {

Options options(unsigned command, std::optional<std::string> start = std::nullopt,
                std::optional<std::string> goal = std::nullopt) {
  Options o;
  o.command = command;
  o.quiet = true;
  o.threads = 1;
  o.memory = std::uint64_t{1} << 30;
  o.start = start;
  o.goal = goal;
  if (start) o.given.insert("start"), o.values["start"] = *start;
  if (goal) o.given.insert("goal"), o.values["goal"] = *goal;
  return o;
}

// The JSON of the page's player (<script type="application/json">).
json player_json(const std::string& html) {
  const std::string open = "<script type=\"application/json\">";
  const auto a = html.find(open);
  EXPECT_NE(a, std::string::npos);
  const auto b = html.find("</script>", a);
  return parse_json(html.substr(a + open.size(), b - a - open.size()));
}

// Nothing on the page may be fetched: no src=/href= to anywhere, no <link>, no url(), no
// address other than the SVG namespace.
void expect_self_contained(const std::string& html) {
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_EQ(html.find("src="), std::string::npos);
  EXPECT_EQ(html.find("href="), std::string::npos);
  EXPECT_EQ(html.find("url("), std::string::npos);
  EXPECT_EQ(html.find("@import"), std::string::npos);
  const std::string stripped = std::regex_replace(html, std::regex("xmlns=\\\\?\"http://www\\.w3\\.org/2000/svg\\\\?\""), "");
  EXPECT_EQ(stripped.find("http:"), std::string::npos);
  EXPECT_EQ(stripped.find("https:"), std::string::npos);
}

// A frame without the step's highlights (elements marked data-mark="1": render/page.h).
std::string unmarked(std::string svg) {
  for (std::size_t k; (k = svg.find(" data-mark=\"1\"")) != std::string::npos;) {
    const std::size_t open = svg.rfind('<', k), close = svg.find("/>", k);
    svg.erase(open, close + 2 - open);
  }
  return svg;
}

void expect_solution_drawn(const Puzzle& p, const Options& o, const SolveReport& r) {
  const Drawing d = p.draw_solution(o, r);
  ASSERT_EQ(d.frames.size(), r.moves.size() + 1);
  ASSERT_EQ(d.labels.size(), r.moves.size());
  for (const auto& f : d.frames) EXPECT_EQ(xml_problem(f), "") << f;
  EXPECT_EQ(unmarked(d.frames.back()), p.draw_state(o, r.goal));
  EXPECT_EQ(d.frames.front(), p.draw_state(o, r.start));
  if (d.frames.size() > 1) EXPECT_NE(d.frames.back().find("data-mark"), std::string::npos);
}

}  // namespace

TEST(RenderXmlCheck, CatchesBrokenMarkup) {
  EXPECT_EQ(xml_problem("<svg a=\"1\"><g><rect/></g><text>a &amp; b</text></svg>"), "");
  EXPECT_NE(xml_problem("<svg><g></svg>"), "");
  EXPECT_NE(xml_problem("<svg a=1></svg>"), "");
  EXPECT_NE(xml_problem("<svg a=\"1\" a=\"2\"></svg>"), "");
  EXPECT_NE(xml_problem("<svg>a & b</svg>"), "");
  EXPECT_NE(xml_problem("<svg></svg><svg></svg>"), "");
}

TEST(RenderSvg, EscapesText) {
  render::Svg s(2, 1, 10);
  s.text(1, 0.5, "<a & \"b\">", 0.4);
  EXPECT_EQ(xml_problem(s.str()), "");
  EXPECT_NE(s.str().find("&lt;a &amp; &quot;b&quot;&gt;"), std::string::npos);
}

TEST(RenderSliding, EightPuzzleFramesEndOnTheGoal) {
  const Options o = options(kSolve, "8 6 7 2 5 4 3 0 1");
  auto p = make_puzzle("8-puzzle", o);
  const SolveReport r = p->solve(o);
  ASSERT_EQ(r.length, 31);
  expect_solution_drawn(*p, o, r);
  const Drawing d = p->draw_solution(o, r);
  for (std::size_t i = 0; i < r.moves.size(); ++i) EXPECT_EQ(d.labels[i], r.moves[i].get<std::string>());
  // The board: nine cells the editor can address, the start drawn.
  const std::string board = p->draw(o);
  EXPECT_EQ(xml_problem(board), "");
  for (int i = 0; i < 9; ++i) EXPECT_NE(board.find("data-cell=\"" + std::to_string(i) + "\""), std::string::npos);
  EXPECT_EQ(board, d.frames.front());
}

TEST(RenderSliding, IdenticalPiecesAndPdbSolutions) {
  {  // identical pieces (seed 004 style): coloured by label
    const Options o = options(kSolve, "2 1 1 0 2 2", "1 1 2 2 2 0");
    auto p = make_puzzle("sliding:2x3", o);
    const SolveReport r = p->solve(o);
    ASSERT_TRUE(r.solvable);
    expect_solution_drawn(*p, o, r);
  }
  {  // 15-puzzle by IDA* (the pattern databases would be built first: slow under asan)
    Options o = options(kSolve, "1 2 3 4 5 6 7 8 9 10 11 12 13 0 14 15");
    o.algorithm = "idastar";
    auto p = make_puzzle("15-puzzle", o);
    const SolveReport r = p->solve(o);
    ASSERT_EQ(r.length, 2);
    expect_solution_drawn(*p, o, r);
  }
  {  // unsolvable: one frame, the start
    const Options o = options(kSolve, "2 1 3 4 5 6 7 8 0");
    auto p = make_puzzle("8-puzzle", o);
    const SolveReport r = p->solve(o);
    ASSERT_FALSE(r.solvable);
    const Drawing d = p->draw_solution(o, r);
    ASSERT_EQ(d.frames.size(), 1u);
    EXPECT_EQ(d.frames[0], p->draw_state(o, r.start));
  }
}

TEST(RenderRotating, FramesEndOnTheGoal) {
  const Options o = options(kSolve);
  auto p = make_puzzle("rotating-slide", o);
  const SolveReport r = p->solve(o);
  ASSERT_EQ(r.length, 12);
  expect_solution_drawn(*p, o, r);
}

TEST(RenderPage, SolutionPageIsSelfContainedAndDecodes) {
  const Options o = options(kSolve, "8 6 7 2 5 4 3 0 1");
  auto p = make_puzzle("8-puzzle", o);
  const SolveReport r = p->solve(o);
  const Drawing d = p->draw_solution(o, r);
  const json report = {{"puzzle", r.puzzle}, {"start", r.start}, {"length", *r.length}, {"moves", r.moves},
                       {"note", "</script><script>alert(1)</script> & <!--"}};
  const std::string html = render::solution_page(report, d);
  expect_self_contained(html);
  const json data = player_json(html);
  ASSERT_EQ(data["frames"].size(), 32u);
  EXPECT_EQ(data["labels"].size(), 31u);
  EXPECT_FALSE(data["sampled"].get<bool>());
  for (std::size_t i = 0; i < d.frames.size(); ++i) EXPECT_EQ(data["frames"][i].get<std::string>(), d.frames[i]);
  // The hostile field is escaped: one <script> of data and one of code, nothing else.
  EXPECT_EQ(html.find("<script>alert"), std::string::npos);
  EXPECT_NE(html.find("window.tansakuPlayer"), std::string::npos);
  EXPECT_NE(html.find("</style>"), std::string::npos);
}

TEST(RenderPage, LargeSolutionsKeepTheEndsAndEveryLabel) {
  Drawing d;
  for (int i = 0; i <= 1000; ++i) {
    d.frames.push_back(render::Svg(1, 1).text(0.5, 0.5, std::to_string(i), 0.5).str());
    if (i) d.labels.push_back("m" + std::to_string(i));
  }
  const std::string html = render::solution_page(json{{"puzzle", "test"}}, d, /*max_frame_bytes=*/10000);
  const json data = player_json(html);
  EXPECT_TRUE(data["sampled"].get<bool>());
  ASSERT_EQ(data["frames"].size(), 2u);
  EXPECT_EQ(data["frames"][0].get<std::string>(), d.frames.front());
  EXPECT_EQ(data["frames"][1].get<std::string>(), d.frames.back());
  EXPECT_EQ(data["labels"].size(), 1000u);
  EXPECT_LT(html.size(), 100000u);
}

TEST(RenderPage, ExploreChartAndFarthest) {
  Options o = options(kExplore);
  o.from = "1 2 3 4 5 0";
  o.given.insert("from");
  o.values["from"] = *o.from;
  auto p = make_puzzle("sliding:2x3", o);
  const ExploreReport r = p->explore(o);
  ASSERT_EQ(r.states, 360u);
  std::vector<std::string> drawn;
  for (const auto& s : r.farthest) drawn.push_back(p->draw_state(o, s));
  json j = {{"puzzle", r.puzzle}, {"from", r.from}, {"states", r.states}, {"depth", r.depth},
            {"histogram", r.histogram}, {"farthest", r.farthest}, {"farthest_count", r.farthest_count}};
  const std::string html = render::explore_page(j, drawn);
  expect_self_contained(html);
  const std::string chart = render::histogram_chart(r.histogram);
  const auto svg_at = chart.find("<svg"), svg_end = chart.find("</svg>");
  EXPECT_EQ(xml_problem(chart.substr(svg_at, svg_end + 6 - svg_at)), "");
  std::size_t bars = 0;
  for (std::size_t k = 0; (k = chart.find("class=\"bar\"", k)) != std::string::npos; ++k) ++bars;
  EXPECT_EQ(bars, r.histogram.size());
  EXPECT_NE(chart.find("data-scale"), std::string::npos);
  for (const auto& s : drawn) EXPECT_NE(html.find(s), std::string::npos);
}

TEST(RenderPage, BatchTable) {
  const json rows = json::array({{{"instance", "1"}, {"start", "1 2 3"}, {"solvable", true}, {"length", 4}, {"moves", {"1", "2"}}},
                                 {{"instance", "2"}, {"start", "<x>"}, {"solvable", false}, {"reason", "parity"}}});
  const std::string html = render::batch_page(json{{"puzzle", "8-puzzle"}, {"instances", 2}}, rows);
  expect_self_contained(html);
  EXPECT_NE(html.find("&lt;x&gt;"), std::string::npos);
  EXPECT_NE(html.find("class=\"unsolved\""), std::string::npos);
}

TEST(RenderFamilies, FlipBlocksPermFramesEndOnTheGoal) {
  {  // flip: a frame per press while the board is small
    const Options o = options(kSolve);
    auto p = make_puzzle("flip:4x4", o);
    const SolveReport r = p->solve(o);
    ASSERT_EQ(r.length, 6);
    expect_solution_drawn(*p, o, r);
  }
  {  // flip, large: the start and the end (every press marked) as one grouped step, lamps as paths
    Options o = options(kSolve);
    give_option(o, "flip:100x100", "rule", "lights-out");
    auto p = make_puzzle("flip:100x100", o);
    const SolveReport r = p->solve(o);
    ASSERT_TRUE(r.solvable);
    const Drawing d = p->draw_solution(o, r);
    ASSERT_EQ(d.frames.size(), 2u);
    EXPECT_EQ(d.labels.size(), 1u);
    EXPECT_EQ(unmarked(d.frames.back()), p->draw_state(o, r.goal));
    EXPECT_EQ(d.frames.back().find("<rect x=\"1\""), std::string::npos);  // no element per cell
    EXPECT_LT(d.frames.front().size(), 10000u);                            // all on: one run a row
    EXPECT_EQ(xml_problem(d.frames.back()), "");
  }
  {
    const Options o = options(kSolve);
    auto p = make_puzzle("blocks:ma", o);
    const SolveReport r = p->solve(o);
    ASSERT_EQ(r.length, 23);
    // The goal names only some placements: the last frame is the position the moves reach,
    // checked against the solver's own picture of it (the text report's last board).
    const Drawing d = p->draw_solution(o, r);
    ASSERT_EQ(d.frames.size(), 24u);
    ASSERT_EQ(d.labels.size(), 23u);
    EXPECT_EQ(d.frames.front(), p->draw_state(o, r.start));
    for (const auto& f : d.frames) EXPECT_EQ(xml_problem(f), "");
    std::vector<std::string> lines;
    for (std::size_t a = 0, e; (e = r.text.find('\n', a)) != std::string::npos; a = e + 1) lines.push_back(r.text.substr(a, e - a));
    ASSERT_GE(lines.size(), 5u);
    std::string notation;  // Ma's tray has 5 rows
    for (std::size_t i = lines.size() - 5; i < lines.size(); ++i) notation += (notation.empty() ? "" : "/") + lines[i];
    EXPECT_EQ(unmarked(d.frames.back()), p->draw_state(o, notation)) << notation;
  }
  {
    Options o = options(kSolve);
    give_option(o, "perm:rotating-slide", "scramble", "D1 D2 V");
    auto p = make_puzzle("perm:rotating-slide", o);
    const SolveReport r = p->solve(o);
    ASSERT_TRUE(r.length && *r.length >= 1 && *r.length <= 3);
    const Drawing d = p->draw_solution(o, r);
    ASSERT_EQ(d.frames.size(), r.moves.size() + 1);
    EXPECT_EQ(d.frames.back(), p->draw_state(o, r.goal));
    EXPECT_EQ(d.frames.front(), p->draw_state(o, r.start));
    for (const auto& f : d.frames) EXPECT_EQ(xml_problem(f), "");
  }
}
