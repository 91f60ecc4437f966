// The pattern-database layer every family shares (tansaku/pdb/): the orbits (union-find)
// against a plain closure and against the rules they replaced (perm's orbits of positions on
// the 2x2x2, sliding's canonical blank cell), the cache listing with kinds of file of its
// own, and `pdb list / verify / remove` over both families' tables in one directory.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <set>

#include <unistd.h>

#include "cli_util.h"
#include "perm/definition.h"
#include "perm/generators.h"
#include "perm/piece_file.h"
#include "perm/piece_table.h"
#include "sliding/pdb.h"
#include "tansaku/core/error.h"
#include "tansaku/pdb/cache.h"
#include "tansaku/pdb/orbits.h"
#include "tansaku/pdb/table_file.h"
#include "tansaku/search/move_pruning.h"

using namespace tansaku;
namespace fs = std::filesystem;

namespace {

// The orbits by a closure under the generators: for each point not yet seen, every point
// reached from it (ordered as Orbits::groups promises).
std::vector<std::vector<int>> closure(int n, const std::vector<std::vector<int>>& gens) {
  std::vector<int> seen(static_cast<std::size_t>(n), 0);
  std::vector<std::vector<int>> out;
  for (int s = 0; s < n; ++s) {
    if (seen[static_cast<std::size_t>(s)]) continue;
    std::vector<int> orbit{s}, todo{s};
    seen[static_cast<std::size_t>(s)] = 1;
    while (!todo.empty()) {
      const int x = todo.back();
      todo.pop_back();
      for (const auto& g : gens) {
        // Forward and backward: the orbits of the group the permutations generate.
        for (int y = 0; y < n; ++y) {
          const bool linked = g[static_cast<std::size_t>(x)] == y || g[static_cast<std::size_t>(y)] == x;
          if (linked && !seen[static_cast<std::size_t>(y)]) {
            seen[static_cast<std::size_t>(y)] = 1;
            orbit.push_back(y);
            todo.push_back(y);
          }
        }
      }
    }
    std::sort(orbit.begin(), orbit.end());
    out.push_back(orbit);
  }
  return out;
}

class PdbLayerDir : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("tansaku-pdb-layer-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  void write(const std::string& name, const std::string& text) { std::ofstream(dir_ / name) << text; }
  CliResult run(const std::string& args) { return run_sh("TANSAKU_PDB_DIR=" + dir_.string(), args); }
  fs::path dir_;
};

// Flips bits of the byte at `at` of a file (from its end when negative: -1 is the last byte,
// a checksum or the last cells); twice restores it.
void damage(const fs::path& file, std::streamoff at = -1) {
  std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
  const auto from = at < 0 ? std::ios::end : std::ios::beg;
  f.seekg(at, from);
  char c = 0;
  f.get(c);
  f.seekp(at, from);
  f.put(static_cast<char>(c ^ 0x5a));
}

}  // namespace

TEST(PdbOrbits, UnionFindMatchesClosure) {
  std::mt19937 rng(38);
  for (int trial = 0; trial < 200; ++trial) {
    const int n = 1 + static_cast<int>(rng() % 24);
    std::vector<std::vector<int>> gens(rng() % 4);
    pdb::Orbits o(n);
    for (auto& g : gens) {
      g.resize(static_cast<std::size_t>(n));
      std::iota(g.begin(), g.end(), 0);
      // A few random transpositions: orbits of every size.
      for (int k = static_cast<int>(rng() % 4); k > 0; --k)
        std::swap(g[rng() % static_cast<unsigned>(n)], g[rng() % static_cast<unsigned>(n)]);
      o.join_all(g);
    }
    const auto want = closure(n, gens);
    ASSERT_EQ(o.groups(), want);
    for (const auto& orbit : want)
      for (int x : orbit) EXPECT_EQ(o.root(x), orbit.front());
  }
}

