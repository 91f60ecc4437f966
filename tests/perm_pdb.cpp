// perm piece tables (src/perm/piece_table.h): the 2-bit distances mod 3 against an
// independent breadth-first search over the projected positions, the exact value of a
// position (walking down the table) and a child's value recovered from its parent's, along
// random walks; the file round trip; the membership test (Schreier-Sims) on the cube.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <queue>
#include <random>
#include <unordered_map>

#include <stdlib.h>
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <zstd.h>

#include "perm/definition.h"
#include "perm/generators.h"
#include "perm/group_order.h"
#include "perm/notation.h"
#include "perm/piece_file.h"
#include "perm/piece_table.h"
#include "perm/solver.h"
#include "perm/symmetry.h"
#include "tansaku/core/error.h"
#include "tansaku/pdb/table_file.h"

using namespace tansaku;
using namespace tansaku::perm;

namespace {

// Distances from the goal's projection by a plain BFS over states (no ranking shortcuts).
std::unordered_map<std::uint64_t, int> bfs(const PieceDomain& dom) {
  std::unordered_map<std::uint64_t, int> dist;
  std::queue<PieceDomain::State> q;
  dist[dom.rank(dom.goal_state())] = 0;
  q.push(dom.goal_state());
  while (!q.empty()) {
    const auto s = q.front();
    q.pop();
    const int ds = dist[dom.rank(s)];
    dom.for_each_move(s, [&](int, const PieceDomain::State& t) {
      EXPECT_EQ(dom.rank(dom.unrank(dom.rank(t))), dom.rank(t));
      if (dist.emplace(dom.rank(t), ds + 1).second) q.push(t);
    });
  }
  return dist;
}

void check_against_bfs(const std::string& name, const std::string& moves, const PieceSpec& spec, int walks) {
  const Definition d = load_definition(name);
  const MoveSet ms = build_moves(d, "htm", moves);
  search::Limits lim;
  lim.threads = 2;
  auto table = build_piece_table(std::make_unique<PieceDomain>(d, ms, d.solved, spec), lim);
  const PieceDomain& dom = table->domain();
  const auto dist = bfs(dom);
  int max = 0;
  for (std::uint64_t r = 0; r < dom.size(); ++r) {
    const auto it = dist.find(r);
    ASSERT_EQ(table->mod3().get(r), it == dist.end() ? 3u : static_cast<unsigned>(it->second % 3)) << "rank " << r;
    if (it != dist.end()) max = std::max(max, it->second);
  }
  EXPECT_EQ(table->max_distance(), max);
  // Random walks: the exact value of every position visited equals the BFS distance of its
  // projection, and so does the value recovered from the parent's.
  std::mt19937 rng(7);
  for (int w = 0; w < walks; ++w) {
    Position p = d.solved, q;
    int h = 0;
    for (int step = 0; step < 30; ++step) {
      const auto& g = ms.gens[rng() % ms.gens.size()];
      d.apply(g.p, p, q);
      p = q;
      h = PieceTable::recover(h, table->value(p));
      const int want = dist.at(dom.rank(dom.project(p)));
      ASSERT_EQ(h, want);
      ASSERT_EQ(table->exact(p), want);
    }
  }
}

}  // namespace

TEST(PermPieceTable, Cube2x2x2CornersWithOrientation) {
  check_against_bfs("2x2x2", "U,F,R", PieceSpec{0, {0, 1, 2, 3}}, 20);
}

