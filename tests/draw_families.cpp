// The pictures of peg, knight-tour, knight-swap, coloring and square-sum (Puzzle::draw*), and
// of every builtin of every family in the registry: well-formed SVG; a solution has one
// frame per step plus the start (a long tour: grouped frames, the last holding the whole
// tour); the last frame is the picture of the final state; clickable cells carry data-cell;
// huge boards stay small.
// TANSAKU_DRAW_DIR=DIR writes every picture drawn here to DIR (to look at them).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>

#include "cli_util.h"
#include "coloring/draw.h"
#include "coloring/graph.h"
#include "peg/board.h"
#include "peg/verify.h"
#include "tansaku/core/tokens.h"
#include "tansaku/puzzles/registry.h"

using namespace tansaku;

namespace {

// A small XML well-formedness check: one root <svg>, tags balanced, attributes name="value"
// without '<', text without '<' and with '&' only in entities.
::testing::AssertionResult well_formed(const std::string& s) {
  if (s.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0) != 0) return ::testing::AssertionFailure() << "no <svg> root";
  std::vector<std::string> stack;
  std::size_t i = 0;
  bool closed_root = false;
  static const std::regex entity(R"(&(amp|lt|gt|quot|#39|#[0-9]+);)");
  auto text_ok = [&](std::string_view t) {
    for (std::size_t k = 0; k < t.size(); ++k)
      if (t[k] == '&') {
        std::string rest(t.substr(k, 8));
        if (!std::regex_search(rest, entity, std::regex_constants::match_continuous)) return false;
      }
    return true;
  };
  while (i < s.size()) {
    if (closed_root) return ::testing::AssertionFailure() << "content after the root at " << i;
    if (s[i] != '<') {
      std::size_t j = s.find('<', i);
      if (j == std::string::npos) return ::testing::AssertionFailure() << "text runs off the end";
      if (stack.empty() || !text_ok(std::string_view(s).substr(i, j - i)))
        return ::testing::AssertionFailure() << "bad text at " << i;
      i = j;
      continue;
    }
    std::size_t j = s.find('>', i);
    if (j == std::string::npos) return ::testing::AssertionFailure() << "unclosed tag at " << i;
    std::string tag = s.substr(i + 1, j - i - 1);
    i = j + 1;
    if (tag.empty()) return ::testing::AssertionFailure() << "empty tag";
    if (tag[0] == '/') {
      if (stack.empty() || stack.back() != tag.substr(1))
        return ::testing::AssertionFailure() << "</" << tag.substr(1) << "> closes <" << (stack.empty() ? "" : stack.back()) << ">";
      stack.pop_back();
      if (stack.empty()) closed_root = true;
      continue;
    }
    const bool self = tag.back() == '/';
    if (self) tag.pop_back();
    std::size_t k = 0;
    while (k < tag.size() && (std::isalnum(static_cast<unsigned char>(tag[k])) || tag[k] == '-' || tag[k] == ':')) ++k;
    const std::string name = tag.substr(0, k);
    if (name.empty()) return ::testing::AssertionFailure() << "bad tag <" << tag << ">";
    // Attributes: (space+ name="value")*, each name once, values without '<' or '"'.
    std::set<std::string> names;
    while (k < tag.size()) {
      const std::size_t s0 = k;
      while (k < tag.size() && tag[k] == ' ') ++k;
      if (k == tag.size()) break;
      std::size_t n0 = k;
      while (k < tag.size() && (std::isalnum(static_cast<unsigned char>(tag[k])) || tag[k] == '-' || tag[k] == ':' || tag[k] == '_')) ++k;
      if (k == s0 || n0 == s0 || k == n0 || k + 1 >= tag.size() || tag[k] != '=' || tag[k + 1] != '"')
        return ::testing::AssertionFailure() << "bad attribute in <" << tag.substr(0, 80) << "> at " << k;
      if (!names.insert(tag.substr(n0, k - n0)).second)
        return ::testing::AssertionFailure() << "attribute " << tag.substr(n0, k - n0) << " twice in <" << name << ">";
      const std::size_t close = tag.find('"', k + 2);
      if (close == std::string::npos) return ::testing::AssertionFailure() << "unclosed attribute in <" << name << ">";
      const std::string_view value = std::string_view(tag).substr(k + 2, close - k - 2);
      if (value.find('<') != std::string_view::npos || !text_ok(value))
        return ::testing::AssertionFailure() << "bad attribute value in <" << name << ">";
      k = close + 1;
    }
    if (!self) stack.push_back(name);
    else if (stack.empty()) closed_root = true;
  }
  if (!stack.empty() || !closed_root) return ::testing::AssertionFailure() << "unclosed <" << (stack.empty() ? "svg" : stack.back()) << ">";
  return ::testing::AssertionSuccess();
}

