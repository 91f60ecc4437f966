// perm pictures as a facelet net (src/perm/net.h, draw.h): the cube builtins' companion
// .net files, every colour on nine (four) stickers whatever the position, a face turn
// moving the colours it should; the skewb's and pyraminx's polygon nets, each face in its
// colour when solved and a move changing exactly the stickers of the pieces it moves; and
// malformed net files refused naming the line.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>

#include "perm/draw.h"
#include "perm/generators.h"
#include "perm/net.h"
#include "perm/notation.h"
#include "tansaku/core/error.h"

using namespace tansaku;
using namespace tansaku::perm;

namespace {

Position scrambled(const Definition& d, const std::string& moves) {
  Position p = d.solved;
  for (const auto& m : parse_sequence_any(d, moves, "scramble")) p = d.applied(m, p);
  return p;
}

std::map<std::string, int> stickers(const std::string& svg) {
  std::map<std::string, int> n;
  const std::regex fill(R"(fill="(#[0-9a-f]{6})\" rx=\"0.1\")");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), fill); it != std::sregex_iterator(); ++it) ++n[(*it)[1]];
  return n;
}

// The polygon stickers of a net picture in drawing order: (data-cell, fill), -1 for fixed ones.
std::vector<std::pair<int, std::string>> polys(const std::string& svg) {
  std::vector<std::pair<int, std::string>> out;
  const std::regex item(R"re(<g data-cell="(\d+)">|</g>|<path d="[^"]*" fill="(#[0-9a-f]{6})" stroke="#222")re");
  int cell = -1;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), item); it != std::sregex_iterator(); ++it) {
    const std::string m = (*it)[0];
    if (m == "</g>") cell = -1;
    else if ((*it)[1].matched) cell = std::stoi((*it)[1]);
    else out.emplace_back(cell, (*it)[2]);
  }
  return out;
}

}  // namespace

TEST(PermNet, CubesHaveNets) {
  for (const auto& [name, per_face] : std::vector<std::pair<std::string, int>>{{"3x3x3", 9}, {"2x2x2", 4}}) {
    const Definition d = load_definition(name);
    const auto net = load_net(d);
    ASSERT_TRUE(net.has_value()) << name;
    EXPECT_EQ(net->faces.size(), 6u);
    for (const std::string s : {"", "R", "R U F D L B R2 U2 F' L2 D B' R U'"}) {
      const auto n = stickers(position_svg(d, s.empty() ? d.solved : scrambled(d, s), d.solved));
      EXPECT_EQ(n.size(), 6u) << name << " " << s;
      for (const auto& [colour, count] : n) EXPECT_EQ(count, per_face) << name << " " << s << " " << colour;
    }
  }
  // Puzzles without a net keep the slots.
  const Definition ts = load_definition("topspin");
  EXPECT_FALSE(load_net(ts).has_value());
  EXPECT_NE(position_svg(ts, ts.solved, ts.solved).find("DISCS"), std::string::npos);
}

