// Peg boards as data: jumps derived from geometry match the seeds' typed-in jump tables,
// symmetry groups, position classes, lower bounds, and the board-file format.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <fstream>
#include <set>
#include <tuple>

#include "peg/board.h"
#include "peg/bounds.h"
#include "peg/jumpgen.h"
#include "peg/symmetry.h"
#include "tansaku/core/error.h"

using namespace tansaku;
using namespace tansaku::peg;

namespace {

using JumpSet = std::set<std::tuple<int, int, int>>;

JumpSet jumps_of(const Board& bd) {
  JumpSet s;
  for (const auto& j : bd.jumps) s.insert({j.from, j.over, j.to});
  return s;
}

// table[from] = {(over, to), ...}, as printed in the seeds.
JumpSet from_table(const std::vector<std::vector<std::pair<int, int>>>& table) {
  JumpSet s;
  for (std::size_t f = 0; f < table.size(); ++f)
    for (auto [o, t] : table[f]) s.insert({static_cast<int>(f), o, t});
  return s;
}

}  // namespace

TEST(PegBoard, Triangle5MatchesSeed000JumpTable) {
  // Seed 000's *jump-table* (peg15.scm), numbered row-major from the apex.
  const std::vector<std::vector<std::pair<int, int>>> seed = {
      {{1, 3}, {2, 5}},                    // 0
      {{3, 6}, {4, 8}},                    // 1
      {{4, 7}, {5, 9}},                    // 2
      {{1, 0}, {4, 5}, {6, 10}, {7, 12}},  // 3
      {{7, 11}, {8, 13}},                  // 4
      {{2, 0}, {4, 3}, {8, 12}, {9, 14}},  // 5
      {{3, 1}, {7, 8}},                    // 6
      {{4, 2}, {8, 9}},                    // 7
      {{4, 1}, {7, 6}},                    // 8
      {{5, 2}, {8, 7}},                    // 9
      {{6, 3}, {11, 12}},                  // 10
      {{7, 4}, {12, 13}},                  // 11
      {{7, 3}, {8, 5}, {11, 10}, {13, 14}},  // 12
      {{8, 4}, {12, 11}},                  // 13
      {{9, 5}, {13, 12}},                  // 14
  };
  Board bd = builtin_board("triangle5");
  EXPECT_EQ(bd.n, 15);
  EXPECT_EQ(jumps_of(bd), from_table(seed));
  EXPECT_EQ(bd.standard_empty, bd.bit(12));
}

TEST(PegBoard, TryTryMatchesSeed001JumpTable) {
  // Seed 001's jump_table (trytry.py / trytry.c).
  const std::vector<std::vector<std::pair<int, int>>> seed = {
      {{2, 5}, {3, 7}},
      {{3, 6}, {4, 8}},
      {{3, 4}, {5, 9}, {6, 11}},
      {{6, 10}, {7, 12}},
      {{3, 2}, {7, 11}, {8, 13}},
      {{2, 0}, {6, 7}, {9, 14}, {10, 16}},
      {{3, 1}, {7, 8}, {10, 15}, {11, 17}},
      {{3, 0}, {6, 5}, {11, 16}, {12, 18}},
      {{4, 1}, {7, 6}, {12, 17}, {13, 19}},
      {{5, 2}, {10, 11}, {15, 21}},
      {{6, 3}, {11, 12}, {15, 20}, {16, 22}},
      {{6, 2}, {7, 4}, {10, 9}, {12, 13}, {16, 21}, {17, 23}},
      {{7, 3}, {11, 10}, {17, 22}, {18, 24}},
      {{8, 4}, {12, 11}, {18, 23}},
      {{9, 5}, {15, 16}},
      {{10, 6}, {16, 17}},
      {{10, 5}, {11, 7}, {15, 14}, {17, 18}},
      {{11, 6}, {12, 8}, {16, 15}, {18, 19}},
      {{12, 7}, {17, 16}},
      {{13, 8}, {18, 17}},
      {{15, 10}, {21, 22}},
      {{15, 9}, {16, 11}, {22, 23}},
      {{16, 10}, {17, 12}, {21, 20}, {23, 24}},
      {{17, 11}, {18, 13}, {22, 21}},
      {{18, 12}, {23, 22}},
  };
  Board bd = builtin_board("trytry");
  EXPECT_EQ(bd.n, 25);
  EXPECT_EQ(jumps_of(bd), from_table(seed));
  EXPECT_EQ(bd.standard_empty, bd.bit(11));
}

