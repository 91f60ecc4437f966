// Pattern databases for sliding tiles: k-permutation ranking, the canonical frame, tables
// checked against breadth-first distances (exact for a whole-board group, admissible and
// additive otherwise), file round trips, and PDB IDA* against Manhattan IDA* and BFS on
// random 8- and 11-puzzles, plus easy instances of Korf's 100.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <set>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <random>
#include <unordered_map>

#include <stdlib.h>
#include <unistd.h>

#include "sliding/domain.h"
#include "sliding/pdb.h"
#include "sliding/pdb_domain.h"
#include "sliding/pdb_solve.h"
#include "sliding/verify.h"
#include "tansaku/core/error.h"
#include "tansaku/core/kperm.h"
#include "tansaku/pdb/table_file.h"
#include "tansaku/search/ida_star.h"
#include "tansaku/search/ida_star_inplace.h"

using namespace tansaku;
using namespace tansaku::sliding;

namespace {

Instance make_instance(int rows, int cols, const std::string& goal, const std::string& start = "") {
  Instance inst;
  inst.geo = Geometry(rows, cols);
  std::vector<std::string> tokens;
  for (int i = 0; i < rows * cols; ++i) tokens.push_back(std::to_string(i));
  inst.labels = make_labels(tokens, "goal");
  inst.goal = parse_cells(inst.geo, inst.labels, goal, "goal");
  inst.start = start.empty() ? inst.goal : parse_cells(inst.geo, inst.labels, start, "start");
  return inst;
}

std::string identity_goal(int n, bool blank_first) {
  std::string s;
  for (int i = 0; i < n; ++i) s += std::to_string(blank_first ? i : (i + 1) % n) + " ";
  return s;
}

std::uint64_t pack(const Cells& c) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < c.size(); ++i) v |= std::uint64_t(c[i]) << (4 * i);
  return v;
}

// Every state reachable from the goal with its distance (boards up to 16 cells).
std::unordered_map<std::uint64_t, int> bfs_distances(const Geometry& geo, const Cells& goal) {
  std::unordered_map<std::uint64_t, int> dist;
  std::vector<Cells> layer{goal};
  dist[pack(goal)] = 0;
  for (int d = 1; !layer.empty(); ++d) {
    std::vector<Cells> next;
    for (const auto& s : layer) {
      const int blank = static_cast<int>(std::find(s.begin(), s.end(), 0) - s.begin());
      for (int nb : geo.adj[blank]) {
        Cells t = s;
        std::swap(t[blank], t[nb]);
        if (dist.emplace(pack(t), d).second) next.push_back(t);
      }
    }
    layer.swap(next);
  }
  return dist;
}

Cells unpack(std::uint64_t v, int n) {
  Cells c(n);
  for (int i = 0; i < n; ++i) c[i] = static_cast<std::uint8_t>((v >> (4 * i)) & 15);
  return c;
}

// A uniformly random solvable start for `goal`.
Cells random_start(const Geometry& geo, const Cells& goal, std::mt19937_64& rng) {
  Cells c = goal;
  do std::shuffle(c.begin(), c.end(), rng);
  while (parity_invariant(geo, c) != parity_invariant(geo, goal));
  return c;
}

// Manhattan-only heuristic: no tables.
std::shared_ptr<const sliding::pdb::Heuristic> manhattan_only() {
  auto h = std::make_shared<sliding::pdb::Heuristic>();
  h->description = "manhattan";
  return h;
}

// Korf's instance #1 (57 moves) with the quick 5-5-5 tables built in memory, and a scratch
// table directory named after `tag` (TANSAKU_PDB_DIR, for the move automata) while it lives.
struct KorfOne {
  Instance inst = make_instance(4, 4, identity_goal(16, true), "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3");
  sliding::pdb::Frame f = sliding::pdb::make_frame(inst.geo, inst.goal);
  std::shared_ptr<const sliding::pdb::Heuristic> h =
      sliding::pdb::memory_heuristic(f, sliding::pdb::groups_of_sizes(f, {5, 5, 5}), 1);
  std::filesystem::path dir;
  explicit KorfOne(const std::string& tag)
      : dir(std::filesystem::temp_directory_path() / ("tansaku-" + tag + "-" + std::to_string(::getpid()))) {
    ::setenv("TANSAKU_PDB_DIR", dir.c_str(), 1);
  }
  ~KorfOne() {
    ::unsetenv("TANSAKU_PDB_DIR");
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
};

}  // namespace

TEST(KPermRanker, RoundTripAndOdometer) {
  for (auto [n, k] : std::vector<std::pair<int, int>>{{9, 4}, {12, 3}, {16, 2}, {6, 6}, {5, 1}}) {
    KPermRanker r(n, k);
    std::uint64_t expect = 1;
    for (int i = 0; i < k; ++i) expect *= static_cast<std::uint64_t>(n - i);
    ASSERT_EQ(r.size(), expect);
    std::uint8_t d[16], pos[16], d2[16];
    r.digits(0, d);
    for (std::uint64_t i = 0; i < r.size(); ++i) {
      r.unrank(i, pos);
      std::uint64_t seen = 0;
      for (int j = 0; j < k; ++j) {
        ASSERT_LT(pos[j], n);
        ASSERT_FALSE((seen >> pos[j]) & 1);
        seen |= std::uint64_t{1} << pos[j];
      }
      ASSERT_EQ(r.rank(pos), i);
      r.digits(i, d2);
      ASSERT_TRUE(std::equal(d, d + k, d2)) << "odometer at " << i;
      r.next_digits(d);
    }
  }
  EXPECT_EQ(KPermRanker(16, 8).size(), 518918400u);
  EXPECT_THROW(KPermRanker(64, 17), std::invalid_argument);
}

