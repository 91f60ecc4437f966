// perm's two-phase solver (src/perm/two_phase.h) and the Subgroup block of a companion .pat
// file: random 3x3x3 positions, the superflip, a position already in the subgroup and the
// solved cube each answered with a replayed solution of bounded length; the shipped
// subgroup's declaration checked against the group orders (its index is the number of
// classes its block keeps); another definition that declares a subgroup without tables;
// the parser's refusals; the command line's refusals (no subgroup, a subgroup move left out).
#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <set>

#include <gmpxx.h>

#include "cli_util.h"
#include "perm/definition.h"
#include "perm/generators.h"
#include "perm/group_order.h"
#include "perm/pattern_spec.h"
#include "perm/pattern_table.h"
#include "perm/solver.h"
#include "tansaku/core/error.h"
#include "tansaku/core/tokens.h"

using namespace tansaku;
using namespace tansaku::perm;

namespace {

constexpr int kBound = 30;  // every answer here is at most this long (God's number is 20)

// The tables go to a cache directory of this program's own (never the user's), removed at the end.
class CacheDir : public ::testing::Environment {
 public:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("tansaku-two-phase-cache-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    ::setenv("TANSAKU_PDB_DIR", dir_.c_str(), 1);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  static std::filesystem::path dir() { return dir_; }

 private:
  static inline std::filesystem::path dir_;
};
const auto* const cache_env = ::testing::AddGlobalTestEnvironment(new CacheDir);

SolveResult two_phase(const Definition& d, const MoveSet& ms, const Position& start, int max_length = 0) {
  SolveRequest req;
  req.d = &d;
  req.ms = &ms;
  req.start = start;
  req.goal = d.solved;
  req.algorithm = "two-phase";
  req.max_length = max_length;
  search::Limits lim;
  lim.threads = 1;
  return solve(req, lim);
}

// Solved, not claimed optimal, replayed to the goal, the phases adding up.
void check_answer(const Definition& d, const MoveSet& ms, const Position& start, const SolveResult& r) {
  ASSERT_TRUE(r.path.found);
  EXPECT_EQ(r.algorithm, "two-phase");
  EXPECT_FALSE(r.path.optimal);
  EXPECT_EQ(r.path.cost, static_cast<int>(r.path.moves.size()));
  EXPECT_NO_THROW(verify(d, ms, start, d.solved, r.path.moves));
  if (!r.path.moves.empty()) {
    ASSERT_EQ(r.phases.size(), 2u);
    EXPECT_EQ(r.phases[0] + r.phases[1], r.path.cost);
  }
}

TEST(TwoPhase, RandomCubesAreSolvedShort) {
  const Definition d = load_definition("3x3x3");
  const MoveSet ms = build_moves(d, "htm", "");
  const auto starts = random_positions(d, ms, d.solved, 1, 20);
  for (std::size_t i = 0; i < starts.size(); ++i) {
    SCOPED_TRACE(i);
    const SolveResult r = two_phase(d, ms, starts[i]);
    check_answer(d, ms, starts[i], r);
    EXPECT_LE(r.path.cost, kBound);
    EXPECT_GE(r.path.cost, 10);  // a random cube is at least this far (all but a vanishing few are 16+)
    EXPECT_FALSE(r.heuristics.empty());
  }
}

TEST(TwoPhase, Superflip) {
  const Definition d = load_definition("3x3x3");
  const MoveSet ms = build_moves(d, "htm", "");
  const Position start = replay(d, d.solved, "U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2", "superflip");
  // Every edge flipped in place, every corner solved.
  for (int i = 0; i < d.positions; ++i)
    EXPECT_EQ(start.lab[static_cast<std::size_t>(i)], d.solved.lab[static_cast<std::size_t>(i)]);
  const SolveResult r = two_phase(d, ms, start);
  check_answer(d, ms, start, r);
  EXPECT_GE(r.path.cost, 20);  // its distance
  EXPECT_LE(r.path.cost, kBound);
}

TEST(TwoPhase, InsideTheSubgroupOnlyPhaseTwo) {
  const Definition d = load_definition("3x3x3");
  const MoveSet ms = build_moves(d, "htm", "");
  const Position start = replay(d, d.solved, "U R2 F2 D' L2 B2 U2 R2", "scramble");
  const SolveResult r = two_phase(d, ms, start);
  check_answer(d, ms, start, r);
  ASSERT_EQ(r.phases.size(), 2u);
  EXPECT_EQ(r.phases[0], 0);
  EXPECT_LE(r.path.cost, 8);
  const std::set<std::string> sub = {"U", "U2", "U'", "D", "D2", "D'", "R2", "L2", "F2", "B2"};
  for (int m : r.path.moves)
    EXPECT_TRUE(sub.count(ms.gens[static_cast<std::size_t>(m)].name)) << ms.gens[static_cast<std::size_t>(m)].name;
}

TEST(TwoPhase, ShortScramblesKeepTheirShortAnswer) {
  const Definition d = load_definition("3x3x3");
  const MoveSet ms = build_moves(d, "htm", "");
  for (const char* s : {"R", "R U F", "F' L2 D B"}) {
    SCOPED_TRACE(s);
    const Position start = replay(d, d.solved, s, "scramble");
    const SolveResult r = two_phase(d, ms, start);
    check_answer(d, ms, start, r);
    EXPECT_EQ(r.path.cost, static_cast<int>(split_state(s).size()));
  }
}

TEST(TwoPhase, MaxLengthIsMet) {
  const Definition d = load_definition("3x3x3");
  const MoveSet ms = build_moves(d, "htm", "");
  const auto starts = random_positions(d, ms, d.solved, 7, 3);
  for (const auto& s : starts) {
    const SolveResult r = two_phase(d, ms, s, 23);
    check_answer(d, ms, s, r);
    EXPECT_LE(r.path.cost, 23);
  }
}

// The shipped declaration: <U, D, R2, L2, F2, B2> has index 2187 x 2048 x 495 in the cube's
// group, the number of classes of the positions its block keeps (so those classes are its
// cosets: phase 1 ends exactly in the subgroup).
TEST(TwoPhase, ShippedSubgroupIsWhatItsBlockKeeps) {
  const Definition d = load_definition("3x3x3");
  const MoveSet ms = build_moves(d, "htm", "");
  const TableList list = load_table_list(d);
  ASSERT_TRUE(list.subgroup);
  const SubgroupSpec& sg = *list.subgroup;
  EXPECT_EQ(sg.written, "U D R2 L2 F2 B2");
  EXPECT_EQ(sg.moves.size(), 10u);  // U, U2, U', D, D2, D', R2, L2, F2, B2
  EXPECT_EQ(sg.phase1.size(), 2u);
  EXPECT_EQ(sg.phase2.size(), 2u);
  std::vector<Perm> gens;
  for (const auto& g : ms.gens)
    for (const auto& [base, power] : sg.moves)
      if (g.base == base && g.power == power) gens.push_back(g.p);
  ASSERT_EQ(gens.size(), 10u);
  const mpz_class whole(group_order(d, ms)), part(group_order(d, gens));
  EXPECT_EQ(part, mpz_class("19508428800"));
  const PatternDomain keeps(d, ms, d.solved, sg.keeps);
  EXPECT_EQ(keeps.space().size(), 2187u * 2048u * 495u);
  EXPECT_EQ(whole / part, mpz_class(std::to_string(keeps.space().size())));
}

std::filesystem::path temp_dir() {
  const auto dir = std::filesystem::temp_directory_path() / ("tansaku-two-phase-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir;
}

// The 2x2x2 declaring <U, D, R2, L2, F2, B2> (all 8! corner permutations, twist 0): the
// default tables (phase 1: the block's own projection, 2187 twists; phase 2: every piece).
TEST(TwoPhase, AnyDefinitionMayDeclareASubgroup) {
  const auto dir = temp_dir();
  std::filesystem::copy_file(data_dir() + "/2x2x2.tws", dir / "cube2.tws",
                             std::filesystem::copy_options::overwrite_existing);
  std::ofstream(dir / "cube2.pat") << "Subgroup U D R2 L2 F2 B2\nCORNERS orientations\nEnd\n";
  const Definition d = load_definition((dir / "cube2.tws").string());
  const MoveSet ms = build_moves(d, "htm", "");
  const auto starts = random_positions(d, ms, d.solved, 3, 2);
  for (const auto& s : starts) {
    const SolveResult r = two_phase(d, ms, s);
    check_answer(d, ms, s, r);
    // Against the optimum (bidirectional search): never shorter, and not far off.
    SolveRequest opt;
    opt.d = &d;
    opt.ms = &ms;
    opt.start = s;
    opt.goal = d.solved;
    opt.algorithm = "idastar";
    const SolveResult o = solve(opt, search::Limits{});
    ASSERT_TRUE(o.path.found);
    EXPECT_GE(r.path.cost, o.path.cost);
    EXPECT_LE(r.path.cost, o.path.cost + 8);
  }
  std::filesystem::remove_all(dir);
}

TEST(TwoPhase, ParserRefusals) {
  const Definition d = load_definition("3x3x3");
  auto refused = [&](const std::string& text, const std::string& needle) {
    try {
      (void)parse_table_list(d, text, "t.pat");
      ADD_FAILURE() << "accepted: " << text;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  const std::string block =
      "Subgroup U D R2 L2 F2 B2\nCORNERS orientations\nEDGES orientations\nEDGES class 9 10 11 12\nEnd\n";
  refused("Subgroup U M\nCORNERS orientations\nEnd\n", "t.pat:1: 'M' is not a move");
  refused("Subgroup\nEnd\n", "t.pat:1: expected 'Subgroup MOVE...'");
  refused("Subgroup U\nEnd\n", "the Subgroup block keeps nothing");
  refused("Subgroup U\nCORNERS orientations\n", "the Subgroup block without End");
  refused(block + block, "t.pat:6: a second Subgroup (the first at line 1)");
  refused("Phase1 x\nCORNERS orientations\nEnd\n", "t.pat:1: Phase1 before the Subgroup block");
  refused(block + "Phase1 x\nCORNERS distinct 1 2\nEnd\n",
          "t.pat:6: Phase1 table 'x' keeps more than the Subgroup block");
  refused(block + "Phase1 x\nEDGES class 9 10\nEnd\n", "keeps more than the Subgroup block");
  refused(block + "Phase2 x\nCORNERS distinct 1 2 3\nReduced\nEnd\n", "t.pat:8: 'Reduced' applies to Pattern blocks");
  refused(block + "Phase2 x\nCORNERS distinct 1\nEnd\nPhase2 x\nCORNERS distinct 2\nEnd\n", "table 'x' named twice");
  // Coarser phase-1 tables are fine; the powers of a written power only.
  const TableList ok = parse_table_list(d, block + "Phase1 t\nCORNERS orientations\nEnd\n", "t.pat");
  ASSERT_TRUE(ok.subgroup);
  EXPECT_EQ(ok.subgroup->phase1.size(), 1u);
  EXPECT_TRUE(ok.patterns.empty());  // never a table of `pdb build`
  const TableList r2 = parse_table_list(d, "Subgroup R2 U'\nCORNERS orientations\nEnd\n", "t.pat");
  EXPECT_EQ(r2.subgroup->moves.size(), 4u);  // R2; U', U2, U
}

// Built once, then read from the cache directory's two-phase/; a damaged file is built again.
TEST(TwoPhaseCli, TablesAreKeptInTheCacheDirectory) {
  const std::string solve = "solve cube --scramble \"L2 D' B R\" --algorithm two-phase --json --quiet";
  ASSERT_EQ(run_cli(solve).code, 0);
  const auto dir = CacheDir::dir() / "two-phase";
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().string().find("perm-3x3x3-") != std::string::npos) files.push_back(e.path());
  ASSERT_EQ(files.size(), 4u);  // twist-slice, flip-slice, corners-slice, edges
  const auto size = std::filesystem::file_size(files[0]);
  std::filesystem::resize_file(files[0], size / 2);
  const auto again = run_cli(solve);
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_EQ(again.json()["length"], 4);
  EXPECT_EQ(std::filesystem::file_size(files[0]), size);
}

TEST(TwoPhaseCli, AnswersAndRefuses) {
  const auto r = run_cli("solve cube --scramble \"R U R' U' F2 D L'\" --algorithm two-phase --json --quiet");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = r.json();
  EXPECT_EQ(j["algorithm"], "two-phase");
  EXPECT_FALSE(j["optimal"].get<bool>());
  EXPECT_LE(j["length"].get<int>(), 7);
  ASSERT_EQ(j["phases"].size(), 2u);
  EXPECT_EQ(j["phases"][0].get<int>() + j["phases"][1].get<int>(), j["length"].get<int>());
  // The solved cube: nothing to do.
  const auto s = run_cli("solve 3x3x3 --scramble \"\" --algorithm two-phase --json --quiet");
  ASSERT_EQ(s.code, 0) << s.err;
  EXPECT_EQ(s.json()["length"], 0);
  // --max-length alone names two-phase.
  const auto m = run_cli("solve rubik --scramble \"F R U' B2 L D\" --max-length 6 --json --quiet");
  ASSERT_EQ(m.code, 0) << m.err;
  EXPECT_EQ(m.json()["algorithm"], "two-phase");
  EXPECT_LE(m.json()["length"].get<int>(), 6);
  const auto t = run_cli("solve cube --scramble \"F R U' B2 L D\" --algorithm kociemba --quiet");
  ASSERT_EQ(t.code, 0) << t.err;
  EXPECT_NE(t.out.find("phases:"), std::string::npos) << t.out;
  expect_refused("solve perm:2x2x2 --scramble \"R U\" --algorithm two-phase",
                 "algorithm two-phase does not apply to this instance: 2x2x2 declares no subgroup");
  expect_refused("solve cube --scramble \"R U\" --algorithm two-phase --moves U,R,F", "the subgroup's move D is not");
  expect_refused("solve cube --scramble \"R U\" --algorithm two-phase --metric qtm", "the subgroup's move U2 is not");
  expect_refused("solve cube --scramble \"R U\" --algorithm two-phase --all",
                 "algorithm two-phase does not take --all");
  expect_refused("solve cube --scramble \"R U\" --max-length 5 --algorithm idastar",
                 "--max-length applies to --algorithm two-phase, not idastar");
  expect_refused("solve cube --scramble \"R U\" --max-length 0", "--max-length");
}

}  // namespace
