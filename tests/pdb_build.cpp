// The engine's table builder (tansaku/pdb/build.h): its cells (2 bits mod 3, 4 bits capped)
// are those of a plain breadth-first search on small domains, forward and backward layers,
// one thread or two; a build stopped after a layer or inside one (by its deadline) and built
// again goes on from its partial file to the same cells, whatever the threads; and perm's
// piece and pattern tables (reduced ones included), built so, give the same file as a build
// never stopped, through the library and through `tansaku pdb build --timeout`.
#include <gtest/gtest.h>

#include <unistd.h>

#include <atomic>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <limits>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "cli_util.h"
#include "perm/definition.h"
#include "perm/generators.h"
#include "perm/pattern_spec.h"
#include "perm/pattern_table.h"
#include "perm/piece_file.h"
#include "perm/piece_table.h"
#include "scratch_dir.h"
#include "tansaku/core/deadline.h"
#include "tansaku/core/error.h"
#include "tansaku/pdb/build.h"
#include "tansaku/pdb/checkpoint.h"

using namespace tansaku;
namespace fs = std::filesystem;

namespace {

// A directed graph on ranks [0, n): the ranks from `hidden` on are never reached (no move
// leads there); the others by x -> 3x + 1, x + 17 and x / 4 (mod hidden). `calls` (when
// set) counts neighbour calls, and `stop` is set from the `stop_at`-th on (a deadline
// expiring inside a layer).
struct Directed {
  using State = std::uint64_t;
  using Move = int;
  std::uint64_t n, hidden;
  std::atomic<std::uint64_t>* calls = nullptr;
  std::uint64_t stop_at = 0;
  std::atomic<bool>* stop = nullptr;
  bool is_goal(State) const { return false; }
  std::uint64_t size() const { return n; }
  std::uint64_t rank(State s) const { return s; }
  State unrank(std::uint64_t r) const { return r; }
  template <class F>
  void for_each_move(State s, F&& f) const {
    // The stop comes at a rank of the first task's chunk (one thread: the chunks after it in
    // the layer are left).
    if (calls && ++*calls >= stop_at && stop_at && s < 131072) *stop = true;
    if (s >= hidden) return f(0, s);
    f(0, (3 * s + 1) % hidden);
    f(1, (s + 17) % hidden);
    f(2, s / 4);
  }
};

// An undirected graph (every move has its inverse: backward layers once few ranks are left):
// x +- 1 and 3x, x / 3 modulo a prime p; ranks from p on are alone.
struct Undirected {
  using State = std::uint64_t;
  using Move = int;
  std::uint64_t n, p, inv3;
  std::atomic<std::uint64_t>* calls = nullptr;  // as Directed's
  std::uint64_t stop_at = 0;
  std::atomic<bool>* stop = nullptr;
  bool symmetric() const { return true; }
  bool is_goal(State) const { return false; }
  std::uint64_t size() const { return n; }
  std::uint64_t rank(State s) const { return s; }
  State unrank(std::uint64_t r) const { return r; }
  template <class F>
  void for_each_move(State s, F&& f) const {
    if (calls && ++*calls >= stop_at && stop_at && s < 131072) *stop = true;
    if (s >= p) return f(0, s);
    f(0, (s + 1) % p);
    f(1, (s + p - 1) % p);
    f(2, 3 * s % p);
    f(3, inv3 * s % p);
  }
};

Undirected undirected(std::uint64_t n, std::uint64_t p) {
  std::uint64_t inv = 1;
  while (3 * inv % p != 1) ++inv;
  return {n, p, inv, nullptr, 0, nullptr};
}

// Distances by a plain breadth-first search (-1: not reached).
template <class D>
std::vector<int> bfs(const D& d, const std::vector<std::uint64_t>& goals) {
  std::vector<int> dist(d.size(), -1);
  std::deque<std::uint64_t> q;
  for (auto g : goals)
    if (dist[g] < 0) dist[g] = 0, q.push_back(g);
  while (!q.empty()) {
    const auto s = q.front();
    q.pop_front();
    d.for_each_move(s, [&](int, std::uint64_t t) {
      if (dist[t] < 0) dist[t] = dist[s] + 1, q.push_back(t);
    });
  }
  return dist;
}

// The ways a table is built: 2-bit cells beside a state table, 2-bit cells in place (a memory
// budget the state table does not fit), 4-bit cells.
struct Way {
  int bits;
  bool in_place;
};
constexpr Way kWays[] = {{2, false}, {2, true}, {4, false}};
std::uint64_t memory_for(const Way& w, std::uint64_t size) {
  return w.in_place ? pdb::build_bytes(size, 2) : std::numeric_limits<std::uint64_t>::max();
}

template <class D>
void same_as_bfs(const D& d, const std::vector<std::uint64_t>& goals) {
  const auto dist = bfs(d, goals);
  int max = 0;
  std::uint64_t reached = 0, unreached = 0;
  for (int x : dist) max = std::max(max, x), reached += x >= 0, unreached += x < 0;
  ASSERT_GT(unreached, 0u);
  for (unsigned threads : {1u, 2u})
    for (const Way& way : kWays) {
      const int bits = way.bits;
      SCOPED_TRACE(testing::Message() << threads << " threads, " << bits << "-bit cells"
                                      << (way.in_place ? " in place" : ""));
      search::Limits lim;
      lim.threads = threads;
      lim.memory = memory_for(way, d.size());
      ASSERT_EQ(pdb::build_in_place(d.size(), bits, lim.memory), way.in_place);
      const auto t = pdb::build_table(d, goals, bits, lim);
      EXPECT_EQ(t.max_distance, max);
      EXPECT_EQ(t.reached, reached);
      EXPECT_EQ(t.histogram.size(), static_cast<std::size_t>(max + 1));
      for (std::uint64_t r = 0; r < d.size(); ++r) {
        const int x = dist[r];
        if (bits == 2) ASSERT_EQ(t.cells->get(r), x < 0 ? 3u : static_cast<unsigned>(x % 3)) << r;
        else ASSERT_EQ(t.cells->get4(r), x < 0 ? 15u : static_cast<unsigned>(std::min(x, 14))) << r;
      }
    }
}

std::string bytes_of(const TwoBitTable& t) {
  return std::string(reinterpret_cast<const char*>(const_cast<TwoBitTable&>(t).data()), t.bytes());
}

class PdbBuild : public ScratchDirTest {};

pdb::BuildIdentity identity() { return {"test-table", "0123456789abcdef", ""}; }

// Builds d's table with a checkpoint saving after every layer into `file`'s partial file,
// stopped (as by its deadline) once layer `stop_after` is done (-1: never), or inside a
// layer when the domain sets `cancel`. The cells when it completed; `resumed`: where it went on.
template <class D>
std::optional<std::string> build_stopping(const D& d, const fs::path& file, int bits, unsigned threads, int stop_after,
                                          std::atomic<bool>& cancel, std::optional<std::int64_t>* resumed = nullptr,
                                          std::uint64_t memory = std::numeric_limits<std::uint64_t>::max()) {
  Deadline deadline;
  deadline.cancel_on(&cancel);
  search::Limits lim;
  lim.threads = threads;
  lim.memory = memory;
  lim.deadline = &deadline;
  pdb::Checkpoint cp(file, identity(), 0);
  cp.after_layer = [&](std::int64_t layer) {
    if (layer == stop_after) cancel = true;
  };
  const std::uint64_t goal = 5;
  try {
    auto t = pdb::build_table(d, std::span<const std::uint64_t>(&goal, 1), bits, lim, &cp);
    if (resumed) *resumed = cp.resumed_layer();
    cp.finish();
    return bytes_of(*t.cells);
  } catch (const LimitError&) {
    EXPECT_TRUE(cp.saved());
    EXPECT_TRUE(fs::exists(cp.file()));
    if (resumed) *resumed = cp.resumed_layer();
    return std::nullopt;
  }
}

}  // namespace

