// The cube as a cube (perm): the names cube / rubik / 2x2x2 / 3x3x3, the solved start
// answered at once, twsearch's MoveAlias / MoveSequence / Illegal / StartState /
// MoveTransformation sections, slice, wide and rotation moves read up to rotations, and
// facelet strings checked against the move replayer and Kociemba's published example.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "cli_util.h"
#include "perm/definition.h"
#include "perm/facelets.h"
#include "perm/generators.h"
#include "perm/net.h"
#include "perm/notation.h"
#include "perm/solver.h"
#include "tansaku/core/error.h"

using namespace tansaku;
using namespace tansaku::perm;

namespace {

const std::string kSolved = "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB";

std::string error_of(const std::string& text) {
  try {
    parse_definition(text, "t.tws");
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

Position after(const Definition& d, const std::string& moves) { return replay(d, d.solved, moves, "test"); }

}  // namespace

TEST(PermCube, AliasesNameTheBuiltins) {
  for (const char* name : {"cube", "rubik", "3x3x3"}) {
    auto r = run_cli(std::string("solve ") + name + " --scramble \"R R'\" --json");
    ASSERT_EQ(r.code, 0) << name << ": " << r.err;
    EXPECT_EQ(r.json()["puzzle"], "perm:3x3x3");
    EXPECT_EQ(r.json()["length"], 0);
  }
  auto two = run_cli("solve 2x2x2 --scramble \"R U\" --json");
  ASSERT_EQ(two.code, 0) << two.err;
  EXPECT_EQ(two.json()["puzzle"], "perm:2x2x2");
  auto list = run_cli("list");
  ASSERT_EQ(list.code, 0);
  for (const char* name : {"cube", "rubik", "2x2x2", "3x3x3"})
    EXPECT_NE(list.out.find(name), std::string::npos) << name;
}

TEST(PermCube, SolvedStartAnswersWithoutTables) {
  // The solver returns before any table: no pattern database is named, no node expanded.
  const Definition d = load_definition("3x3x3");
  MoveSet ms = build_moves(d, "htm", "");
  SolveRequest req;
  req.d = &d;
  req.ms = &ms;
  req.start = d.solved;
  req.goal = d.solved;
  req.mode = search::SolutionMode::Count;
  auto r = solve(req, search::Limits{});
  EXPECT_TRUE(r.path.found);
  EXPECT_TRUE(r.path.moves.empty());
  EXPECT_TRUE(r.heuristics.empty());
  EXPECT_EQ(r.table_bytes, 0u);
  EXPECT_EQ(r.path.count, 1);
  auto c = run_cli("solve cube --scramble \"\" --json");
  ASSERT_EQ(c.code, 0) << c.err;
  EXPECT_EQ(c.json()["length"], 0);
  EXPECT_EQ(c.json()["nodes"], 0);
  EXPECT_FALSE(c.json().contains("pattern_databases"));
  auto s = run_cli("solve cube --scramble \"R R'\" --json");
  EXPECT_EQ(s.json()["length"], 0);
}

TEST(PermCube, TwsearchSections) {
  // A 3-cycle puzzle with a sequence, an alias, a rotation and a 0-based StartState.
  const std::string text =
      "Name t\nSet A 3 1\nStartState\nA\n0 1 2\nEnd\n"
      "Move T\nA\n2 3 1\nEnd\n"
      "MoveTransformation S\nA\n1 0 2\nEnd\n"
      "MoveSequence TT T T\nMoveAlias Q TT\n";
  const Definition d = parse_definition(text, "t.tws");
  ASSERT_EQ(d.moves.size(), 2u);
  EXPECT_EQ(d.sequences.size(), 1u);
  EXPECT_EQ(d.aliases.size(), 1u);
  EXPECT_EQ(after(d, "TT"), after(d, "T T"));
  EXPECT_EQ(after(d, "Q"), after(d, "T'"));
  EXPECT_EQ(after(d, "Q'"), after(d, "T"));
  EXPECT_EQ(after(d, "Q2"), after(d, "T"));
  EXPECT_EQ(after(d, "TT3"), d.solved);
  // MoveTransformation: 0-based, the same permutation convention as Move.
  EXPECT_EQ(format_position(d, after(d, "S")), "A 2 1 3");
  EXPECT_EQ(format_position(d, after(d, "T")), "A 2 3 1");
  // Errors name the file and line.
  EXPECT_EQ(error_of(text + "MoveAlias Z Y\n"), "t.tws:17: MoveAlias Z: 'Y' is not a move");
  EXPECT_EQ(error_of(text + "MoveAlias T2x T\nMoveAlias T TT\n"),
            "t.tws:18: MoveAlias 'T': the name is taken (line 7)");
  EXPECT_EQ(error_of(text + "MoveAlias T2 TT\n"), "t.tws:17: MoveAlias 'T2' is already written as a power of a move");
  EXPECT_NE(error_of(text + "MoveAlias A1 B1\nMoveAlias B1 A1\n").find("nest more than 16 deep"), std::string::npos);
  EXPECT_EQ(error_of(text + "MoveSequence X\n"), "t.tws:17: 'MoveSequence' takes a name and at least one move");
  EXPECT_EQ(error_of(text + "MoveAlias X\n"), "t.tws:17: 'MoveAlias' takes 3 tokens, found 2");
  EXPECT_EQ(error_of("Name t\nSet A 3 1\nMoveAlias X T\n"), "t.tws:3: 'MoveAlias' before 'Solved'");
  // StartState counts from 0: "1 2 3" leaves out the first piece.
  EXPECT_EQ(error_of("Name t\nSet A 3 1\nStartState\nA\n1 2 3\nEnd\nMove T\nA\n2 3 1\nEnd\n"),
            "t.tws: set 'A': the piece numbers of the Solved block must be 1..3 with none left out (1 is missing), as "
            "twsearch requires");
  EXPECT_EQ(error_of("Name t\nSet A 3 1\nSolved\nEnd\nStartState\nEnd\n"),
            "t.tws:5: a second 'Solved' or 'StartState' block");
  EXPECT_EQ(error_of(text + "Illegal A 1\n"),
            "t.tws:17: 'Illegal' takes a set, a position and at least one piece number");
  EXPECT_EQ(error_of(text + "Illegal B 1 1\n"), "t.tws:17: unknown set 'B'");
  EXPECT_EQ(error_of(text + "Illegal A 1 1\n"), "t.tws: the Solved block breaks the Illegal rule of line 17");
  EXPECT_EQ(error_of(text + "Illegal A 1 65\n"), "t.tws:17: a piece number: 65 is out of range 1..64");
}

TEST(PermCube, IllegalPositionsAreNeverPassed) {
  // A 4-cycle in quarter turns: from T2 the goal is two turns either way, T T through
  // "4 1 2 3" or T' T' through "2 3 4 1". Piece 4 may not stand at position 1: T' T' it is.
  const std::string text = "Name ring\nSet A 4 1\nSolved\nA\n1 2 3 4\nEnd\nMove T\nA\n2 3 4 1\nEnd\nIllegal A 1 4\n";
  const Definition d = parse_definition(text, "ring.tws");
  ASSERT_EQ(d.illegal.size(), 1u);
  EXPECT_FALSE(d.legal(parse_position(d, "A 4 1 2 3", "p")));
  EXPECT_TRUE(d.legal(parse_position(d, "A 2 3 4 1", "p")));
  MoveSet ms = build_moves(d, "qtm", "");
  SolveRequest req;
  req.d = &d;
  req.ms = &ms;
  req.start = parse_position(d, "A 3 4 1 2", "start");
  req.goal = d.solved;
  auto r = solve(req, search::Limits{});
  ASSERT_TRUE(r.path.found);
  EXPECT_EQ(format_sequence(ms, r.path.moves), "T' T'");
  // The verifier refuses a path through an illegal position.
  EXPECT_THROW(verify(d, ms, req.start, d.solved, parse_sequence(d, ms, "T T", "t")), std::logic_error);
  // A start that breaks a rule is bad input.
  req.start = parse_position(d, "A 4 1 2 3", "start");
  EXPECT_THROW(solve(req, search::Limits{}), InputError);
  // Through the command line: the same answer; explore (which knows no rules) refuses.
  const std::filesystem::path file = std::filesystem::path(::testing::TempDir()) / "tansaku_perm_cube_ring.tws";
  std::ofstream(file) << text;
  auto a = run_cli("solve perm:" + file.string() + " --metric qtm --start \"A 3 4 1 2\" --json");
  ASSERT_EQ(a.code, 0) << a.err;
  EXPECT_EQ(a.json()["moves"], nlohmann::json::array({"T'", "T'"}));
  auto b = run_cli("solve perm:" + file.string() + " --start \"A 4 1 2 3\"");
  EXPECT_EQ(b.code, 2);
  EXPECT_EQ(b.err, "tansaku: the start breaks the Illegal rule of " + file.string() + ":11\n");
  auto c = run_cli("explore perm:" + file.string());
  EXPECT_EQ(c.code, 2);
  EXPECT_EQ(c.out, "");
  EXPECT_NE(c.err.find("explore does not support definitions with Illegal rules"), std::string::npos) << c.err;
  std::filesystem::remove(file);
}

TEST(PermCube, SliceWideAndRotationMoves) {
  const Definition d = load_definition("3x3x3");
  EXPECT_EQ(d.rotations.size(), 3u);
  EXPECT_EQ(d.moves.size(), 6u);  // rotations are never searched
  // Rotations alone leave the cube solved (positions are taken up to rotations).
  EXPECT_EQ(after(d, "x y z x2 y' z2"), d.solved);
  // A slice is the two faces around it; a wide move the opposite face.
  EXPECT_EQ(after(d, "M"), after(d, "R L'"));
  EXPECT_EQ(after(d, "M'"), after(d, "R' L"));
  EXPECT_EQ(after(d, "E"), after(d, "U D'"));
  EXPECT_EQ(after(d, "S"), after(d, "F' B"));
  EXPECT_EQ(after(d, "Rw"), after(d, "L"));
  EXPECT_EQ(after(d, "r"), after(d, "L"));
  EXPECT_EQ(after(d, "Uw2"), after(d, "D2"));
  EXPECT_EQ(after(d, "M4"), d.solved);
  EXPECT_EQ(after(d, "M M'"), d.solved);
  // After a rotation a face move turns the face now in that place: x then U turns F.
  EXPECT_EQ(after(d, "x U"), after(d, "F"));
  EXPECT_EQ(after(d, "y R"), after(d, "B"));
  EXPECT_EQ(after(d, "z U"), after(d, "L"));
  EXPECT_EQ(after(d, "r U r'"), after(d, "L F L'"));
  // The checkerboard: the three slices are the six faces.
  EXPECT_EQ(after(d, "M2 E2 S2"), after(d, "R2 L2 U2 D2 F2 B2"));
  EXPECT_THROW(after(d, "Q"), InputError);
  // Through the command line: moves that cancel up to a rotation give the solved cube.
  auto a = run_cli("solve cube --scramble \"M x' R' L z y' x\" --json");
  ASSERT_EQ(a.code, 0) << a.err;
  EXPECT_EQ(a.json()["length"], 0);
  // The 2x2x2 (without rotations) answers a slice: not one of its moves.
  EXPECT_EQ(run_cli("solve 2x2x2 --scramble M").code, 2);
  auto bad = run_cli("solve cube --scramble \"R Mw\"");
  EXPECT_EQ(bad.code, 2);
  EXPECT_EQ(bad.err, "tansaku: --scramble: 'Mw' is not a move of 3x3x3\n");
}

TEST(PermCube, FaceletsAgreeWithTheReplayer) {
  const Definition d = load_definition("3x3x3");
  const auto net = load_net(d);
  ASSERT_TRUE(net);
  MoveSet ms = build_moves(d, "htm", "");
  EXPECT_EQ(facelets_unsupported(d, *net), "");
  EXPECT_EQ(facelets_of(d, *net, d.solved), kSolved);
  // Kociemba's strings for one face turn.
  EXPECT_EQ(facelets_of(d, *net, after(d, "R")), "UUFUUFUUFRRRRRRRRRFFDFFDFFDDDBDDBDDBLLLLLLLLLUBBUBBUBB");
  EXPECT_EQ(facelets_of(d, *net, after(d, "U")), "UUUUUUUUUBBBRRRRRRRRRFFFFFFDDDDDDDDDFFFLLLLLLLLLBBBBBB");
  // Round trips: scramble -> facelets -> the same position.
  for (const char* scr : {"R", "U F'", "R U R' U'", "D2 L B' R2 F U' D L2 B F' R D'", "M E S x", "Rw U2 Fw'"}) {
    const Position p = after(d, scr);
    EXPECT_EQ(parse_facelets(d, *net, ms, facelets_of(d, *net, p), "f"), p) << scr;
  }
  // The 2x2x2's net reads facelets too (24 letters).
  const Definition two = load_definition("2x2x2");
  const auto net2 = load_net(two);
  ASSERT_TRUE(net2);
  MoveSet ms2 = build_moves(two, "htm", "");
  const Position q = replay(two, two.solved, "R U F'", "t");
  EXPECT_EQ(facelets_of(two, *net2, two.solved), "UUUURRRRFFFFDDDDLLLLBBBB");
  EXPECT_EQ(parse_facelets(two, *net2, ms2, facelets_of(two, *net2, q), "f"), q);
  // The pyraminx's net is of triangles: no facelets.
  const Definition pyr = load_definition("pyraminx");
  EXPECT_NE(facelets_unsupported(pyr, *load_net(pyr)), "");
}

TEST(PermCube, KociembaPublishedExample) {
  // The example of Kociemba's Python package: this cube and the 19-move solution it prints.
  const Definition d = load_definition("3x3x3");
  const auto net = load_net(d);
  ASSERT_TRUE(net);
  MoveSet ms = build_moves(d, "htm", "");
  const std::string cube = "DRLUUBFBRBLURRLRUBLRDDFDLFUFUFFDBRDUBRUFLLFDDBFLUBLRBD";
  const Position p = parse_facelets(d, *net, ms, cube, "f");
  const std::string solution = "D2 R' D' F2 B D R2 D2 R' F2 D' F2 U' B2 L2 U2 D R2 U";
  EXPECT_EQ(replay(d, p, solution, "t"), d.solved);
  EXPECT_EQ(parse_sequence(d, ms, solution, "t").size(), 19u);
  verify(d, ms, p, d.solved, parse_sequence(d, ms, solution, "t"));
  EXPECT_EQ(facelets_of(d, *net, p), cube);
}

TEST(PermCube, BadFaceletsNameTheProblem) {
  auto err = [](std::string f) {
    auto r = run_cli("solve cube --facelets " + f);
    EXPECT_EQ(r.code, 2) << f;
    EXPECT_EQ(r.out, "");
    return r.err;
  };
  auto with = [](std::initializer_list<std::pair<int, char>> changes) {
    std::string s = kSolved;
    for (auto [i, c] : changes) s[static_cast<std::size_t>(i)] = c;
    return s;
  };
  EXPECT_EQ(err(kSolved.substr(1)),
            "tansaku: --facelets: 53 letters; 3x3x3 has 54 stickers (faces U R F D L B, each row by row)\n");
  EXPECT_EQ(err(with({{53, 'X'}})),
            "tansaku: --facelets: 'X' (sticker B9) is not a face: the letters are U R F D L B\n");
  EXPECT_EQ(err(with({{53, 'U'}})), "tansaku: --facelets: U appears 10 times; each face has 9 stickers\n");
  EXPECT_EQ(
      err(with({{4, 'F'}, {22, 'U'}})),
      "tansaku: --facelets: sticker U5 shows F, but it does not move (a centre): turn the puzzle so that it shows U\n");
  EXPECT_EQ(
      err(with({{8, 'F'}, {9, 'U'}, {20, 'R'}})),
      "tansaku: --facelets: the CORNERS are twisted: their orientations sum to 1 more than solved, mod 3 (a piece "
      "twisted in place; no move does that)\n");
  EXPECT_EQ(err(with({{7, 'F'}, {19, 'U'}})),
            "tansaku: --facelets: the EDGES are flipped: their orientations sum to 1 more than solved, mod 2 (a piece "
            "flipped in place; no move does that)\n");
  EXPECT_EQ(err(with({{19, 'R'}, {10, 'F'}})),
            "tansaku: --facelets: the permutation parity is wrong (two pieces swapped; no move does that)\n");
  EXPECT_EQ(err(with({{8, 'R'}, {9, 'U'}})),
            "tansaku: --facelets: stickers U9 R1 F3 show RUF: no piece of 3x3x3 has these colours\n");
  auto both = run_cli("solve cube --facelets " + kSolved + " --scramble R");
  EXPECT_EQ(both.code, 2);
  EXPECT_EQ(both.err, "tansaku: give one of --start, --scramble, --facelets\n");
  auto pyr = run_cli("solve perm:pyraminx --facelets UUU");
  EXPECT_EQ(pyr.code, 2);
  EXPECT_EQ(pyr.err, "tansaku: --facelets: not for pyraminx: its net draws polygons, not square faces\n");
}

TEST(PermCube, FaceletsInTheJson) {
  auto show = run_cli("show cube --scramble U --json");
  ASSERT_EQ(show.code, 0) << show.err;
  EXPECT_EQ(show.json()["facelets"], "UUUUUUUUUBBBRRRRRRRRRFFFFFFDDDDDDDDDFFFLLLLLLLLLBBBBBB");
  auto k = run_cli("show cube --facelets DRLUUBFBRBLURRLRUBLRDDFDLFUFUFFDBRDUBRUFLLFDDBFLUBLRBD --json");
  ASSERT_EQ(k.code, 0) << k.err;
  EXPECT_EQ(k.json()["facelets"], "DRLUUBFBRBLURRLRUBLRDDFDLFUFUFFDBRDUBRUFLLFDDBFLUBLRBD");
  // The 2x2x2 solves at once (a small space): facelets in, the solution and the facelets out.
  auto s = run_cli("solve 2x2x2 --scramble \"R U\" --json");
  ASSERT_EQ(s.code, 0) << s.err;
  const std::string f = s.json()["facelets"];
  EXPECT_EQ(f.size(), 24u);
  auto t = run_cli("solve 2x2x2 --facelets " + f + " --json");
  ASSERT_EQ(t.code, 0) << t.err;
  EXPECT_EQ(t.json()["length"], 2);
  EXPECT_EQ(t.json()["start"], s.json()["start"]);
  auto c = run_cli("solve cube --facelets " + kSolved + " --json");
  ASSERT_EQ(c.code, 0) << c.err;
  EXPECT_EQ(c.json()["length"], 0);
  EXPECT_EQ(c.json()["facelets"], kSolved);
}