void dump(const std::string& name, const std::string& svg) {
  if (const char* dir = std::getenv("TANSAKU_DRAW_DIR")) {
    std::string file = name;
    for (char& c : file)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') c = '_';
    std::ofstream(std::string(dir) + "/" + file + ".svg") << svg;
  }
}

// The family options `values` of `puzzle`, given as the command line gives them.
Options options(const std::map<std::string, std::string>& values = {}, const std::string& puzzle = "") {
  Options o;
  o.quiet = true;
  o.memory = 1ull << 30;
  for (const auto& [k, v] : values) give_option(o, puzzle, k, v);
  return o;
}

std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

// The frame without the move drawn on it.
std::string without_step(std::string f) {
  auto a = f.find("<g class=\"step\"");
  if (a == std::string::npos) return f;
  auto b = f.find("</g>", a);
  return f.erase(a, b + 4 - a);
}

struct Solved {
  SolveReport report;
  Drawing drawing;
};

Solved solve_and_draw(const std::string& name, const Options& o) {
  auto p = make_puzzle(name, o);
  Solved s{p->solve(o), {}};
  s.drawing = p->draw_solution(o, s.report);
  EXPECT_FALSE(s.drawing.frames.empty()) << name;
  EXPECT_EQ(s.drawing.labels.size() + 1, s.drawing.frames.size()) << name;
  for (std::size_t i = 0; i < s.drawing.frames.size(); ++i) {
    EXPECT_TRUE(well_formed(s.drawing.frames[i])) << name << " frame " << i;
    if (i == 0 || i + 1 == s.drawing.frames.size()) dump(name + (i ? "_last" : "_first"), s.drawing.frames[i]);
  }
  return s;
}

}  // namespace

TEST(DrawFamilies, WellFormedChecker) {
  EXPECT_TRUE(well_formed("<svg xmlns=\"http://www.w3.org/2000/svg\" a=\"1\"><g><text>a &amp; b</text></g></svg>"));
  EXPECT_FALSE(well_formed("<svg xmlns=\"http://www.w3.org/2000/svg\"><g></svg>"));
  EXPECT_FALSE(well_formed("<svg xmlns=\"http://www.w3.org/2000/svg\"><text>a & b</text></svg>"));
  EXPECT_FALSE(well_formed("<svg xmlns=\"http://www.w3.org/2000/svg\"><rect x=1/></svg>"));
  EXPECT_FALSE(well_formed("<svg xmlns=\"http://www.w3.org/2000/svg\"><rect x=\"1\" x=\"2\"/></svg>"));
  EXPECT_FALSE(well_formed("<svg xmlns=\"http://www.w3.org/2000/svg\"></svg><svg xmlns=\"http://www.w3.org/2000/svg\"></svg>"));
}

// Every concrete builtin of every family in the registry draws its position (names with a
// placeholder such as knight-tour:RxC are skipped), and every family draws at least one.
TEST(DrawFamilies, EveryBuiltinDraws) {
  for (const auto& f : families()) {
    int drawn = 0;
    for (const auto& b : f.builtins) {
      if (std::regex_search(b.name, std::regex("[A-Z]"))) continue;
      const Options o = options();
      auto p = make_puzzle(b.name, o);
      const std::string svg = p->draw(o);
      EXPECT_TRUE(well_formed(svg)) << b.name;
      dump(b.name, svg);
      ++drawn;
    }
    EXPECT_GT(drawn, 0) << f.prefix << ": no builtin drawn";
  }
}