TEST(PdbBuildCells, AsBreadthFirstSearchOnADirectedGraph) {  // labels: tsan
  // More ranks than one task's chunk (131,072), so that two threads share the layers.
  same_as_bfs(Directed{300000, 299000}, {5});
  same_as_bfs(Directed{70000, 69000}, {0, 7, 68999});
}

TEST(PdbBuildCells, AsBreadthFirstSearchWithBackwardLayers) {  // labels: tsan
  same_as_bfs(undirected(300100, 300007), {1});
  same_as_bfs(undirected(1000, 997), {0, 500});
}

TEST(PdbBuildCells, RefusedUpFrontWhenItDoesNotFitTheMemory) {
  search::Limits lim;
  lim.memory = pdb::build_bytes(300000, 2) - 1;
  const std::uint64_t goal = 5;
  EXPECT_THROW(pdb::build_table(Directed{300000, 299000}, std::span<const std::uint64_t>(&goal, 1), 2, lim),
               InputError);
  lim.memory = pdb::build_bytes(300000, 2);
  EXPECT_NO_THROW(pdb::build_table(Directed{300000, 299000}, std::span<const std::uint64_t>(&goal, 1), 2, lim));
  EXPECT_GT(pdb::build_bytes(300000, 4), pdb::build_bytes(300000, 2));
}

