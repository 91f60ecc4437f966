// Korf & Felner's fifty 24-puzzle instances (data/sliding/korf-felner-24.txt): the file parses
// as a --batch file, every instance is solvable, and the published optimal lengths are
// consistent with lower bounds computed here (Manhattan + linear conflict, the small pattern
// databases + reflection) and with parity. The default 5x5 partition is Korf & Felner's.
// Solving them takes minutes of table building and seconds to hours of search: bench/korf24.sh.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "sliding/board.h"
#include "sliding/pdb.h"
#include "sliding/pdb_domain.h"
#include "sliding/pdb_solve.h"

using namespace tansaku;
using namespace tansaku::sliding;

namespace {

struct Published {
  std::string id;
  std::vector<int> cells;  // row-major, 0 = blank
  int length = 0;
  std::uint64_t nodes = 0;
};

std::string read_data() {
  std::ifstream in(TANSAKU_DATA_DIR "/sliding/korf-felner-24.txt");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<Published> published() {
  const std::string text = read_data();
  auto items = sliding::pdb::parse_batch(text, 25, "korf-felner-24.txt");
  std::vector<Published> out;
  std::istringstream in(text);
  std::string line;
  std::size_t at = 0;
  while (std::getline(in, line)) {
    const auto hash = line.find('#');
    if (hash == 0 || line.find_first_not_of(" \t") == std::string::npos) continue;
    EXPECT_LT(at, items.size());
    if (at >= items.size()) break;
    Published p;
    p.id = items[at].id;
    std::istringstream cells(items[at].start);
    for (int v; cells >> v;) p.cells.push_back(v);
    std::istringstream tail(hash == std::string::npos ? "" : line.substr(hash + 1));
    tail >> p.length >> p.nodes;
    out.push_back(p);
    ++at;
  }
  EXPECT_EQ(at, items.size());
  return out;
}

int manhattan(const std::vector<int>& c) {
  int md = 0;
  for (int i = 0; i < 25; ++i)
    if (c[i]) md += std::abs(i / 5 - c[i] / 5) + std::abs(i % 5 - c[i] % 5);
  return md;
}

// Linear conflict: in each row, the tiles whose goal is in that row must keep their goal-column
// order; all but a longest increasing run of them must leave the row and come back (2 moves
// each). Likewise for columns.
int linear_conflict(const std::vector<int>& c) {
  int extra = 0;
  for (int by_col = 0; by_col < 2; ++by_col)
    for (int line = 0; line < 5; ++line) {
      std::vector<int> keys;  // goal positions along the line, in board order
      for (int j = 0; j < 5; ++j) {
        const int cell = by_col ? j * 5 + line : line * 5 + j;
        const int t = c[cell];
        if (t && (by_col ? t % 5 : t / 5) == line) keys.push_back(by_col ? t / 5 : t % 5);
      }
      std::vector<int> lis;  // longest increasing subsequence (patience)
      for (int k : keys) {
        auto it = std::lower_bound(lis.begin(), lis.end(), k);
        if (it == lis.end()) lis.push_back(k);
        else *it = k;
      }
      extra += 2 * static_cast<int>(keys.size() - lis.size());
    }
  return extra;
}

bool solvable(const std::vector<int>& c) {
  // Odd width: the tiles' permutation (blank left out) must be even, like the goal 1 .. 24.
  int inversions = 0;
  for (int i = 0; i < 25; ++i)
    for (int j = i + 1; j < 25; ++j)
      if (c[i] && c[j] && c[i] > c[j]) ++inversions;
  return inversions % 2 == 0;
}

Instance make_instance(const std::vector<int>& cells) {
  Instance inst;
  inst.geo = Geometry(5, 5);
  std::vector<std::string> tokens;
  std::string goal, start;
  for (int i = 0; i < 25; ++i) {
    tokens.push_back(std::to_string(i));
    goal += std::to_string(i) + " ";
    start += std::to_string(cells[static_cast<std::size_t>(i)]) + " ";
  }
  inst.labels = make_labels(tokens, "goal");
  inst.goal = parse_cells(inst.geo, inst.labels, goal, "goal");
  inst.start = parse_cells(inst.geo, inst.labels, start, "start");
  return inst;
}

}  // namespace

TEST(KorfFelner24, FiftyInstancesParseAndAreSolvable) {
  auto all = published();
  ASSERT_EQ(all.size(), 50u);
  std::set<std::vector<int>> distinct;
  for (std::size_t i = 0; i < all.size(); ++i) {
    const Published& p = all[i];
    EXPECT_EQ(p.id, std::to_string(i + 1));
    ASSERT_EQ(p.cells.size(), 25u) << p.id;
    std::vector<int> sorted = p.cells;
    std::sort(sorted.begin(), sorted.end());
    for (int v = 0; v < 25; ++v) ASSERT_EQ(sorted[static_cast<std::size_t>(v)], v) << p.id;
    EXPECT_TRUE(solvable(p.cells)) << "#" << p.id;
    // The library's own invariant agrees.
    Instance inst = make_instance(p.cells);
    EXPECT_EQ(parity_invariant(inst.geo, inst.start), parity_invariant(inst.geo, inst.goal)) << "#" << p.id;
    distinct.insert(p.cells);
  }
  EXPECT_EQ(distinct.size(), 50u);
}

TEST(KorfFelner24, PublishedLengthsAreConsistent) {
  auto all = published();
  ASSERT_EQ(all.size(), 50u);
  int sum = 0;
  for (const Published& p : all) {
    const int md = manhattan(p.cells), lc = linear_conflict(p.cells);
    EXPECT_GE(p.length, md + lc) << "#" << p.id;
    // Every move changes the Manhattan distance by one.
    EXPECT_EQ((p.length - md) % 2, 0) << "#" << p.id;
    // ... and moves the blank by one: same parity as the blank's distance from its goal cell.
    const int b = static_cast<int>(std::find(p.cells.begin(), p.cells.end(), 0) - p.cells.begin());
    EXPECT_EQ((p.length - (b / 5 + b % 5)) % 2, 0) << "#" << p.id;
    EXPECT_GE(p.length, 81);
    EXPECT_LE(p.length, 114);
    EXPECT_GT(p.nodes, 0u);
    sum += p.length;
  }
  EXPECT_EQ(sum, 5039);  // 100.78 on average
  // The twelve with fewest published expansions, fewest first (bench/korf24.sh runs these).
  std::vector<const Published*> by_nodes;
  for (const Published& p : all) by_nodes.push_back(&p);
  std::sort(by_nodes.begin(), by_nodes.end(), [](auto* a, auto* b) { return a->nodes < b->nodes; });
  const std::vector<std::string> easiest = {"38", "40", "25", "32", "44", "37", "30", "13", "1", "28", "36", "5"};
  for (std::size_t i = 0; i < easiest.size(); ++i) EXPECT_EQ(by_nodes[i]->id, easiest[i]);
  EXPECT_EQ(by_nodes[0]->nodes, 38173507u);
  EXPECT_EQ(by_nodes[1]->nodes, 65099578u);
}

TEST(KorfFelner24, PublishedLengthsAtLeastSmallPdbBound) {
  // The in-memory 4-4-4-4-4-4 tables + reflection (the ones `solve` builds without a disk
  // cache) give an admissible bound: never above a published optimum, and above Manhattan.
  auto all = published();
  ASSERT_EQ(all.size(), 50u);
  Instance first = make_instance(all[0].cells);
  sliding::pdb::Frame f = sliding::pdb::make_frame(first.geo, first.goal);
  auto h = sliding::pdb::memory_heuristic(f, sliding::pdb::groups_of_sizes(f, sliding::pdb::quick_sizes(25)), 2);
  sliding::pdb::Context ctx(f, h);
  int sum_h = 0, sum_md = 0;
  for (const Published& p : all) {
    Instance inst = make_instance(p.cells);
    sliding::pdb::Position pos(&ctx, f.canonical(inst.start));
    EXPECT_LE(pos.h(), p.length) << "#" << p.id;
    EXPECT_EQ((p.length - pos.h()) % 2, 0) << "#" << p.id;
    sum_h += pos.h();
    sum_md += manhattan(p.cells);
  }
  EXPECT_GT(sum_h, sum_md);
}

TEST(KorfFelner24, DefaultPartitionIsKorfFelners) {
  Instance inst = make_instance(published()[0].cells);
  sliding::pdb::Frame f = sliding::pdb::make_frame(inst.geo, inst.goal);
  auto groups = sliding::pdb::default_groups(f);
  const std::vector<std::vector<std::uint8_t>> expect = {
      {1, 2, 5, 6, 7, 12}, {3, 4, 8, 9, 13, 14}, {10, 11, 15, 16, 20, 21}, {17, 18, 19, 22, 23, 24}};
  EXPECT_EQ(groups, expect);
  ASSERT_EQ(f.views.size(), 2u);  // and the reflection about the main diagonal
  // The reflected partition is a different one: that is where max(direct, reflected) gains.
  std::set<std::vector<std::uint8_t>> direct(groups.begin(), groups.end()), reflected;
  for (const auto& g : groups) {
    std::vector<std::uint8_t> r;
    for (auto c : g) r.push_back(f.views[1][c]);
    std::sort(r.begin(), r.end());
    reflected.insert(r);
  }
  EXPECT_NE(direct, reflected);
  // Other boards keep the size-based default.
  Instance small;
  small.geo = Geometry(4, 4);
  std::vector<std::string> tokens;
  std::string goal;
  for (int i = 0; i < 16; ++i) tokens.push_back(std::to_string(i)), goal += std::to_string(i) + " ";
  small.labels = make_labels(tokens, "goal");
  small.goal = parse_cells(small.geo, small.labels, goal, "goal");
  sliding::pdb::Frame f4 = sliding::pdb::make_frame(small.geo, small.goal);
  EXPECT_EQ(sliding::pdb::default_groups(f4), sliding::pdb::groups_of_sizes(f4, sliding::pdb::build_sizes(16)));
}
