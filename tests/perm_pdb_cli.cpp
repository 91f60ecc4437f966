// perm at the command line with cached piece tables: `pdb build perm:...` into a private
// cache directory (small tables: --pieces), `pdb list` listing them beside any other
// family's, `solve` choosing them (and the same answers as without), membership refusals
// (exit 1), the refusals of bad input (exit 2) and of tables beyond --memory (exit 2, before any work, as every refusal),
// and a reduced table of another .sym replaced by `pdb build`.
#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <string>

#include "cli_util.h"
#include "perm/definition.h"
#include "perm/piece_file.h"

namespace {

class PermPdbCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("tansaku-perm-pdb-cli-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  CliResult run(const std::string& args) { return run_sh("TANSAKU_PDB_DIR=" + dir_.string(), args); }
  std::filesystem::path dir_;
};

}  // namespace

TEST_F(PermPdbCli, BuildListSolve) {
  const std::string cube = "perm:2x2x2 --moves U,F,R";
  auto b = run("pdb build " + cube + " --pieces 4 --json --quiet");
  ASSERT_EQ(b.code, 0) << b.err;
  auto bj = b.json();
  ASSERT_EQ(bj["tables"].size(), 2u);
  for (const auto& t : bj["tables"]) EXPECT_EQ(t["status"], "built");
  auto again = run("pdb build " + cube + " --pieces 4 --json --quiet");
  ASSERT_EQ(again.code, 0) << again.err;
  const auto again_json = again.json();  // a range-for over a temporary's member would dangle
  for (const auto& t : again_json["tables"]) EXPECT_EQ(t["status"], "exists");
  // pdb list: one JSON object, the perm tables among every family's.
  auto l = run("pdb list --json");
  ASSERT_EQ(l.code, 0) << l.err;
  int perm_tables = 0;
  const auto listed = l.json();
  for (const auto& t : listed["tables"])
    if (t.contains("puzzle") && t["puzzle"] == "perm:2x2x2") ++perm_tables;
  EXPECT_EQ(perm_tables, 2);
  // Tables of 5 pieces beside them: solve leaves out those whose pieces a larger one holds.
  auto b5 = run("pdb build " + cube + " --pieces 5 --json --quiet");
  ASSERT_EQ(b5.code, 0) << b5.err;
  {
    auto s5 = run("solve " + cube + " --scramble \"R U2 F'\" --algorithm idastar --json --quiet");
    ASSERT_EQ(s5.code, 0) << s5.err;
    const auto dbs = s5.json()["pattern_databases"];
    // 1-5 and 3-8 of the moving 1-6, 8 (they hold 1-4 and 4-8), and their lookups at the
    // conjugates by the rotations about the UFR-DBL diagonal (2x2x2.sym), which map U, F, R
    // onto each other.
    ASSERT_EQ(dbs.size(), 3u) << dbs.dump();
    EXPECT_EQ(dbs[0].get<std::string>().rfind("cached set 1 pieces 1,2,3,4,5", 0), 0u) << dbs.dump();
    EXPECT_EQ(dbs[1].get<std::string>().rfind("cached set 1 pieces 3,4,5,6,8", 0), 0u) << dbs.dump();
    EXPECT_EQ(dbs[2], "4 conjugate lookups (symmetries S1 S2)") << dbs.dump();
  }
  // solve uses them and finds what bidirectional BFS finds.
  for (const std::string scramble : {"R U2 F' R U F2 R' U", "R U R' U R U2 R'", "F R U R' U' F'"}) {
    auto s = run("solve " + cube + " --scramble \"" + scramble + "\" --algorithm idastar --json --quiet");
    ASSERT_EQ(s.code, 0) << s.err;
    auto b2 = run("solve " + cube + " --scramble \"" + scramble + "\" --algorithm bibfs --json --quiet");
    ASSERT_EQ(b2.code, 0) << b2.err;
    EXPECT_EQ(s.json()["length"], b2.json()["length"]) << scramble;
    EXPECT_NE(s.json()["heuristic"].get<std::string>().find("cached"), std::string::npos);
    // --count through the cached tables: the same count as without them.
    auto c = run("solve " + cube + " --scramble \"" + scramble + "\" --count --json --quiet");
    auto c0 = run_sh("TANSAKU_PDB_DIR=" + (dir_ / "none").string(),
                     "solve " + cube + " --scramble \"" + scramble + "\" --count --json --quiet");
    ASSERT_EQ(c.code, 0) << c.err;
    ASSERT_EQ(c0.code, 0) << c0.err;
    EXPECT_EQ(c.json()["count"], c0.json()["count"]) << scramble;
  }
}

