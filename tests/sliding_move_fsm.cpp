// The automaton of redundant move strings (sliding/move_fsm.h): its words are redundant and
// minimal (checked by brute force on small depths, independently of its enumeration), a
// search that follows it still reaches every position by a shortest path (against
// breadth-first distances on real boards), and its cache file round-trips and refuses damage.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "sliding/move_fsm.h"
#include "tansaku/core/error.h"

using tansaku::search::MoveAutomaton;
using tansaku::search::MoveWord;
using tansaku::sliding::MoveFsm;

namespace {

std::string str(const MoveWord& w) { return std::string(w.begin(), w.end()); }
std::vector<std::string> strs(const std::vector<MoveWord>& ws) {
  std::vector<std::string> out;
  for (const auto& w : ws) out.push_back(str(w));
  return out;
}

// A string's effect on an unbounded grid, by a plain simulation: where the blank ends, which
// cells hold which tile afterwards (moved ones only), and the cells the blank visited.
struct Effect {
  std::pair<int, int> blank{0, 0};
  std::map<std::pair<int, int>, std::pair<int, int>> moved;  // cell -> the tile's first cell
  std::set<std::pair<int, int>> footprint{{0, 0}};
};
Effect play(const std::string& s) {
  static const int dx[4] = {0, -1, 1, 0}, dy[4] = {-1, 0, 0, 1};  // up, left, right, down
  std::map<std::pair<int, int>, std::pair<int, int>> at;  // cell -> tile (absent: its own)
  auto get = [&](std::pair<int, int> c) { auto it = at.find(c); return it == at.end() ? c : it->second; };
  Effect e;
  for (char c : s) {
    const std::pair<int, int> to{e.blank.first + dx[static_cast<int>(c)], e.blank.second + dy[static_cast<int>(c)]};
    const auto tile = get(to), blank = get(e.blank);
    at[e.blank] = tile;
    at[to] = blank;
    e.blank = to;
    e.footprint.insert(to);
  }
  for (auto& [cell, tile] : at)
    if (cell != tile) e.moved[cell] = tile;
  return e;
}

bool shortlex_less(const std::string& a, const std::string& b) {
  return a.size() != b.size() ? a.size() < b.size() : a < b;
}

// Every string over the four letters of length at most n.
std::vector<std::string> all_strings(int n) {
  std::vector<std::string> out{""};
  for (std::size_t i = 0; i < out.size(); ++i)
    if (static_cast<int>(out[i].size()) < n)
      for (char c = 0; c < 4; ++c) out.push_back(out[i] + c);
  return out;
}

// Positions of a rows x cols board (cell -> tile, 0 the blank) reached from `start`.
using Board = std::vector<int>;
int blank_of(const Board& b) { return static_cast<int>(std::find(b.begin(), b.end(), 0) - b.begin()); }
// The cell the blank moves to in direction d, or -1 off the board.
int step(int rows, int cols, int cell, int d) {
  const int r = cell / cols, c = cell % cols;
  if (d == MoveFsm::kUp) return r > 0 ? cell - cols : -1;
  if (d == MoveFsm::kLeft) return c > 0 ? cell - 1 : -1;
  if (d == MoveFsm::kRight) return c + 1 < cols ? cell + 1 : -1;
  return r + 1 < rows ? cell + cols : -1;
}

std::map<Board, int> bfs(int rows, int cols, const Board& start, int depth) {
  std::map<Board, int> dist{{start, 0}};
  std::vector<Board> layer{start};
  for (int g = 1; g <= depth; ++g) {
    std::vector<Board> next;
    for (const Board& b : layer)
      for (int d = 0; d < 4; ++d) {
        const int from = blank_of(b), to = step(rows, cols, from, d);
        if (to < 0) continue;
        Board c = b;
        std::swap(c[static_cast<std::size_t>(from)], c[static_cast<std::size_t>(to)]);
        if (dist.emplace(c, g).second) next.push_back(std::move(c));
      }
    layer = std::move(next);
  }
  return dist;
}

// Depth first along the automaton: the least length of an allowed path to each position.
void follow(const MoveAutomaton& f, int rows, int cols, Board& b, std::int32_t q, int g, int depth,
            std::map<Board, int>& best, std::uint64_t& paths) {
  auto [it, fresh] = best.emplace(b, g);
  if (!fresh) it->second = std::min(it->second, g);
  ++paths;
  if (g == depth) return;
  for (int d = 0; d < 4; ++d) {
    const std::int32_t r = f.next(q, d);
    const int from = blank_of(b), to = step(rows, cols, from, d);
    if (r == MoveFsm::kDead || to < 0) continue;
    std::swap(b[static_cast<std::size_t>(from)], b[static_cast<std::size_t>(to)]);
    follow(f, rows, cols, b, r, g + 1, depth, best, paths);
    std::swap(b[static_cast<std::size_t>(from)], b[static_cast<std::size_t>(to)]);
  }
}

}  // namespace