TEST(PermPieceTable, Cube2x2x2AllCornersImpliedOrientation) {
  // <U,F,R> never moves corner DLB: the table's cells are the orbit of the other seven, all
  // kept, the last orientation implied: 7! x 3^6 = 3,674,160, the group's size.
  const Definition d = load_definition("2x2x2");
  const MoveSet ms = build_moves(d, "htm", "U,F,R");
  PieceDomain dom(d, ms, d.solved, PieceSpec{0, {0, 1, 2, 3, 4, 5, 7}});
  EXPECT_EQ(dom.size(), 3674160u);
  EXPECT_THROW(PieceDomain(d, ms, d.solved, PieceSpec{0, {0, 6}}), InputError);  // no move changes DLB
  EXPECT_EQ(PieceDomain(d, build_moves(d, "htm", ""), d.solved, PieceSpec{0, {0, 1, 2, 3, 4, 5, 6, 7}}).size(),
            40320u * 2187u);
  // The skewb's corners move in two orbits of four: one table over both keeps what ties them.
  const Definition sk = load_definition("skewb");
  const auto specs = default_piece_specs(sk, build_moves(sk, "htm", ""), sk.solved, std::uint64_t{1} << 29, 0);
  EXPECT_EQ(specs.size(), 2u);
}

TEST(PermPieceTable, CubeEdgesAgainstBfs) {
  check_against_bfs("3x3x3", "", PieceSpec{1, {0, 1, 2}}, 20);
}

TEST(PermPieceTable, PyraminxEdges) {
  check_against_bfs("pyraminx", "", PieceSpec{0, {0, 1, 2, 3, 4, 5}}, 10);
}

TEST(PermPieceTable, DefaultSpecsOfTheCube) {
  const Definition d = load_definition("3x3x3");
  const MoveSet ms = build_moves(d, "htm", "");
  const auto specs = default_piece_specs(d, ms, d.solved, std::uint64_t{1} << 29, 0);
  ASSERT_EQ(specs.size(), 3u);  // 8 corners; edges 1-7 and 6-12
  EXPECT_EQ(PieceDomain(d, ms, d.solved, specs[0]).size(), 88179840u);
  EXPECT_EQ(PieceDomain(d, ms, d.solved, specs[1]).size(), 510935040u);
  EXPECT_EQ(specs[2].labels.front(), 5);
  EXPECT_EQ(default_piece_specs(d, ms, d.solved, std::uint64_t{1} << 29, 4).size(), 2u + 3u);
}