TEST_F(PdbBuild, StoppedAfterALayerAndResumedGivesTheSameCells) {
  const Directed d{300000, 299000};
  for (const Way& way : kWays) {
    const int bits = way.bits;
    const std::uint64_t memory = memory_for(way, d.size());
    search::Limits lim;
    lim.memory = memory;
    const std::uint64_t goal = 5;
    const std::string whole = bytes_of(*pdb::build_table(d, std::span<const std::uint64_t>(&goal, 1), bits, lim).cells);
    for (auto [k, before, after] : {std::tuple{0, 1u, 1u}, std::tuple{3, 2u, 1u}, std::tuple{6, 1u, 2u}}) {
      SCOPED_TRACE(testing::Message() << bits << "-bit cells" << (way.in_place ? " in place" : "") << ", stop after "
                                      << k << ", " << before << " then " << after << " threads");
      const fs::path file = dir_ / "t.tab";
      std::atomic<bool> cancel{false};
      ASSERT_FALSE(build_stopping(d, file, bits, before, k, cancel, nullptr, memory));
      std::optional<std::int64_t> resumed;
      cancel = false;
      ASSERT_FALSE(build_stopping(d, file, bits, after, k + 2, cancel, &resumed, memory));
      EXPECT_EQ(resumed, k + 1);
      cancel = false;
      const auto cells = build_stopping(d, file, bits, before, -1, cancel, &resumed, memory);
      ASSERT_TRUE(cells);
      EXPECT_EQ(resumed, k + 3);
      EXPECT_TRUE(*cells == whole);
      EXPECT_FALSE(fs::exists(pdb::partial_path(file)));
    }
  }
}

TEST_F(PdbBuild, StoppedInsideALayerAndResumedGivesTheSameCells) {
  // One thread: the chunks of 131,072 ranks come in order; the stop during the first chunk
  // of a layer leaves the others to the resumed build.
  std::atomic<std::uint64_t> calls{0};
  std::atomic<bool> cancel{false};
  Directed d{400000, 399000, &calls, 0, &cancel};
  search::Limits lim;
  const std::uint64_t goal = 5;
  const std::string whole = bytes_of(*pdb::build_table(d, std::span<const std::uint64_t>(&goal, 1), 2, lim).cells);
  const std::uint64_t all = calls.load();
  for (auto [after, in_place] :
       {std::pair{1u, false}, std::pair{2u, false}, std::pair{1u, true}, std::pair{2u, true}}) {
    SCOPED_TRACE(testing::Message() << "then " << after << " threads" << (in_place ? ", in place" : ""));
    const std::uint64_t memory = memory_for(Way{2, in_place}, d.size());
    const fs::path file = dir_ / "t.tab";
    calls = 0, cancel = false;
    d.stop_at = all / 2;
    ASSERT_FALSE(build_stopping(d, file, 2, 1, -1, cancel, nullptr, memory));
    // The partial file says so: states of the next layer already claimed.
    {
      const pdb::TableReader r(pdb::partial_path(file), "");
      EXPECT_GT(pdb::Checkpoint::point_of(r).info.at("claimed").get<std::uint64_t>(), 0u);
    }
    d.stop_at = 0, cancel = false;
    std::optional<std::int64_t> resumed;
    const auto cells = build_stopping(d, file, 2, after, -1, cancel, &resumed, memory);
    ASSERT_TRUE(cells);
    EXPECT_TRUE(resumed.has_value());
    EXPECT_TRUE(*cells == whole);  // the same table either way
  }
}

