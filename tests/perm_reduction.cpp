// Pattern tables reduced by symmetry (src/perm/pattern_reduction.h): a reduced table
// answers as the full one at every position of the pattern (all of them, for small
// patterns of the cube under the 16 symmetries that keep the U-D axis, reflections among
// them), it is about 16 times smaller, conjugates of a position share a cell, the
// symmetries that do not map the pattern onto itself are found and left out, and the file
// round trip (with the sym-move table; a file without it, or of an earlier layout, refused)
// and solve work.
#include <gtest/gtest.h>

#include <unistd.h>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <nlohmann/json.hpp>
#include <random>

#include "sanitized.h"

#include "perm/definition.h"
#include "perm/generators.h"
#include "perm/pattern_spec.h"
#include "perm/pattern_table.h"
#include "perm/piece_file.h"
#include "perm/solver.h"
#include "perm/symmetry.h"
#include "tansaku/core/error.h"
#include "tansaku/core/memory_error.h"
#include "tansaku/pdb/build.h"
#include "tansaku/pdb/table_file.h"

using namespace tansaku;
using namespace tansaku::perm;

namespace {

// `in_place`: under a memory budget that holds the cells (and a reduced pattern's class and
// sym-move tables) but no table of the ranks seen beside them (tansaku/pdb/build.h).
std::unique_ptr<PatternTable> build(const Definition& d, const MoveSet& ms, const std::string& text,
                                    bool in_place = false) {
  search::Limits lim;
  lim.threads = 2;
  const auto v = parse_patterns(d, text, "t.pat");
  EXPECT_EQ(v.size(), 1u);
  auto dom = std::make_unique<PatternDomain>(d, ms, d.solved, v.at(0), 2);
  if (in_place) {
    const PatternReduction* red = dom->reduction();
    const std::uint64_t held = red ? 4 * red->class_table().size + red->sym_move_table().bytes : 0;
    lim.memory = held + tansaku::pdb::build_bytes(dom->size(), 2);
    EXPECT_TRUE(tansaku::pdb::build_in_place(dom->size(), 2, lim.memory - held));
  }
  return build_pattern_table(std::move(dom), lim);
}

// One random move played on position p and on its state st in `dom`, as a search steps it.
void random_move(const Definition& d, const MoveSet& ms, const PatternDomain& dom, std::mt19937& rng, Position& p,
                 std::uint64_t& st) {
  const int m = static_cast<int>(rng() % ms.gens.size());
  p = d.applied(ms.gens[static_cast<std::size_t>(m)].p, p);
  dom.for_each_move_rank(st, [&](int mm, std::uint64_t t) {
    if (mm == m) st = t;
  });
}

// Every position of the full pattern's space: the reduced table's exact value equals the
// full table's, and so does the value recovered from a neighbour's.
void same_as_full(const std::string& body, std::uint64_t full_size, std::size_t kept,
                  const std::string& puzzle = "3x3x3") {
  const Definition d = load_definition(puzzle);
  const MoveSet ms = build_moves(d, "htm", "");
  const auto full = build(d, ms, "Pattern f\n" + body + "End\n");
  const auto red = build(d, ms, "Pattern r\n" + body + "Reduced\nEnd\n");
  ASSERT_EQ(full->domain().size(), full_size);
  ASSERT_NE(red->domain().reduction(), nullptr);
  EXPECT_EQ(red->domain().reduction()->symmetries(), kept);
  EXPECT_LT(red->domain().size() * 12, full_size);  // about 1/16 (fixed points make it more)
  EXPECT_EQ(red->max_distance(), full->max_distance());
  // Built in place, the same cells (the non-canonical ones of a class included: no layer
  // reaches them either way).
  const auto in_place = build(d, ms, "Pattern r\n" + body + "Reduced\nEnd\n", true);
  ASSERT_EQ(in_place->mod3().cells(), red->mod3().cells());
  for (std::uint64_t c = 0; c < red->mod3().cells(); ++c) ASSERT_EQ(in_place->mod3().get(c), red->mod3().get(c)) << c;
  EXPECT_EQ(in_place->max_distance(), red->max_distance());
  const Space& sp = full->domain().space();
  const Definition& pd = full->domain().projected();
  // Without its class table (a solve's, over 2-bit cells), a position ranks by its
  // conjugates to the same class and cell, and its state steps to the same cells.
  {
    const auto v = parse_patterns(d, "Pattern r\n" + body + "Reduced\nEnd\n", "t.pat");
    PatternDomain lean(d, ms, d.solved, v.at(0), 2);
    lean.drop_class_table();
    ASSERT_EQ(lean.reduction()->class_table().words, nullptr);
    const PatternDomain& with = red->domain();
    for (std::uint64_t r = 0; r < sp.size(); r += 1 + sp.size() / 20000) {
      const Position p = sp.unrank(r);
      const std::uint64_t a = with.reduction()->state(p), b = lean.reduction()->state(p);
      ASSERT_EQ(b >> 32, a >> 32) << r;  // the class
      ASSERT_EQ(lean.cell(b), with.cell(a)) << r;
      std::vector<std::uint64_t> cells(ms.gens.size());
      with.for_each_move_rank(a, [&](int m, std::uint64_t t) { cells[static_cast<std::size_t>(m)] = with.cell(t); });
      lean.for_each_move_rank(
          b, [&](int m, std::uint64_t t) { ASSERT_EQ(lean.cell(t), cells[static_cast<std::size_t>(m)]) << r; });
    }
  }
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
      random_move(d, ms, red->domain(), rng, p, st);
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

TEST(PermReduction, Cube2x2x2TetradsWithMirrors) {
  // The 2x2x2's corners in their two tetrads (UFR UBL DFL DBR; URB ULF DRF DLB) with their
  // twists (70 x 2187): all 48 symmetries of data/perm/2x2x2.sym map it onto itself, the
  // 24 mirror images among them.
  const std::string body = "CORNERS orientations\nCORNERS class 1 3 6 8\nCORNERS class 2 4 5 7\n";
  same_as_full(body, 70u * 2187u, 48, "2x2x2");
  // 3393 classes: the count H48 (nissy-core) gives its corner coordinate, the same corners'
  // tetrads and twists under the 48 symmetries.
  const Definition d = load_definition("2x2x2");
  EXPECT_EQ(build(d, build_moves(d, "htm", ""), "Pattern r\n" + body + "Reduced\nEnd\n")->domain().size(), 3393u);
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

// A cap on what a solve may hold refuses a reduction before its class table is built, and
// never one whose tables fit: the least size it checks is at most the real one.
TEST(PermReduction, SolveCapRefusesOnlyWhatCannotFit) {
  const Definition d = load_definition("3x3x3");
  const MoveSet ms = build_moves(d, "htm", "");
  const auto v = parse_patterns(d, "Pattern fs\nEDGES orientations\nEDGES class 9 10 11 12\nReduced\nEnd\n", "t.pat");
  EXPECT_THROW(PatternDomain(d, ms, d.solved, v.at(0), 1, nullptr, nullptr, nullptr, false, SolveCap{1 << 20, 2, {}}),
               MemoryRefused);
  const PatternDomain dom(d, ms, d.solved, v.at(0));
  const PatternReduction& red = *dom.reduction();
  for (int bits : {2, 4}) {
    const std::uint64_t held = TwoBitTable::bytes_for(dom.size() * static_cast<std::uint64_t>(bits / 2)) +
                               4 * red.class_table().size + red.sym_move_table().bytes;
    EXPECT_GT(held, std::uint64_t{1} << 20);
    const PatternDomain fits(d, ms, d.solved, v.at(0), 1, nullptr, nullptr, nullptr, false, SolveCap{held, bits, {}});
    EXPECT_EQ(fits.size(), dom.size());
  }
}

// The precheck (pdb build: the disk) sees the least figures before the class table is built,
// at most the real ones, and a refusal it throws stops the reduction.
TEST(PermReduction, PrecheckSeesTheLeastSizeFirst) {
  const Definition d = load_definition("3x3x3");
  const MoveSet ms = build_moves(d, "htm", "");
  const auto v = parse_patterns(d, "Pattern fs\nEDGES orientations\nEDGES class 9 10 11 12\nReduced\nEnd\n", "t.pat");
  std::uint64_t least_bytes = 0, least_cells = 0;
  int calls = 0;
  auto record = [&](std::uint64_t b, std::uint64_t c) { least_bytes = b, least_cells = c, ++calls; };
  const PatternDomain dom(d, ms, d.solved, v.at(0), 1, nullptr, nullptr, nullptr, false, SolveCap{0, 2, record});
  EXPECT_EQ(calls, 1);
  EXPECT_GT(least_cells, dom.size() / 2);
  EXPECT_LE(least_cells, dom.size());
  EXPECT_GT(least_bytes, TwoBitTable::bytes_for(least_cells) - 1);
  EXPECT_LE(least_bytes, dom.reduction()->solve_bytes(2));
  auto refuse = [](std::uint64_t, std::uint64_t) { throw InputError("no room"); };
  EXPECT_THROW(PatternDomain(d, ms, d.solved, v.at(0), 1, nullptr, nullptr, nullptr, false, SolveCap{0, 2, refuse}),
               InputError);
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
  // Over 2-bit cells the loaded table lets its class table go; positions rank by their
  // conjugates to the class table's class, and to the same cell (short walks: many values
  // that symmetries fix), as do the search's steps from the goal.
  ASSERT_EQ(back->domain().reduction()->class_table().words, nullptr);
  EXPECT_EQ(back->domain().cell(back->domain().goal_rank()), t->domain().cell(t->domain().goal_rank()));
  {
    std::mt19937 walk(5);
    for (int w = 0; w < 300; ++w) {
      Position p = d.solved;
      std::uint64_t st = back->domain().goal_rank();
      for (int k = 0; k < 1 + w % 9; ++k) random_move(d, ms, back->domain(), walk, p, st);
      std::uint64_t a = 0, b = 0;
      ASSERT_TRUE(t->domain().rank(p, a));
      ASSERT_TRUE(back->domain().rank(p, b));
      ASSERT_EQ(b >> 32, a >> 32) << w;  // the class
      ASSERT_EQ(back->domain().cell(b), t->domain().cell(a)) << w;
      ASSERT_EQ(back->domain().cell(st), t->domain().cell(a)) << w;
    }
  }
  // The sym-move table went with it.
  const SymMoveTable built = t->domain().reduction()->sym_move_table(),
                     read = back->domain().reduction()->sym_move_table();
  ASSERT_EQ(read.count, built.count);
  ASSERT_EQ(read.bits, built.bits);
  for (std::uint64_t i = 0; i < built.count; ++i)
    ASSERT_EQ(back->domain().reduction()->sym_move(i), t->domain().reduction()->sym_move(i)) << i;
  // Over 2-bit cells the file keeps the classes' representatives, not the class table. A
  // file that keeps the class table in their place (as files of 2-bit cells were written
  // before, without "class_count") loads and ranks as the built table. A reduced table's file
  // without its sym-move table or its representatives, and a file of the earlier layout (a
  // magic line, the header as a JSON line padded to a page boundary, then the cells and the
  // class table), are refused in one line naming the file, with the way out.
  {
    const auto h = read_table_header(file);
    const pdb::TableReader reader(file, "");
    ASSERT_EQ(reader.json()["sections"].size(), 4u);
    EXPECT_FALSE(reader.has("classes"));
    const pdb::Bytes cells = reader.section("cells"), classes = reader.section("representatives"),
                     fixed = reader.section("fixed"), moves = reader.section("sym_moves");
    // A table read from a file of an older layout ranks 100 positions of random walks (from
    // `seed`) to the built table's cells, with its exact values.
    auto same_as_built = [&](const PatternTable& loaded, unsigned seed) {
      std::mt19937 walk(seed);
      for (int w = 0; w < 100; ++w) {
        Position p = d.solved;
        for (int k = 0; k < 1 + w % 7; ++k) p = d.applied(ms.gens[walk() % ms.gens.size()].p, p);
        std::uint64_t a = 0, b = 0;
        ASSERT_TRUE(t->domain().rank(p, a) && loaded.domain().rank(p, b));
        ASSERT_EQ(loaded.domain().cell(b), t->domain().cell(a)) << w;
        ASSERT_EQ(loaded.exact(b), t->exact(a)) << w;
      }
    };
    // The sym-move table as files written before its packing kept it: 32-bit words.
    const PatternReduction& built_red = *t->domain().reduction();
    std::vector<std::uint32_t> moves32(built_red.sym_move_table().count);
    for (std::uint64_t i = 0; i < moves32.size(); ++i) moves32[i] = built_red.sym_move(i);
    moves32.resize((moves32.size() + 1) / 2 * 2, 0);
    ASSERT_LT(built_red.sym_move_table().bits, 32u);
    EXPECT_LT(moves.size, moves32.size() * 4);
    {
      nlohmann::ordered_json info = reader.header().info;
      info.erase("sym_move_bits");
      const pdb::TableHeader th{reader.header().kind, reader.header().content, reader.header().encoding,
                                reader.header().entries, info};
      const pdb::SectionData four[] = {{"cells", cells.data, cells.size, pdb::Storage::raw},
                                       {"representatives", classes.data, classes.size, pdb::Storage::raw},
                                       {"fixed", fixed.data, fixed.size, pdb::Storage::raw},
                                       {"sym_moves", moves32.data(), moves32.size() * 4, pdb::Storage::raw}};
      const auto unpacked = dir / ("unpacked-" + file.filename().string());
      pdb::write_table_file(unpacked, th, four);
      const auto u = load_pattern_table(unpacked, d, ms, d.solved, search::Limits{});
      const PatternReduction& ur = *u->domain().reduction();
      ASSERT_EQ(ur.sym_move_table().bits, built_red.sym_move_table().bits);
      for (std::uint64_t i = 0; i < ur.sym_move_table().count; ++i)
        ASSERT_EQ(ur.sym_move(i), built_red.sym_move(i)) << i;
      same_as_built(*u, 11);
      std::filesystem::remove(unpacked);
    }
    {
      const ClassTable ct = t->domain().reduction()->class_table();
      std::vector<std::uint32_t> words(ct.words, ct.words + ct.size);
      words.resize((words.size() + 1) / 2 * 2, 0);
      nlohmann::ordered_json info = reader.header().info;
      info.erase("class_count");
      info.erase("sym_move_bits");
      // Such a file's bytes counted the class table and no representatives.
      const std::uint64_t held = h.value("bytes", std::uint64_t{0}) - 5 * t->domain().reduction()->classes();
      info["bytes"] = held + (ct.size * 4 + 7) / 8 * 8;
      const pdb::TableHeader th{reader.header().kind, reader.header().content, reader.header().encoding,
                                reader.header().entries, info};
      const pdb::SectionData three[] = {{"cells", cells.data, cells.size, pdb::Storage::raw},
                                        {"classes", words.data(), words.size() * 4, pdb::Storage::raw},
                                        {"sym_moves", moves32.data(), moves32.size() * 4, pdb::Storage::raw}};
      const auto earlier = dir / ("with-classes-" + file.filename().string());
      pdb::write_table_file(earlier, th, three);
      const auto e = load_pattern_table(earlier, d, ms, d.solved, search::Limits{});
      EXPECT_EQ(e->domain().reduction()->class_table().words, nullptr);
      EXPECT_EQ(e->domain().reduction()->representatives(), t->domain().reduction()->representatives());
      same_as_built(*e, 9);
      // What a solve holds: the header's bytes less the class table it counted.
      EXPECT_EQ(read_table_header(earlier).value("bytes", std::uint64_t{0}), held);
      std::filesystem::remove(earlier);
    }
    auto refused = [&](const std::filesystem::path& f, const std::string& why) {
      try {
        (void)load_pattern_table(f, d, ms, d.solved, search::Limits{});
        ADD_FAILURE() << "accepted: " << why;
      } catch (const InputError& e) {
        const std::string m = e.what();
        EXPECT_EQ(m.find('\n'), std::string::npos) << m;
        EXPECT_EQ(m.rfind(f.string(), 0), 0u) << m;
        EXPECT_NE(m.find(why), std::string::npos) << m;
        EXPECT_NE(m.find("`tansaku pdb remove " + f.filename().string() + "`"), std::string::npos) << m;
      }
    };
    nlohmann::ordered_json info = reader.header().info;
    info.erase("sym_move_values");
    const pdb::TableHeader th{reader.header().kind, reader.header().content, reader.header().encoding,
                              reader.header().entries, info};
    const pdb::SectionData two[] = {{"cells", cells.data, cells.size, pdb::Storage::raw},
                                    {"representatives", classes.data, classes.size, pdb::Storage::raw},
                                    {"fixed", fixed.data, fixed.size, pdb::Storage::raw}};
    const auto no_moves = dir / ("no-moves-" + file.filename().string());
    pdb::write_table_file(no_moves, th, two);
    refused(no_moves, "a reduced table without its sym-move table");
    const pdb::SectionData no_fixed_sections[] = {{"cells", cells.data, cells.size, pdb::Storage::raw},
                                                  {"representatives", classes.data, classes.size, pdb::Storage::raw},
                                                  {"sym_moves", moves.data, moves.size, pdb::Storage::raw}};
    const auto no_fixed = dir / ("no-fixed-" + file.filename().string());
    pdb::write_table_file(no_fixed,
                          pdb::TableHeader{reader.header().kind, reader.header().content, reader.header().encoding,
                                           reader.header().entries, reader.header().info},
                          no_fixed_sections);
    refused(no_fixed, "a reduced table without its representatives");
    std::filesystem::remove(no_fixed);
    std::string head = "TSKPERMPDB1\n" + h.dump();
    head.append((4096 - (head.size() + 1) % 4096) % 4096, ' ');
    const auto old = dir / ("old-" + file.filename().string());
    std::ofstream(old, std::ios::binary) << head << "\n"
                                         << std::string(reinterpret_cast<const char*>(cells.data), cells.size)
                                         << std::string(reinterpret_cast<const char*>(classes.data), classes.size);
    refused(old, "a table file of an earlier version");
    std::filesystem::remove(old);
    std::filesystem::remove(no_moves);
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

namespace {

std::unique_ptr<PatternTable> build_bits(const Definition& d, const MoveSet& ms, const std::string& text, int bits) {
  search::Limits lim;
  lim.threads = 2;
  const auto v = parse_patterns(d, text, "t.pat");
  EXPECT_EQ(v.size(), 1u);
  return build_pattern_table(std::make_unique<PatternDomain>(d, ms, d.solved, v.at(0), 2), lim, bits);
}

constexpr const char* kFlipSliceBody = "EDGES orientations\nEDGES class 9 10 11 12\n";

}  // namespace

TEST(PermReduction, ExactCellsAreTheBfsDistances) {
  // 4-bit cells (`pdb build --cells 4`): the full and the reduced table hold every
  // position's BFS distance (a plain BFS over the full pattern's space, here), the 2-bit
  // tables its residue, and the reduced 2-bit table's recovered values are the same.
  const Definition d = load_definition("3x3x3");
  const MoveSet ms = build_moves(d, "htm", "");
  const auto full4 = build_bits(d, ms, std::string("Pattern f\n") + kFlipSliceBody + "End\n", 4);
  const auto full2 = build_bits(d, ms, std::string("Pattern f\n") + kFlipSliceBody + "End\n", 2);
  const auto red4 = build_bits(d, ms, std::string("Pattern r\n") + kFlipSliceBody + "Reduced\nEnd\n", 4);
  const auto red2 = build_bits(d, ms, std::string("Pattern r\n") + kFlipSliceBody + "Reduced\nEnd\n", 2);
  ASSERT_TRUE(full4->exact_cells() && red4->exact_cells());
  ASSERT_FALSE(full2->exact_cells() || red2->exact_cells());
  EXPECT_EQ(red4->max_distance(), full4->max_distance());
  EXPECT_EQ(full4->bytes(), 2 * full2->bytes());
  const Space& sp = full4->domain().space();
  std::vector<int> dist(sp.size(), -1);
  std::vector<std::uint64_t> queue{sp.rank(full4->domain().projected().solved)};
  dist[queue[0]] = 0;
  for (std::size_t i = 0; i < queue.size(); ++i)
    sp.for_each_move_rank(queue[i], [&](int, std::uint64_t t) {
      if (dist[t] < 0) dist[t] = dist[queue[i]] + 1, queue.push_back(t);
    });
  ASSERT_EQ(queue.size(), sp.size());  // every position reached
  int most = 0;
  for (std::uint64_t r = 0; r < sp.size(); ++r) {
    const auto want = static_cast<unsigned>(dist[r]);
    most = std::max(most, dist[r]);
    ASSERT_EQ(full4->get(r), want) << r;
    ASSERT_EQ(full4->exact(r), dist[r]) << r;
    ASSERT_EQ(full2->get(r), want % 3) << r;
    const Position p = sp.unrank(r);
    const std::uint64_t s = red4->domain().reduction()->state(p);
    ASSERT_EQ(red4->get(red4->domain().cell(s)), want) << r;
    if (r % 97 == 0) {
      ASSERT_EQ(red2->exact(red2->domain().reduction()->state(p)), dist[r]) << r;
    }
  }
  EXPECT_EQ(most, full4->max_distance());
  // Every cell of the reduced table was reached (no 15 left).
  for (std::uint64_t c = 0; c < red4->domain().size(); ++c) ASSERT_LT(red4->get(c), 15u) << c;
  // A step reads the value, whatever the parent's; a 2-bit step decodes the residue.
  EXPECT_EQ(red4->step(0, red4->domain().cell(red4->domain().goal_rank())), 0u);
  for (std::uint64_t r = 0; r < sp.size(); ++r) {
    if (dist[r] != 5) continue;
    for (unsigned parent : {4u, 5u, 6u}) {
      EXPECT_EQ(full2->step(parent, r), 5u);
      EXPECT_EQ(full4->step(parent, r), 5u);
    }
    break;
  }
}

TEST(PermReduction, ExactCellsFileRoundTrip) {
  // A 4-bit table's file: its own name, encoding and content hash (the 2-bit table of the
  // same pattern is another file, found by another hash), read back equal; damaged or cut
  // short, refused; the 2-bit file beside it still loads as before.
  const Definition d = load_definition("3x3x3");
  const MoveSet ms = build_moves(d, "htm", "");
  const auto dir = std::filesystem::temp_directory_path() / ("tansaku-perm-exact-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string text = std::string("Pattern fs\n") + kFlipSliceBody + "Reduced\nEnd\n";
  const auto t4 = build_bits(d, ms, text, 4);
  const auto t2 = build_bits(d, ms, text, 2);
  const auto f4 = dir / pattern_file_name(d, ms, d.solved, t4->domain().spec(), 4);
  const auto f2 = dir / pattern_file_name(d, ms, d.solved, t2->domain().spec());
  ASSERT_NE(f4, f2);
  EXPECT_TRUE(f4.string().ends_with("-exact.ptab")) << f4;
  save_pattern_table(*t4, d, instance_key(d, ms, d.solved), f4);
  save_pattern_table(*t2, d, instance_key(d, ms, d.solved), f2);
  {
    const pdb::TableReader r4(f4, ""), r2(f2, "");
    EXPECT_EQ(r4.header().encoding, "4-bit-distance");
    EXPECT_EQ(r2.header().encoding, "2-bit-mod-3");
    EXPECT_NE(r4.header().content, r2.header().content);
    EXPECT_EQ(r4.header().entries, r2.header().entries);
    EXPECT_EQ(read_table_header(f4).value("cell_bits", 0), 4);
    EXPECT_EQ(read_table_header(f2).value("cell_bits", 0), 2);
  }
  const auto back4 = load_pattern_table(f4, d, ms, d.solved, search::Limits{});
  const auto back2 = load_pattern_table(f2, d, ms, d.solved, search::Limits{});
  ASSERT_TRUE(back4->exact_cells());
  ASSERT_FALSE(back2->exact_cells());
  EXPECT_EQ(back4->max_distance(), t4->max_distance());
  for (std::uint64_t c = 0; c < t4->domain().size(); ++c) {
    ASSERT_EQ(back4->get(c), t4->get(c)) << c;
    ASSERT_EQ(back2->get(c), t4->get(c) % 3) << c;
  }
  // Damaged: one byte of the cells changed (the checksum catches it); cut short.
  std::string bytes;
  {
    std::ifstream in(f4, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  const pdb::TableReader reader(f4, "");
  const std::uint64_t cells_at = reader.json()["sections"][0].value("offset", std::uint64_t{0});
  const auto bad = dir / "bad.ptab";
  std::string damaged = bytes;
  damaged[cells_at + 100] = static_cast<char>(damaged[cells_at + 100] ^ 0x11);
  std::ofstream(bad, std::ios::binary) << damaged;
  EXPECT_THROW(load_pattern_table(bad, d, ms, d.solved, search::Limits{}), InputError);
  std::ofstream(bad, std::ios::binary | std::ios::trunc) << bytes.substr(0, bytes.size() - 4096);
  EXPECT_THROW(load_pattern_table(bad, d, ms, d.solved, search::Limits{}), InputError);
  EXPECT_THROW(verify_table_file(bad, search::Limits{}), InputError);
  verify_table_file(f4, search::Limits{});
  std::filesystem::remove_all(dir);
}

TEST(PermReduction, ExactCellsSolveWithInverseLookups) {
  // With a 4-bit table in the cache, solves look up the position's inverse (by default; its
  // conjugates too with TANSAKU_PERM_INVERSE=conjugates): solutions as short as the
  // search's without cached tables (and with the lookups turned off); --all likewise. The
  // lookups at the inverse made for all of a node's children at once give the same
  // solution and node counts as made one child at a time.
  const Definition d = load_definition("3x3x3");
  const MoveSet ms = build_moves(d, "htm", "");
  const auto dir = std::filesystem::temp_directory_path() / ("tansaku-perm-exact-solve-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  ::setenv("TANSAKU_PDB_DIR", dir.c_str(), 1);
  const auto t = build_bits(d, ms, std::string("Pattern fs\n") + kFlipSliceBody + "Reduced\nEnd\n", 4);
  save_pattern_table(*t, d, instance_key(d, ms, d.solved),
                     dir / pattern_file_name(d, ms, d.solved, t->domain().spec(), 4));
  std::mt19937 rng(29);
  auto request = [&](const Position& p, bool cache) {
    SolveRequest a;
    a.d = &d;
    a.ms = &ms;
    a.start = p;
    a.goal = d.solved;
    a.use_cache = cache;
    return a;
  };
  // Three scrambles of 5, 6 and 7 moves (one under a sanitizer: each is six solves and more).
  const int scrambles = all_or_under_sanitizer(3, 1);
  for (int k = 0; k < scrambles; ++k) {
    Position p = d.solved;
    for (int s = 0; s < 5 + k % 3; ++s) p = d.applied(ms.gens[rng() % ms.gens.size()].p, p);
    const auto a = solve(request(p, true), search::Limits{}), b = solve(request(p, false), search::Limits{});
    ::setenv("TANSAKU_PERM_INVERSE", "0", 1);
    const auto off = solve(request(p, true), search::Limits{});
    ::setenv("TANSAKU_PERM_INVERSE", "conjugates", 1);
    const auto conj = solve(request(p, true), search::Limits{});
    // The lookups at the inverse one child at a time instead of all the children's at
    // once: the same bounds, hence the same solution and nodes.
    ::setenv("TANSAKU_PERM_INVERSE_BATCH", "0", 1);
    const auto conj1 = solve(request(p, true), search::Limits{});
    ::unsetenv("TANSAKU_PERM_INVERSE");
    const auto a1 = solve(request(p, true), search::Limits{});
    ::unsetenv("TANSAKU_PERM_INVERSE_BATCH");
    EXPECT_EQ(a1.path.moves, a.path.moves);
    EXPECT_EQ(a1.path.stats.expanded, a.path.stats.expanded);
    EXPECT_EQ(a1.path.stats.generated, a.path.stats.generated);
    EXPECT_EQ(conj1.path.moves, conj.path.moves);
    EXPECT_EQ(conj1.path.stats.expanded, conj.path.stats.expanded);
    EXPECT_EQ(conj1.path.stats.generated, conj.path.stats.generated);
    ASSERT_TRUE(a.path.found && b.path.found && off.path.found && conj.path.found);
    EXPECT_EQ(a.path.moves.size(), b.path.moves.size());
    EXPECT_EQ(off.path.moves.size(), b.path.moves.size());
    EXPECT_EQ(conj.path.moves.size(), b.path.moves.size());
    verify(d, ms, p, d.solved, a.path.moves);
    verify(d, ms, p, d.solved, conj.path.moves);
    std::string h, hoff, hconj;
    for (const auto& s : a.heuristics) h += s + "\n";
    for (const auto& s : off.heuristics) hoff += s + "\n";
    for (const auto& s : conj.heuristics) hconj += s + "\n";
    EXPECT_NE(h.find("4 bits, exact"), std::string::npos) << h;
    EXPECT_NE(h.find("1 inverse lookups (the tables at the position's inverse)"), std::string::npos) << h;
    EXPECT_NE(hconj.find("3 inverse lookups (the tables at the position's inverse and its conjugates)"),
              std::string::npos)
        << hconj;
    EXPECT_EQ(hoff.find("inverse lookups"), std::string::npos) << hoff;
    if (k < all_or_under_sanitizer(2, 1)) {  // every optimal solution, and their number
      SolveRequest all = request(p, true), all0 = request(p, false);
      all.mode = all0.mode = search::SolutionMode::All;
      const auto x = solve(all, search::Limits{}), y = solve(all0, search::Limits{});
      EXPECT_EQ(x.path.all.size(), y.path.all.size());
      EXPECT_EQ(x.path.cost, y.path.cost);
    }
  }
  ::unsetenv("TANSAKU_PDB_DIR");
  std::filesystem::remove_all(dir);
}

TEST(PermReduction, ConjugatorIsConjugate) {
  // The search's O(positions) conjugation (the inverse's conjugates) gives conjugate()'s
  // position, for every symmetry of the cube, mirrors among them.
  const Definition d = load_definition("3x3x3");
  const MoveSet ms = build_moves(d, "htm", "");
  const auto group = symmetry_group(d, ms, d.solved);
  std::mt19937 rng(31);
  Perm g;
  Position tmp, out;
  for (const Perm& s : group) {
    const Conjugator c(d, s);
    for (int k = 0; k < 5; ++k) {
      Position p = d.solved;
      for (int i = 0; i < 30; ++i) p = d.applied(ms.gens[rng() % ms.gens.size()].p, p);
      c.conjugate(p, g, tmp, out);
      const Position want = conjugate(d, s, p);
      for (int u = 0; u < d.positions; ++u) {
        ASSERT_EQ(out.lab[static_cast<std::size_t>(u)], want.lab[static_cast<std::size_t>(u)]);
        ASSERT_EQ(out.ori[static_cast<std::size_t>(u)], want.ori[static_cast<std::size_t>(u)]);
      }
    }
  }
}
