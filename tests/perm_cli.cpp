// perm through the command line: agreement with the rotating-slide family, solve / explore
// JSON, bad input (exit 2, one line naming file and line), unsolvable starts (exit 1).
#include <gtest/gtest.h>

#include <unistd.h>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli_util.h"

namespace {
std::vector<std::string> strip_set(const nlohmann::json& a, const std::string& prefix) {
  std::vector<std::string> v;
  for (const auto& s : a) {
    std::string t = s.get<std::string>();
    if (t.rfind(prefix, 0) == 0) t = t.substr(prefix.size());
    v.push_back(t);
  }
  std::sort(v.begin(), v.end());
  return v;
}
}  // namespace

TEST(PermCli, RotatingSlideAgreesWithItsFamily) {
  auto a = run_cli("solve perm:rotating-slide --json");
  auto b = run_cli("solve rotating-slide --json");
  ASSERT_EQ(a.code, 0) << a.err;
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_EQ(a.json()["length"], 12);
  EXPECT_EQ(a.json()["length"], b.json()["length"]);
  // 23,424 optimal sequences: what `tansaku solve rotating-slide --all` counts (22 s there,
  // too slow to repeat here).
  auto c = run_cli("solve perm:rotating-slide --all --json");
  ASSERT_EQ(c.code, 0) << c.err;
  EXPECT_EQ(c.json()["count"], 23424);
  EXPECT_EQ(c.json()["solutions"].size(), 23424u);
  auto e = run_cli("explore perm:rotating-slide --farthest 13 --json");
  auto f = run_cli("explore rotating-slide --farthest 13 --json");
  ASSERT_EQ(e.code, 0) << e.err;
  EXPECT_EQ(e.json()["states"], 181440);
  EXPECT_EQ(e.json()["depth"], 12);
  EXPECT_EQ(e.json()["farthest_count"], 13);
  EXPECT_EQ(e.json()["histogram"], f.json()["histogram"]);
  EXPECT_EQ(strip_set(e.json()["farthest"], "PIECES "), strip_set(f.json()["farthest"], ""));
  EXPECT_EQ(e.json()["farthest_moves"].size(), 13u);
  // The start given as the other family writes it.
  auto g = run_cli("solve perm:rotating-slide --start \"9 8 7 6 5 4 3 2 1\" --json");
  EXPECT_EQ(g.json()["length"], 12);
}

TEST(PermCli, Cube2x2x2) {
  auto a = run_cli("explore perm:2x2x2 --moves U,F,R --metric qtm --farthest 2 --json");
  ASSERT_EQ(a.code, 0) << a.err;
  EXPECT_EQ(a.json()["states"], 3674160);
  EXPECT_EQ(a.json()["depth"], 14);
  EXPECT_EQ(a.json()["farthest_count"], 276);
  EXPECT_EQ(a.json()["farthest_moves"].size(), 2u);
  // bibfs and IDA* agree on a scramble; the solution is at most the scramble's length.
  const std::string scr = "--moves U,F,R --scramble \"R U2 F' R U F2 R'\" --json";
  auto b = run_cli("solve perm:2x2x2 " + scr);
  auto c = run_cli("solve perm:2x2x2 --algorithm idastar " + scr);
  ASSERT_EQ(b.code, 0) << b.err;
  ASSERT_EQ(c.code, 0) << c.err;
  EXPECT_EQ(b.json()["algorithm"], "bibfs");
  EXPECT_EQ(b.json()["length"], c.json()["length"]);
  EXPECT_LE(b.json()["length"].get<int>(), 7);
  auto s = run_cli("show perm:2x2x2 --moves U,F,R --json");
  ASSERT_EQ(s.code, 0) << s.err;
  EXPECT_EQ(s.json()["group_order"], "3674160");
}

TEST(PermCli, GroupOrders) {
  EXPECT_EQ(run_cli("show perm:3x3x3 --json").json()["group_order"], "43252003274489856000");
  EXPECT_EQ(run_cli("show perm:2x2x2 --json").json()["group_order"], "88179840");
  EXPECT_EQ(run_cli("show perm:pyraminx --json").json()["group_order"], "933120");
}