TEST(PdbOrbits, PermPositionsAndPieceOrbitsOf2x2x2) {
  const perm::Definition d = perm::load_definition("2x2x2");
  for (const std::string moves : {"", "U,F,R"}) {
    const perm::MoveSet ms = perm::build_moves(d, "htm", moves);
    std::vector<std::vector<int>> gens;
    pdb::Orbits o(d.positions);
    for (const auto& g : ms.gens) {
      gens.emplace_back(g.p.perm.begin(), g.p.perm.begin() + d.positions);
      o.join_all(g.p.perm);
    }
    EXPECT_EQ(o.groups(), closure(d.positions, gens)) << moves;
    // set_orbits: the orbits within the set of the cells some move changes; the old rule
    // found the one orbit of all 8 corners, or of the 7 that U, F and R move.
    ASSERT_EQ(d.sets.size(), 1u);
    const auto orbits = perm::set_orbits(d, ms, 0);
    ASSERT_EQ(orbits.size(), 1u) << moves;
    EXPECT_EQ(orbits[0].size(), moves.empty() ? 8u : 7u) << moves;
    std::vector<int> moved;
    for (const auto& orbit : closure(d.positions, gens))
      if (orbit.size() > 1) moved = orbit;
    EXPECT_EQ(orbits[0], moved) << moves;
  }
}

