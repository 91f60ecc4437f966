// The library as a user gets it: `cmake --install` into a temporary prefix, then the
// example in examples/ is configured with find_package(tansaku), built and run; its answers
// are checked against a plain breadth-first search written here.
#include <gtest/gtest.h>

#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

namespace fs = std::filesystem;

namespace {

struct Space {
  int goal = -1, states = 0, farthest = 0;
};

// Independent BFS over states numbered by `succ`'s own rules.
template <class Succ, class Goal>
Space brute_force(int start, Succ succ, Goal goal) {
  std::map<int, int> dist{{start, 0}};
  std::deque<int> q{start};
  Space sp;
  while (!q.empty()) {
    int s = q.front();
    q.pop_front();
    if (sp.goal < 0 && goal(s)) sp.goal = dist[s];
    sp.farthest = std::max(sp.farthest, dist[s]);
    for (int t : succ(s))
      if (dist.emplace(t, dist[s] + 1).second) q.push_back(t);
  }
  sp.states = static_cast<int>(dist.size());
  return sp;
}

// Jugs of 3 and 5 litres, state 10 * a + b.
std::vector<int> jug_moves(int s) {
  int a = s / 10, b = s % 10;
  int ab = std::min(a, 5 - b), ba = std::min(b, 3 - a);
  return {30 + b, 10 * a + 5, b, 10 * a, 10 * (a - ab) + b + ab, 10 * (a + ba) + b - ba};
}

// Farmer, wolf, goat, cabbage as bits 0..3 (1 = far bank).
std::vector<int> river_moves(int s) {
  std::vector<int> out;
  for (int item = 0; item < 4; ++item) {
    if (item && ((s >> item) & 1) != (s & 1)) continue;
    int t = s ^ 1 ^ (item ? 1 << item : 0);
    int f = t & 1, w = (t >> 1) & 1, g = (t >> 2) & 1, c = (t >> 3) & 1;
    if ((w == g && g != f) || (g == c && g != f)) continue;
    out.push_back(t);
  }
  return out;
}


// Single-quoted for /bin/sh (the paths here hold no quote).
std::string q(const std::string& s) {
  std::string r(1, '\'');
  r += s;
  r += '\'';
  return r;
}

std::string slurp(const fs::path& p) {
  std::ifstream f(p);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

}  // namespace

TEST(ExampleInstall, BruteForceMatchesPublishedAnswers) {
  // Die Hard jugs: 6 steps; wolf, goat and cabbage: 7 crossings.
  EXPECT_EQ(brute_force(0, jug_moves, [](int s) { return s / 10 == 4 || s % 10 == 4; }).goal, 6);
  EXPECT_EQ(brute_force(0, river_moves, [](int s) { return s == 15; }).goal, 7);
}

TEST(ExampleInstall, BuildsAgainstInstalledPackage) {
  char tmpl[] = "/tmp/tansaku-install-XXXXXX";
  ASSERT_NE(mkdtemp(tmpl), nullptr);
  const fs::path tmp = tmpl, prefix = tmp / "prefix", build = tmp / "build", log = tmp / "log";
  auto run = [&](const std::string& cmd) {
    return std::system((cmd + " >>" + log.string() + " 2>&1").c_str());
  };
  const std::string cmake = q(TANSAKU_CMAKE);
  ASSERT_EQ(run(cmake + " --install " + q(TANSAKU_BUILD_DIR) + " --prefix " + q(prefix)), 0) << slurp(log);
  // The package names no file of the source or build tree.
  const std::string targets = slurp(prefix / "lib" / "cmake" / "tansaku" / "tansakuTargets.cmake");
  ASSERT_FALSE(targets.empty());
  EXPECT_EQ(targets.find(TANSAKU_SOURCE_DIR), std::string::npos);
  EXPECT_EQ(targets.find(TANSAKU_BUILD_DIR), std::string::npos);
  EXPECT_FALSE(fs::exists(prefix / "include" / "sliding"));

  ASSERT_EQ(run(cmake + " -S " + q(TANSAKU_SOURCE_DIR "/examples") + " -B " + q(build) +
                " -DCMAKE_PREFIX_PATH=" + q(prefix) + " -DCMAKE_CXX_COMPILER=" + q(TANSAKU_CXX) +
                " -DCMAKE_CXX_FLAGS=" + q(TANSAKU_CXX_FLAGS)),
            0)
      << slurp(log);
  ASSERT_EQ(run(cmake + " --build " + q(build)), 0) << slurp(log);
  const fs::path out = tmp / "out";
  ASSERT_EQ(std::system((q(build / "jugs_and_river") + " >" + q(out)).c_str()), 0);
  const std::string got = slurp(out);

  const Space jugs = brute_force(0, jug_moves, [](int s) { return s / 10 == 4 || s % 10 == 4; });
  const Space river = brute_force(0, river_moves, [](int s) { return s == 15; });
  auto n = [](int v) { return std::to_string(v); };
  EXPECT_NE(got.find("jugs 3+5 to 4: bfs " + n(jugs.goal) + " moves, ida* " + n(jugs.goal) + " moves: "),
            std::string::npos) << got;
  EXPECT_NE(got.find("jugs 3+5 to 4 explored: " + n(jugs.states) + " states, farthest " + n(jugs.farthest) +
                     " moves"), std::string::npos) << got;
  EXPECT_NE(got.find("river: bfs " + n(river.goal) + " crossings, ida* " + n(river.goal) + " crossings: "),
            std::string::npos) << got;
  EXPECT_NE(got.find("river explored: " + n(river.states) + " states, farthest " + n(river.farthest) +
                     " crossings"), std::string::npos) << got;
  fs::remove_all(tmp);
}
