// --svg / --html on the command line (cli/pictures.h): the files are well-formed and
// self-contained, the player's frames decode, a family without pictures and an unwritable
// file are refused before any work (exit 2, nothing on stdout), and a file is written only
// once the result is in (a timeout leaves none behind).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "cli_util.h"
#include "xml_check.h"

namespace {

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}
bool exists(const std::string& path) { return ::access(path.c_str(), F_OK) == 0; }

struct TempDir {
  std::string path;
  TempDir() {
    char tmpl[] = "/tmp/tansaku-render-XXXXXX";
    path = mkdtemp(tmpl);
  }
  ~TempDir() { std::system(("rm -rf '" + path + "'").c_str()); }
  std::string operator/(const std::string& name) const { return path + "/" + name; }
};

nlohmann::json player_json(const std::string& html) {
  const std::string open = "<script type=\"application/json\">";
  const auto a = html.find(open);
  if (a == std::string::npos) return nullptr;
  const auto b = html.find("</script>", a);
  return parse_json(html.substr(a + open.size(), b - a - open.size()));
}

void expect_self_contained(const std::string& html) {
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_EQ(html.find("src="), std::string::npos);
  EXPECT_EQ(html.find("href="), std::string::npos);
  EXPECT_EQ(html.find("url("), std::string::npos);
  std::string rest = html;
  for (const std::string ns : {"xmlns=\"http://www.w3.org/2000/svg\"", "xmlns=\\\"http://www.w3.org/2000/svg\\\""})
    for (std::size_t k; (k = rest.find(ns)) != std::string::npos;) rest.erase(k, ns.size());
  EXPECT_EQ(rest.find("http:"), std::string::npos);
  EXPECT_EQ(rest.find("https:"), std::string::npos);
}

}  // namespace

TEST(RenderCli, SolveWritesTheLastPositionAndThePlayer) {
  TempDir dir;
  auto r = run_cli("solve 8-puzzle --quiet --json --svg " + dir / "a.svg" + " --html " + dir / "a.html");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto report = r.json();  // the report is still printed
  ASSERT_EQ(report["length"], 31);
  const std::string svg = slurp(dir / "a.svg");
  EXPECT_EQ(xml_problem(svg), "") << svg;
  const std::string html = slurp(dir / "a.html");
  expect_self_contained(html);
  const auto data = player_json(html);
  ASSERT_EQ(data["frames"].size(), 32u);
  ASSERT_EQ(data["labels"].size(), 31u);
  for (std::size_t i = 0; i < 31; ++i) EXPECT_EQ(data["labels"][i], report["moves"][i]);
  for (const auto& f : data["frames"]) EXPECT_EQ(xml_problem(f.get<std::string>()), "");
  // --svg is the last frame: the goal.
  EXPECT_EQ(svg, data["frames"][31].get<std::string>() + "\n");
  // The same goal drawn by `show --svg` with the goal as the start (less the last slide's
  // highlight, data-mark: render/page.h).
  auto g = run_cli("show 8-puzzle --start \"1 2 3 4 5 6 7 8 0\" --svg -");
  ASSERT_EQ(g.code, 0) << g.err;
  std::string unmarked = svg;
  for (std::size_t k; (k = unmarked.find(" data-mark=\"1\"")) != std::string::npos;) {
    const std::size_t open = unmarked.rfind('<', k), close = unmarked.find("/>", k);
    unmarked.erase(open, close + 2 - open);
  }
  EXPECT_EQ(g.out, unmarked);
}

TEST(RenderCli, StdoutTakesOnlyThePicture) {
  auto r = run_cli("show 15-puzzle --start \"1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15\" --svg -");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("<svg", 0), 0u);
  EXPECT_EQ(xml_problem(r.out), "");
  auto h = run_cli("solve 8-puzzle --quiet --html -");
  ASSERT_EQ(h.code, 0) << h.err;
  EXPECT_EQ(h.out.rfind("<!doctype html>", 0), 0u);
  EXPECT_EQ(h.out.find("moves:"), std::string::npos);  // no text report mixed in
  expect_refused("solve 8-puzzle --json --svg -", "cannot share stdout");
  expect_refused("solve 8-puzzle --svg - --html -", "same file");
}

TEST(RenderCli, UnsolvableDrawsTheStartAndExitsOne) {
  TempDir dir;
  auto r = run_cli("solve 8-puzzle --start \"2 1 3 4 5 6 7 8 0\" --quiet --html " + dir / "u.html");
  EXPECT_EQ(r.code, 1) << r.err;
  const auto data = player_json(slurp(dir / "u.html"));
  EXPECT_EQ(data["frames"].size(), 1u);
  EXPECT_EQ(data["labels"].size(), 0u);
}

