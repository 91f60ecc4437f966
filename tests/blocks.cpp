// The blocks family's readers, rules, searches and verifier, checked against an independent
// brute force over character grids (all three metrics, alike and distinct pieces) and against
// published values for the classics.
#include <gtest/gtest.h>

#include <deque>
#include <fstream>
#include <map>
#include <set>

#include "blocks/board.h"
#include "blocks/domain.h"
#include "blocks/rules.h"
#include "blocks/solver.h"
#include "blocks/verify.h"
#include "tansaku/core/error.h"
#include "tansaku/search/explore_states.h"

namespace {

using namespace tansaku::blocks;
using tansaku::InputError;

std::string data(const std::string& name) { return std::string(TANSAKU_DATA_DIR) + "/blocks/" + name; }

// ---------------------------------------------------------------------------------------
// An independent brute force: positions are character grids, a move translates the cells of
// one character; alike pieces are made interchangeable by relabelling each grid (pieces of
// one shape take the start's labels of that shape in row-major order of their first cells).
class Brute {
 public:
  Brute(int rows, int cols, std::string start, Metric m, bool distinct)
      : R(rows), C(cols), metric(m), distinct(distinct) {
    for (const auto& [ch, cells] : pieces(start)) {
      const std::string sig = signature(cells);
      if (!kinds.count(sig)) kinds[sig] = static_cast<int>(kinds.size());
    }
    for (char ch : first_order(start)) labels[kinds[signature(pieces(start)[ch])]].push_back(ch);
    this->start = canon(start);
  }

  std::map<char, std::vector<int>> pieces(const std::string& g) const {
    std::map<char, std::vector<int>> out;
    for (int p = 0; p < R * C; ++p)
      if (g[static_cast<std::size_t>(p)] != '.' && g[static_cast<std::size_t>(p)] != '#') out[g[static_cast<std::size_t>(p)]].push_back(p);
    return out;
  }
  std::vector<char> first_order(const std::string& g) const {
    std::vector<char> order;
    for (char c : g)
      if (c != '.' && c != '#' && std::find(order.begin(), order.end(), c) == order.end()) order.push_back(c);
    return order;
  }
  std::string signature(const std::vector<int>& cells) const {
    std::string s;
    for (int p : cells) s += std::to_string(p / C - cells[0] / C) + "," + std::to_string(p % C - cells[0] % C) + ";";
    return s;
  }
  std::string canon(const std::string& g) const {
    if (distinct) return g;
    std::map<int, int> used;
    std::map<char, char> relabel;
    auto ps = pieces(g);
    for (char ch : first_order(g)) {
      const int k = kinds.at(signature(ps[ch]));
      relabel[ch] = labels.at(k)[static_cast<std::size_t>(used[k]++)];
    }
    std::string out = g;
    for (auto& c : out)
      if (relabel.count(c)) c = relabel[c];
    return out;
  }