TEST(PdbOrbits, SlidingBlankGoesWhereItWent) {
  // The canonical frame's blank: before the shared orbits, the first grid symmetry taking
  // the blank's goal cell to its least image. The same on every board and blank cell.
  for (auto [r, c] : std::vector<std::pair<int, int>>{{2, 5}, {3, 3}, {3, 4}, {4, 4}, {4, 5}, {5, 5}}) {
    const sliding::Geometry geo(r, c);
    const auto syms = sliding::pdb::grid_symmetries(r, c);
    for (int b = 0; b < geo.n; ++b) {
      sliding::Cells goal(static_cast<std::size_t>(geo.n));
      for (int i = 0; i < geo.n; ++i)
        goal[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>((i - b + geo.n) % geo.n);
      std::size_t best = 0;
      for (std::size_t s = 1; s < syms.size(); ++s)
        if (syms[s][static_cast<std::size_t>(b)] < syms[best][static_cast<std::size_t>(b)]) best = s;
      const sliding::pdb::Frame f = sliding::pdb::make_frame(geo, goal);
      EXPECT_EQ(f.blank, syms[best][static_cast<std::size_t>(b)]) << r << "x" << c << " blank " << b;
      EXPECT_EQ(f.to_canon, syms[best]) << r << "x" << c << " blank " << b;
    }
  }
}

TEST_F(PdbLayerDir, ListingOverKindsOfItsOwn) {
  // Two kinds: ".a" files and ".b" files, a file reading "bad" not readable as either (listed
  // as unreadable, with why).
  auto kind = [](const std::string& ext, const std::string& heading) {
    pdb::TableKind k;
    k.heading = heading;
    k.claims = [ext](const std::string& name) { return name.ends_with(ext); };
    k.describe = [](const fs::path& file) {
      std::ifstream in(file);
      std::string text;
      std::getline(in, text);
      if (text == "bad") throw InputError(file.string() + ": unreadable");
      return std::pair<std::string, pdb::json>{"holds " + text, pdb::json{{"holds", text}}};
    };
    k.verify = [](const fs::path& file, const search::Limits&) {
      std::ifstream in(file);
      std::string text;
      std::getline(in, text);
      if (text == "bad") throw InputError(file.string() + ": damaged");
    };
    return k;
  };
  const pdb::TableKind a = kind(".a", "A tables in {}:"), b = kind(".b", "B tables in {}:");
  const std::vector<const pdb::TableKind*> kinds{&a, &b};
  write("2.a", "two");
  write("1.a", "one");
  write("3.a", "bad");
  write("other.txt", "none");
  const auto files = pdb::table_files(dir_, kinds);
  ASSERT_EQ(files.size(), 3u);
  EXPECT_EQ(files[0].path.filename(), "1.a");
  EXPECT_EQ(files[2].path.filename(), "3.a");
  EXPECT_EQ(pdb::kind_of("x.b", kinds), &b);
  EXPECT_EQ(pdb::kind_of("x.c", kinds), nullptr);
  auto [text, j] = pdb::list_tables(dir_, kinds);
  const std::string d = dir_.string(), bad = (dir_ / "3.a").string() + ": unreadable";
  EXPECT_EQ(text, "A tables in " + d + ":\n  holds one\n  holds two\n  unreadable: " + bad + "\nB tables in " + d +
                      ":\n  (none)\n");
  EXPECT_EQ(j, (pdb::json{{"dir", d},
                          {"tables", {{{"holds", "one"}}, {{"holds", "two"}}}},
                          {"unreadable", {{{"file", (dir_ / "3.a").string()}, {"error", bad}}}}}));
  EXPECT_EQ(pdb::verify_table(files[0], {}), "");
  EXPECT_EQ(pdb::verify_table(files[2], {}), (dir_ / "3.a").string() + ": damaged");
  // No directory: no files, every heading with (none).
  EXPECT_TRUE(pdb::table_files(dir_ / "missing", kinds).empty());
  EXPECT_EQ(pdb::list_tables(dir_ / "missing", kinds).second["tables"].size(), 0u);
}

TEST_F(PdbLayerDir, ListVerifyRemoveBothFamilies) {
  // Every family that writes tables registers its kind of file; two of them here.
  const auto kinds = pdb::registered_kinds();
  const pdb::TableKind* tiles = pdb::kind_of("sliding-3x3-b0-1.2.3.4.pdb.zst", kinds);
  const pdb::TableKind* pieces = pdb::kind_of("perm-2x2x2-08b811ba2312eb21-CORNERS-1.2.3.4.ptab", kinds);
  ASSERT_TRUE(tiles && pieces);
  EXPECT_NE(tiles, pieces);
  const pdb::TableKind* moves = pdb::kind_of("sliding-moves-14.fsm.zst", kinds);  // listed apart
  EXPECT_TRUE(moves && moves != tiles && moves != pieces);

  ASSERT_EQ(run("pdb build 8-puzzle --groups 4-4 --quiet").code, 0);
  ASSERT_EQ(run("pdb build perm:2x2x2 --moves U,F,R --pieces 4 --quiet").code, 0);
  write("notes.txt", "not a table");
  auto l = run("pdb list --json");
  ASSERT_EQ(l.code, 0) << l.err;
  auto listed = l.json();
  EXPECT_EQ(listed["dir"], dir_.string());
  ASSERT_EQ(listed["tables"].size(), 4u) << listed.dump();
  std::vector<std::string> files;
  for (const auto& t : listed["tables"]) files.push_back(t["file"]);
  // Sliding's first (the registry's order), each family's by name, with its own keys.
  EXPECT_EQ(listed["tables"][0]["board"], "3x3");
  EXPECT_EQ(listed["tables"][0]["cells"], nlohmann::json({1, 2, 3, 4}));
  EXPECT_EQ(listed["tables"][2]["puzzle"], "perm:2x2x2");
  EXPECT_EQ(listed["tables"][2]["set"], "CORNERS");
  auto text = run("pdb list");
  ASSERT_EQ(text.code, 0);
  EXPECT_NE(text.out.find("pattern databases in " + dir_.string() + ":\n  3x3 blank 0 4-tile group, 3024 entries"),
            std::string::npos)
      << text.out;
  EXPECT_NE(
      text.out.find("perm tables (piece tables and patterns) in " + dir_.string() + ":\n  perm:2x2x2 set CORNERS"),
      std::string::npos)
      << text.out;

  // verify: every byte read, every checksum checked.
  auto v = run("pdb verify --json");
  ASSERT_EQ(v.code, 0) << v.err;
  EXPECT_EQ(v.json()["checked"], 4);
  EXPECT_EQ(v.json()["damaged"], 0);
  damage(files[1]);  // a zstd frame's checksum
  damage(files[3]);  // the last cells
  v = run("pdb verify --json");
  EXPECT_EQ(v.code, 1) << v.err;
  const auto vj = v.json();
  EXPECT_EQ(vj["damaged"], 2);
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(vj["tables"][i]["file"], files[i]);
    EXPECT_EQ(vj["tables"][i]["ok"], i % 2 == 0);
    if (i % 2) {
      EXPECT_NE(vj["tables"][i]["error"].get<std::string>().find(files[i]), std::string::npos);
    }
  }
  auto vt = run("pdb verify");
  EXPECT_EQ(vt.code, 1);
  EXPECT_NE(vt.out.find("4 checked, 2 damaged"), std::string::npos) << vt.out;
  EXPECT_NE(vt.out.find("pdb remove"), std::string::npos) << vt.out;
  EXPECT_EQ(run("pdb verify " + fs::path(files[0]).filename().string()).code, 0);  // by name, in the directory
  EXPECT_EQ(run("pdb verify " + files[2]).code, 0);                                // by path

  // remove: only table files, every name checked first.
  expect_refused("pdb remove --dir " + dir_.string() + " notes.txt", "not a pattern database file");
  expect_refused(
      "pdb remove --dir " + dir_.string() + " " + fs::path(files[1]).filename().string() + " nothing.pdb.zst",
      "no such file");
  EXPECT_TRUE(fs::exists(files[1]));
  expect_refused("pdb remove --dir " + dir_.string(), "--all");
  expect_refused("pdb verify --dir " + (dir_ / "missing").string(), "no such directory");
  auto r = run("pdb remove " + fs::path(files[1]).filename().string() + " " + files[3] + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.json()["removed"].size(), 2u);
  EXPECT_FALSE(fs::exists(files[1]));
  EXPECT_FALSE(fs::exists(files[3]));
  EXPECT_EQ(run("pdb verify").code, 0);
  r = run("pdb remove --all");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("2 table files removed"), std::string::npos) << r.out;
  EXPECT_TRUE(fs::exists(dir_ / "notes.txt"));
  text = run("pdb list");
  EXPECT_EQ(text.out, "pattern databases in " + dir_.string() +
                          ":\n  (none)\nperm tables (piece tables and patterns) in " + dir_.string() + ":\n  (none)\n");
}