TEST_F(PermPdbCli, CubeCheckerboardWithSmallTables) {
  auto b = run("pdb build perm:3x3x3 --pieces 4 --only pieces --json --quiet");
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_EQ(b.json()["tables"].size(), 5u);
  auto s = run("solve perm:3x3x3 --scramble \"U2 D2 F2 B2 L2 R2\" --json --quiet");
  ASSERT_EQ(s.code, 0) << s.err;
  EXPECT_EQ(s.json()["length"], 6);
  EXPECT_NE(s.json()["heuristic"].get<std::string>().find("cached"), std::string::npos);
  EXPECT_NE(s.json()["heuristic"].get<std::string>().find("conjugate lookups"), std::string::npos);
  // One solution (the tables at the position and at its conjugates by data/perm/3x3x3.sym)
  // is as short as the copying search's (the tables at the position only) finds.
  for (const std::string scramble : {"R U F' L2 D B", "F2 R' U L D' B2 R", "U R2 F B' L D2 R'"}) {
    auto one = run("solve perm:3x3x3 --scramble \"" + scramble + "\" --json --quiet");
    auto all = run("solve perm:3x3x3 --scramble \"" + scramble + "\" --count --json --quiet");
    ASSERT_EQ(one.code, 0) << one.err;
    ASSERT_EQ(all.code, 0) << all.err;
    EXPECT_EQ(one.json()["length"], all.json()["length"]) << scramble;
  }
}