  std::vector<std::string> next(const std::string& g) const {
    std::vector<std::string> out;
    for (const auto& piece : pieces(g)) {
      const char ch = piece.first;
      const auto& cells = piece.second;
      auto placed = [&](int dr, int dc, std::string* result) {
        for (int p : cells) {
          const int r = p / C + dr, c = p % C + dc;
          if (r < 0 || r >= R || c < 0 || c >= C) return false;
          const char there = g[static_cast<std::size_t>(r * C + c)];
          if (there != '.' && there != ch) return false;
        }
        if (result) {
          *result = g;
          for (int p : cells) (*result)[static_cast<std::size_t>(p)] = '.';
          for (int p : cells) (*result)[static_cast<std::size_t>((p / C + dr) * C + p % C + dc)] = ch;
        }
        return true;
      };
      const int dirs[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
      std::string t;
      if (metric == Metric::Step) {
        for (const auto& d : dirs)
          if (placed(d[0], d[1], &t)) out.push_back(canon(t));
      } else if (metric == Metric::Line) {
        for (const auto& d : dirs)
          for (int k = 1; placed(k * d[0], k * d[1], &t); ++k) out.push_back(canon(t));
      } else {
        std::set<std::pair<int, int>> seen{{0, 0}};
        std::deque<std::pair<int, int>> q{{0, 0}};
        while (!q.empty()) {
          auto [dr, dc] = q.front();
          q.pop_front();
          for (const auto& d : dirs) {
            std::pair<int, int> n{dr + d[0], dc + d[1]};
            if (seen.count(n) || !placed(n.first, n.second, &t)) continue;
            seen.insert(n);
            q.push_back(n);
            out.push_back(canon(t));
          }
        }
      }
    }
    return out;
  }

  // Distances from the start; the histogram; shortest length and number of shortest paths
  // to a grid satisfying `goal`.
  struct Result {
    std::vector<std::uint64_t> histogram;
    int length = -1;
    std::uint64_t paths = 0;
  };
  template <class Goal>
  Result run(Goal&& goal) const {
    Result res;
    std::map<std::string, int> dist{{start, 0}};
    std::map<std::string, std::uint64_t> ways{{start, 1}};
    std::vector<std::string> layer{start};
    for (int depth = 0; !layer.empty(); ++depth) {
      res.histogram.push_back(layer.size());
      for (const auto& s : layer)
        if (res.length < 0 && goal(s)) res.length = depth;
      if (res.length == depth)
        for (const auto& s : layer)
          if (goal(s)) res.paths += ways[s];
      std::vector<std::string> nxt;
      for (const auto& s : layer)
        for (const auto& t : next(s)) {
          auto it = dist.find(t);
          if (it == dist.end()) {
            dist[t] = depth + 1;
            nxt.push_back(t);
            ways[t] = ways[s];
          } else if (it->second == depth + 1) {
            ways[t] += ways[s];
          }
        }
      layer = std::move(nxt);
    }
    return res;
  }

  int R, C;
  Metric metric;
  bool distinct;
  std::string start;
  std::map<std::string, int> kinds;
  std::map<int, std::vector<char>> labels;
};

// The goal of a board as a predicate on brute-force grids.
auto goal_predicate(const Board& b, bool distinct) {
  return [&b, distinct](const std::string& g) {
    for (const Piece& p : b.goal) {
      std::vector<int> need;
      for (const auto& [dr, dc] : b.kinds[static_cast<std::size_t>(p.kind)].cells)
        need.push_back((p.anchor / b.cols + dr) * b.cols + p.anchor % b.cols + dc);
      const char there = g[static_cast<std::size_t>(need[0])];
      if (there == '.' || there == '#' || (distinct && there != p.label)) return false;
      std::vector<int> has;
      for (int q = 0; q < b.cells(); ++q)
        if (g[static_cast<std::size_t>(q)] == there) has.push_back(q);
      std::sort(need.begin(), need.end());
      if (has != need) return false;
    }
    return true;
  };
}

std::string grid_of(const Board& b, const std::vector<Piece>& pos) {
  std::string s = render(b, pos, false);
  s.erase(std::remove(s.begin(), s.end(), '/'), s.end());
  return s;
}

tansaku::search::Limits limits() {
  tansaku::search::Limits lim;
  lim.threads = 2;
  return lim;
}

// Product and brute force agree on the explore histogram, the optimal length and the
// number of optimal solutions, for every metric.
void agree(const Board& b, bool distinct, bool count = true) {
  for (Metric m : {Metric::Step, Metric::Line, Metric::Path}) {
    SCOPED_TRACE(std::string(b.name) + " " + metric_name(m) + (distinct ? " distinct" : ""));
    Request q{&b, m, distinct, b.pieces};
    const Brute brute(b.rows, b.cols, grid_of(b, b.pieces), m, distinct);
    const auto want = brute.run(goal_predicate(b, distinct));
    const Exploration e = explore(q, 5, limits());
    EXPECT_EQ(e.histogram, want.histogram);
    const Solution s = solve(q, "", tansaku::Want::one, 0, limits());
    if (want.length < 0) {
      EXPECT_FALSE(s.found);
      EXPECT_TRUE(s.exhausted);
      continue;
    }
    ASSERT_TRUE(s.found);
    EXPECT_EQ(s.length, want.length);
    EXPECT_EQ(s.moves.size(), static_cast<std::size_t>(want.length));
    if (count) {
      const Solution c = solve(q, "", tansaku::Want::count, 0, limits());
      ASSERT_TRUE(c.count);
      EXPECT_EQ(tansaku::to_u64(*c.count), want.paths);
    }
  }
}

int solved(const std::string& file, Metric m, bool distinct = false, const std::string& algorithm = "") {
  const Board b = load_board(data(file));
  const Solution s = solve(Request{&b, m, distinct, b.pieces}, algorithm, tansaku::Want::one, 0, limits());
  return s.found ? static_cast<int>(s.length) : -1;
}

}  // namespace

TEST(BlocksBrute, PennantAllMetrics) { agree(load_board(data("pennant.txt")), false); }

TEST(BlocksBrute, SmallBoardsWithWallsAndLShapes) {
  const char* boards[] = {
      "start:\nAAB.\nA.B#\nCCDE\ngoal:\n..CC\n...#\n....\n",         // an L, a wall, alike 1x1s D E
      "start:\nA.B\nACC\n.DD\ngoal:\n..A\n..A\n...\n",                // alike dominoes C, D
      "start:\n#AB#\nCC.D\nE.FD\ngoal:\n#..#\n....\n.CC.\n",            // walls in corners
      "start:\nAB.\nBB.\nCDE\ngoal:\n..B\n.BB\n...\n",                  // an L that must travel
  };
  int i = 0;
  for (const char* text : boards) {
    const Board b = parse_board(text, "board" + std::to_string(i++));
    agree(b, false);
    agree(b, true);
  }
}

TEST(BlocksBrute, KlotskiStepAndLine) {
  // The brute force over 25,955 grids: each metric's optimum and histogram agree.
  const Board b = load_board(data("klotski.txt"));
  for (Metric m : {Metric::Step, Metric::Line}) {
    const Brute brute(b.rows, b.cols, grid_of(b, b.pieces), m, false);
    const auto want = brute.run(goal_predicate(b, false));
    const Request q{&b, m, false, b.pieces};
    EXPECT_EQ(explore(q, 1, limits()).histogram, want.histogram);
    EXPECT_EQ(solve(q, "", tansaku::Want::one, 0, limits()).length, want.length);
    // Computed here by the brute force: 116 unit steps, 90 straight-line moves.
    EXPECT_EQ(want.length, m == Metric::Step ? 116 : 90);
  }
}

TEST(BlocksClassics, PublishedLengths) {               // labels: tsan
  EXPECT_EQ(solved("klotski.txt", Metric::Path), 81);  // Gardner: L'Âne Rouge, 81 moves
  EXPECT_EQ(solved("pennant.txt", Metric::Path), 59);  // Gardner: Dad's Puzzle, 59 moves
  EXPECT_EQ(solved("ma.txt", Metric::Path), 23);       // Hordern: 23 rectilinear moves
  EXPECT_EQ(solved("ma.txt", Metric::Line), 26);       // Hordern: 26 straight-line moves
  EXPECT_EQ(solved("century.txt", Metric::Path), 99);  // Storer, Pegg: 99 (+1 half-cell move)
}

TEST(BlocksClassics, PublishedStateCounts) {  // labels: tsan
  // TLC's counts of distinct states reachable from the start (tlaplus/Examples).
  for (const auto& [file, states] : std::vector<std::pair<std::string, std::uint64_t>>{
           {"klotski.txt", 25955}, {"pennant.txt", 1398}, {"ma.txt", 110804}}) {
    const Board b = load_board(data(file));
    for (Metric m : {Metric::Step, Metric::Path})
      EXPECT_EQ(explore(Request{&b, m, false, b.pieces}, 1, limits()).states, states) << file;
  }
}

TEST(BlocksClassics, EightPuzzleAsBlocks) {  // labels: tsan
  // The sliding family's seed: 31 slides; the whole space from the goal: 181,440 states,
  // God's number 31 with 2 farthest positions (OEIS A089473).
  EXPECT_EQ(solved("eight.txt", Metric::Step, true), 31);
  EXPECT_EQ(solved("eight.txt", Metric::Step, true, "bfs"), 31);
  EXPECT_EQ(solved("eight.txt", Metric::Step, true, "idastar"), 31);
  const Board b = load_board(data("eight.txt"));
  const auto from = parse_position(b, "123/456/78.", "--from", true);
  const Exploration e = explore(Request{&b, Metric::Step, true, from}, 5, limits());
  EXPECT_EQ(e.states, 181440u);
  EXPECT_EQ(e.depth, 31);
  EXPECT_EQ(e.farthest_count, 2u);
  ASSERT_EQ(e.farthest.size(), 2u);
  // Alike pieces: the same picture with all eight tiles alike has 9 positions of the blank.
  EXPECT_EQ(explore(Request{&b, Metric::Step, false, from}, 1, limits()).states, 9u);
}

TEST(BlocksClassics, TwoByThreeLikeSliding) {  // labels: tsan
  // sliding:2x3 from its goal: 360 states, 21 moves deep.
  const Board b = parse_board("distinct: yes\nstart:\n1 2 3\n4 5 .\n", "2x3");
  const Exploration e = explore(Request{&b, Metric::Step, true, b.pieces}, 3, limits());
  EXPECT_EQ(e.states, 360u);
  EXPECT_EQ(e.depth, 21);
}

TEST(BlocksKnuth, ExampleAndSameAnswersAsPictures) {
  const Board k = load_board(data("knuth-example.txt"));
  EXPECT_TRUE(k.knuth);
  EXPECT_EQ(k.rows, 5);
  EXPECT_EQ(k.cols, 5);
  EXPECT_EQ(k.pieces.size(), 4u);
  EXPECT_EQ(k.kinds.size(), 3u);
  EXPECT_EQ(std::popcount(k.walls), 2);
  EXPECT_EQ(render(k, k.pieces), "AAA##\nBAB..\nBBB..\n.....\nCD...\n");
  EXPECT_EQ(render(k, k.goal), "...##\n...CD\n..AAA\n..BAB\n..BBB\n");
  agree(k, false, false);
  // The Pennant in Knuth's format: the same answers as the picture file.
  const Board p = parse_board(
      "5 x 4 Pennant\n1 = 11/11\n2 = 11\n3 = 1\n4 = 1/1\n12233004422\n12233004422\n", "pennant-knuth");
  const Board q = load_board(data("pennant.txt"));
  EXPECT_EQ(render(p, p.pieces, false), "AABB/AACC/DE../FGHH/FGII");
  for (Metric m : {Metric::Step, Metric::Line, Metric::Path}) {
    const auto a = explore(Request{&p, m, false, p.pieces}, 1, limits());
    const auto c = explore(Request{&q, m, false, q.pieces}, 1, limits());
    EXPECT_EQ(a.histogram, c.histogram);
  }
}

TEST(BlocksVerify, RejectsBadSolutions) {
  const Board b = parse_board("start:\nAB.\nCC.\ngoal:\n.A.\n...\n", "v");
  EXPECT_NO_THROW(verify(b, Metric::Step, false, b.pieces, b.goal, {"Br", "Ar"}, 2));
  EXPECT_THROW(verify(b, Metric::Step, false, b.pieces, b.goal, {"Ar"}, 1), std::logic_error);       // runs into B
  EXPECT_THROW(verify(b, Metric::Step, false, b.pieces, b.goal, {"Brr"}, 1), std::logic_error);      // two steps
  EXPECT_NO_THROW(verify(b, Metric::Line, false, b.pieces, b.goal, {"Br", "Ar"}, 2));
  EXPECT_THROW(verify(b, Metric::Line, false, b.pieces, b.goal, {"Brd", "Ar"}, 2), std::logic_error); // turns
  EXPECT_THROW(verify(b, Metric::Path, false, b.pieces, b.goal, {"Br", "Ar"}, 3), std::logic_error);  // length
  EXPECT_THROW(verify(b, Metric::Path, false, b.pieces, b.goal, {"Br"}, 1), std::logic_error);        // goal
  EXPECT_THROW(verify(b, Metric::Path, false, b.pieces, b.goal, {"Brl", "Ar"}, 2), std::logic_error); // null move
  EXPECT_THROW(verify(b, Metric::Path, false, b.pieces, b.goal, {"Bu", "Ar"}, 2), std::logic_error);  // off board
  EXPECT_THROW(verify(b, Metric::Path, false, b.pieces, b.goal, {"Xr"}, 1), std::logic_error);        // no piece
}

TEST(BlocksInput, BadFilesNameTheLine) {
  auto bad = [](const std::string& text, const std::string& needle) {
    try {
      parse_board(text, "f.txt");
      ADD_FAILURE() << "accepted:\n" << text;
    } catch (const InputError& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find(needle), std::string::npos) << msg;
      EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
      EXPECT_EQ(msg.rfind("f.txt", 0), 0u) << msg;
    }
  };
  bad("start:\nAB\nABC\n", "f.txt line 3: ragged row");
  bad("start:\nA.A\n", "f.txt line 2: piece 'A' is in two separate places");
  bad("start:\nAB\n..\ngoal:\nC.\n..\n", "f.txt line 5: goal piece 'C' is not in the start");
  bad("start:\nAB\nA.\ngoal:\nAA\n..\n", "f.txt line 5: goal piece 'A' has another shape");
  bad("name: x\n", "no 'start:'");
  bad("start:\n" + std::string(65, 'A') + "\n", "f.txt line 1: the board is 1x65 = 65 cells");
  bad("start:\nA?\n", "f.txt line 2: unexpected character '?'");
  bad("size: 3\nstart:\nA\n", "f.txt line 1: unknown line 'size:'");
  bad("start:\nAB\ngoal:\nA\n", "f.txt line 3: the picture is 1x1");
  bad("AB\n", "f.txt line 1: a picture row before 'start:'");
  bad("metric: diagonal\nstart:\nA\n", "f.txt line 1: metric 'diagonal'");
  bad("start:\nA.\ngoal:\n.#\n", "f.txt line 4: a wall");
  bad("start:\nA B\nAA B\n", "f.txt line 3: cell 'AA'");
  bad("2 x 2\n1 = 11\n1xx0\n0\n", "f.txt line 3: '0' after the board is full");
  bad("2 x 2\n1 = 11\n01\n0\n", "f.txt line 3: piece 1 does not fit");
}