TEST(PermPieceTable, FileRoundTrip) {
  const Definition d = load_definition("2x2x2");
  const MoveSet ms = build_moves(d, "htm", "U,F,R");
  const PieceSpec spec{0, {2, 3, 4, 5, 7}};
  search::Limits lim;
  auto t = build_piece_table(std::make_unique<PieceDomain>(d, ms, d.solved, spec), lim);
  const auto dir = std::filesystem::temp_directory_path() / ("tansaku-perm-pdb-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto file = dir / table_file_name(d, ms, d.solved, spec);
  save_piece_table(*t, "perm:2x2x2", instance_key(d, ms, d.solved), "CORNERS", file);
  auto back = load_piece_table(file, d, ms, d.solved, lim);
  ASSERT_EQ(back->domain().size(), t->domain().size());
  for (std::uint64_t r = 0; r < t->domain().size(); ++r) ASSERT_EQ(back->mod3().get(r), t->mod3().get(r));
  EXPECT_EQ(back->max_distance(), t->max_distance());
  // Another move set: another key, refused in one line with the way out.
  const MoveSet all = build_moves(d, "htm", "");
  try {
    load_piece_table(file, d, all, d.solved, lim);
    ADD_FAILURE() << "a table of another move set loaded";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("a table of another puzzle, move set or goal"), std::string::npos) << what;
    EXPECT_NE(what.find("`tansaku pdb remove "), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
  // The cells follow the header line as they are in memory: a changed byte fails the
  // checksum, a short or long file its size.
  std::string bytes;
  {
    std::ifstream in(file, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  auto refused = [&](const std::string& content, const std::string& needle) {
    std::ofstream(file, std::ios::binary | std::ios::trunc) << content;
    try {
      load_piece_table(file, d, ms, d.solved, lim);
      ADD_FAILURE() << "accepted: " << needle;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  std::string changed = bytes;
  changed[changed.size() / 2] ^= 0x10;
  refused(changed, "damaged table file (the checksum of section cells)");
  refused(bytes.substr(0, bytes.size() - 1), "truncated");
  refused(bytes + "x", "longer than");
  // Files of the earlier layout (a magic line, a JSON line, then the cells raw from a page
  // boundary, or compressed by zstd) are refused in one line: the file, an earlier version,
  // the way out.
  std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
  const nlohmann::json header = read_table_header(file);
  const std::uint64_t at = pdb::TableReader(file, "").json()["sections"][0].value("offset", std::uint64_t{0});
  const std::string cells = bytes.substr(at);
  auto legacy = [&](const nlohmann::json& h, const std::string& body, bool pad) {
    std::string head = "TSKPERMPDB1\n" + h.dump();
    if (pad) head.append((4096 - (head.size() + 1) % 4096) % 4096, ' ');
    std::ofstream(file, std::ios::binary | std::ios::trunc) << head << "\n" << body;
    for (const auto& what : {"load", "header", "verify"}) {
      try {
        if (what == std::string("load")) (void)load_piece_table(file, d, ms, d.solved, lim);
        else if (what == std::string("header")) (void)read_table_header(file);
        else verify_table_file(file, lim);
        ADD_FAILURE() << "a file of the earlier layout accepted by " << what;
      } catch (const InputError& e) {
        const std::string m = e.what();
        EXPECT_EQ(m.find('\n'), std::string::npos) << m;
        EXPECT_EQ(m.rfind(file.string(), 0), 0u) << m;
        EXPECT_NE(m.find("a table file of an earlier version"), std::string::npos) << m;
        EXPECT_NE(m.find("`tansaku pdb remove " + file.filename().string() + "`"), std::string::npos) << m;
        EXPECT_NE(m.find("`tansaku pdb build`"), std::string::npos) << m;
      }
    }
  };
  legacy(header, cells, true);
  std::string packed(ZSTD_compressBound(cells.size()), '\0');
  packed.resize(ZSTD_compress(packed.data(), packed.size(), cells.data(), cells.size(), 3));
  legacy(header, packed, false);
  std::filesystem::remove_all(dir);
}

TEST(PermMembership, Cube) {
  const Definition d = load_definition("3x3x3");
  const MoveSet ms = build_moves(d, "htm", "");
  Position p = d.solved, q;
  for (const auto& m : parse_sequence_any(d, "R U F D L B R2 U2 F' L2 D B' R U'", "scramble")) {
    d.apply(m, p, q);
    p = q;
  }
  EXPECT_EQ(reachable(d, ms, d.solved, p), true);
  Position swapped = d.solved;
  std::swap(swapped.lab[0], swapped.lab[1]);  // two corners swapped, nothing else
  EXPECT_EQ(reachable(d, ms, d.solved, swapped), false);
  Position twisted = d.solved;
  twisted.ori[0] = 1;  // one corner twisted
  EXPECT_EQ(reachable(d, ms, d.solved, twisted), false);
  Position flipped = d.solved;
  flipped.ori[8] = 1;  // one edge flipped
  EXPECT_EQ(reachable(d, ms, d.solved, flipped), false);
  // <U,F,R> on the 2x2x2: 3,674,160 of the 88,179,840 positions; a D turn leaves them.
  const Definition d2 = load_definition("2x2x2");
  const MoveSet ufr = build_moves(d2, "htm", "U,F,R");
  Position dturn = d2.applied(parse_sequence_any(d2, "D", "s")[0], d2.solved);
  EXPECT_EQ(reachable(d2, ufr, d2.solved, dturn), false);
  EXPECT_EQ(reachable(d2, build_moves(d2, "htm", ""), d2.solved, dturn), true);
  // The order comes with a yes: the positions reachable (pieces distinct).
  std::string order;
  EXPECT_EQ(reachable(d, ms, d.solved, p, &order), true);
  EXPECT_EQ(order, "43252003274489856000");
  EXPECT_EQ(reachable(d2, ufr, d2.solved, d2.solved, &order), true);
  EXPECT_EQ(order, "3674160");
}

TEST(PermMembership, SolvesWithoutTheRankedSpace) {
  // The whole skewb (37,791,360 positions, above the bidirectional search's 2^22): a
  // reachable start goes to IDA* without the goal's ranked space being built; its lengths
  // are those of the bidirectional search (which builds it), on random positions.
  const Definition d = load_definition("skewb");
  const MoveSet ms = build_moves(d, "htm", "");
  std::string order;
  ASSERT_EQ(reachable(d, ms, d.solved, d.solved, &order), true);
  ASSERT_EQ(order, "37791360");
  for (const Position& p : random_positions(d, ms, d.solved, 9, 3)) {
    SolveRequest a, b;
    a.d = b.d = &d;
    a.ms = b.ms = &ms;
    a.start = b.start = p;
    a.goal = b.goal = d.solved;
    a.use_cache = b.use_cache = false;
    b.algorithm = "bibfs";
    const auto ra = solve(a, search::Limits{}), rb = solve(b, search::Limits{});
    ASSERT_TRUE(ra.path.found && rb.path.found);
    EXPECT_EQ(ra.algorithm, "idastar");
    EXPECT_EQ(ra.path.moves.size(), rb.path.moves.size());
    EXPECT_EQ(ra.hint, "");  // the cache not asked for: nothing to suggest
    verify(d, ms, p, d.solved, ra.path.moves);
  }
  // Asked for but empty: the result suggests building the tables (shown at a terminal).
  const auto none = std::filesystem::temp_directory_path() / ("tansaku-no-tables-" + std::to_string(::getpid()));
  const char* was = std::getenv("TANSAKU_PDB_DIR");
  const std::string before = was ? was : "";
  ::setenv("TANSAKU_PDB_DIR", none.c_str(), 1);
  SolveRequest c;
  c.d = &d;
  c.ms = &ms;
  c.start = random_positions(d, ms, d.solved, 1, 4)[0];
  c.goal = d.solved;
  const auto rc = solve(c, search::Limits{});
  if (was) ::setenv("TANSAKU_PDB_DIR", before.c_str(), 1);
  else ::unsetenv("TANSAKU_PDB_DIR");
  ASSERT_TRUE(rc.path.found);
  EXPECT_NE(rc.hint.find("tansaku pdb build perm:skewb"), std::string::npos) << rc.hint;
}

TEST(PermSymmetry, ConjugatesFollowConjugatedMoves) {
  // The 3x3x3's companion .sym: both rotations map the face turns onto face turns, and the
  // conjugate of a position reached by moves m1..mk is reached by their conjugates (so its
  // distance is the same: the conjugate lookups are admissible).
  const Definition d = load_definition("3x3x3");
  const MoveSet ms = build_moves(d, "htm", "");
  const auto syms = load_symmetries(d, ms, d.solved);
  ASSERT_EQ(syms.size(), 2u);
  std::mt19937 rng(3);
  for (const auto& s : syms) {
    for (int walk = 0; walk < 20; ++walk) {
      Position p = d.solved, q = d.solved;
      for (int step = 0; step < 25; ++step) {
        const int m = static_cast<int>(rng() % ms.gens.size());
        p = d.applied(ms.gens[static_cast<std::size_t>(m)].p, p);
        q = d.applied(ms.gens[static_cast<std::size_t>(s.conj[static_cast<std::size_t>(m)])].p, q);
        ASSERT_EQ(conjugate(d, s.p, p), q) << s.name;
      }
    }
  }
  // Not for another goal, nor for identical pieces.
  Position goal = d.applied(ms.gens[0].p, d.solved);
  EXPECT_TRUE(load_symmetries(d, ms, goal).empty());
}

TEST(PermSymmetry, Mirrors) {
  // The 3x3x3's companion .sym has a mirror (`Reduce M`, R <-> L): it reverses corner
  // twists, composes and inverts as a reflection, and conjugates each face turn to the
  // opposite face's turn the other way (R to L', U to U'), so a conjugate is as far from
  // Solved as the position.
  const Definition d = load_definition("3x3x3");
  const MoveSet ms = build_moves(d, "htm", "");
  const auto defs = parse_symmetries(d, read_text_file(data_dir() + "/3x3x3.sym", "sym"), "3x3x3.sym");
  const SymmetryDef* m = nullptr;
  for (const auto& sd : defs)
    if (sd.name == "M") m = &sd;
  ASSERT_NE(m, nullptr);
  ASSERT_TRUE(m->p.mirror);
  EXPECT_FALSE(d.compose(m->p, m->p).mirror);
  EXPECT_EQ(d.compose(m->p, m->p), d.identity());  // a reflection twice
  auto turn = [&](const char* name) { return parse_sequence_any(d, name, "s")[0]; };
  EXPECT_EQ(conjugate(d, m->p, d.applied(turn("R"), d.solved)), d.applied(turn("L'"), d.solved));
  EXPECT_EQ(conjugate(d, m->p, d.applied(turn("U"), d.solved)), d.applied(turn("U'"), d.solved));
  EXPECT_EQ(conjugate(d, m->p, d.applied(turn("F2"), d.solved)), d.applied(turn("F2"), d.solved));
  // Composition and inverse agree with applying one after the other, mirrors or not, on
  // random positions; twisting one corner by a mirror reverses the twist.
  std::mt19937 rng(5);
  const Perm r = d.compose(turn("R"), m->p);  // a mirror that also moves pieces
  for (int k = 0; k < 50; ++k) {
    Position p = d.solved;
    for (int s = 0; s < 20; ++s) p = d.applied(ms.gens[rng() % ms.gens.size()].p, p);
    for (const Perm& a : {m->p, r, turn("F")})
      for (const Perm& b : {m->p, r, turn("D")}) {
        ASSERT_EQ(d.applied(d.compose(a, b), p), d.applied(b, d.applied(a, p)));
        ASSERT_EQ(d.applied(d.inverse(a), d.applied(a, p)), p);
      }
  }
  // Conjugates by the whole group the .sym generates (48: rotations and reflections) keep
  // the distance: a walk's conjugate is the walk of the conjugated moves.
  const auto group = symmetry_group(d, ms, d.solved);
  EXPECT_EQ(group.size(), 48u);
  int mirrors = 0;
  for (const Perm& g : group) {
    mirrors += g.mirror;
    Position p = d.solved;
    for (int step = 0; step < 12; ++step) {
      const Perm& mv = ms.gens[rng() % ms.gens.size()].p;
      const Position q = conjugate(d, g, p), next = d.applied(mv, p);
      // conjugate(p after mv) = conjugate(p) after (g^-1 mv g)
      ASSERT_EQ(conjugate(d, g, next), d.applied(d.compose(d.compose(d.inverse(g), mv), g), q));
      p = next;
    }
  }
  EXPECT_EQ(mirrors, 24);
}

TEST(PermSymmetry, BadFiles) {
  const Definition d = load_definition("3x3x3");
  auto refused = [&](const std::string& text, const std::string& needle) {
    try {
      parse_symmetries(d, text, "x.sym");
      ADD_FAILURE() << "accepted: " << text;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  refused("Symmetry S\nCORNERS\n1 2 3 4 5 6 7 8\n0 0 0 0 0 0 0 0\n", "without End");
  refused("Symmetry S\nCORNERS\n1 1 3 4 5 6 7 8\n0 0 0 0 0 0 0 0\nEnd\n", "x.sym:3: a row that is not a permutation");
  refused("Symmetry S\nFACES\nEnd\n", "unknown set");
  refused("Move S\nEnd\n", "expected 'Symmetry NAME' or 'Reduce NAME'");
  refused("Symmetry S\nCORNERS\n1 2 3 4 5 6 7 8\n0 0 0 0 0 0 0 3\nEnd\n", "out of range");
}