TEST_F(PermPdbCli, SkewbWholePattern) {
  // data/perm/skewb.pat lists one table, the whole skewb (exact): a solve steps only along an
  // optimal path, with the lengths the bidirectional search finds.
  auto b = run("pdb build perm:skewb --json --quiet");
  ASSERT_EQ(b.code, 0) << b.err;
  const auto bj = b.json();
  ASSERT_EQ(bj["tables"].size(), 1u) << bj.dump();
  EXPECT_EQ(bj["tables"][0]["entries"], 37791360) << bj.dump();
  // `pdb list` says what the pattern keeps and the --memory from which a solve uses it.
  auto l = run("pdb list");
  ASSERT_EQ(l.code, 0) << l.err;
  EXPECT_NE(l.out.find("perm:skewb pattern whole (set 1 orientations, distinct "), std::string::npos) << l.out;
  EXPECT_NE(l.out.find("; a solve uses it from --memory 11M  "), std::string::npos) << l.out;
  auto r = run("random perm:skewb --seed 5 --count 4");
  ASSERT_EQ(r.code, 0) << r.err;
  std::istringstream lines(r.out);
  int solved = 0;
  for (std::string start; std::getline(lines, start);) {
    auto s = run("solve perm:skewb --start \"" + start + "\" --json --quiet");
    auto bi = run("solve perm:skewb --start \"" + start + "\" --algorithm bibfs --json --quiet");
    ASSERT_EQ(s.code, 0) << s.err;
    ASSERT_EQ(bi.code, 0) << bi.err;
    const auto sj = s.json();
    EXPECT_EQ(sj["length"], bi.json()["length"]) << start;
    EXPECT_NE(sj["heuristic"].get<std::string>().find("pattern whole"), std::string::npos) << sj.dump();
    EXPECT_LE(sj["nodes"].get<std::int64_t>(), sj["length"].get<std::int64_t>() + 1) << start;
    ++solved;
  }
  EXPECT_EQ(solved, 4);
  // A table this solve's memory cannot hold (a solve takes tables up to seven eighths of
  // --memory: the 9.0 MiB table from 10.3 MiB) is left out, and the hint says so, with the
  // budget that would use it; the answer is the same.
  auto small = run("solve perm:skewb --scramble \"UFR UBR' DFL\" --memory 10M --json --quiet");
  ASSERT_EQ(small.code, 0) << small.err;
  const auto smj = small.json();
  EXPECT_EQ(smj["length"], 3);
  EXPECT_EQ(smj["heuristic"].get<std::string>().find("pattern whole"), std::string::npos) << smj.dump();
  const std::string hint = smj.value("hint", "");
  EXPECT_NE(hint.find("pattern-whole.ptab"), std::string::npos) << hint;
  EXPECT_NE(hint.find("does not fit this solve's memory"), std::string::npos) << hint;
  EXPECT_NE(hint.find("`--memory 11M` or more uses it"), std::string::npos) << hint;
  auto enough = run("solve perm:skewb --scramble \"UFR UBR' DFL\" --memory 11M --json --quiet");
  ASSERT_EQ(enough.code, 0) << enough.err;
  EXPECT_NE(enough.json()["heuristic"].get<std::string>().find("pattern whole"), std::string::npos) << enough.out;
  // A damaged table file is left out with a note on stderr (the solve goes on without it).
  for (const auto& e : std::filesystem::directory_iterator(dir_))
    std::filesystem::resize_file(e.path(), std::filesystem::file_size(e.path()) - 4096);
  auto d = run("solve perm:skewb --scramble \"UFR UBR' DFL\" --json --quiet");
  ASSERT_EQ(d.code, 0) << d.err;
  EXPECT_EQ(d.json()["length"], 3);
  EXPECT_NE(d.err.find("note: left out the cached table"), std::string::npos) << d.err;
  EXPECT_NE(d.err.find("truncated"), std::string::npos) << d.err;
}

TEST_F(PermPdbCli, SkewbExactCells) {
  // --cells 4: the pattern in 4-bit cells, a file of its own beside the 2-bit one (both
  // listed with their cell_bits); a solve takes the larger (4 bits) and finds the lengths
  // the bidirectional search finds; --cells 3 is refused.
  auto b4 = run("pdb build perm:skewb --cells 4 --json --quiet");
  ASSERT_EQ(b4.code, 0) << b4.err;
  const auto j4 = b4.json();
  ASSERT_EQ(j4["tables"].size(), 1u) << j4.dump();
  EXPECT_EQ(j4["tables"][0]["cell_bits"], 4) << j4.dump();
  EXPECT_EQ(j4["tables"][0]["bytes"], 37791360 / 2) << j4.dump();
  EXPECT_NE(j4["tables"][0]["file"].get<std::string>().find("-exact.ptab"), std::string::npos) << j4.dump();
  auto b2 = run("pdb build perm:skewb --json --quiet");
  ASSERT_EQ(b2.code, 0) << b2.err;
  EXPECT_EQ(b2.json()["tables"][0]["cell_bits"], 2);
  EXPECT_EQ(b2.json()["tables"][0]["status"], "built");  // not the 4-bit file
  auto l = run("pdb list --json");
  ASSERT_EQ(l.code, 0) << l.err;
  std::set<int> bits;
  const auto lj = l.json();
  for (const auto& t : lj["tables"]) bits.insert(t.value("cell_bits", 0));
  EXPECT_EQ(bits, (std::set<int>{2, 4})) << l.out;
  auto r = run("random perm:skewb --seed 9 --count 3");
  ASSERT_EQ(r.code, 0) << r.err;
  std::istringstream lines(r.out);
  for (std::string start; std::getline(lines, start);) {
    auto s = run("solve perm:skewb --start \"" + start + "\" --json --quiet");
    auto bi = run("solve perm:skewb --start \"" + start + "\" --algorithm bibfs --json --quiet");
    ASSERT_EQ(s.code, 0) << s.err;
    ASSERT_EQ(bi.code, 0) << bi.err;
    EXPECT_EQ(s.json()["length"], bi.json()["length"]) << start;
    EXPECT_NE(s.json()["heuristic"].get<std::string>().find("4 bits, exact"), std::string::npos) << s.out;
  }
  auto bad = run("pdb build perm:skewb --cells 3 --quiet");
  EXPECT_EQ(bad.code, 2) << bad.err;
  EXPECT_TRUE(bad.out.empty());
  EXPECT_NE(bad.err.find("--cells 3: 2 or 4"), std::string::npos) << bad.err;
}