TEST(DrawFamilies, PegHolesAndJumps) {
  const Options o = options();
  auto english = make_puzzle("peg:english", o);
  const std::string e = english->draw(o);
  EXPECT_EQ(count(e, "data-cell="), 33u);
  EXPECT_EQ(count(e, "data-cell=\"32\""), 1u);
  EXPECT_EQ(english->draw_state(o, std::string(16, '1') + "0" + std::string(16, '1')), e);
  EXPECT_THROW(english->draw_state(o, "101"), InputError);
  for (const std::string name : {"peg:triangle5", "peg:trytry", "peg:triangle6"}) {
    const Solved s = solve_and_draw(name, o);
    ASSERT_TRUE(s.report.solvable) << name;
    EXPECT_EQ(s.drawing.frames.size(), s.report.moves.size() + 1) << name;
    EXPECT_EQ(s.drawing.labels[0], s.report.moves[0].dump());
    // The last frame is the final position (with the last move drawn on it).
    const peg::Board bd = peg::builtin_board(name.substr(4));
    std::vector<std::vector<int>> moves;
    for (const auto& m : s.report.moves) moves.push_back(m.get<std::vector<int>>());
    const auto end = peg::replay(bd, peg::parse_position(bd, s.report.start, "start"), moves).end;
    auto p = make_puzzle(name, o);
    EXPECT_EQ(without_step(s.drawing.frames.back()), p->draw_state(o, peg::format_position(bd, end))) << name;
    EXPECT_EQ(s.drawing.frames[0], p->draw(o)) << name;
    EXPECT_EQ(count(s.drawing.frames[1], "class=\"step\""), 1u);
  }
  // The shipped board files: every lattice (square, square-diagonal, triangular hexagon).
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(std::string(TANSAKU_DATA_DIR) + "/peg")) {
    auto p = make_puzzle("peg:" + e.path().string(), o);
    const std::string svg = p->draw(o);
    EXPECT_TRUE(well_formed(svg)) << e.path();
    dump("peg_file_" + e.path().stem().string(), svg);
    ++files;
  }
  EXPECT_GE(files, 5);
  // No solution (French board, one peg anywhere): the start alone.
  const Solved fr = solve_and_draw("peg:french", o);
  if (!fr.report.solvable) {
    EXPECT_EQ(fr.drawing.frames.size(), 1u);
  }
}

TEST(DrawFamilies, KnightSwapMoves) {
  const Options o = options();
  for (const std::string name : {"knight-swap:4x3", "guarini"}) {
    const Solved s = solve_and_draw(name, o);
    ASSERT_TRUE(s.report.solvable);
    EXPECT_EQ(s.report.moves.size(), 16u);
    EXPECT_EQ(s.drawing.frames.size(), 17u);
    EXPECT_EQ(s.drawing.labels[0], s.report.moves[0].dump());
    auto p = make_puzzle(name, o);
    EXPECT_EQ(without_step(s.drawing.frames.back()), p->draw_state(o, s.report.goal)) << name;
    EXPECT_EQ(s.drawing.frames[0], p->draw_state(o, s.report.start)) << name;
    EXPECT_EQ(count(s.drawing.frames[0], "data-cell="), name == "guarini" ? 9u : 12u);
  }
}