TEST(RenderCli, ExploreAndBatchPages) {
  TempDir dir;
  auto e = run_cli("explore sliding:2x3 --quiet --farthest 3 --html " + dir / "e.html");
  ASSERT_EQ(e.code, 0) << e.err;
  const std::string html = slurp(dir / "e.html");
  expect_self_contained(html);
  std::size_t bars = 0, figures = 0;
  for (std::size_t k = 0; (k = html.find("class=\"bar\"", k)) != std::string::npos; ++k) ++bars;
  for (std::size_t k = 0; (k = html.find("<figure>", k)) != std::string::npos; ++k) ++figures;
  EXPECT_EQ(bars, 22u);  // 2x3: depths 0..21
  EXPECT_EQ(figures, 1u);  // the one position at depth 21
  {
    std::ofstream f(dir / "b.txt");
    f << "8 6 7 2 5 4 3 0 1\n1 2 3 4 5 6 7 0 8\n2 1 3 4 5 6 7 8 0\n";
  }
  auto b = run_cli("solve 8-puzzle --quiet --batch " + dir / "b.txt" + " --html " + dir / "b.html");
  EXPECT_EQ(b.code, 1) << b.err;  // one instance has no solution
  const std::string page = slurp(dir / "b.html");
  expect_self_contained(page);
  std::size_t rows = 0;
  for (std::size_t k = 0; (k = page.find("<tr", k)) != std::string::npos; ++k) ++rows;
  EXPECT_GE(rows, 4u);  // the header and three instances (+ the summary's fields)
  EXPECT_NE(page.find("class=\"unsolved\""), std::string::npos);
  EXPECT_NE(page.find(">31<"), std::string::npos);
  expect_refused("solve 8-puzzle --batch " + dir / "b.txt" + " --svg " + dir / "x.svg", "--batch");
  EXPECT_FALSE(exists(dir / "x.svg"));
}

TEST(RenderCli, MisuseAndUnwritableFilesAreRefusedBeforeAnyWork) {
  TempDir dir;
  expect_refused("explore 8-puzzle --svg " + dir / "x.svg", "--svg applies to show and solve");
  expect_refused("solve 8-puzzle --svg " + dir / "nodir/x.svg", "cannot write --svg file");
  expect_refused("solve 8-puzzle --html " + dir.path, "cannot write --html file");
  expect_refused("solve 8-puzzle --svg \"\"", "--svg needs a file name");
  EXPECT_FALSE(exists(dir / "x.svg"));
  // Checked before the search: a hard 24-puzzle would take hours.
  auto r = run_cli("solve 24-puzzle --start \"0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24\" --goal "
                   "\"24 23 22 21 20 19 18 17 16 15 14 13 12 11 10 9 8 7 6 5 4 3 2 1 0\" --html " + dir / "nodir/x.html");
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(r.out.empty());
}

TEST(RenderCli, ATimeoutLeavesNoFileBehind) {
  TempDir dir;
  auto r = run_cli("solve 24-puzzle --quiet --timeout 0.3 --algorithm idastar --start \"0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 "
                   "18 19 20 21 22 23 24\" --goal \"24 23 22 21 20 19 18 17 16 15 14 13 12 11 10 9 8 7 6 5 4 3 2 1 0\" --html " +
                   dir / "t.html");
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_FALSE(exists(dir / "t.html"));
  // An existing file is left as it was.
  { std::ofstream(dir / "keep.html") << "old"; }
  r = run_cli("solve 24-puzzle --quiet --timeout 0.3 --algorithm idastar --start \"0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 "
              "18 19 20 21 22 23 24\" --goal \"24 23 22 21 20 19 18 17 16 15 14 13 12 11 10 9 8 7 6 5 4 3 2 1 0\" --html " +
              dir / "keep.html");
  EXPECT_EQ(r.code, 3);
  EXPECT_EQ(slurp(dir / "keep.html"), "old");
}

// Every builtin: `show --svg` draws a well-formed picture, or the family has none and says
// so before any work (exit 2, nothing on stdout, no file).
TEST(RenderCli, EveryBuiltinDraws) {
  TempDir dir;
  auto list = run_cli("list --json");
  ASSERT_EQ(list.code, 0);
  int drawn = 0;
  const auto puzzles = list.json()["puzzles"];
  for (const auto& p : puzzles) {
    const std::string name = p["name"];
    if (name.find(':') != std::string::npos && (name.find("RxC") != std::string::npos || name.find('N') + 1 == name.size() ||
                                                name.find("FILE") != std::string::npos))
      continue;  // a pattern such as sliding:RxC, not a puzzle
    const std::string file = dir / "p.svg";
    auto r = run_cli("show " + name + " --svg " + file);
    EXPECT_EQ(r.err.find("has no pictures"), std::string::npos) << name << ": every family draws";
    if (r.code != 0) {  // a builtin `show` that cannot run without more input
      std::printf("show %s: exit %d: %s", name.c_str(), r.code, r.err.c_str());
      continue;
    }
    ++drawn;
    EXPECT_EQ(xml_problem(slurp(file)), "") << name;
    std::remove(file.c_str());
  }
  EXPECT_GE(drawn, 20);
}
