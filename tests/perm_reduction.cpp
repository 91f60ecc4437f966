// Pattern tables reduced by symmetry (src/perm/pattern_reduction.h): a reduced table
// answers as the full one at every position of the pattern (all of them, for small
// patterns of the cube under the 16 symmetries that keep the U-D axis, reflections among
// them), it is about 16 times smaller, conjugates of a position share a cell, the
// symmetries that do not map the pattern onto itself are found and left out, and the file
// round trip (with the sym-move table, and without it as earlier files are) and solve work.
#include <gtest/gtest.h>

#include <unistd.h>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <nlohmann/json.hpp>
#include <random>

#include "perm/definition.h"
#include "perm/generators.h"
#include "perm/pattern_spec.h"
#include "perm/pattern_table.h"
#include "perm/piece_file.h"
#include "perm/solver.h"
#include "perm/symmetry.h"
#include "tansaku/core/error.h"
#include "tansaku/pdb/table_file.h"

using namespace tansaku;
using namespace tansaku::perm;

namespace {

std::unique_ptr<PatternTable> build(const Definition& d, const MoveSet& ms, const std::string& text) {
  search::Limits lim;
  lim.threads = 2;
  const auto v = parse_patterns(d, text, "t.pat");
  EXPECT_EQ(v.size(), 1u);
  return build_pattern_table(std::make_unique<PatternDomain>(d, ms, d.solved, v.at(0), 2), lim);
}

// Every position of the full pattern's space: the reduced table's exact value equals the
// full table's, and so does the value recovered from a neighbour's.
void same_as_full(const std::string& body, std::uint64_t full_size, std::size_t kept) {
  const Definition d = load_definition("3x3x3");
  const MoveSet ms = build_moves(d, "htm", "");
  const auto full = build(d, ms, "Pattern f\n" + body + "End\n");
  const auto red = build(d, ms, "Pattern r\n" + body + "Reduced\nEnd\n");
  ASSERT_EQ(full->domain().size(), full_size);
  ASSERT_NE(red->domain().reduction(), nullptr);
  EXPECT_EQ(red->domain().reduction()->symmetries(), kept);
  EXPECT_LT(red->domain().size() * 12, full_size);  // about 1/16 (fixed points make it more)
  EXPECT_EQ(red->max_distance(), full->max_distance());
  const Space& sp = full->domain().space();
  const Definition& pd = full->domain().projected();
  for (std::uint64_t r = 0; r < sp.size(); ++r) {
    const Position p = sp.unrank(r);
    // The projected position is one of the reduced pattern's too (same projection).
    std::uint64_t s = 0;
    ASSERT_TRUE(red->domain().reduction()->contains(p)) << r;
    s = red->domain().reduction()->state(p);
    ASSERT_EQ(red->mod3().get(red->domain().cell(s)), full->mod3().get(r)) << r;
    (void)pd;
  }
  // Random walks of the whole cube: exact values agree, conjugates by the kept symmetries
  // share a cell, and the search's stepping of states (through the sym-move table) gives
  // the position's cell.
  const auto group = symmetry_group(d, ms, d.solved);
  ASSERT_EQ(group.size(), 48u);  // the rotations and reflections
  std::mt19937 rng(7);
  for (int w = 0; w < 6; ++w) {
    Position p = d.solved;
    std::uint64_t st = red->domain().goal_rank();
    for (int k = 0; k < 25; ++k) {
      const int m = static_cast<int>(rng() % ms.gens.size());
      p = d.applied(ms.gens[static_cast<std::size_t>(m)].p, p);
      red->domain().for_each_move_rank(st, [&](int mm, std::uint64_t t) {
        if (mm == m) st = t;
      });
      std::uint64_t a = 0, b = 0;
      ASSERT_TRUE(red->domain().rank(p, a));
      ASSERT_EQ(red->domain().cell(a), red->domain().cell(st));
      ASSERT_TRUE(full->domain().rank(p, b));
      ASSERT_EQ(red->exact(a), full->exact(b));
      int preserved = 0;
      for (const Perm& g : group) {
        if (!red->domain().reduction()->preserved_by(g)) continue;
        ++preserved;
        std::uint64_t c = 0;
        ASSERT_TRUE(red->domain().rank(conjugate(d, g, p), c));
        ASSERT_EQ(red->domain().cell(c), red->domain().cell(a));
      }
      ASSERT_EQ(preserved, static_cast<int>(kept));
    }
  }
}

}  // namespace