TEST(DrawFamilies, KnightTourPath) {
  const Options o = options();
  auto p = make_puzzle("knight-tour:3x4", o);
  EXPECT_EQ(count(p->draw(o), "data-cell="), 12u);
  EXPECT_EQ(p->draw_state(o, "0"), p->draw(o));
  EXPECT_THROW(p->draw_state(o, "12"), InputError);
  // Small tours: a frame per move, the visit numbers on the squares.
  for (const auto& [name, closed] : std::vector<std::pair<std::string, bool>>{{"knight-tour:3x4", false}, {"knight-tour:8x8", true}}) {
    Options oc = options(
        closed ? std::map<std::string, std::string>{{"closed", "true"}} : std::map<std::string, std::string>{}, name);
    const Solved s = solve_and_draw(name, oc);
    ASSERT_TRUE(s.report.solvable);
    EXPECT_EQ(s.drawing.frames.size(), s.report.moves.size());  // moves lists the squares: steps + 1
    EXPECT_EQ(s.drawing.labels.back(), s.report.moves.back().dump());
    EXPECT_EQ(count(s.drawing.frames.back(), "<text"), s.report.moves.size()) << name;  // numbers 0..n-1
  }
  // A 10,000-square tour: at most 201 frames, a few hundred kilobytes in all, one path per
  // frame, and the last frame's path is the whole tour.
  const Solved big = solve_and_draw("knight-tour:100x100", o);
  ASSERT_TRUE(big.report.solvable);
  ASSERT_EQ(big.report.moves.size(), 10000u);
  EXPECT_LE(big.drawing.frames.size(), 201u);
  EXPECT_GE(big.drawing.frames.size(), 10u);
  std::size_t total = 0;
  for (const auto& f : big.drawing.frames) total += f.size();
  EXPECT_LT(total, 2'000'000u);
  EXPECT_EQ(count(big.drawing.frames.back(), "<text"), 0u);
  EXPECT_EQ(big.drawing.labels.back().rfind("moves ", 0), 0u);
  // Replay the last frame's tour path (the one with stroke-linejoin) against the report.
  const std::string& last = big.drawing.frames.back();
  const auto at = last.find("stroke-linejoin");
  const auto d0 = last.rfind("<path d=\"", at) + 9;
  const std::string d = last.substr(d0, last.find('"', d0) - d0);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(d, m, std::regex(R"(^M([0-9.]+) ([0-9.]+)l)")));
  double x = std::stod(m[1]), y = std::stod(m[2]);
  std::vector<std::int64_t> tour = {static_cast<std::int64_t>(y) * 100 + static_cast<std::int64_t>(x)};
  std::vector<int> v;
  for (std::size_t k = static_cast<std::size_t>(m.position(0) + m.length(0)); k < d.size();) {
    if (d[k] == ' ') {
      ++k;
      continue;
    }
    std::size_t used = 0;
    v.push_back(std::stoi(d.substr(k, 4), &used));
    ASSERT_GT(used, 0u);
    k += used;
  }
  ASSERT_EQ(v.size(), 2 * 9999u);
  for (std::size_t i = 0; i < v.size(); i += 2) {
    x += v[i], y += v[i + 1];
    tour.push_back(static_cast<std::int64_t>(y) * 100 + static_cast<std::int64_t>(x));
  }
  for (std::size_t i = 0; i < tour.size(); ++i) ASSERT_EQ(tour[i], big.report.moves[i].get<std::int64_t>()) << i;
  // 90,000 squares: blocks coloured by when the knight was there, a few frames, no path.
  const Solved heat = solve_and_draw("knight-tour:300x300", o);
  ASSERT_TRUE(heat.report.solvable);
  EXPECT_GE(heat.drawing.frames.size(), 3u);
  EXPECT_LE(heat.drawing.frames.size(), 201u);
  total = 0;
  for (const auto& f : heat.drawing.frames) total += f.size();
  EXPECT_LT(total, 2'000'000u);
  EXPECT_EQ(count(heat.drawing.frames.back(), "stroke-linejoin"), 0u);
  EXPECT_NE(heat.drawing.labels.back().find("(to " + heat.report.moves.back().dump() + ")"), std::string::npos);
  // A million squares: the board itself is a few kilobytes.
  auto huge = make_puzzle("knight-tour:1000x1000", o);
  const std::string h = huge->draw(o);
  EXPECT_TRUE(well_formed(h));
  EXPECT_LT(h.size(), 50'000u);
}

TEST(DrawFamilies, ColoringGraph) {
  const Options o = options();
  for (const std::string name : {"coloring:map12", "coloring:myciel4", "coloring:queen5_5"}) {
    const Solved s = solve_and_draw(name, o);
    ASSERT_TRUE(s.report.solvable);
    EXPECT_EQ(s.drawing.frames.size(), 1u);
    std::vector<std::string> c;
    for (const auto& x : s.report.moves) c.push_back(std::to_string(x.get<int>()));
    auto p = make_puzzle(name, o);
    EXPECT_EQ(s.drawing.frames[0], p->draw_state(o, join(c))) << name;
    EXPECT_EQ(count(s.drawing.frames[0], "data-cell="), s.report.moves.size());
  }
  // map12 is drawn planar (Tutte's embedding): no two edges cross.
  auto map = make_puzzle("coloring:map12", o);
  const coloring::Graph g12 = coloring::map12();
  const auto pos = coloring::layout(g12, "coloring:map12");
  auto side = [](auto p, auto q, auto r) {
    return (q.first - p.first) * (r.second - p.second) - (q.second - p.second) * (r.first - p.first);
  };
  int crossings = 0;
  for (int a = 0; a < g12.n; ++a)
    for (int b : g12.adj[a])
      for (int c = 0; c < g12.n; ++c)
        for (int d : g12.adj[c]) {
          if (a >= b || c >= d || a == c || a == d || b == c || b == d) continue;
          if (side(pos[a], pos[b], pos[c]) * side(pos[a], pos[b], pos[d]) < -1e-12 &&
              side(pos[c], pos[d], pos[a]) * side(pos[c], pos[d], pos[b]) < -1e-12)
            ++crossings;
        }
  EXPECT_EQ(crossings, 0);
  // No 3-colouring of map12: the graph uncoloured, one frame.
  const Solved none = solve_and_draw("coloring:map12", options({{"colors", "3"}}, "coloring:map12"));
  EXPECT_FALSE(none.report.solvable);
  EXPECT_EQ(none.drawing.frames.size(), 1u);
  EXPECT_NE(none.drawing.frames[0].find("no 3-colouring"), std::string::npos);
  EXPECT_THROW(map->draw_state(o, "1 2 3"), InputError);
}