TEST(PegBoard, CrossBoards) {
  Board en = builtin_board("english"), fr = builtin_board("french");
  EXPECT_EQ(en.n, 33);
  EXPECT_EQ(fr.n, 37);
  EXPECT_EQ(en.jumps.size(), 76u);
  EXPECT_EQ(fr.jumps.size(), 92u);
  EXPECT_EQ(en.standard_empty, en.bit(16));
  EXPECT_EQ(fr.standard_empty, fr.bit(18));
  // Row-major numbering: hole 0 is the top-left of the top arm, 6 the left end of row 2.
  EXPECT_EQ(en.x[0], 2);
  EXPECT_EQ(en.y[6], 2);
  EXPECT_EQ(en.x[6], 0);
}

TEST(PegBoard, TriangleSizes) {
  for (int n = 4; n <= 10; ++n) {
    Board bd = builtin_board("triangle" + std::to_string(n));
    EXPECT_EQ(bd.n, n * (n + 1) / 2);
    // Each of the 3 directions has (n-2)(n-1)/2 lines of three holes, jumpable both ways.
    EXPECT_EQ(static_cast<int>(bd.jumps.size()), 3 * (n - 2) * (n - 1));
  }
  EXPECT_THROW(builtin_board("triangle3"), InputError);
  EXPECT_THROW(builtin_board("triangle11"), InputError);
  EXPECT_THROW(builtin_board("triangle"), InputError);
  EXPECT_THROW(builtin_board("hexagon"), InputError);
}

TEST(PegBoard, SymmetryGroups) {
  EXPECT_EQ(board_automorphisms(builtin_board("triangle5")).size(), 6u);
  EXPECT_EQ(board_automorphisms(builtin_board("trytry")).size(), 6u);
  EXPECT_EQ(board_automorphisms(builtin_board("english")).size(), 8u);
  EXPECT_EQ(board_automorphisms(builtin_board("french")).size(), 8u);
  Board hex = load_board_file(TANSAKU_DATA_DIR "/peg/hexagon19.txt");
  EXPECT_EQ(board_automorphisms(hex).size(), 12u);
  // A 2x3 rectangle keeps only 4 of the square's 8 symmetries.
  Board rect = parse_board("lattice: square\no o o\no o o\n", "rect");
  EXPECT_EQ(board_automorphisms(rect).size(), 4u);
  // Every automorphism maps jumps onto jumps and the canonical form is the smallest image.
  Board en = builtin_board("english");
  auto group = board_automorphisms(en);
  Symmetry sym(en, group);
  JumpSet js = jumps_of(en);
  for (const auto& p : group)
    for (const auto& j : en.jumps) EXPECT_TRUE(js.count({p[j.from], p[j.over], p[j.to]}));
  const Bits b = 0x1234567ull & en.all;
  Bits best = b;
  for (int g = 0; g < sym.order(); ++g) {
    best = std::min(best, sym.apply(g, b));
    EXPECT_EQ(sym.apply(sym.inverse(g), sym.apply(g, b)), b);
  }
  EXPECT_EQ(sym.canonical(b), best);
  // Stabilisers: the middle of an outer edge keeps one reflection, a corner none.
  EXPECT_EQ(Symmetry::stabiliser(group, en.all & ~en.bit(1)).size(), 2u);
  EXPECT_EQ(Symmetry::stabiliser(group, en.all & ~en.bit(0)).size(), 1u);
}