TEST(PdbFrame, SymmetriesAndCanonicalGoal) {
  for (auto [r, c] : std::vector<std::pair<int, int>>{{3, 3}, {3, 4}, {4, 4}, {2, 5}}) {
    auto syms = sliding::pdb::grid_symmetries(r, c);
    EXPECT_EQ(syms.size(), r == c ? 8u : 4u);
    Geometry geo(r, c);
    for (const auto& s : syms) {
      std::vector<int> img(s.begin(), s.end());
      std::sort(img.begin(), img.end());
      for (int i = 0; i < geo.n; ++i) ASSERT_EQ(img[i], i);
      for (int a = 0; a < geo.n; ++a)  // adjacency is preserved
        for (int b : geo.adj[a]) {
          const auto& adj = geo.adj[s[a]];
          ASSERT_NE(std::find(adj.begin(), adj.end(), s[b]), adj.end());
        }
    }
    for (bool first : {true, false}) {
      Instance inst = make_instance(r, c, identity_goal(r * c, first));
      sliding::pdb::Frame f = sliding::pdb::make_frame(inst.geo, inst.goal);
      EXPECT_EQ(f.blank, 0);  // a corner blank goes to cell 0
      auto canon = f.canonical(inst.goal);
      for (int i = 0; i < geo.n; ++i) EXPECT_EQ(canon[i], i);
      EXPECT_EQ(f.views.size(), r == c ? 2u : 1u);  // the diagonal reflection on squares
    }
  }
}

TEST(PdbTable, WholeBoardGroupIsExact) {  // labels: tsan
  // 3x3 with all 8 tiles in one group: the table is the distance itself.
  for (bool first : {true, false}) {
    Instance inst = make_instance(3, 3, identity_goal(9, first));
    sliding::pdb::Frame f = sliding::pdb::make_frame(inst.geo, inst.goal);
    auto h = sliding::pdb::memory_heuristic(f, sliding::pdb::groups_of_sizes(f, {8}), 1);
    sliding::pdb::Context ctx(f, h);
    auto dist = bfs_distances(inst.geo, inst.goal);
    ASSERT_EQ(dist.size(), 181440u);
    int max_d = 0;
    for (const auto& [v, d] : dist) {
      sliding::pdb::Position p(&ctx, f.canonical(unpack(v, 9)));
      ASSERT_EQ(p.h(), d);
      max_d = std::max(max_d, d);
    }
    EXPECT_EQ(max_d, 31);
  }
}

TEST(PdbTable, AdditiveGroupsAreAdmissible) {
  struct Case {
    int rows, cols;
    std::vector<int> sizes;
  };
  for (const Case& c : {Case{3, 3, {4, 4}}, Case{3, 3, {3, 3, 2}}, Case{3, 3, {7}}, Case{2, 4, {4, 3}}, Case{2, 4, {2, 2, 2}}}) {
    Instance inst = make_instance(c.rows, c.cols, identity_goal(c.rows * c.cols, false));
    sliding::pdb::Frame f = sliding::pdb::make_frame(inst.geo, inst.goal);
    auto h = sliding::pdb::memory_heuristic(f, sliding::pdb::groups_of_sizes(f, c.sizes), 1);
    sliding::pdb::Context ctx(f, h);
    auto man = manhattan_only();
    sliding::pdb::Context mctx(f, man);
    auto dist = bfs_distances(inst.geo, inst.goal);
    std::uint64_t stronger = 0;
    for (const auto& [v, d] : dist) {
      auto canon = f.canonical(unpack(v, c.rows * c.cols));
      sliding::pdb::Position p(&ctx, canon), m(&mctx, canon);
      ASSERT_LE(p.h(), d) << c.rows << "x" << c.cols;
      ASSERT_GE(p.h(), m.h());
      ASSERT_EQ((d - p.h()) % 2, 0);  // same parity as the distance
      stronger += p.h() > m.h();
    }
    EXPECT_GT(stronger, dist.size() / 10) << "tables add nothing over manhattan";
  }
}

TEST(PdbTable, BlankAnywhereInTheGoal) {
  // Blank in the centre of 3x3 (all 8 symmetries are views) and on an edge of 3x4.
  struct Case {
    int rows, cols;
    const char* goal;
    std::size_t views;
    std::vector<int> sizes;
  };
  for (const Case& c : {Case{3, 3, "1 2 3 4 0 5 6 7 8", 8, {8}}, Case{3, 3, "1 2 3 4 0 5 6 7 8", 8, {4, 4}},
                        Case{3, 4, "1 0 2 3 4 5 6 7 8 9 10 11", 1, {5, 6}}, Case{3, 3, "1 0 2 3 4 5 6 7 8", 2, {3, 5}}}) {
    Instance inst = make_instance(c.rows, c.cols, c.goal);
    sliding::pdb::Frame f = sliding::pdb::make_frame(inst.geo, inst.goal);
    EXPECT_EQ(f.views.size(), c.views) << c.goal;
    auto h = sliding::pdb::memory_heuristic(f, sliding::pdb::groups_of_sizes(f, c.sizes), 1);
    sliding::pdb::Context ctx(f, h);
    const int n = c.rows * c.cols;
    if (n <= 9) {
      auto dist = bfs_distances(inst.geo, inst.goal);
      for (const auto& [v, d] : dist) {
        sliding::pdb::Position p(&ctx, f.canonical(unpack(v, n)));
        if (c.sizes.size() == 1) ASSERT_EQ(p.h(), d);
        else ASSERT_LE(p.h(), d);
      }
    } else {  // random instances against the manhattan-only search
      std::mt19937_64 rng(5);
      auto man = manhattan_only();
      for (int i = 0; i < 10; ++i) {
        inst.start = random_start(inst.geo, inst.goal, rng);
        auto a = sliding::pdb::find_path(inst, f, h, {}), b = sliding::pdb::find_path(inst, f, man, {});
        ASSERT_TRUE(a.found);
        verify_solution(inst.geo, inst.start, inst.goal, a.moves);
        ASSERT_EQ(a.cost, b.cost);
      }
    }
  }
}

TEST(PdbSearch, TwentyFourPuzzleShortInstance) {
  // 5x5 with the in-memory default (4-4-4-4-4-4 + reflection): a 40-move random walk.
  Instance inst = make_instance(5, 5, identity_goal(25, true));
  std::mt19937_64 rng(3);
  Cells s = inst.goal;
  int blank = 0, prev = -1;
  for (int i = 0; i < 40; ++i) {
    const auto& adj = inst.geo.adj[blank];
    int nb;
    do nb = adj[rng() % adj.size()];
    while (nb == prev);
    std::swap(s[blank], s[nb]);
    prev = blank;
    blank = nb;
  }
  inst.start = s;
  sliding::pdb::Frame f = sliding::pdb::make_frame(inst.geo, inst.goal);
  auto h = sliding::pdb::memory_heuristic(f, sliding::pdb::groups_of_sizes(f, sliding::pdb::quick_sizes(25)), 1);
  auto res = sliding::pdb::find_path(inst, f, h, {});
  ASSERT_TRUE(res.found);
  verify_solution(inst.geo, inst.start, inst.goal, res.moves);
  EXPECT_LE(res.cost, 40);
  EXPECT_EQ(res.cost % 2, 0);
  auto ref = sliding::pdb::find_path(inst, f, manhattan_only(), {});
  EXPECT_EQ(res.cost, ref.cost);
}

