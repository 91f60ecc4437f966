// `tansaku random` for peg, knight-swap, perm and blocks: reproducible for a seed, every
// position solvable (solve says so), and uniform over the reachable set on tiny instances.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "cli_util.h"

namespace {

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// `random ARGS` twice with one seed and once with another: same, same, different; K lines.
std::vector<std::string> reproducible(const std::string& args, std::size_t k) {
  auto a = run_cli("random " + args + " --seed 7 --count " + std::to_string(k));
  auto b = run_cli("random " + args + " --seed 7 --count " + std::to_string(k));
  auto c = run_cli("random " + args + " --seed 8 --count " + std::to_string(k));
  EXPECT_EQ(a.code, 0) << args << "\n" << a.err;
  EXPECT_EQ(a.out, b.out) << args;
  EXPECT_NE(a.out, c.out) << args;
  auto l = lines(a.out);
  EXPECT_EQ(l.size(), k) << args;
  return l;
}

// Draws `n` positions and checks that there are `expect` distinct ones, each drawn within
// a factor of about 1.5 of n / expect times (a binomial at 100 draws: sd 10, bounds 4 sd).
void uniform(const std::string& args, std::size_t n, std::size_t expect) {
  auto r = run_cli("random " + args + " --seed 1 --count " + std::to_string(n));
  ASSERT_EQ(r.code, 0) << args << "\n" << r.err;
  std::map<std::string, int> seen;
  for (const auto& l : lines(r.out)) ++seen[l];
  EXPECT_EQ(seen.size(), expect) << args;
  const double mean = static_cast<double>(n) / static_cast<double>(expect);
  for (const auto& [pos, k] : seen) {
    EXPECT_GT(k, mean * 0.6) << args << ": " << pos;
    EXPECT_LT(k, mean * 1.4) << args << ": " << pos;
  }
}

void solves(const std::string& puzzle, const std::string& start, const std::string& extra = "") {
  auto s = run_cli("solve " + puzzle + " --quiet --json --start \"" + start + "\" " + extra);
  ASSERT_EQ(s.code, 0) << puzzle << " " << start << "\n" << s.err;
  EXPECT_TRUE(s.json()["solvable"].get<bool>()) << puzzle << " " << start;
}

}  // namespace

TEST(RandomCli, PegPositionsReachTheGoal) {
  for (const auto& p : reproducible("peg:triangle5", 6)) solves("peg:triangle5", p);
  for (const auto& p : reproducible("peg:triangle5 --finish 12 --pegs 6", 4)) {
    EXPECT_EQ(std::count(p.begin(), p.end(), '1'), 6) << p;
    solves("peg:triangle5", p, "--finish 12");
  }
  for (const auto& p : reproducible("peg:english --pegs 6", 3)) solves("peg:english", p);
  // Two pegs that end on hole 12: one jump into it, and four jumps land there.
  uniform("peg:triangle5 --finish 12 --pegs 2", 800, 4);
  auto bad = run_cli("random peg:triangle5 --pegs 40");
  EXPECT_EQ(bad.code, 2) << bad.err;
}

TEST(RandomCli, KnightSwapPositionsReachTheGoal) {
  for (const auto& p : reproducible("knight-swap:4x3", 4))
    solves("knight-swap:4x3", p, "--goal \"2 2 2 0 0 0 0 0 0 1 1 1\"");
  // One knight of each army on a 3x3 board: the centre is cut off, the other 8 squares form
  // one cycle, so 8 x 7 = 56 arrangements.
  const std::string goal = "--goal \"1 0 0 0 0 0 0 0 2\"";
  for (const auto& p : reproducible("knight-swap:3x3 " + goal, 3)) {
    EXPECT_EQ(p[8], '0') << p;  // "a b c d e f g h i": the centre (token 4) is empty
    solves("knight-swap:3x3", p, goal);
  }
  uniform("knight-swap:3x3 " + goal, 5600, 56);
}

TEST(RandomCli, PermPositionsAreUniformOverTheGroup) {
  for (const auto& p : reproducible("perm:pyraminx", 3)) solves("perm:pyraminx", p);
  for (const auto& p : reproducible("perm:2x2x2 --moves U,F,R", 2)) solves("perm:2x2x2", p, "--moves U,F,R");
  // One face turning: 4 positions.
  uniform("perm:2x2x2 --moves U", 800, 4);
  // Two faces: the group <U, R> of the 2x2x2 has 29,160 elements (published); a sample of
  // 200 from it is nearly all distinct.
  auto r = run_cli("random perm:2x2x2 --moves U,R --seed 3 --count 200");
  ASSERT_EQ(r.code, 0) << r.err;
  auto l = lines(r.out);
  std::sort(l.begin(), l.end());
  EXPECT_GE(std::unique(l.begin(), l.end()) - l.begin(), 195);
}

TEST(RandomCli, BlocksPositionsAreReachableFromTheStart) {
  for (const auto& p : reproducible("blocks:ma", 3)) solves("blocks:ma", p);
  // Three distinct unit pieces on a 2x2 tray: 12 reachable arrangements (as the 2x2 sliding puzzle).
  const std::string file = "/tmp/tansaku_random_blocks_" + std::to_string(getpid()) + ".txt";
  std::ofstream(file) << "name: tiny\nmetric: step\ndistinct: yes\nstart:\nA B\nC .\ngoal:\nA B\nC .\n";
  uniform("blocks:" + file, 1200, 12);
  auto small = run_cli("random blocks:klotski --memory 64K");
  EXPECT_EQ(small.code, 3) << small.err;
  std::remove(file.c_str());
}