TEST(PermReduction, FlipSliceOneSet) {
  // Edge flip x the 4 slice edges' cells (2048 x 495): the rest is empty.
  same_as_full("EDGES orientations\nEDGES class 9 10 11 12\n", 2048u * 495u, 16);
}

TEST(PermReduction, TwistSliceTwoSets) {
  // Corner twist x slice cells (2187 x 495): the big part is the twist, the rest the slice.
  same_as_full("CORNERS orientations\nEDGES class 9 10 11 12\n", 2187u * 495u, 16);
}

TEST(PermReduction, SortedSliceFixedPoints) {
  // The slice edges kept apart (11880 arrangements): the symmetries permute them, and
  // several arrangements are fixed by some symmetry (their cells are canonical).
  same_as_full("EDGES distinct 9 10 11 12\n", 11880u, 16);
  // The number of classes by Burnside's lemma: the average over the kept symmetries of the
  // arrangements each fixes, counted on whole-cube conjugates (symmetry.h), not by the
  // reduction's own code.
  const Definition d = load_definition("3x3x3");
  const MoveSet ms = build_moves(d, "htm", "");
  const auto red = build(d, ms, "Pattern r\nEDGES distinct 9 10 11 12\nReduced\nEnd\n");
  const auto full = build(d, ms, "Pattern f\nEDGES distinct 9 10 11 12\nEnd\n");
  const Space& sp = full->domain().space();
  const auto group = symmetry_group(d, ms, d.solved);
  std::uint64_t fixed = 0, kept = 0;
  for (const Perm& g : group) {
    if (!red->domain().reduction()->preserved_by(g)) continue;
    ++kept;
    for (std::uint64_t r = 0; r < sp.size(); ++r) {
      // A whole position with this arrangement of the slice edges: the projection's
      // other edges made distinct in cell order.
      Position p = d.solved;
      const Position q = sp.unrank(r);
      int next = 0;  // the other edges: pieces 1-8 (labels 0-7), the slice edges 8-11
      for (int i = 0; i < 12; ++i) {
        const auto cell = static_cast<std::size_t>(d.sets[1].offset + i);
        p.lab[cell] = q.lab[cell] < 12 ? q.lab[cell] : static_cast<std::uint8_t>(next++);
      }
      std::uint64_t a = 0, b = 0;
      ASSERT_TRUE(full->domain().rank(p, a));
      ASSERT_TRUE(full->domain().rank(conjugate(d, g, p), b));
      fixed += a == b;
    }
  }
  ASSERT_EQ(kept, 16u);
  EXPECT_EQ(fixed % kept, 0u);
  EXPECT_EQ(red->domain().reduction()->classes(), fixed / kept);
}