TEST(PdbTable, IncrementalUpdatesMatchFreshPositions) {  // labels: tsan
  // A random walk on 4x4 with 5-5-5 + reflection: h after each apply (and undo) equals h of
  // a position built afresh from the board.
  Instance inst = make_instance(4, 4, identity_goal(16, true));
  sliding::pdb::Frame f = sliding::pdb::make_frame(inst.geo, inst.goal);
  auto h = sliding::pdb::memory_heuristic(f, sliding::pdb::groups_of_sizes(f, {5, 5, 5}), 1);
  sliding::pdb::Context ctx(f, h);
  std::mt19937_64 rng(11);
  std::vector<std::uint8_t> cells(16);
  std::iota(cells.begin(), cells.end(), 0);
  sliding::pdb::Position q(&ctx, cells);
  int blank = 0;
  for (int step = 0; step < 3000; ++step) {
    std::uint8_t moves[4];
    const int k = q.moves(moves);
    ASSERT_GT(k, 0);
    const auto m = moves[rng() % k];
    const int old_blank = blank;
    auto u = q.apply(m);
    std::swap(cells[blank], cells[m]);
    blank = m;
    ASSERT_EQ(q.blank(), blank);
    ASSERT_EQ(q.h(), sliding::pdb::Position(&ctx, cells).h()) << "step " << step;
    ASSERT_EQ(q.manhattan(), sliding::pdb::Position(&ctx, cells).manhattan());
    if (step % 7 == 3) {  // take it back, check, play it again
      q.undo(m, u);
      std::swap(cells[blank], cells[old_blank]);
      blank = old_blank;
      ASSERT_EQ(q.blank(), blank);
      ASSERT_EQ(q.h(), sliding::pdb::Position(&ctx, cells).h());
      u = q.apply(m);
      std::swap(cells[blank], cells[m]);
      blank = m;
    }
  }
}

TEST(PdbSearch, ChildBoundIsLazyButExact) {
  // child_h(m, limit) never exceeds the h the move gives, exceeds `limit` exactly when that h
  // does, and equals it with no limit: on every 3x3 state, three views of two partitions.
  Instance inst = make_instance(3, 3, identity_goal(9, true));
  sliding::pdb::Frame f = sliding::pdb::make_frame(inst.geo, inst.goal);
  auto a = sliding::pdb::memory_heuristic(f, sliding::pdb::groups_of_sizes(f, {4, 4}), 1);
  auto b = sliding::pdb::memory_heuristic(f, {{1, 3, 4}, {2, 5, 6, 7, 8}}, 1);
  auto both = std::make_shared<sliding::pdb::Heuristic>(*a);
  both->part.assign(a->tables.size(), 0);
  for (const auto& t : b->tables) both->tables.push_back(t), both->part.push_back(1);
  sliding::pdb::Context ctx(f, both);
  ASSERT_EQ(ctx.views, 3);
  std::uint64_t stopped_early = 0;
  for (const auto& [v, d] : bfs_distances(inst.geo, inst.goal)) {
    const auto cells = f.canonical(unpack(v, 9));
    sliding::pdb::Position q(&ctx, cells);
    std::uint8_t moves[4];
    const int k = q.moves(moves);
    const int blank = static_cast<int>(std::find(cells.begin(), cells.end(), ctx.blank) - cells.begin());
    for (int i = 0; i < k; ++i) {
      const int before = q.h();
      auto child = cells;
      std::swap(child[static_cast<std::size_t>(blank)], child[moves[i]]);
      const int fresh = sliding::pdb::Position(&ctx, child).h();  // from scratch
      const int exact = q.child_h(moves[i], 1000);
      auto u = q.apply(moves[i]);  // takes child_h's lookups
      ASSERT_EQ(exact, fresh);
      ASSERT_EQ(q.h(), fresh);
      q.undo(moves[i], u);
      ASSERT_EQ(q.h(), before);
      (void)q.child_h(moves[i], -1);  // stops at the first view: apply looks up the rest itself
      u = q.apply(moves[i]);
      ASSERT_EQ(q.h(), fresh);
      q.undo(moves[i], u);
      for (int limit = exact - 4; limit <= exact + 1; ++limit) {
        const int lazy = q.child_h(moves[i], limit);
        ASSERT_LE(lazy, exact);
        ASSERT_EQ(lazy > limit, exact > limit);
        stopped_early += lazy < exact;
      }
    }
  }
  EXPECT_GT(stopped_early, 0u);  // some bound was settled before the last view
}