TEST_F(PermPdbCli, Membership) {
  // Two corners swapped and nothing else; one corner twisted: refused before any search.
  for (const std::string start : {"CORNERS 2 1 3 4 5 6 7 8 0 0 0 0 0 0 0 0", "CORNERS 1 2 3 4 5 6 7 8 1 0 0 0 0 0 0 0"}) {
    auto r = run("solve perm:3x3x3 --start \"" + start + "\" --json --timeout 20");
    EXPECT_EQ(r.code, 1) << r.err;
    auto j = r.json();
    EXPECT_EQ(j["solvable"], false);
    EXPECT_EQ(j["algorithm"], "membership");
    EXPECT_NE(j["reason"].get<std::string>().find("Schreier-Sims"), std::string::npos);
  }
  // A D turn is outside <U,F,R>.
  auto r = run("solve perm:2x2x2 --moves U,F,R --scramble D --algorithm idastar --json");
  EXPECT_EQ(r.code, 1) << r.err;
}

TEST_F(PermPdbCli, Refusals) {
  expect_clean(run("pdb build perm:3x3x3 --memory 64M"), 2, "memory budget");  // refused before it starts, as sliding's
  expect_clean(run("pdb build perm:3x3x3 --pieces 0"), 2, "--pieces");
  expect_clean(run("pdb build perm:nosuch"), 2, "");
  expect_clean(run("pdb build perm:2x2x2 --groups 1-2"), 2, "--groups");
  expect_clean(run("pdb build 8-puzzle --pieces 3 --dir " + (dir_ / "x").string()), 2, "--pieces");
  expect_clean(run("pdb build perm:3x3x3 --only sideways"), 2, "--only");
  // The default pattern (3.3 x 10^9 entries reduced by symmetry, a class table of 24 M
  // values, a sym-move table, the 2-bit cells while building: about 1 GB) beyond 600 MiB.
  expect_clean(run("pdb build perm:3x3x3 --only patterns --memory 600M"), 2,
               "a pattern reduced by 16 symmetries (a class table of 24330240 values, about");
  // A user's definition with a malformed companion .pat.
  std::filesystem::copy_file(std::filesystem::path(tansaku::perm::data_dir()) / "3x3x3.tws", dir_ / "cube.tws");
  std::ofstream(dir_ / "cube.pat") << "# a comment\nPattern p\nEDGES class 9 13\nEnd\n";
  expect_clean(run("pdb build perm:" + (dir_ / "cube.tws").string()), 2, "cube.pat:3: set EDGES has no piece 13");
}