TEST(PermCli, Unsolvable) {
  auto a = run_cli("solve perm:2x2x2 --start \"CORNERS 1 2 3 4 5 6 7 8 1 0 0 0 0 0 0 0\" --json");
  EXPECT_EQ(a.code, 1);
  EXPECT_EQ(a.json()["solvable"], false);
  auto b = run_cli("solve perm:rotating-slide --start \"2 1 3 4 5 6 7 8 9\"");
  EXPECT_EQ(b.code, 1);
}

TEST(PermCli, Batch) {
  // Every start of a file solved in one process, one JSON line each (the instance number a
  // line gives, else its place), then the summary; each the optimal length bibfs finds.
  const auto dir = std::filesystem::temp_directory_path() / ("tansaku-perm-batch-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto r = run_cli("random perm:2x2x2 --moves U,F,R --seed 5 --count 3");
  ASSERT_EQ(r.code, 0) << r.err;
  std::vector<std::string> starts;
  std::istringstream lines(r.out);
  for (std::string l; std::getline(lines, l);) starts.push_back(l);
  ASSERT_EQ(starts.size(), 3u);
  const auto file = (dir / "starts.txt").string();
  std::ofstream(file) << "# three positions\n7 " << starts[0] << "\n\n"
                      << starts[1] << "  # no number\n"
                      << starts[2] << "\n";
  auto b = run_cli("solve perm:2x2x2 --moves U,F,R --algorithm idastar --batch " + file + " --json --quiet");
  ASSERT_EQ(b.code, 0) << b.err;
  std::vector<nlohmann::json> rows;
  std::istringstream out(b.out);
  for (std::string l; std::getline(out, l);) rows.push_back(parse_json(l));
  ASSERT_EQ(rows.size(), 4u) << b.out;
  const std::vector<std::string> ids = {"7", "2", "3"};
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(rows[i]["instance"], ids[i]);
    EXPECT_EQ(rows[i]["start"], starts[i]);
    auto one = run_cli("solve perm:2x2x2 --moves U,F,R --algorithm bibfs --start \"" + starts[i] + "\" --json");
    ASSERT_EQ(one.code, 0) << one.err;
    EXPECT_EQ(rows[i]["length"], one.json()["length"]);
    EXPECT_EQ(rows[i]["moves"].size(), rows[i]["length"].get<std::size_t>());
  }
  EXPECT_EQ(rows[3]["summary"], true);
  EXPECT_EQ(rows[3]["instances"], 3);
  EXPECT_EQ(rows[3]["solved"], 3);
  // Bad lines are refused before anything is solved; a start given beside the file too.
  const auto bad = (dir / "bad.txt").string();
  std::ofstream(bad) << starts[0] << "\nCORNERS 1 2\n";
  expect_clean(run_cli("solve perm:2x2x2 --batch " + bad + " --json"), 2, bad + ":2");
  expect_clean(run_cli("solve perm:2x2x2 --batch " + file + " --scramble R"), 2, "drop --scramble");
  expect_clean(run_cli("solve perm:2x2x2 --batch " + file + " --all"), 2, "drop --all");
  std::filesystem::remove_all(dir);
}

TEST(PermCli, BadInput) {
  const std::string path = testing::TempDir() + "perm_bad.tws";
  std::ofstream(path) << "Name t\nSet A 3 2\nSolved\nA\n1 2 3\nEnd\nMove M\nA\n1 1 3\nEnd\n";
  expect_refused("show perm:" + path, path + ":9: ");
  EXPECT_EQ(run_cli("solve perm:2x2x2 --scramble \"R Q\"").code, 2);
  EXPECT_EQ(run_cli("solve perm:2x2x2 --moves U,Q --scramble R").code, 2);
  EXPECT_EQ(run_cli("solve perm:2x2x2 --metric ftm --scramble R").code, 2);
  EXPECT_EQ(run_cli("solve perm:nosuch --scramble R").code, 2);
  EXPECT_EQ(run_cli("solve perm:2x2x2 --start \"CORNERS 1 2 3\"").code, 2);
  EXPECT_EQ(run_cli("explore perm:2x2x2 --memory 1M").code, 2);  // refused before starting
}