// The skewb (a cross of squares: four corner triangles around a centre diamond), the skewb
// with corner DFR fixed (its stickers drawn fixed) and the pyraminx (four triangular faces of
// nine, the tips fixed): every sticker placed as a polygon; solved, each face in its colour;
// each colour on as many stickers as a face has whatever the position; one move changes
// exactly the stickers of the positions it moves (skewb: 4 corners and 3 centres, 15;
// pyraminx: a centre and 3 edges, 9).
TEST(PermNet, SkewbAndPyraminxFaces) {
  struct Case {
    std::string name;
    std::size_t faces, per_face, fixed, per_move;
  };
  for (const auto& c : std::vector<Case>{{"skewb", 6, 5, 0, 15}, {"skewb-fixed", 6, 5, 3, 15}, {"pyraminx", 4, 9, 12, 9}}) {
    SCOPED_TRACE(c.name);
    const Definition d = load_definition(c.name);
    const auto net = load_net(d);
    ASSERT_TRUE(net.has_value());
    ASSERT_EQ(net->faces.size(), c.faces);
    for (const auto& f : net->faces) EXPECT_EQ(f.cells, 0);
    ASSERT_EQ(net->fixed.size(), c.fixed);
    std::vector<std::pair<int, std::string>> want;  // solved: each sticker in its own face's colour
    for (const auto& f : net->fixed) want.emplace_back(-1, net->faces[static_cast<std::size_t>(f.face)].colour);
    for (int j = 0; j < d.positions; ++j)
      for (const auto& s : net->sticker[static_cast<std::size_t>(j)]) {
        ASSERT_GE(s.face, 0) << "position " << j;
        EXPECT_GE(s.poly.size(), 6u);
        want.emplace_back(j, net->faces[static_cast<std::size_t>(s.face)].colour);
      }
    const std::string solved_svg = position_svg(d, d.solved, d.solved);
    EXPECT_NE(solved_svg.find("width=\"540\""), std::string::npos);  // wider than tall
    const auto solved = polys(solved_svg);
    ASSERT_EQ(solved, want);
    std::map<std::string, std::size_t> per_colour;
    for (const auto& [cell, colour] : solved) ++per_colour[colour];
    EXPECT_EQ(per_colour.size(), c.faces);
    for (const auto& [colour, count] : per_colour) EXPECT_EQ(count, c.per_face) << colour;
    for (const auto& m : d.moves) {
      SCOPED_TRACE(m.name);
      std::set<int> moved;
      for (int i = 0; i < d.positions; ++i)
        if (m.p.perm[static_cast<std::size_t>(i)] != i || m.p.twist[static_cast<std::size_t>(i)] != 0) moved.insert(i);
      const auto after = polys(position_svg(d, d.applied(m.p, d.solved), d.solved));
      ASSERT_EQ(after.size(), solved.size());
      std::set<int> changed;
      std::size_t n = 0;
      for (std::size_t k = 0; k < after.size(); ++k) {
        EXPECT_EQ(after[k].first, solved[k].first);
        if (after[k].second != solved[k].second) ++n, changed.insert(after[k].first);
      }
      EXPECT_EQ(n, c.per_move);
      EXPECT_EQ(changed, moved);
      std::map<std::string, std::size_t> counts;
      for (const auto& [cell, colour] : after) ++counts[colour];
      EXPECT_EQ(counts, per_colour);
    }
    Position p = d.solved;
    for (int k = 0; k < 40; ++k) p = d.applied(d.moves[static_cast<std::size_t>(k * 7 % d.moves.size())].p, p);
    std::map<std::string, std::size_t> counts;
    for (const auto& [cell, colour] : polys(position_svg(d, p, d.solved))) ++counts[colour];
    EXPECT_EQ(counts, per_colour);
  }
}