TEST_F(PermPdbCli, UserPatternTables) {
  // A user's definition with a companion .pat (and the cube's .sym): `pdb build` builds the
  // patterns, `pdb list` lists them, `solve` uses them (and their conjugate lookups).
  const std::filesystem::path data(tansaku::perm::data_dir());
  std::filesystem::copy_file(data / "3x3x3.tws", dir_ / "cube.tws");
  std::filesystem::copy_file(data / "3x3x3.sym", dir_ / "cube.sym");
  std::ofstream(dir_ / "cube.pat") << "Pattern flip-slice\nEDGES orientations\nEDGES class 9 10 11 12\nEnd\n"
                                      "Pattern twist-slice\nCORNERS orientations\nEDGES class 9 10 11 12\nEnd\n";
  const std::string cube = "perm:" + (dir_ / "cube.tws").string();
  auto b = run("pdb build " + cube + " --only patterns --json --quiet");
  ASSERT_EQ(b.code, 0) << b.err;
  const auto bj = b.json();
  ASSERT_EQ(bj["tables"].size(), 2u);
  EXPECT_EQ(bj["tables"][0]["pattern"], "flip-slice");
  EXPECT_EQ(bj["tables"][0]["entries"], 2048 * 495);
  EXPECT_EQ(bj["tables"][0]["status"], "built");
  auto l = run("pdb list --json");
  ASSERT_EQ(l.code, 0) << l.err;
  EXPECT_NE(l.out.find("\"pattern\":\"twist-slice\""), std::string::npos) << l.out;
  auto s = run("solve " + cube + " --scramble \"U2 D2 F2 B2 L2 R2\" --json --quiet");
  ASSERT_EQ(s.code, 0) << s.err;
  EXPECT_EQ(s.json()["length"], 6);
  const std::string h = s.json()["heuristic"].get<std::string>();
  EXPECT_NE(h.find("cached pattern flip-slice"), std::string::npos) << h;
  EXPECT_NE(h.find("4 conjugate lookups"), std::string::npos) << h;
}

TEST_F(PermPdbCli, APatternStandsInForAnotherWhereItFits) {
  // `Replaces`: twist-slice (2187 x 495 entries) stands in for slice (495): `pdb build`
  // builds it when it fits --memory, slice otherwise; a solve that finds both uses the one
  // that fits its budget, never both.
  const std::filesystem::path data(tansaku::perm::data_dir());
  std::filesystem::copy_file(data / "3x3x3.tws", dir_ / "cube.tws");
  std::ofstream(dir_ / "cube.pat") << "Pattern slice\nEDGES class 9 10 11 12\nEnd\n"
                                      "Pattern twist-slice\nCORNERS orientations\nEDGES class 9 10 11 12\n"
                                      "Replaces slice\nEnd\n";
  const std::string cube = "perm:" + (dir_ / "cube.tws").string();
  // 300 KiB: not the 541 KiB the larger's build holds (two 2-bit tables).
  auto small = run("pdb build " + cube + " --only patterns --memory 300K --json --quiet");
  ASSERT_EQ(small.code, 0) << small.err;
  ASSERT_EQ(small.json()["tables"].size(), 1u);
  EXPECT_EQ(small.json()["tables"][0]["pattern"], "slice");
  EXPECT_EQ(small.json()["tables"][0]["status"], "built");
  auto large = run("pdb build " + cube + " --only patterns --json --quiet");
  ASSERT_EQ(large.code, 0) << large.err;
  ASSERT_EQ(large.json()["tables"].size(), 1u);
  EXPECT_EQ(large.json()["tables"][0]["pattern"], "twist-slice");
  EXPECT_EQ(large.json()["tables"][0]["entries"], 2187 * 495);
  const std::vector<std::string> slice = {"slice"};
  EXPECT_EQ(large.json()["tables"][0]["replaces"].get<std::vector<std::string>>(), slice);
  EXPECT_EQ(large.json()["tables"][0]["status"], "built");
  const std::string file = large.json()["tables"][0]["file"].get<std::string>();
  EXPECT_EQ(tansaku::perm::read_table_header(file)["replaces"].get<std::vector<std::string>>(), slice);
  // Both are in the cache: the solve uses twist-slice alone.
  auto s = run("solve " + cube + " --scramble \"R U F\" --algorithm idastar --json --quiet");
  ASSERT_EQ(s.code, 0) << s.err;
  EXPECT_EQ(s.json()["length"], 3);
  const std::string h = s.json()["heuristic"].get<std::string>();
  EXPECT_NE(h.find("cached pattern twist-slice"), std::string::npos) << h;
  EXPECT_EQ(h.find("cached pattern slice"), std::string::npos) << h;
  // Built again: the larger is there, nothing is built.
  auto again = run("pdb build " + cube + " --only patterns --json --quiet");
  ASSERT_EQ(again.code, 0) << again.err;
  ASSERT_EQ(again.json()["tables"].size(), 1u);
  EXPECT_EQ(again.json()["tables"][0]["status"], "exists");
}