TEST(MoveFsm, DepthTwoIsNeverUndoTheLastMove) {
  const MoveAutomaton& f = MoveFsm::of_depth(2);
  std::vector<std::string> words = strs(f.words());
  std::sort(words.begin(), words.end());
  EXPECT_EQ(words, (std::vector<std::string>{{0, 3}, {1, 2}, {2, 1}, {3, 0}}));
  EXPECT_EQ(f.states(), 5u);  // the empty suffix and the four last moves
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b) EXPECT_EQ(f.next(f.next(MoveFsm::kStart, a), b) == MoveFsm::kDead, a + b == 3);
}

TEST(MoveFsm, WordsAreRedundantAndMinimal) {
  // Independently of the enumeration: for each word, a shortlex-earlier string with the same
  // effect whose footprint lies inside the word's.
  const MoveAutomaton& f = MoveFsm::of_depth(8);
  ASSERT_GT(f.words().size(), 4u);  // more than the inverse pairs
  const auto strings = all_strings(8);
  std::vector<Effect> effects;
  for (const auto& s : strings) effects.push_back(play(s));
  std::set<std::string> seen;
  for (const std::string& w : strs(f.words())) {
    EXPECT_TRUE(seen.insert(w).second) << "twice";
    const Effect ew = play(w);
    bool found = false;
    for (std::size_t i = 0; i < strings.size() && !found; ++i) {
      if (!shortlex_less(strings[i], w)) continue;
      const Effect& et = effects[i];
      found = et.blank == ew.blank && et.moved == ew.moved &&
              std::includes(ew.footprint.begin(), ew.footprint.end(), et.footprint.begin(), et.footprint.end());
    }
    EXPECT_TRUE(found) << "a word of length " << w.size() << " is not redundant";
    for (const std::string& v : strs(f.words())) {
      if (v != w) {
        EXPECT_EQ(w.find(v), std::string::npos) << "a word holds another";
      }
    }
  }
}

TEST(MoveFsm, EveryPositionStillReachedByAShortestPath) {
  // On real boards, from several blank cells: every position within `depth` moves is reached
  // by a path the automaton allows, of its breadth-first distance; and fewer paths are tried.
  const MoveAutomaton& f = MoveFsm::of_depth(10);
  const MoveAutomaton& parent = MoveFsm::of_depth(2);
  struct Case {
    int rows, cols, blank, depth;
  };
  for (const Case& c : {Case{4, 4, 0, 13}, Case{4, 4, 5, 13}, Case{3, 4, 1, 14}, Case{5, 5, 12, 11}, Case{2, 5, 0, 16}}) {
    Board start(static_cast<std::size_t>(c.rows * c.cols));
    for (int i = 0; i < c.rows * c.cols; ++i) start[static_cast<std::size_t>(i)] = i;
    std::swap(start[0], start[static_cast<std::size_t>(c.blank)]);
    const auto dist = bfs(c.rows, c.cols, start, c.depth);
    std::map<Board, int> best, best2;
    std::uint64_t paths = 0, paths2 = 0;
    Board b = start;
    follow(f, c.rows, c.cols, b, MoveFsm::kStart, 0, c.depth, best, paths);
    follow(parent, c.rows, c.cols, b, MoveFsm::kStart, 0, c.depth, best2, paths2);
    ASSERT_EQ(best.size(), dist.size()) << c.rows << "x" << c.cols << " blank " << c.blank;
    for (const auto& [pos, d] : dist) {
      auto it = best.find(pos);
      ASSERT_NE(it, best.end());
      ASSERT_EQ(it->second, d) << c.rows << "x" << c.cols << " blank " << c.blank;
    }
    EXPECT_EQ(best2.size(), dist.size());
    EXPECT_LT(paths, paths2);
  }
}

