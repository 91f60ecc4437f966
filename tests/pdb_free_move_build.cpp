// The shared free-move build (tansaku/pdb/free_move_build.h) over a domain that is no puzzle:
// a random graph whose states are (rank, sub-state), with free edges between neighbouring
// sub-states of a rank and random edges of cost 1 between ranks. A rank's cell must be its
// distance (the least over its sub-states) as a plain 0-1 breadth-first search finds it, on
// one thread and on two, and a build stopped after a layer and resumed on other threads must
// give the same cells.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <limits>
#include <vector>

#include "scratch_dir.h"
#include "tansaku/core/deadline.h"
#include "tansaku/core/error.h"
#include "tansaku/pdb/checkpoint.h"
#include "tansaku/pdb/free_move_build.h"

using namespace tansaku;

namespace {

std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Ranks of 8 sub-states: sub-states i and i + 1 of rank r are joined by a free edge when bit
// i of links(r) is set; sub-state s of rank r has a move of cost 1 to edge(r, s, j) for each
// j < 2 whose hash says so (so some ranks are never reached).
struct RandomGraph {
  std::uint64_t ranks;
  static constexpr int kSubs = 8;
  std::uint8_t links(std::uint64_t r) const { return static_cast<std::uint8_t>(mix(r) & 0x7f); }
  bool has_edge(std::uint64_t r, int s, int j) const { return (mix(r * 16 + s * 2 + j + (1ULL << 40)) & 3) != 0; }
  std::pair<std::uint64_t, int> edge(std::uint64_t r, int s, int j) const {
    const std::uint64_t h = mix(r * 16 + s * 2 + j);
    return {h % ranks, static_cast<int>((h >> 40) % kSubs)};
  }
};

// The graph as the build sees it; a rank's cell holds 1 + its depth (0: never reached).
struct GraphDomain {
  using Mask = std::uint8_t;
  static constexpr int kMaxSuccessors = 2 * RandomGraph::kSubs;
  struct Cursor {
    std::uint64_t rank = 0;
    void at(std::uint64_t r) { rank = r; }
    void advance() { ++rank; }
  };
  struct Node {
    std::uint64_t rank;
  };

  const RandomGraph& g;
  std::uint8_t* cells;
  std::atomic<bool>* cursor_wrong;