// The redundant move strings a search writes beside the tables (move_pruning.h) are listed,
// verified and removed with them, whichever family wrote them.
TEST_F(PdbLayerDir, MoveStringsListedVerifiedRemoved) {
  using search::MoveWord;
  const search::MoveAutomaton two(4, 2, {MoveWord{0, 3}, MoveWord{1, 2}, MoveWord{2, 1}, MoveWord{3, 0}});
  const fs::path file = dir_ / "sliding-moves-2.fsm.zst";
  ASSERT_TRUE(two.write(file));
  auto l = run("pdb list --json");
  ASSERT_EQ(l.code, 0) << l.err;
  const auto listed = l.json()["tables"];
  ASSERT_EQ(listed.size(), 1u) << listed.dump();
  EXPECT_EQ(listed[0]["move_strings"], "sliding-moves");
  EXPECT_EQ(listed[0]["depth"], 2);
  EXPECT_EQ(listed[0]["words"], 4);
  EXPECT_EQ(listed[0]["file"], file.string());
  auto text = run("pdb list");
  EXPECT_NE(text.out.find("redundant move strings in " + dir_.string() +
                          " (searches skip them):\n  sliding-moves: up to 2 moves, 4 strings, "),
            std::string::npos)
      << text.out;
  EXPECT_EQ(run("pdb verify").code, 0);
  damage(file);  // zstd's checksum of the words
  auto v = run("pdb verify --json");
  EXPECT_EQ(v.code, 1) << v.err;
  EXPECT_EQ(v.json()["damaged"], 1);
  EXPECT_FALSE(search::MoveAutomaton::read(file, 4, 2));  // a search builds it again
  auto r = run("pdb remove --all");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("1 table file removed"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(file));
}