// DIMACS graphs beyond the drawable: the vertices alone (a grid), then the colour classes.
TEST(DrawFamilies, ColoringLargeGraphs) {
  const Options o = options();
  for (const int n : {300, 5000}) {
    const std::string file = ::testing::TempDir() + "/draw_cycle" + std::to_string(n) + ".col";
    {
      std::ofstream f(file);
      f << "p edge " << n << " " << n << "\n";
      for (int v = 1; v <= n; ++v) f << "e " << v << " " << v % n + 1 << "\n";
    }
    auto p = make_puzzle("coloring:" + file, o);
    const std::string plain = p->draw(o);
    EXPECT_TRUE(well_formed(plain));
    std::string c;
    for (int v = 0; v < n; ++v) c += v % 2 ? "2 " : "1 ";
    const std::string coloured = p->draw_state(o, c);
    EXPECT_TRUE(well_formed(coloured));
    EXPECT_NE(coloured.find("2 colours"), std::string::npos);
    EXPECT_EQ(count(coloured, "data-cell="), n == 300 ? 300u : 0u);
    EXPECT_LT(coloured.size(), 40'000u);
    dump("coloring_cycle" + std::to_string(n), coloured);
  }
}

TEST(DrawFamilies, SquareSumChain) {
  const Options o = options();
  auto p = make_puzzle("square-sum", o);
  for (const auto& [values, n] : std::vector<std::pair<std::map<std::string, std::string>, std::size_t>>{
           {{}, 15}, {{{"ring", "true"}}, 32}, {{{"n", "25"}}, 25}, {{{"n", "1000"}}, 1000}}) {
    const Options oo = options(values, "square-sum");
    const Solved s = solve_and_draw("square-sum", oo);
    ASSERT_TRUE(s.report.solvable);
    ASSERT_EQ(s.report.moves.size(), n);
    EXPECT_EQ(s.drawing.frames.size(), 1u);
    std::vector<std::string> seq;
    for (const auto& x : s.report.moves) seq.push_back(std::to_string(x.get<int>()));
    EXPECT_EQ(s.drawing.frames[0], p->draw_state(oo, join(seq)));
    if (n <= 200) {  // every link labelled with its square
      const std::size_t links = n - 1 + (values.count("ring") ? 1 : 0);
      EXPECT_EQ(count(s.drawing.frames[0], "<rect") - 1, links) << n;
    }
    dump("square-sum_" + std::to_string(n), s.drawing.frames[0]);
  }
  // No row of 1..14: the partner graph.
  const Solved none = solve_and_draw("square-sum", options({{"n", "14"}}, "square-sum"));
  EXPECT_FALSE(none.report.solvable);
  EXPECT_EQ(none.drawing.frames.size(), 1u);
  EXPECT_TRUE(well_formed(p->draw(options({{"n", "20"}}, "square-sum"))));
  EXPECT_THROW(p->draw_state(o, "1 x"), InputError);
  // 100,000 numbers: a plot of at most kPlotPoints points.
  std::vector<std::string> big;
  for (int i = 1; i <= 100000; ++i) big.push_back(std::to_string(i));
  const std::string plot = p->draw_state(o, join(big));
  EXPECT_TRUE(well_formed(plot));
  EXPECT_LT(plot.size(), 100'000u);
}