TEST(BlocksInput, PositionsAndGoalsFromTheCommandLine) {
  const Board b = load_board(data("klotski.txt"));
  // Alike pieces may be drawn with any characters; the shapes must match the puzzle's.
  EXPECT_NO_THROW(parse_position(b, "XAAY/XAAY/ZWWV/ZabV/c..d", "--start", false));
  EXPECT_THROW(parse_position(b, "XAAY/XAAY/ZWWV/ZabV/c..d", "--start", true), InputError);
  EXPECT_THROW(parse_position(b, "BAAC/BAAC/DEEF/DGHF/I.JJ", "--start", false), InputError);
  EXPECT_THROW(parse_position(b, "BAAC/BAAC/DEEF/DGHF", "--start", false), InputError);
  const auto g = parse_goal(b, "..../..../..../AA../AA..", "--goal", false);
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].anchor, 12);
}

namespace {
// The blocks domain without symmetric() and for_each_move_after(): the explore then keeps
// every state and expands every move.
struct PlainBlocks {
  using State = Code<1>;
  using Move = tansaku::blocks::Move;
  const Domain<1>* d;
  bool is_goal(const State& s) const { return d->is_goal(s); }
  template <class F>
  void for_each_move(const State& s, F&& f) const {
    d->for_each_move(s, f);
  }
  std::size_t hash(const State& s) const { return d->hash(s); }
};
}  // namespace