// The two-phase solver keeps its tables in a folder of the cache directory (two-phase/):
// listed, verified and removed with the others.
TEST_F(PdbLayerDir, TablesInAFolderOfTheCacheAreListedVerifiedRemoved) {
  auto s = run("solve cube --scramble \"R U F\" --algorithm two-phase --json --quiet");
  ASSERT_EQ(s.code, 0) << s.err;
  EXPECT_EQ(s.json()["length"], 3);
  auto l = run("pdb list --json");
  ASSERT_EQ(l.code, 0) << l.err;
  const auto listed = l.json()["tables"];
  ASSERT_EQ(listed.size(), 4u) << listed.dump();  // phase 1's two, phase 2's two
  for (const auto& t : listed) {
    EXPECT_EQ(t["puzzle"], "perm:3x3x3") << t;
    EXPECT_EQ(fs::path(t["file"].get<std::string>()).parent_path(), dir_ / "two-phase") << t;
  }
  auto v = run("pdb verify --json");
  ASSERT_EQ(v.code, 0) << v.err;
  EXPECT_EQ(v.json()["checked"], 4);
  damage(listed[0]["file"].get<std::string>());
  EXPECT_EQ(run("pdb verify --json").json()["damaged"], 1);
  // A folder of the user's own in the table directory is not the cache's: left alone.
  fs::create_directories(dir_ / "backup");
  fs::copy_file(listed[1]["file"].get<std::string>(),
                dir_ / "backup" / fs::path(listed[1]["file"].get<std::string>()).filename());
  EXPECT_EQ(run("pdb list --json").json()["tables"].size(), 4u);
  auto r = run("pdb remove --all");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("4 table files removed"), std::string::npos) << r.out;
  EXPECT_TRUE(fs::is_empty(dir_ / "two-phase"));
  EXPECT_FALSE(fs::is_empty(dir_ / "backup"));
}

TEST_F(PdbLayerDir, VerifyReadsAReducedPatternToItsEnd) {
  // A pattern reduced by the cube's symmetries keeps its class and sym-move tables after the
  // cells: a damaged byte there is found as well as one among the cells.
  const fs::path data(perm::data_dir());
  fs::copy_file(data / "3x3x3.tws", dir_ / "cube.tws");
  fs::copy_file(data / "3x3x3.sym", dir_ / "cube.sym");
  std::ofstream(dir_ / "cube.pat") << "Pattern fs\nEDGES class 9 10 11 12\nReduced\nEnd\n";
  auto b = run("pdb build perm:" + (dir_ / "cube.tws").string() + " --only patterns --json --quiet");
  ASSERT_EQ(b.code, 0) << b.err;
  const std::string file = b.json()["tables"][0]["file"];
  EXPECT_EQ(run("pdb verify").code, 0);
  damage(file);  // the sym-move table's last word
  auto v = run("pdb verify --json");
  EXPECT_EQ(v.code, 1);
  const std::string error = v.json()["tables"][0]["error"];
  EXPECT_EQ(error.rfind(file + ": damaged table file (the checksum of section sym_moves); `tansaku pdb remove ", 0), 0u)
      << error;
  damage(file);  // undone
  EXPECT_EQ(run("pdb verify").code, 0);
  // The cells start after the header (at a page boundary: the table file format).
  const std::uint64_t cells = pdb::TableReader(file, "").json()["sections"][0].value("offset", std::uint64_t{0});
  ASSERT_GT(cells, 0u);
  ASSERT_EQ(cells % 4096, 0u);
  damage(file, static_cast<std::streamoff>(cells));  // the first cells (a small table: one page)
  v = run("pdb verify --json");
  EXPECT_EQ(v.code, 1);
  EXPECT_EQ(v.json()["damaged"], 1);
}