TEST(PdbFile, SaveLoadRoundTrip) {
  auto dir = std::filesystem::temp_directory_path() / ("tansaku_pdb_test_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  sliding::pdb::TableInfo info{3, 4, 0, {1, 4, 5, 8, 9}};
  auto t = sliding::pdb::build_table(info);
  auto file = dir / info.file_name();
  sliding::pdb::save_table(*t, file);
  EXPECT_EQ(sliding::pdb::read_table_info(file), info);
  auto back = sliding::pdb::load_table(file);
  ASSERT_EQ(back->info(), info);
  EXPECT_TRUE(std::equal(t->data(), t->data() + info.bytes(), back->data()));
  EXPECT_EQ(back->max_distance, t->max_distance);
  // A damaged file is refused, not used.
  {
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(-8, std::ios::end);
    f.write("XXXXXXXX", 8);
  }
  EXPECT_THROW(sliding::pdb::load_table(file), InputError);
  std::ofstream(dir / "junk.pdb.zst") << "not a table";
  EXPECT_THROW(sliding::pdb::read_table_info(dir / "junk.pdb.zst"), InputError);
  std::filesystem::remove_all(dir);
}

TEST(PdbGroups, ParseAndDefaults) {
  Instance inst = make_instance(4, 4, identity_goal(16, false));
  sliding::pdb::Frame f = sliding::pdb::make_frame(inst.geo, inst.goal);
  EXPECT_EQ(sliding::pdb::build_sizes(16), (std::vector<int>{7, 8}));
  EXPECT_EQ(sliding::pdb::quick_sizes(16), (std::vector<int>{5, 5, 5}));
  EXPECT_EQ(sliding::pdb::build_sizes(12), (std::vector<int>{3, 8}));
  EXPECT_EQ(sliding::pdb::build_sizes(25), (std::vector<int>{6, 6, 6, 6}));
  auto g = sliding::pdb::parse_groups("7-8", f, inst.labels);
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(g[0].size(), 7u);
  EXPECT_EQ(g[1].size(), 8u);
  auto lists = sliding::pdb::parse_groups("1,2,3/4,5", f, inst.labels);
  ASSERT_EQ(lists.size(), 2u);
  EXPECT_EQ(lists[0].size(), 3u);
  EXPECT_THROW(sliding::pdb::parse_groups("8-8", f, inst.labels), InputError);      // 16 tiles > 15
  EXPECT_THROW(sliding::pdb::parse_groups("1,2/2,3", f, inst.labels), InputError);  // overlap
  EXPECT_THROW(sliding::pdb::parse_groups("0,1", f, inst.labels), InputError);      // blank
  EXPECT_THROW(sliding::pdb::parse_groups("1,99", f, inst.labels), InputError);
  EXPECT_THROW(sliding::pdb::parse_groups("", f, inst.labels), InputError);
}

TEST(PdbSearch, EightPuzzleMatchesBfsAndManhattan) {
  Instance inst = make_instance(3, 3, identity_goal(9, false));
  sliding::pdb::Frame f = sliding::pdb::make_frame(inst.geo, inst.goal);
  auto h = sliding::pdb::memory_heuristic(f, sliding::pdb::groups_of_sizes(f, {4, 4}), 1);
  auto dist = bfs_distances(inst.geo, inst.goal);
  std::mt19937_64 rng(2024);
  Domain<Nibbles> manhattan(inst, /*linear_conflict=*/false);
  search::IdaOptions io;
  io.step = 2;
  for (int i = 0; i < 100; ++i) {
    inst.start = random_start(inst.geo, inst.goal, rng);
    auto res = sliding::pdb::find_path(inst, f, h, {});
    ASSERT_TRUE(res.found);
    verify_solution(inst.geo, inst.start, inst.goal, res.moves);
    auto ref = search::ida_star(manhattan, manhattan.make(inst.start), io);
    ASSERT_EQ(res.cost, ref.cost);
    ASSERT_EQ(res.cost, dist.at(pack(inst.start)));
    // Skipping the redundant move strings (move_fsm.h) keeps every solution optimal.
    auto pruned = sliding::pdb::find_path(inst, f, h, {}, 10);
    ASSERT_TRUE(pruned.found);
    verify_solution(inst.geo, inst.start, inst.goal, pruned.moves);
    ASSERT_EQ(pruned.cost, res.cost);
  }
}

TEST(PdbSearch, ElevenPuzzleMatchesManhattan) {
  // 100 uniformly random 11-puzzles: the PDB search (in-memory 5-6) against the family's
  // generic IDA* with Manhattan + linear conflict, an independent implementation.
  Instance inst = make_instance(3, 4, identity_goal(12, false));
  sliding::pdb::Frame f = sliding::pdb::make_frame(inst.geo, inst.goal);
  auto h = sliding::pdb::memory_heuristic(f, sliding::pdb::groups_of_sizes(f, sliding::pdb::quick_sizes(12)), 1);
  Domain<Nibbles> manhattan(inst, /*linear_conflict=*/true);
  search::IdaOptions io;
  io.step = 2;
  std::mt19937_64 rng(99);
  std::uint64_t pdb_nodes = 0, man_nodes = 0, generated = 0, pruned_generated = 0;
  for (int i = 0; i < 100; ++i) {
    inst.start = random_start(inst.geo, inst.goal, rng);
    auto res = sliding::pdb::find_path(inst, f, h, {});
    auto ref = search::ida_star(manhattan, manhattan.make(inst.start), io);
    ASSERT_TRUE(res.found && ref.found);
    verify_solution(inst.geo, inst.start, inst.goal, res.moves);
    ASSERT_EQ(res.cost, ref.cost) << "instance " << i;
    auto pruned = sliding::pdb::find_path(inst, f, h, {}, 10);
    ASSERT_TRUE(pruned.found);
    verify_solution(inst.geo, inst.start, inst.goal, pruned.moves);
    ASSERT_EQ(pruned.cost, ref.cost) << "instance " << i;
    pdb_nodes += res.stats.expanded;
    man_nodes += ref.stats.expanded;
    generated += res.stats.generated;
    pruned_generated += pruned.stats.generated;
  }
  EXPECT_LT(pdb_nodes * 5, man_nodes) << "the tables should cut the search a lot";
  EXPECT_LT(pruned_generated, generated) << "skipping redundant move strings should save nodes";
}

TEST(PdbSearch, ParallelSearchMatchesSerial) {  // labels: tsan
  // Korf #1 with quick tables: same length, same solution, same node count on 1 and 2 threads.
  Instance inst = make_instance(4, 4, identity_goal(16, true), "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3");
  sliding::pdb::Frame f = sliding::pdb::make_frame(inst.geo, inst.goal);
  auto h = sliding::pdb::memory_heuristic(f, sliding::pdb::groups_of_sizes(f, {5, 5, 5}), 1);
  search::Limits one, two;
  two.threads = 2;
  for (int prune : {2, 10}) {
    auto a = sliding::pdb::find_path(inst, f, h, one, prune);
    auto b = sliding::pdb::find_path(inst, f, h, two, prune);
    ASSERT_TRUE(a.found && b.found);
    EXPECT_EQ(a.cost, 57);
    EXPECT_EQ(a.cost, b.cost);
    EXPECT_EQ(a.moves, b.moves);
    EXPECT_EQ(a.stats.expanded, b.stats.expanded);
    verify_solution(inst.geo, inst.start, inst.goal, b.moves);
  }
}

TEST(PdbSearch, SwitchesToTheDeepAutomatonOnceTheSearchIsBig) {
  // Korf #1: the search starts with the quick automaton and takes the deep one (built, then
  // written to the cache directory) once an iteration expands more than `deep_after` nodes.
  KorfOne k("deep");
  int quick = 0, deep = 0;
  auto a = sliding::pdb::find_path(k.inst, k.f, k.h, {}, 12, &quick);  // never big enough to switch
  auto b = sliding::pdb::find_path(k.inst, k.f, k.h, {}, 12, &deep, 1000);
  EXPECT_EQ(quick, sliding::pdb::kQuickPruneDepth);
  EXPECT_EQ(deep, 12);
  ASSERT_TRUE(a.found && b.found);
  EXPECT_EQ(a.cost, 57);
  EXPECT_EQ(b.cost, 57);
  verify_solution(k.inst.geo, k.inst.start, k.inst.goal, b.moves);
  EXPECT_TRUE(std::filesystem::exists(k.dir / MoveFsm::file_name(12)));
}

TEST(PdbSearch, ClimbsToTheDepthAskedInSteps) {
  // --prune-depth 16 (the default): 10 at first, 14 once an iteration expands `deep_after`
  // nodes, 16 only once one expands `deeper_after`; with too little memory for the deeper
  // automaton, the search keeps the deepest that fitted, and stays optimal.
  EXPECT_EQ(sliding::pdb::kDefaultPruneDepth, 16);
  int mid = 0, capped = 0;
  search::PathResult<std::uint8_t> a, b;
  {
    // First (the process keeps every automaton it made): too little memory.
    KorfOne k("climb-small");
    search::Limits small;
    small.memory = std::uint64_t{256} << 20;  // a quarter for the enumeration: not enough for 14
    b = sliding::pdb::find_path(k.inst, k.f, k.h, small, 16, &capped, 1000, 2000);
    EXPECT_GT(capped, sliding::pdb::kQuickPruneDepth);
    EXPECT_LT(capped, sliding::pdb::kMidPruneDepth);
    verify_solution(k.inst.geo, k.inst.start, k.inst.goal, b.moves);
  }
  KorfOne k("climb");
  a = sliding::pdb::find_path(k.inst, k.f, k.h, {}, 16, &mid, 1000, std::uint64_t{1} << 62);
  EXPECT_EQ(mid, sliding::pdb::kMidPruneDepth);
  EXPECT_TRUE(std::filesystem::exists(k.dir / MoveFsm::file_name(14)));
  EXPECT_FALSE(std::filesystem::exists(k.dir / MoveFsm::file_name(16)));
  ASSERT_TRUE(a.found && b.found);
  EXPECT_EQ(a.cost, 57);
  EXPECT_EQ(b.cost, 57);
  verify_solution(k.inst.geo, k.inst.start, k.inst.goal, a.moves);
}

TEST(PdbSearch, EasyKorfInstances) {
  // A few of Korf's 100 (goal: blank top-left) with the small in-memory tables.
  struct K {
    const char* start;
    int length;
  };
  const K cases[] = {
      {"14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", 57},  // #1
      {"3 14 9 11 5 4 8 2 13 12 6 7 10 1 15 0", 46},  // #9
      {"14 1 9 6 4 8 12 5 7 2 3 0 10 11 13 15", 45},  // #12
  };
  for (const K& k : cases) {
    Instance inst = make_instance(4, 4, identity_goal(16, true), k.start);
    sliding::pdb::Frame f = sliding::pdb::make_frame(inst.geo, inst.goal);
    auto h = sliding::pdb::memory_heuristic(f, sliding::pdb::groups_of_sizes(f, {5, 5, 5}), 1);
    auto res = sliding::pdb::find_path(inst, f, h, {});
    ASSERT_TRUE(res.found);
    verify_solution(inst.geo, inst.start, inst.goal, res.moves);
    EXPECT_EQ(res.cost, k.length) << k.start;
  }
}

namespace {

// The group's distances by a plain 0-1 breadth-first search over (placement, blank cell):
// the blank steps onto a free cell for 0, swaps with a group tile for 1; the goal (the group
// home, the blank on its goal cell 0) is at 0. Per placement (KPermRanker rank): the least
// over the blank's cells, -1 if unreached.
std::vector<int> group_distances_bfs(int rows, int cols, const std::vector<std::uint8_t>& cells) {
  Geometry geo(rows, cols);
  const int n = rows * cols, k = static_cast<int>(cells.size());
  KPermRanker ranker(n, k);
  std::vector<int> dist(ranker.size() * static_cast<std::size_t>(n), -1);
  std::deque<std::uint64_t> q;
  auto occupied = [&](const std::uint8_t* pos, int c) { return std::find(pos, pos + k, c) - pos; };
  const std::uint64_t r0 = ranker.rank(cells.data());
  dist[r0 * n] = 0;
  q.push_back(r0 * n);
  std::uint8_t pos[16];
  while (!q.empty()) {
    const std::uint64_t s = q.front();
    q.pop_front();
    const int b = static_cast<int>(s % n), d = dist[s];
    ranker.unrank(s / n, pos);
    for (int x : geo.adj[b]) {
      const auto i = occupied(pos, x);
      if (i == k) {  // the blank steps over a free cell: cost 0
        const std::uint64_t t = s - b + x;
        if (dist[t] < 0 || dist[t] > d) dist[t] = d, q.push_front(t);
      } else {
        pos[i] = static_cast<std::uint8_t>(b);
        const std::uint64_t t = ranker.rank(pos) * n + x;
        pos[i] = static_cast<std::uint8_t>(x);
        if (dist[t] < 0 || dist[t] > d + 1) dist[t] = d + 1, q.push_back(t);
      }
    }
  }
  std::vector<int> out(ranker.size(), -1);
  for (std::uint64_t r = 0; r < ranker.size(); ++r)
    for (int b = 0; b < n; ++b) {
      const int d = dist[r * n + b];
      if (d >= 0 && (out[r] < 0 || d < out[r])) out[r] = d;
    }
  return out;
}

}  // namespace

TEST(PdbTable, RegionStateMatchesCellStateAndBfs) {  // labels: tsan
  // The two build representations give the same bytes (1 and 2 threads), and both the
  // distances of a plain BFS; groups that cut the free cells into many regions included.
  struct Case {
    int rows, cols;
    std::vector<std::uint8_t> cells;
    bool bfs;
  };
  for (const Case& c : {Case{3, 3, {1, 2, 3}, true}, Case{3, 3, {1, 3, 5, 7}, true}, Case{3, 3, {1, 2, 4, 6, 8}, true},
                        Case{2, 4, {1, 2, 5, 6}, true}, Case{3, 4, {1, 4, 6, 9, 11}, true}, Case{4, 4, {1, 4, 6, 9}, true},
                        Case{4, 4, {2, 5, 7, 8, 13}, false}}) {
    sliding::pdb::TableInfo info{c.rows, c.cols, 0, c.cells};
    SCOPED_TRACE(info.file_name());
    auto cells = sliding::pdb::build_table(info, {}, sliding::pdb::BuildState::cells);
    search::Limits two;
    two.threads = 2;
    for (const auto& regions : {sliding::pdb::build_table(info, {}, sliding::pdb::BuildState::regions),
                                sliding::pdb::build_table(info, two, sliding::pdb::BuildState::regions)}) {
      ASSERT_TRUE(std::equal(cells->data(), cells->data() + info.bytes(), regions->data()));
      EXPECT_EQ(regions->max_distance, cells->max_distance);
    }
    if (!c.bfs) continue;
    auto dist = group_distances_bfs(c.rows, c.cols, c.cells);
    std::uint8_t pos[16];
    int max_d = 0;
    for (std::uint64_t r = 0; r < dist.size(); ++r) {
      ASSERT_GE(dist[r], 0) << r;  // k <= n - 2: every placement is reachable
      cells->ranker().unrank(r, pos);
      int md = 0;
      for (int i = 0; i < info.k(); ++i)
        md += std::abs(pos[i] / c.cols - c.cells[i] / c.cols) + std::abs(pos[i] % c.cols - c.cells[i] % c.cols);
      ASSERT_EQ(cells->excess(r), std::min(15, (dist[r] - md) / 2)) << r;
      max_d = std::max(max_d, dist[r]);
    }
    EXPECT_EQ(cells->max_distance, max_d);
  }
}

TEST(PdbTable, SevenTileBuildFitsInRegions) {
  // 3x3 with tiles on 1 3 5 7: the five other cells are five regions.
  EXPECT_EQ(sliding::pdb::max_regions(sliding::pdb::TableInfo{3, 3, 0, {1, 3, 5, 7}}), 5);
  // A 7-tile 5x5 group: at most 8 regions (a byte per mask), so ~3 bytes per placement
  // instead of 12, and the regions are what fits 11 GiB; 6-tile groups keep the cells.
  const std::uint64_t gib = std::uint64_t{1} << 30;
  sliding::pdb::TableInfo seven{5, 5, 0, {1, 2, 3, 5, 6, 7, 12}}, six{5, 5, 0, {1, 2, 5, 6, 7, 12}};
  EXPECT_LE(sliding::pdb::max_regions(seven), 8);
  EXPECT_EQ(seven.entries(), 2422728000u);  // 25!/18!
  EXPECT_LT(sliding::pdb::build_memory(seven, sliding::pdb::BuildState::regions), 8 * gib);
  EXPECT_GT(sliding::pdb::build_memory(seven, sliding::pdb::BuildState::cells), 28 * gib);
  EXPECT_EQ(sliding::pdb::build_state_for(seven, 11 * gib), sliding::pdb::BuildState::regions);
  EXPECT_EQ(sliding::pdb::build_state_for(six, 11 * gib), sliding::pdb::BuildState::cells);
  EXPECT_EQ(sliding::pdb::build_state_for(seven, 64 * gib), sliding::pdb::BuildState::cells);
}

TEST(PdbGroups, SevenSevenSevenThreeOnFiveByFive) {
  Instance inst = make_instance(5, 5, identity_goal(25, true));
  sliding::pdb::Frame f = sliding::pdb::make_frame(inst.geo, inst.goal);
  auto known = sliding::pdb::known_partitions(f);
  ASSERT_EQ(known.size(), 4u);
  EXPECT_EQ(known[0].name, "7-7-7-3");
  EXPECT_EQ(known[1].name, "7-7-7-3-sym");
  EXPECT_EQ(known[2].name, "7-7-7-3-columns");
  EXPECT_EQ(known[3].name, "6-6-6-6");
  EXPECT_EQ(known[3].groups, sliding::pdb::default_groups(f));
  ASSERT_EQ(f.views.size(), 2u);
  auto as_set = [](const std::vector<std::vector<std::uint8_t>>& p) {
    return std::set<std::vector<std::uint8_t>>(p.begin(), p.end());
  };
  auto mirror = [&](const std::vector<std::vector<std::uint8_t>>& p) {
    std::vector<std::vector<std::uint8_t>> image;
    for (const auto& g : p) {
      std::vector<std::uint8_t> m;
      for (auto c : g) m.push_back(f.views[1][c]);
      std::sort(m.begin(), m.end());
      image.push_back(m);
    }
    return as_set(image);
  };
  std::set<std::vector<std::uint8_t>> sevens;
  for (int i = 0; i < 3; ++i) {
    std::vector<int> sizes, tiles;
    for (const auto& g : known[i].groups) {
      sizes.push_back(static_cast<int>(g.size()));
      tiles.insert(tiles.end(), g.begin(), g.end());
      if (g.size() == 7) sevens.insert(g);
    }
    EXPECT_EQ(sizes, (std::vector<int>{7, 7, 7, 3})) << i;
    std::sort(tiles.begin(), tiles.end());
    ASSERT_EQ(tiles.size(), 24u);
    for (int t = 0; t < 24; ++t) ASSERT_EQ(tiles[t], t + 1) << i;  // a partition of the 24 tiles
  }
  // Only the second maps onto itself under the diagonal reflection (B and C onto each
  // other): the others' reflected lookups count.
  EXPECT_NE(mirror(known[0].groups), as_set(known[0].groups));
  EXPECT_EQ(mirror(known[1].groups), as_set(known[1].groups));
  EXPECT_NE(mirror(known[2].groups), as_set(known[2].groups));
  // Six 7-tile groups, two of them images of B (3 4 8 9 13 14 19): four searches serve all.
  ASSERT_EQ(sevens.size(), 6u);
  const sliding::pdb::TableInfo b{5, 5, 0, {3, 4, 8, 9, 13, 14, 19}};
  ASSERT_TRUE(sevens.count(b.cells));
  int images = 0;
  for (const auto& g : sevens)
    if (g != b.cells && sliding::pdb::image_symmetry(b, sliding::pdb::TableInfo{5, 5, 0, g})) ++images;
  EXPECT_EQ(images, 2);
}

TEST(PdbTable, MirrorImageTablesAreDerived) {  // labels: tsan
  // The table of a group's image under a grid symmetry, read through the symmetry, is the
  // table a search of the image group builds.
  struct Case {
    int rows, cols;
    std::vector<std::uint8_t> from, to;
  };
  for (const Case& c : {Case{4, 4, {2, 3, 6, 7}, {8, 9, 12, 13}}, Case{3, 3, {1, 2}, {3, 6}},
                        Case{3, 4, {1, 2, 5}, {9, 10, 6}}, Case{4, 4, {1, 2, 3, 7, 11}, {4, 8, 12, 13, 14}}}) {
    sliding::pdb::TableInfo from{c.rows, c.cols, 0, c.from}, to{c.rows, c.cols, 0, c.to};
    std::sort(to.cells.begin(), to.cells.end());
    SCOPED_TRACE(to.file_name());
    auto sym = sliding::pdb::image_symmetry(from, to);
    ASSERT_TRUE(sym.has_value());
    auto src = sliding::pdb::build_table(from);
    search::Limits two;
    two.threads = 2;
    auto derived = sliding::pdb::derive_table(*src, to, *sym, two);
    auto searched = sliding::pdb::build_table(to);
    ASSERT_TRUE(std::equal(searched->data(), searched->data() + to.bytes(), derived->data()));
    EXPECT_EQ(derived->max_distance, searched->max_distance);
  }
  // On 3x3, tiles on 1 and 3 shut the blank in its corner; their image on 1 and 5 does not.
  EXPECT_FALSE(
      sliding::pdb::image_symmetry(sliding::pdb::TableInfo{3, 3, 0, {1, 3}}, sliding::pdb::TableInfo{3, 3, 0, {1, 5}})
          .has_value());
  EXPECT_FALSE(
      sliding::pdb::image_symmetry(sliding::pdb::TableInfo{3, 3, 0, {1, 2}}, sliding::pdb::TableInfo{3, 3, 0, {1, 4}})
          .has_value());
}

TEST(PdbSearch, SymmetricPartitionNeedsNoReflectedLookup) {
  // 4x4, a partition the diagonal maps onto itself ({6,7} <-> {9,13}, the others onto
  // themselves): the reflected view is dropped, and h of a position equals h of its
  // reflection, i.e. the dropped lookup would have given the same sum.
  Instance inst = make_instance(4, 4, identity_goal(16, true));
  sliding::pdb::Frame f = sliding::pdb::make_frame(inst.geo, inst.goal);
  std::vector<std::vector<std::uint8_t>> groups = {{1, 4, 5}, {2, 3, 8, 12}, {6, 7}, {9, 13}, {10, 11, 14, 15}};
  ASSERT_EQ(f.views.size(), 2u);
  EXPECT_TRUE(sliding::pdb::maps_onto_itself(groups, f.views[1]));
  EXPECT_FALSE(sliding::pdb::maps_onto_itself(sliding::pdb::groups_of_sizes(f, {5, 5, 5}), f.views[1]));
  auto h = sliding::pdb::memory_heuristic(f, groups, 1);
  EXPECT_EQ(h->description.find("reflection"), std::string::npos) << h->description;
  sliding::pdb::Context ctx(f, h);
  EXPECT_EQ(ctx.views, 1);
  std::mt19937_64 rng(11);
  const auto& s = f.views[1];
  for (int i = 0; i < 2000; ++i) {
    auto cells = f.canonical(random_start(inst.geo, inst.goal, rng));
    std::vector<std::uint8_t> mirror(16);
    for (int c = 0; c < 16; ++c) mirror[s[c]] = s[cells[c]];
    ASSERT_EQ(sliding::pdb::Position(&ctx, cells).h(), sliding::pdb::Position(&ctx, mirror).h());
  }
}

TEST(PdbSearch, MaxOverPartitions) {
  // Two partitions in one heuristic (Heuristic::part): h is the max of their heuristics
  // (each with its own reflection, dropped for the symmetric one), on every 3x3 state.
  Instance inst = make_instance(3, 3, identity_goal(9, true));
  sliding::pdb::Frame f = sliding::pdb::make_frame(inst.geo, inst.goal);
  auto a = sliding::pdb::memory_heuristic(f, sliding::pdb::groups_of_sizes(f, {4, 4}), 1);
  auto b = sliding::pdb::memory_heuristic(f, {{1, 3, 4}, {2, 5, 6, 7, 8}}, 1);  // 1<->3, 2<->6, 5<->7: symmetric
  auto both = std::make_shared<sliding::pdb::Heuristic>(*a);
  both->part.assign(a->tables.size(), 0);
  for (const auto& t : b->tables) both->tables.push_back(t), both->part.push_back(1);
  sliding::pdb::Context ca(f, a), cb(f, b), cab(f, both);
  EXPECT_EQ(ca.views, 2);
  EXPECT_EQ(cb.views, 1);
  EXPECT_EQ(cab.views, 3);
  auto dist = bfs_distances(inst.geo, inst.goal);
  std::uint64_t better = 0;
  for (const auto& [v, d] : dist) {
    auto cells = f.canonical(unpack(v, 9));
    const int ha = sliding::pdb::Position(&ca, cells).h(), hb = sliding::pdb::Position(&cb, cells).h(),
              h = sliding::pdb::Position(&cab, cells).h();
    ASSERT_EQ(h, std::max(ha, hb));
    ASSERT_LE(h, d);
    better += hb > ha;
  }
  EXPECT_GT(better, 0u);
}

TEST(PdbReduced, ReducedTablesAnswerAsTheFullOnes) {  // labels: tsan
  // A group the board's symmetries that fix the blank's goal cell map onto themselves, stored
  // one entry per class of placements: every placement reads the full table's entry, in
  // about 1/symmetries of the entries.
  struct Case {
    int rows, cols, blank;
    std::vector<std::uint8_t> cells;
    int symmetries;
  };
  for (const Case& c :
       {Case{3, 3, 0, {1, 2, 3, 4, 5, 6, 7, 8}, 2}, Case{3, 3, 4, {0, 1, 2, 3, 5, 6, 7, 8}, 8},
        Case{3, 3, 4, {0, 2, 6, 8}, 8}, Case{4, 4, 0, {1, 4, 5}, 2}, Case{4, 4, 0, {2, 3, 8, 12}, 2},
        Case{4, 4, 0, {1, 2, 4, 5, 8, 10}, 2}, Case{5, 5, 0, {12, 18, 24}, 2}, Case{2, 2, 0, {1, 2, 3}, 2}}) {
    sliding::pdb::TableInfo info{c.rows, c.cols, c.blank, c.cells};
    SCOPED_TRACE(info.file_name());
    search::Limits two;
    two.threads = 2;
    auto full = sliding::pdb::build_table(info);
    auto red = sliding::pdb::reduce_table(*full, two);
    ASSERT_TRUE(red->info().reduced);
    ASSERT_NE(red->reduction(), nullptr);
    EXPECT_EQ(red->reduction()->symmetries(), c.symmetries);
    EXPECT_EQ(red->max_distance, full->max_distance);
    // Fewer entries: at least placements / symmetries, well under the placements.
    EXPECT_GE(red->info().entries() * static_cast<std::uint64_t>(c.symmetries), info.placements());
    EXPECT_LE(red->info().entries() * static_cast<std::uint64_t>(c.symmetries), info.placements() * 5 / 4);
    const KPermRanker& rk = full->ranker();
    std::uint8_t d[KPermRanker::kMaxPieces], p[KPermRanker::kMaxPieces], pos[64] = {};
    rk.digits(0, d);
    std::uint64_t differ = 0;
    std::vector<bool> read(red->info().entries(), false);
    for (std::uint64_t r = 0; r < rk.size(); ++r, rk.next_digits(d)) {
      rk.positions(d, p);
      for (int i = 0; i < info.k(); ++i) pos[info.cells[static_cast<std::size_t>(i)]] = p[i];
      ASSERT_EQ(full->cell(pos), r);
      const std::uint64_t cell = red->cell(pos);
      ASSERT_LT(cell, red->info().entries());
      read[cell] = true;
      differ += red->excess(cell) != full->excess(r);
    }
    EXPECT_EQ(differ, 0u);
    // Every entry stands for some placement.
    EXPECT_EQ(std::count(read.begin(), read.end(), false), 0);
  }
  // No symmetry keeps the 15-puzzle's 7-tile group, nor a group the transpose breaks.
  EXPECT_EQ(sliding::pdb::group_symmetries(sliding::pdb::TableInfo{4, 4, 0, {1, 2, 3, 4, 5, 6, 7}}).size(), 1u);
  EXPECT_THROW(sliding::pdb::Reduction(sliding::pdb::TableInfo{3, 3, 0, {1, 2}}), InputError);
  EXPECT_THROW(sliding::pdb::Reduction(sliding::pdb::TableInfo{3, 4, 0, {1, 4}}), InputError);
}

TEST(PdbReduced, SearchWithAReducedTable) {  // labels: tsan
  // The whole 3x3 board as one group, reduced by the transpose, through the search's
  // incremental lookups: h is the exact distance at every solvable position, and a file round
  // trip keeps the table and that it is reduced.
  for (bool first : {true, false}) {
    Instance inst = make_instance(3, 3, identity_goal(9, first));
    sliding::pdb::Frame f = sliding::pdb::make_frame(inst.geo, inst.goal);
    const sliding::pdb::TableInfo info{3, 3, f.blank, sliding::pdb::groups_of_sizes(f, {8})[0]};
    auto reduced = sliding::pdb::reduce_table(*sliding::pdb::build_table(info));
    const auto file =
        std::filesystem::temp_directory_path() / ("tansaku-reduced-" + std::to_string(::getpid()) + ".pdb.zst");
    sliding::pdb::save_table(*reduced, file);
    auto loaded = sliding::pdb::load_table(file);
    std::filesystem::remove(file);
    EXPECT_TRUE(loaded->info().reduced);
    EXPECT_EQ(loaded->info(), reduced->info());
    {
      // A reduced file whose cells are laid out otherwise (another order of the tiles) is
      // refused, not read as this layout.
      const auto order = reduced->reduction()->order();
      nlohmann::ordered_json cells = nlohmann::ordered_json::array();
      for (auto c : info.cells) cells.push_back(c);
      tansaku::pdb::TableHeader hd{
          sliding::pdb::table_kind_name(), sliding::pdb::content_hash(reduced->info()), "4-bit-excess-over-manhattan",
          reduced->info().entries(),
          nlohmann::ordered_json{{"rows", 3},
                                 {"cols", 3},
                                 {"blank", f.blank},
                                 {"cells", cells},
                                 {"reduced", true},
                                 {"order", std::vector<std::uint8_t>(order.rbegin(), order.rend())},
                                 {"big", reduced->reduction()->big_tiles()}}};
      const tansaku::pdb::SectionData sec{"cells", reduced->data(), reduced->info().bytes(),
                                          tansaku::pdb::Storage::zstd};
      const auto other = std::filesystem::path(file.string() + ".other.pdb.zst");
      tansaku::pdb::write_table_file(other, hd, std::span<const tansaku::pdb::SectionData>(&sec, 1));
      try {
        (void)sliding::pdb::read_table_info(other);
        ADD_FAILURE() << "a reduced table of another layout was read";
      } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("laid out as another version"), std::string::npos) << e.what();
      }
      std::filesystem::remove(other);
    }
    ASSERT_TRUE(std::equal(loaded->data(), loaded->data() + reduced->info().bytes(), reduced->data()));
    auto h = std::make_shared<sliding::pdb::Heuristic>();
    h->tables = {loaded};
    h->part = {0};
    sliding::pdb::Context ctx(f, h);
    auto dist = bfs_distances(inst.geo, inst.goal);
    ASSERT_EQ(dist.size(), 181440u);
    for (const auto& [v, d] : dist) ASSERT_EQ(sliding::pdb::Position(&ctx, f.canonical(unpack(v, 9))).h(), d);
    // Along random walks the incremental updates read what a fresh position reads.
    std::mt19937_64 rng(5);
    sliding::pdb::Position p(&ctx, f.canonical(inst.goal));
    std::vector<std::uint8_t> cells = f.canonical(inst.goal);
    for (int step = 0; step < 3000; ++step) {
      std::uint8_t moves[sliding::pdb::Position::kMaxMoves];
      const int k = p.moves(moves);
      ASSERT_GT(k, 0);
      const auto m = moves[rng() % static_cast<unsigned>(k)];
      const int bound = p.child_h(m, 1000);
      p.apply(m);
      std::swap(cells[p.blank()],
                cells[static_cast<std::size_t>(std::find(cells.begin(), cells.end(), f.blank) - cells.begin())]);
      ASSERT_EQ(p.h(), bound);
      ASSERT_EQ(p.h(), sliding::pdb::Position(&ctx, cells).h());
    }
  }
}