TEST(PegBoard, JumpGenMatchesTheJumpList) {
  for (const char* name : {"triangle5", "trytry", "english"}) {
    Board bd = builtin_board(name);
    JumpGen gen(bd);
    std::uint64_t x = 0x9E3779B97F4A7C15ull;
    for (int t = 0; t < 2000; ++t) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      const Bits b = x & bd.all;
      std::vector<int> want, got;
      for (std::size_t i = 0; i < bd.jumps.size(); ++i) {
        const auto& j = bd.jumps[i];
        if ((b >> j.from & 1) && (b >> j.over & 1) && !(b >> j.to & 1)) want.push_back(static_cast<int>(i));
      }
      gen.for_each(b, [&](int ji) { got.push_back(ji); });
      std::sort(got.begin(), got.end());
      EXPECT_EQ(got, want) << name;
    }
  }
}

TEST(PegBoard, PositionClasses) {
  // The English board: 16 classes (the rule of three); from the centre the last peg can
  // only be in the centre or the middle of an outer edge.
  Board en = builtin_board("english");
  PositionClass pc(en);
  EXPECT_EQ(pc.dimension(), 4);
  for (const auto& j : en.jumps) EXPECT_EQ(pc.of(en.all), pc.of(en.all ^ j.mask)) << "a jump changed the class";
  std::vector<int> finishers;
  const auto c = pc.of(en.all & ~en.bit(16));
  for (int h = 0; h < en.n; ++h)
    if (pc.of(en.bit(h)) == c) finishers.push_back(h);
  EXPECT_EQ(finishers, (std::vector<int>{1, 13, 16, 19, 31}));
  // The French board from the centre: no single hole shares the start's class.
  Board fr = builtin_board("french");
  PositionClass pf(fr);
  const auto cf = pf.of(fr.all & ~fr.bit(18));
  for (int h = 0; h < fr.n; ++h) EXPECT_NE(pf.of(fr.bit(h)), cf);
}

TEST(PegBoard, CornerAndEdgeBounds) {
  // Try-Try: corners 0 1 14 19 20 24 and seed 001's three edges (2,5,9) (4,8,13) (21,22,23).
  Board tt = builtin_board("trytry");
  DemandBound dem(tt, tt.bit(11), false, tt.bit(11));
  EXPECT_EQ(dem.corners(), tt.bit(0) | tt.bit(1) | tt.bit(14) | tt.bit(19) | tt.bit(20) | tt.bit(24));
  const Bits start = tt.all & ~tt.bit(11);
  EXPECT_EQ(dem(start), 9);  // 6 corners + 3 edges: seed 001's initial bound
  // Seed 001's edge values: 011 and 110 cost one move, 101 and single pegs none.
  const Bits others = start & ~(tt.bit(2) | tt.bit(5) | tt.bit(9));
  EXPECT_EQ(dem(others | tt.bit(5) | tt.bit(9)), 9);
  EXPECT_EQ(dem(others | tt.bit(2) | tt.bit(5)), 9);
  EXPECT_EQ(dem(others | tt.bit(2) | tt.bit(9)), 8);
  EXPECT_EQ(dem(others | tt.bit(5)), 8);
  // English: the 8 corners.
  Board en = builtin_board("english");
  DemandBound de(en, en.bit(16), false, en.bit(16));
  EXPECT_EQ(std::popcount(de.corners()), 8);
  EXPECT_EQ(de(en.all & ~en.bit(16)), 8);
  // Finishing anywhere, a corner peg may be the survivor without moving.
  DemandBound da(en, 0, true, en.bit(0));
  EXPECT_EQ(da(en.bit(0) | en.bit(2)), 1);
}

TEST(PegBoard, BoardFileEqualsBuiltin) {
  Board f = load_board_file(TANSAKU_DATA_DIR "/peg/english.txt");
  Board b = builtin_board("english");
  EXPECT_EQ(f.n, b.n);
  EXPECT_EQ(jumps_of(f), jumps_of(b));
  EXPECT_EQ(f.standard_empty, b.standard_empty);
  EXPECT_EQ(f.name, "English 33-hole board");
}