TEST_F(PdbBuild, StoppedAnywhereWithBackwardLayersAndResumedGivesTheSameCells) {
  // Stops at eight points of the build, the last ones in its backward layers (each unseen
  // rank looking for a neighbour in the frontier).
  std::atomic<std::uint64_t> calls{0};
  std::atomic<bool> cancel{false};
  Undirected d = undirected(300100, 300007);
  d.calls = &calls, d.stop = &cancel;
  const std::uint64_t goal = 5;
  for (const Way& way : kWays) {
    const int bits = way.bits;
    const std::uint64_t memory = memory_for(way, d.size());
    search::Limits lim;
    lim.memory = memory;
    calls = 0;
    const std::string whole = bytes_of(*pdb::build_table(d, std::span<const std::uint64_t>(&goal, 1), bits, lim).cells);
    const std::uint64_t all = calls.load();
    for (int k = 1; k < 8; ++k) {
      SCOPED_TRACE(testing::Message() << bits << "-bit cells" << (way.in_place ? " in place" : "") << ", stopped at "
                                      << k << "/8");
      const fs::path file = dir_ / "t.tab";
      calls = 0, cancel = false;
      d.stop_at = all * static_cast<std::uint64_t>(k) / 8;
      const auto first = build_stopping(d, file, bits, 1, -1, cancel, nullptr, memory);
      d.stop_at = 0, cancel = false;
      const auto cells = first ? first : build_stopping(d, file, bits, 2, -1, cancel, nullptr, memory);
      ASSERT_TRUE(cells);
      EXPECT_TRUE(*cells == whole);
      EXPECT_FALSE(fs::exists(pdb::partial_path(file)));
    }
  }
}

TEST_F(PdbBuild, AnotherCellWidthsPartialFileIsPassedOver) {
  const Directed d{300000, 299000};
  const fs::path file = dir_ / "t.tab";
  std::atomic<bool> cancel{false};
  ASSERT_FALSE(build_stopping(d, file, 4, 1, 3, cancel));
  cancel = false;
  std::optional<std::int64_t> resumed;
  const auto cells = build_stopping(d, file, 2, 1, -1, cancel, &resumed);
  ASSERT_TRUE(cells);
  EXPECT_FALSE(resumed.has_value());
  search::Limits lim;
  const std::uint64_t goal = 5;
  EXPECT_TRUE(*cells == bytes_of(*pdb::build_table(d, std::span<const std::uint64_t>(&goal, 1), 2, lim).cells));
  // Nor one of a build in place (its cells hold other values) by a build beside a state table,
  // nor the reverse.
  for (bool first_in_place : {true, false}) {
    SCOPED_TRACE(first_in_place ? "in place, then beside a state table" : "beside a state table, then in place");
    cancel = false;
    ASSERT_FALSE(build_stopping(d, file, 2, 1, 3, cancel, nullptr, memory_for(Way{2, first_in_place}, d.size())));
    cancel = false;
    const auto other =
        build_stopping(d, file, 2, 1, -1, cancel, &resumed, memory_for(Way{2, !first_in_place}, d.size()));
    ASSERT_TRUE(other);
    EXPECT_FALSE(resumed.has_value());
    EXPECT_TRUE(*other == *cells);
  }
}