// Grid faces and polygons in one net: the picture spans both, scaled to 540 pixels.
TEST(PermNet, GridAndPolygons) {
  const Definition cube = load_definition("2x2x2");
  const auto dir = std::filesystem::temp_directory_path() / ("tansaku-perm-net-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(cube.file, dir / "mixed.tws", std::filesystem::copy_options::overwrite_existing);
  std::ifstream in(std::filesystem::path(cube.file).replace_extension(".net"));
  std::ofstream(dir / "mixed.net") << in.rdbuf() << "Face X #000000\nFixedPoly X 0 0 12 0 12 3\n";
  const Definition d = load_definition((dir / "mixed.tws").string());
  const std::string svg = position_svg(d, d.solved, d.solved);
  std::filesystem::remove_all(dir);
  EXPECT_NE(svg.find("viewBox=\"0 0 12.400 6.880\" width=\"540\""), std::string::npos) << svg.substr(0, 200);
  EXPECT_EQ(stickers(svg).size(), 6u);
  EXPECT_EQ(polys(svg), (std::vector<std::pair<int, std::string>>{{-1, "#000000"}}));
}

TEST(PermNet, BadNets) {
  const Definition d = load_definition("2x2x2");
  auto refused = [&](const std::string& text, const std::string& needle) {
    try {
      parse_net(d, text, "x.net");
      ADD_FAILURE() << "accepted: " << text;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  refused("Face U 1 0 2 white\n", "x.net:1: a colour");
  refused("Face U 1 0 2 #ffffff\nSticker CORNERS 9 0 U 0 0\n", "x.net:2: a position");
  refused("Face U 1 0 2 #ffffff\nSticker CORNERS 1 0 X 0 0\n", "unknown face");
  refused("Face U 1 0 2 #ffffff\nSticker CORNERS 1 0 U 2 0\n", "outside its face");
  refused("Face U 1 0 2 #ffffff\nSticker EDGES 1 0 U 0 0\n", "unknown set");
  refused("Face U 1 0 2 #ffffff\nWhat\n", "unknown line");
  refused("# nothing\n", "without faces");
  refused("Face U 1 0\n", "x.net:1: expected Face");
  refused("Face U 1 0 2 #ffffff extra\n", "extra text");
  refused("Face U 1 x 2 #ffffff\n", "expected Face");
  refused("Face U 1 0 0 #ffffff\n", "out of range");
  refused("Face U #ffffff\nSticker CORNERS 1 0 U 0 0\n", "x.net:2: face 'U' has no place in the grid");
  refused("Face U #ffffff\nFixed U 0 0\n", "no place in the grid");
  refused("Face U #ffffff\nPoly CORNERS 1\n", "x.net:2: expected Poly SET");
  refused("Face U #ffffff\nPoly CORNERS 1 0\n", "expected FACE X1");
  refused("Face U #ffffff\nPoly CORNERS 9 0 U 0 0 1 0 1 1\n", "a position or slot");
  refused("Face U #ffffff\nPoly CORNERS 1 3 U 0 0 1 0 1 1\n", "a position or slot");
  refused("Face U #ffffff\nPoly EDGES 1 0 U 0 0 1 0 1 1\n", "unknown set");
  refused("Face U #ffffff\nPoly CORNERS 1 0 X 0 0 1 0 1 1\n", "unknown face");
  refused("Face U #ffffff\nPoly CORNERS 1 0 U 0 0 1 0\n", "3 to 64 corners");
  refused("Face U #ffffff\nPoly CORNERS 1 0 U 0 0 1 0 1\n", "X Y pairs");
  refused("Face U #ffffff\nPoly CORNERS 1 0 U 0 0 1 x 1 1\n", "'x' is not a coordinate");
  refused("Face U #ffffff\nPoly CORNERS 1 0 U 0 0 1 nan 1 1\n", "not a coordinate");
  refused("Face U #ffffff\nPoly CORNERS 1 0 U 0 0 1 0 1 101\n", "outside 0..100");
  refused("Face U #ffffff\nPoly CORNERS 1 0 U 0 0 1 0 1 -1\n", "outside 0..100");
  refused("Face U #ffffff\nFixedPoly U 0 0 1 0\n", "x.net:2: a polygon has 3 to 64 corners");
  std::string many = "Face U #ffffff\nFixedPoly U";
  for (int k = 0; k < 65; ++k) many += " 1 1";
  refused(many + "\n", "3 to 64 corners");
  refused("Face U 1 0 2 #ffffff\nSticker CORNERS 1 0 U 0 0\nPoly CORNERS 1 0 U 0 0 1 0 1 1\n", "x.net:3: a sticker placed twice");
  refused("Face U #ffffff\nPoly CORNERS 1 0 U 0 0 1 0 1 1\nPoly CORNERS 1 0 U 0 0 1 0 1 1\n", "x.net:3: a sticker placed twice");
}

TEST(PermNet, PolygonLines) {
  const Definition d = load_definition("2x2x2");
  const Net net = parse_net(d, "Face U #ffffff  # no grid place\nFace V 0 0 2 #000000 # a grid face\nPoly CORNERS 2 1 U 0 0 1.5 0 1 2.25 # a triangle\nFixedPoly U 0 0 1 0 1 1 0 1\n", "x.net");
  ASSERT_EQ(net.faces.size(), 2u);
  EXPECT_EQ(net.faces[1].cells, 2);
  EXPECT_EQ(net.faces[0].cells, 0);
  EXPECT_EQ(net.faces[0].colour, "#ffffff");
  EXPECT_EQ(net.sticker[1][1].face, 0);
  EXPECT_EQ(net.sticker[1][1].poly, (std::vector<double>{0, 0, 1.5, 0, 1, 2.25}));
  EXPECT_EQ(net.sticker[0][0].face, -1);
  ASSERT_EQ(net.fixed.size(), 1u);
  EXPECT_EQ(net.fixed[0].poly.size(), 8u);
}