TEST(MoveFsm, MemoryBudgetStopsAtACompleteLength) {
  tansaku::search::Limits lim;
  lim.memory = 2 << 20;
  const MoveAutomaton small = MoveFsm::build(12, lim);
  EXPECT_GE(small.depth(), 2);
  EXPECT_LT(small.depth(), 12);
  EXPECT_EQ(small.words(), MoveFsm::of_depth(small.depth()).words());
}

TEST(MoveFsm, HonoursTheDeadline) {
  tansaku::Deadline past(1e-6);
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  tansaku::search::Limits lim;
  lim.deadline = &past;
  EXPECT_THROW(MoveFsm::build(12, lim), tansaku::LimitError);
}

TEST(MoveFsm, CacheFileRoundTripsAndRefusesDamage) {
  const auto dir = std::filesystem::temp_directory_path() / ("tansaku-fsm-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const MoveAutomaton& f = MoveFsm::of_depth(8);
  const auto file = dir / MoveFsm::file_name(8);
  ASSERT_TRUE(f.write(file));
  auto back = MoveFsm::read(file, 8);
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, f.words());
  EXPECT_FALSE(MoveFsm::read(file, 10));               // another depth
  EXPECT_FALSE(MoveFsm::read(dir / "missing", 8));      // no file
  std::string bytes;
  {
    std::ifstream in(file, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  auto rewrite = [&](const std::string& b) { std::ofstream(file, std::ios::binary | std::ios::trunc) << b; };
  std::string flipped = bytes;
  flipped[bytes.size() - 6] = static_cast<char>(flipped[bytes.size() - 6] ^ 0x10);
  rewrite(flipped);
  EXPECT_FALSE(MoveFsm::read(file, 8));  // zstd's checksum
  rewrite(bytes.substr(0, bytes.size() / 2));
  EXPECT_FALSE(MoveFsm::read(file, 8));  // truncated
  // cached(): writes the file on the first build, in the directory given.
  const MoveAutomaton& c = MoveFsm::cached(6, dir, {});
  EXPECT_EQ(c.depth(), 6);
  auto written = MoveFsm::read(dir / MoveFsm::file_name(6), 6);
  ASSERT_TRUE(written);
  EXPECT_EQ(*written, c.words());
  std::filesystem::remove_all(dir);
}

TEST(MoveFsm, SameAutomataAsBefore) {
  // The automaton's states, transitions and words at depths 2..12, as fingerprints (FNV-1a)
  // taken from the implementation before the automaton moved into the engine: its states are
  // numbered the same, so searches count the same nodes.
  const std::map<int, std::pair<std::size_t, std::uint64_t>> before = {
      {2, {5, 0xd36700a1b4a6a9f2}},     {5, {5, 0xd36700a1b4a6a9f2}},     {6, {21, 0x161051802dab0231}},
      {7, {31, 0x59a2899cf735bc46}},    {8, {136, 0x4bf52435af94a0d1}},   {9, {291, 0x339ad0f92a0a6ae0}},
      {10, {1168, 0xcef72af6161b2182}}, {11, {2352, 0x15c265e74e2a835c}}, {12, {8596, 0xe3752d58acc0ca15}}};
  for (const auto& [depth, want] : before) {
    const MoveAutomaton& f = MoveFsm::of_depth(depth);
    std::uint64_t h = 1469598103934665603ull;
    auto mix = [&](std::uint64_t v) { h = (h ^ v) * 1099511628211ull; };
    mix(f.states());
    for (std::size_t q = 0; q < f.states(); ++q)
      for (int d = 0; d < 4; ++d) mix(static_cast<std::uint32_t>(f.next(static_cast<std::int32_t>(q), d)));
    mix(f.words().size());
    for (const auto& w : f.words())
      for (char16_t c : w) mix(static_cast<std::uint64_t>(c));
    EXPECT_EQ(f.states(), want.first) << "depth " << depth;
    EXPECT_EQ(h, want.second) << "depth " << depth;
  }
}