  std::uint64_t size() const { return g.ranks; }
  Cursor cursor() const { return {}; }
  Node node(const Cursor& c) const { return {c.rank}; }
  template <class Emit>
  void start(Emit&& emit) const {
    emit(0, Mask{1} << 3);
  }
  void first_expansion(std::uint64_t r, const Node& v, int depth) const {
    if (v.rank != r) *cursor_wrong = true;
    cells[r] = static_cast<std::uint8_t>(depth + 1);
  }
  template <class Emit>
  Mask expand(std::uint64_t r, const Node& v, Mask m, Emit& emit) const {
    if (v.rank != r) *cursor_wrong = true;
    const std::uint8_t l = g.links(r);
    for (Mask prev = 0; prev != m;) {
      prev = m;
      m |= static_cast<Mask>(((m & l) << 1) | ((m >> 1) & l));
    }
    for (int s = 0; s < RandomGraph::kSubs; ++s)
      if (m >> s & 1)
        for (int j = 0; j < 2; ++j)
          if (g.has_edge(r, s, j)) {
            const auto [r2, s2] = g.edge(r, s, j);
            emit(r2, static_cast<Mask>(1 << s2));
          }
    return m;
  }
};
static_assert(pdb::FreeMoveDomain<GraphDomain>);

// Each rank's distance by a plain 0-1 breadth-first search over (rank, sub-state), as cells
// (1 + distance, 0: never reached).
std::vector<std::uint8_t> plain_cells(const RandomGraph& g) {
  constexpr int kInf = std::numeric_limits<int>::max();
  std::vector<int> dist(g.ranks * RandomGraph::kSubs, kInf);
  std::deque<std::uint64_t> queue;
  dist[3] = 0;
  queue.push_back(3);
  while (!queue.empty()) {
    const std::uint64_t x = queue.front();
    queue.pop_front();
    const std::uint64_t r = x / RandomGraph::kSubs;
    const int s = static_cast<int>(x % RandomGraph::kSubs), d = dist[x];
    auto relax = [&](std::uint64_t y, int w) {
      if (d + w >= dist[y]) return;
      dist[y] = d + w;
      if (w == 0) queue.push_front(y);
      else queue.push_back(y);
    };
    const std::uint8_t l = g.links(r);
    if (s + 1 < RandomGraph::kSubs && (l >> s & 1)) relax(x + 1, 0);
    if (s > 0 && (l >> (s - 1) & 1)) relax(x - 1, 0);
    for (int j = 0; j < 2; ++j)
      if (g.has_edge(r, s, j)) {
        const auto [r2, s2] = g.edge(r, s, j);
        relax(r2 * RandomGraph::kSubs + static_cast<std::uint64_t>(s2), 1);
      }
  }
  std::vector<std::uint8_t> cells(g.ranks, 0);
  for (std::uint64_t r = 0; r < g.ranks; ++r) {
    int best = kInf;
    for (int s = 0; s < RandomGraph::kSubs; ++s) best = std::min(best, dist[r * RandomGraph::kSubs + s]);
    if (best != kInf) cells[r] = static_cast<std::uint8_t>(best + 1);
  }
  return cells;
}

// 200,000 ranks: four chunks of 2^16, the last one partial.
const RandomGraph kGraph{200000};

TEST(PdbFreeMoveBuild, CellsAreTheDistancesOfAPlain01Bfs) {  // labels: tsan
  const auto want = plain_cells(kGraph);
  int deepest = 0;
  std::uint64_t reached = 0;
  for (std::uint8_t c : want) {
    deepest = std::max(deepest, c - 1);
    reached += c != 0;
  }
  ASSERT_GT(deepest, 5);
  ASSERT_LT(reached, kGraph.ranks);  // some ranks are never reached
  for (unsigned threads : {1u, 2u}) {
    SCOPED_TRACE(threads);
    std::vector<std::uint8_t> cells(kGraph.ranks, 0);
    std::atomic<bool> wrong{false};
    GraphDomain d{kGraph, cells.data(), &wrong};
    search::Limits lim;
    lim.threads = threads;
    const auto r = pdb::free_move_build(d, std::span<std::uint8_t>(cells), lim);
    EXPECT_FALSE(wrong.load());
    EXPECT_TRUE(cells == want);
    EXPECT_EQ(r.last, deepest);
    EXPECT_EQ(r.reached, reached);
  }
}

class PdbFreeMoveResume : public ScratchDirTest {};

TEST_F(PdbFreeMoveResume, StoppedAfterALayerAndResumedGivesTheSameCells) {
  const auto want = plain_cells(kGraph);
  for (int stop_after : {0, 3}) {
    SCOPED_TRACE(stop_after);
    const auto file = dir_ / ("graph-" + std::to_string(stop_after) + ".tbl");
    std::vector<std::uint8_t> cells(kGraph.ranks, 0);
    std::atomic<bool> wrong{false};
    GraphDomain d{kGraph, cells.data(), &wrong};
    {
      std::atomic<bool> cancel{false};
      Deadline deadline;
      deadline.cancel_on(&cancel);
      search::Limits lim;
      lim.deadline = &deadline;
      pdb::Checkpoint cp(file, {"free-move-test", "graph", "free-move-test 1"}, 0);
      cp.after_layer = [&](std::int64_t layer) {
        if (layer == stop_after) cancel = true;
      };
      EXPECT_THROW(pdb::free_move_build(d, std::span<std::uint8_t>(cells), lim, &cp), LimitError);
      EXPECT_TRUE(cp.saved());
    }
    std::fill(cells.begin(), cells.end(), std::uint8_t{7});  // the partial file restores them
    std::vector<std::string> notes;
    pdb::Checkpoint cp(file, {"free-move-test", "graph", "free-move-test 1"}, 0,
                       [&](const std::string& s) { notes.push_back(s); });
    search::Limits lim;
    lim.threads = 2;
    pdb::free_move_build(d, std::span<std::uint8_t>(cells), lim, &cp);
    ASSERT_TRUE(cp.resumed_layer().has_value());
    EXPECT_EQ(*cp.resumed_layer(), stop_after + 1);
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_NE(notes[0].find("going on from depth"), std::string::npos) << notes[0];
    EXPECT_FALSE(wrong.load());
    EXPECT_TRUE(cells == want);
    cp.finish();
  }
}

}  // namespace