TEST(PermReduction, RefusedWithoutSymmetries) {
  const Definition d = load_definition("3x3x3");
  // <U,R,F,D> moves: no symmetry of the file maps them onto themselves (the mirror M takes
  // R to L', the diagonal rotations U to R and D to L, Y R to F, Z2 U to D). (<U,F> would
  // do for the rotations, but M maps U to U' and F to F'.)
  const MoveSet ms = build_moves(d, "htm", "U,R,F,D");
  const auto v = parse_patterns(d, "Pattern r\nEDGES orientations\nReduced\nEnd\n", "t.pat");
  try {
    PatternDomain dom(d, ms, d.solved, v.at(0));
    ADD_FAILURE() << "reduced without symmetries";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot be reduced"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse_patterns(d, "Pattern r\nReduced 2\nEnd\n", "t.pat"), InputError);
}

TEST(PermReduction, FileRoundTripAndSolve) {
  const Definition d = load_definition("3x3x3");
  const MoveSet ms = build_moves(d, "htm", "");
  const auto dir = std::filesystem::temp_directory_path() / ("tansaku-perm-reduction-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  ::setenv("TANSAKU_PDB_DIR", dir.c_str(), 1);
  const auto t = build(d, ms, "Pattern fs\nEDGES orientations\nEDGES class 9 10 11 12\nReduced\nEnd\n");
  const auto file = dir / pattern_file_name(d, ms, d.solved, t->domain().spec());
  save_pattern_table(*t, d, instance_key(d, ms, d.solved), file);
  const auto back = load_pattern_table(file, d, ms, d.solved, search::Limits{});
  EXPECT_EQ(back->domain().spec(), t->domain().spec());
  EXPECT_TRUE(back->domain().spec().reduced);
  for (std::uint64_t r = 0; r < t->domain().size(); r += 101) ASSERT_EQ(back->mod3().get(r), t->mod3().get(r));
  // The sym-move table went with it.
  const ClassTable built = t->domain().reduction()->sym_move_table(), read = back->domain().reduction()->sym_move_table();
  ASSERT_EQ(read.size, built.size);
  for (std::uint64_t i = 0; i < built.size; ++i) ASSERT_EQ(read.words[i], built.words[i]) << i;
  // A file of the earlier version (no sym-move table after the classes) still loads: the
  // table is built at load, the same.
  {
    std::string text;
    {
      std::ifstream in(file, std::ios::binary);
      text.assign(std::istreambuf_iterator<char>(in), {});
    }
    // That layout: a magic line, the header as a JSON line padded to a page boundary, the
    // cells, the class table from the next page boundary.
    auto h = read_table_header(file);
    const pdb::TableReader reader(file, "");
    const auto& sections = reader.json()["sections"];
    ASSERT_EQ(sections.size(), 3u);
    const std::uint64_t cells_at = sections[0].value("offset", std::uint64_t{0});
    const std::uint64_t classes_end =
        sections[1].value("offset", std::uint64_t{0}) + sections[1].value("bytes", std::uint64_t{0});
    h.erase("sym_move_values");
    h.erase("sym_move_checksum");
    std::string head = "TSKPERMPDB1\n" + h.dump();
    head.append((4096 - (head.size() + 1) % 4096) % 4096, ' ');
    text = head + "\n" + text.substr(cells_at, classes_end - cells_at);
    const auto old = dir / ("old-" + file.filename().string());
    std::ofstream(old, std::ios::binary) << text;
    const auto earlier = load_pattern_table(old, d, ms, d.solved, search::Limits{});
    const ClassTable again = earlier->domain().reduction()->sym_move_table();
    ASSERT_EQ(again.size, built.size);
    for (std::uint64_t i = 0; i < built.size; ++i) ASSERT_EQ(again.words[i], built.words[i]) << i;
    std::filesystem::remove(old);
  }
  // Solutions as short as those of the search without cached tables (which has no
  // conjugate lookups, so the bound's "one more" is not used there): the bound stays
  // admissible.
  std::mt19937 rng(23);
  for (int k = 0; k < 4; ++k) {
    Position p = d.solved;
    for (int s = 0; s < 5 + k % 2 * 2; ++s) p = d.applied(ms.gens[rng() % ms.gens.size()].p, p);
    SolveRequest a, b;
    a.d = b.d = &d;
    a.ms = b.ms = &ms;
    a.start = b.start = p;
    a.goal = b.goal = d.solved;
    a.use_cache = true;
    b.use_cache = false;
    const auto ra = solve(a, search::Limits{}), rb = solve(b, search::Limits{});
    ASSERT_TRUE(ra.path.found && rb.path.found);
    EXPECT_EQ(ra.path.moves.size(), rb.path.moves.size());
    verify(d, ms, p, d.solved, ra.path.moves);
    std::string h;
    for (const auto& s : ra.heuristics) h += s + "\n";
    EXPECT_NE(h.find("reduced by symmetry"), std::string::npos) << h;
    EXPECT_NE(h.find("2 conjugate lookups"), std::string::npos) << h;  // S1, S2; not Y, Z2
    // Every move leaves one of the three axes' lookups at 0 (U, D on U-D; R, L; F, B).
    EXPECT_NE(h.find("one more when the lookups meet at their maximum (3 kinds of last move)"), std::string::npos) << h;
  }
  ::unsetenv("TANSAKU_PDB_DIR");
  std::filesystem::remove_all(dir);
}