TEST_F(PdbLayerDir, TableFilesOfEarlierLayoutsNamedWithTheWayOut) {
  // A perm table and a sliding table in the layouts tansaku wrote before the table file
  // format: listed as unreadable with the way out, reported by verify, left out by a solve
  // that says so, refused by a build that would keep them, removed by `pdb remove --all`.
  ASSERT_EQ(run("pdb build 8-puzzle --groups 4-4 --quiet").code, 0);
  ASSERT_EQ(run("pdb build perm:2x2x2 --moves U,F,R --pieces 4 --quiet").code, 0);
  std::string perm_file, sliding_file;
  const auto built = run("pdb list --json").json();
  for (const auto& t : built["tables"]) {
    const std::string f = t["file"];
    if (f.ends_with(".ptab") && perm_file.empty()) perm_file = f;
    if (f.ends_with(".pdb.zst") && sliding_file.empty()) sliding_file = f;
  }
  ASSERT_FALSE(perm_file.empty() || sliding_file.empty());
  // Perm's: a magic line, a JSON line padded to a page boundary, the cells; sliding's: a
  // magic, a binary header (here cut short: the magic alone decides).
  const nlohmann::json header = perm::read_table_header(perm_file);
  std::string head = "TSKPERMPDB1\n" + header.dump();
  head.append((4096 - (head.size() + 1) % 4096) % 4096, ' ');
  std::ofstream(perm_file, std::ios::binary | std::ios::trunc) << head << "\n" << std::string(4096, '\0');
  std::ofstream(sliding_file, std::ios::binary | std::ios::trunc) << "TSKPDB1\n" << std::string(64, '\1');
  const std::string why = ": a table file of an earlier version of tansaku, no longer read; `tansaku pdb remove ";
  auto named = [&](const std::string& text, const std::string& file) {
    EXPECT_NE(text.find(file + why + fs::path(file).filename().string() + "` deletes it"), std::string::npos) << text;
  };
  auto l = run("pdb list");
  ASSERT_EQ(l.code, 0) << l.err;
  EXPECT_NE(l.out.find("  unreadable: " + perm_file + why), std::string::npos) << l.out;
  EXPECT_NE(l.out.find("  unreadable: " + sliding_file + why), std::string::npos) << l.out;
  const auto lj = run("pdb list --json").json();
  ASSERT_EQ(lj["unreadable"].size(), 2u) << lj.dump();
  for (const auto& u : lj["unreadable"]) named(u["error"], u["file"]);
  EXPECT_EQ(lj["tables"].size(), 2u) << lj.dump();  // the others, as they are
  auto v = run("pdb verify --json");
  EXPECT_EQ(v.code, 1) << v.err;
  const auto vj = v.json();
  EXPECT_EQ(vj["damaged"], 2);
  for (const auto& t : vj["tables"])
    if (!t["ok"].get<bool>()) named(t["error"], t["file"]);
  // A solve leaves the perm table out and says so on stderr; the answer is the same.
  auto s = run("solve perm:2x2x2 --moves U,F,R --scramble \"U F R\" --algorithm idastar --json --quiet");
  ASSERT_EQ(s.code, 0) << s.err;
  EXPECT_EQ(s.json()["length"], 3);
  EXPECT_NE(s.err.find("note: left out the cached table " + perm_file + why), std::string::npos) << s.err;
  // So does a sliding solve with the sliding one.
  auto ss = run("solve 8-puzzle --start \"8 6 7 2 5 4 3 0 1\" --algorithm pdb --json --quiet");
  ASSERT_EQ(ss.code, 0) << ss.err;
  EXPECT_EQ(ss.json()["length"], 31);
  EXPECT_NE(ss.err.find("note: left out the cached table " + sliding_file + why), std::string::npos) << ss.err;
  // A build that would keep the sliding file refuses it in one line, nothing on stdout.
  auto b = run("pdb build 8-puzzle --groups 4-4 --quiet");
  EXPECT_EQ(b.code, 2);
  EXPECT_EQ(b.out, "");
  EXPECT_EQ(std::count(b.err.begin(), b.err.end(), '\n'), 1) << b.err;
  named(b.err, sliding_file);
  auto r = run("pdb remove --all");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("4 table files removed"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(perm_file) || fs::exists(sliding_file));
}