TEST(BlocksExplore, FrontierAndPruningChangeNothing) {  // labels: tsan
  // Frontier search and leaving out the moves after the last one (the piece just moved, in
  // the path metric; along the same line; straight back) give the same layers and farthest
  // positions as keeping everything and expanding every move, with fewer successors.
  for (const auto& [file, distinct] : std::vector<std::pair<std::string, bool>>{
           {"eight.txt", true}, {"ma.txt", false}, {"klotski.txt", false}, {"pennant.txt", true}}) {
    const Board b = load_board(data(file));
    for (Metric m : {Metric::Step, Metric::Line, Metric::Path}) {
      SCOPED_TRACE(file + " " + metric_name(m));
      const auto r = std::make_shared<const Rules>(b, m, distinct);
      ASSERT_EQ(r->words(), 1);
      const Domain<1> d(r);
      const Code<1> src = d.encode(b.pieces);
      const auto fast = tansaku::search::explore_states(d, std::span<const Code<1>>(&src, 1), 4, limits());
      const auto full = tansaku::search::explore_states(PlainBlocks{&d}, std::span<const Code<1>>(&src, 1), 4, limits());
      EXPECT_TRUE(fast.frontier);
      EXPECT_FALSE(full.frontier);
      EXPECT_EQ(fast.histogram, full.histogram);
      EXPECT_EQ(fast.farthest, full.farthest);
      EXPECT_LT(fast.stats.generated, full.stats.generated);
      EXPECT_LT(fast.stats.stored, full.stats.stored);
    }
  }
}