namespace {

// A perm table built into `file` with its checkpoint (saving after every layer), stopped
// after layer `stop_after` (-1: never); whether it completed.
bool perm_build(const fs::path& file, const std::function<void(const search::Limits&, pdb::Checkpoint*)>& build,
                const pdb::BuildIdentity& id, unsigned threads, int stop_after,
                std::optional<std::int64_t>* resumed = nullptr) {
  std::atomic<bool> cancel{false};
  Deadline deadline;
  deadline.cancel_on(&cancel);
  search::Limits lim;
  lim.threads = threads;
  lim.deadline = &deadline;
  pdb::Checkpoint cp(file, id, 0);
  cp.after_layer = [&](std::int64_t layer) {
    if (layer == stop_after) cancel = true;
  };
  try {
    build(lim, &cp);
    if (resumed) *resumed = cp.resumed_layer();
    cp.finish();
    return true;
  } catch (const LimitError&) {
    EXPECT_TRUE(cp.saved());
    return false;
  }
}

}  // namespace

TEST_F(PdbBuild, PermTablesStoppedAndResumedGiveTheSameFile) {
  using namespace tansaku::perm;
  const Definition d = load_definition("3x3x3");
  const MoveSet ms = build_moves(d, "htm", "");
  const std::uint64_t key = instance_key(d, ms, d.solved);
  // Five corners with their twists (2.4 M entries), and a pattern reduced by symmetry in 2-
  // and 4-bit cells.
  const PieceSpec corners{0, {0, 1, 2, 3, 4}};
  const auto pattern =
      parse_patterns(d, "Pattern r\nEDGES orientations\nEDGES class 9 10 11 12\nReduced\nEnd\n", "t.pat").at(0);
  struct Case {
    std::string name;
    pdb::BuildIdentity id;
    std::function<void(const search::Limits&, pdb::Checkpoint*, const fs::path&)> build;
  };
  std::vector<Case> cases{{"pieces", piece_identity(key, corners),
                           [&](const search::Limits& lim, pdb::Checkpoint* cp, const fs::path& file) {
                             auto t =
                                 build_piece_table(std::make_unique<PieceDomain>(d, ms, d.solved, corners), lim, cp);
                             save_piece_table(*t, "perm:3x3x3", key, "CORNERS", file);
                           }}};
  for (int bits : {2, 4})
    cases.push_back({"pattern " + std::to_string(bits), pattern_identity(d, key, pattern, bits),
                     [&, bits](const search::Limits& lim, pdb::Checkpoint* cp, const fs::path& file) {
                       auto t = build_pattern_table(
                           std::make_unique<PatternDomain>(d, ms, d.solved, pattern, lim.threads), lim, bits, cp);
                       save_pattern_table(*t, d, key, file);
                     }});
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const fs::path whole = dir_ / "whole.ptab", file = dir_ / "t.ptab";
    ASSERT_TRUE(perm_build(
        whole, [&](const search::Limits& l, pdb::Checkpoint*) { c.build(l, nullptr, whole); }, c.id, 2, -1));
    auto run = [&](const search::Limits& l, pdb::Checkpoint* cp) { c.build(l, cp, file); };
    ASSERT_FALSE(perm_build(file, run, c.id, 2, 1));
    EXPECT_FALSE(fs::exists(file));
    ASSERT_FALSE(perm_build(file, run, c.id, 1, 3));
    std::optional<std::int64_t> resumed;
    ASSERT_TRUE(perm_build(file, run, c.id, 2, -1, &resumed));
    EXPECT_EQ(resumed, 4);
    EXPECT_FALSE(fs::exists(pdb::partial_path(file)));
    EXPECT_TRUE(file_bytes(file) == file_bytes(whole));
    // Another table's partial file is passed over.
    fs::remove(file);
    ASSERT_FALSE(perm_build(file, run, c.id, 2, 1));
    pdb::BuildIdentity other = c.id;
    other.content = "0000000000000000";
    ASSERT_TRUE(perm_build(file, run, other, 2, -1, &resumed));
    EXPECT_FALSE(resumed.has_value());
    EXPECT_TRUE(file_bytes(file) == file_bytes(whole));
    fs::remove(file), fs::remove(whole), fs::remove(pdb::partial_path(file));
  }
}