TEST_F(PermPdbCli, ATableOfAnotherReductionIsReplaced) {
  // A reduced pattern built under one .sym (the 16 symmetries keeping the U-D axis, with the
  // mirror) and then under another (the mirror's block taken out: 8 rotations): the file of
  // the earlier layout is replaced, not kept as "exists", and solve uses the new one.
  const std::filesystem::path data(tansaku::perm::data_dir());
  std::filesystem::copy_file(data / "3x3x3.tws", dir_ / "cube.tws");
  std::filesystem::copy_file(data / "3x3x3.sym", dir_ / "cube.sym");
  std::ofstream(dir_ / "cube.pat") << "Pattern fs\nEDGES class 9 10 11 12\nReduced\nEnd\n";  // the slice edges' cells
  const std::string cube = "perm:" + (dir_ / "cube.tws").string();
  auto a = run("pdb build " + cube + " --only patterns --json --quiet");
  ASSERT_EQ(a.code, 0) << a.err;
  const auto entries16 = a.json()["tables"][0]["entries"].get<std::uint64_t>();
  EXPECT_EQ(a.json()["tables"][0]["status"], "built");
  // The file records the symmetries it was reduced by, so the next build finds it complete
  // without building its classes again.
  const std::string file = a.json()["tables"][0]["file"].get<std::string>();
  EXPECT_EQ(tansaku::perm::read_table_header(file).value("symmetries", "").size(), 16u) << file;
  auto again = run("pdb build " + cube + " --only patterns --json --quiet");
  EXPECT_EQ(again.json()["tables"][0]["status"], "exists");
  // The same .sym without its mirror block.
  std::string sym;
  {
    std::ifstream in(dir_ / "cube.sym");
    sym.assign(std::istreambuf_iterator<char>(in), {});
  }
  const std::size_t at = sym.find("Reduce M");
  ASSERT_NE(at, std::string::npos);
  sym.erase(at, sym.find("End", at) + 3 - at);
  std::ofstream(dir_ / "cube.sym") << sym;
  auto b = run("pdb build " + cube + " --only patterns --json --quiet");
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_EQ(b.json()["tables"][0]["status"], "built");
  const auto entries8 = b.json()["tables"][0]["entries"].get<std::uint64_t>();
  EXPECT_GT(entries8, entries16 * 3 / 2);  // about twice: 8 symmetries instead of 16
  auto s = run("solve " + cube + " --scramble \"R U F\" --json --quiet");
  ASSERT_EQ(s.code, 0) << s.err;
  EXPECT_EQ(s.json()["length"], 3);
  EXPECT_NE(s.json()["heuristic"].get<std::string>().find("cached pattern fs"), std::string::npos) << s.out;
}

TEST_F(PermPdbCli, StoppedBeforeTheSearchSaysWhatWasProved) {
  // No tables in the cache: a limit that stops the solve in the membership test or while
  // the tables are built still says what was proved. The superflip differs from the goal at
  // 12 positions and a face turn changes 8, so at least 2 moves.
  auto r =
      run("solve perm:3x3x3 --scramble \"U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2\" "
          "--algorithm idastar --timeout 0.01 --json --quiet");
  ASSERT_EQ(r.code, 3) << r.out << r.err;
  const auto j = r.json();
  EXPECT_EQ(j["stopped"], "timeout") << j;
  ASSERT_TRUE(j.contains("lower_bound")) << j;
  EXPECT_GE(j["lower_bound"].get<int>(), 2) << j;
  EXPECT_LE(j["lower_bound"].get<int>(), 20) << j;
  EXPECT_NE(r.err.find("proved so far: no solution is shorter than"), std::string::npos) << r.err;
}