TEST(PegBoard, BoardFileKeys) {
  Board b = parse_board("lattice: square\nempty: 1\nfinish: 2\no o o o\n", "line");
  EXPECT_EQ(b.n, 4);
  EXPECT_EQ(b.jumps.size(), 4u);
  EXPECT_EQ(b.standard_empty, b.bit(1));
  ASSERT_TRUE(b.standard_finish.has_value());
  EXPECT_EQ(*b.standard_finish, 2);
  // No vacancy marked: the hole nearest the centre.
  Board c = parse_board("lattice: square\no o o\no o o\no o o\n", "square");
  EXPECT_EQ(c.standard_empty, c.bit(4));
  // Diagonal jumps.
  Board d = parse_board("lattice: square-diagonal\no o o\no o o\no o o\n", "diag");
  EXPECT_EQ(d.jumps.size(), 16u);
  // Comments and blank lines before the picture are ignored; indentation is free.
  Board t = parse_board("# a comment\n\nlattice: triangular\n\n      o\n     o o\n    o . o\n", "tri");
  EXPECT_EQ(t.n, 6);
  EXPECT_EQ(t.standard_empty, t.bit(4));
  EXPECT_EQ(t.jumps.size(), 6u);
}

TEST(PegBoard, MalformedBoardFiles) {
  auto bad = [](const std::string& text) {
    try {
      parse_board(text, "bad.txt");
    } catch (const InputError& e) {
      std::string m = e.what();
      EXPECT_EQ(m.find('\n'), std::string::npos) << m;
      return m;
    }
    ADD_FAILURE() << "accepted: " << text;
    return std::string();
  };
  EXPECT_NE(bad("o o o\n").find("lattice"), std::string::npos);
  EXPECT_NE(bad("lattice: hexagonal\no o\n").find("unknown lattice"), std::string::npos);
  EXPECT_NE(bad("lattice: square\no o x\no # o\n").find("unexpected character"), std::string::npos);
  EXPECT_NE(bad("lattice: square\no oo\n").find("between two cells"), std::string::npos);
  EXPECT_NE(bad("lattice: triangular\no o\no o\n").find("off the triangular lattice"), std::string::npos);
  EXPECT_NE(bad("lattice: square\n").find("no holes"), std::string::npos);
  EXPECT_NE(bad("lattice: square\ncolour: red\no o o\n").find("unknown key"), std::string::npos);
  EXPECT_NE(bad("lattice: square\nfinish: 7\no o o\n").find("not on"), std::string::npos);
  std::string big = "lattice: square\n";
  for (int r = 0; r < 9; ++r) big += "o o o o o o o o\n";
  EXPECT_NE(bad(big).find("at most 64"), std::string::npos);
  EXPECT_THROW(load_board_file("/nonexistent/board.txt"), InputError);
}

TEST(PegBoard, PositionsAndHoles) {
  Board bd = builtin_board("triangle5");
  EXPECT_EQ(parse_position(bd, "111111111111011", "s"), bd.all & ~bd.bit(12));
  EXPECT_EQ(parse_position(bd, "ooooo oooo ooo.oo", "s"), bd.all & ~bd.bit(12));
  EXPECT_EQ(format_position(bd, bd.all & ~bd.bit(0)), "011111111111111");
  EXPECT_THROW(parse_position(bd, "1111", "s"), InputError);
  EXPECT_THROW(parse_position(bd, "11111111111101z", "s"), InputError);
  EXPECT_EQ(parse_holes(bd, "3,12", "h"), (std::vector<int>{3, 12}));
  EXPECT_THROW(parse_holes(bd, "15", "h"), InputError);
  EXPECT_THROW(parse_holes(bd, "3,3", "h"), InputError);
  EXPECT_THROW(parse_holes(bd, "x", "h"), InputError);
  EXPECT_EQ(render_position(bd, bd.all & ~bd.bit(12)), "    o\n   o o\n  o o o\n o o o o\no o . o o\n");
}
