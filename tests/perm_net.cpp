// perm pictures as a facelet net (src/perm/net.h, draw.h): the cube builtins' companion
// .net files, every colour on nine (four) stickers whatever the position, a face turn
// moving the colours it should, and malformed net files refused naming the line.
#include <gtest/gtest.h>

#include <map>
#include <regex>

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
  const Definition py = load_definition("pyraminx");
  EXPECT_FALSE(load_net(py).has_value());
  EXPECT_NE(position_svg(py, py.solved, py.solved).find("EDGES"), std::string::npos);
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
}
