// Issue 37 ("Reliability, fourth pass"): the command-line defects an independent red team
// found, each as a user meets it, and checks of the classes behind them (every generated move
// name unique, files read through the one checked path, long loops polling --timeout, memory
// counted before it is allocated, IDA* that finishes where the domain repeats positions).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_util.h"

namespace {

namespace fs = std::filesystem;

// A fresh directory for this test program's files.
fs::path temp_dir() {
  static const fs::path d = [] {
    fs::path p = fs::temp_directory_path() / ("tansaku_red_" + std::to_string(::getpid()));
    fs::create_directories(p);
    return p;
  }();
  return d;
}

std::string temp_file(const std::string& name, const std::string& text) {
  const fs::path p = temp_dir() / name;
  std::ofstream(p, std::ios::binary) << text;
  return p.string();
}

// A one-set puzzle of four pieces with the moves given (each a Move block).
std::string tws(const std::string& moves, const std::string& solved = "1 2 3 4") {
  return "Name t\nSet P 4 1\nSolved\nP\n" + solved + "\nEnd\n" + moves;
}
const std::string kCycle = "P\n2 3 4 1\nEnd\n";  // order 4
const std::string kSwap = "P\n2 1 3 4\nEnd\n";   // order 2

// 1. A base move R2 beside R (order 4, whose square is written R2): refused, naming both.
TEST(RedTeam, PermGeneratedMoveNamesAreUnique) {
  const auto file = temp_file("collide.tws", tws("Move R\n" + kCycle + "Move R2\n" + kSwap));
  const auto r = run_cli("show perm:" + file);
  expect_clean(r, 2, "are both written 'R2'");
  EXPECT_NE(r.err.find("power 2 of move 'R'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("move 'R2' (line"), std::string::npos) << r.err;
  // R' as a base name beside R (order 4: its inverse is written R').
  expect_refused("show perm:" + temp_file("prime.tws", tws("Move R\n" + kCycle + "Move R'\n" + kSwap)),
                 "are both written 'R''");
  // Distinct spellings load: R (order 4) and R3 (order 2: written R3 only).
  const auto ok =
      run_cli("show perm:" + temp_file("fine.tws", tws("Move R\n" + kCycle + "Move R3\n" + kSwap)) + " --json");
  EXPECT_EQ(ok.code, 0) << ok.err;
  // Names that could not be read back: a comma in a move name, a set name that reads as a number.
  expect_refused("show perm:" + temp_file("comma.tws", tws("Move R,U\n" + kCycle)), "must not hold a comma");
  expect_refused("show perm:" + temp_file("digit.tws", "Set 3P 2 1\nSolved\nEnd\nMove M\n3P\n2 1\nEnd\n"),
                 "must not start with a digit");
}

// 1 (the solution read back): with unique names a printed solution replays.
TEST(RedTeam, PermSolutionReadsBack) {
  const auto file = temp_file("readback.tws", tws("Move R\n" + kCycle + "Move S\n" + kSwap));
  const auto r = run_cli("solve perm:" + file + " --scramble \"R2 S R'\" --json");
  ASSERT_EQ(r.code, 0) << r.err;
  std::string solution;
  const auto j = r.json();
  for (const auto& m : j["moves"]) {
    if (!solution.empty()) solution += ' ';
    solution += m.get<std::string>();
  }
  ASSERT_FALSE(solution.empty());
  const auto back = run_cli("solve perm:" + file + " --scramble \"R2 S R' " + solution + "\" --json");
  ASSERT_EQ(back.code, 0) << back.err;
  EXPECT_EQ(back.json()["length"], 0);
}

// 7. Solved rows must number the pieces 1..k with none left out, as twsearch reads them.
TEST(RedTeam, PermNonContiguousPiecesRefused) {
  expect_refused("show perm:" + temp_file("gap.tws", "Set P 3 1\nSolved\nP\n1 3 3\nEnd\nMove M\nP\n2 1 3\nEnd\n"),
                 "none left out (2 is missing)");
  expect_refused("show perm:" + temp_file("from2.tws", "Set P 3 1\nSolved\nP\n2 2 3\nEnd\nMove M\nP\n2 1 3\nEnd\n"),
                 "(1 is missing)");
  // Repeated pieces that leave no gap load.
  const auto ok =
      run_cli("show perm:" + temp_file("rep.tws", "Set P 3 1\nSolved\nP\n1 2 2\nEnd\nMove M\nP\n2 1 3\nEnd\n"));
  EXPECT_EQ(ok.code, 0) << ok.err;
}

// 2. The colouring solvers' copies of the graph are counted against --memory before they are
// made: a graph that fits once but not twice stops cleanly instead of taking twice the budget.
TEST(RedTeam, ColoringCountsItsCopies) {
  const auto g = temp_file("wide.col", "p edge 8192 1\ne 1 8192\n");  // an 8 MiB bit matrix
  const auto tight = run_cli("solve coloring:" + g + " --memory 12M");
  expect_clean(tight, 3, "memory budget");
  const auto room = run_cli("solve coloring:" + g + " --memory 64M --json");
  ASSERT_EQ(room.code, 0) << room.err;
  EXPECT_EQ(room.json()["chromatic_number"], 2);
}

// 4. A symbolic link loop is bad input (exit 2, named), for every family that probes a path.
TEST(RedTeam, SymlinkLoopIsBadInput) {
  const fs::path loop = temp_dir() / "loop";
  std::error_code ec;
  fs::remove(loop, ec);
  fs::create_symlink("loop", loop);
  const std::string in_dir = "cd '" + temp_dir().string() + "' &&";
  for (const std::string args : {"solve coloring:loop", "solve coloring --file loop", "solve peg:loop",
                                 "show perm:loop", "show perm:./loop", "show blocks:./loop", "solve coloring:./loop"}) {
    const auto r = run_sh(in_dir, args);
    EXPECT_EQ(r.code, 2) << args << ": " << r.err;
    EXPECT_TRUE(refused_cleanly(r, "", 2)) << args;
    EXPECT_EQ(r.err.find("filesystem error"), std::string::npos) << args << ": " << r.err;
  }
  expect_refused("solve coloring:" + loop.string(), "symbolic links");
}

// 5. random polls the deadline while it generates.
TEST(RedTeam, RandomKeepsTheTimeout) {
  for (const std::string p : {"perm:3x3x3", "8-puzzle", "flip:5x5", "rotating-slide"})
    expect_clean(run_cli("random " + p + " --count 1000000 --timeout 0.02"), 3, "time limit");
}

// 6. --threads takes any whole number (clamped to the cores); the parse bound is stated.
TEST(RedTeam, ThreadsAboveTheCoresAreClamped) {
  for (const std::string n : {"257", "1000", "65536"}) {
    const auto r = run_cli("solve 8-puzzle --threads " + n + " --json");
    ASSERT_EQ(r.code, 0) << n << ": " << r.err;
    EXPECT_EQ(r.json()["length"], 31);
  }
  expect_refused("solve 8-puzzle --threads 99999999999999999999999",
                 "--threads 99999999999999999999999 is too large (at most");
}

// 8. --seed takes the whole 64-bit range; beyond it the limit is stated.
TEST(RedTeam, SeedTakesTheFullRange) {
  const auto r = run_cli("random 8-puzzle --seed 18446744073709551615 --count 2 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.json()["seed"].get<std::uint64_t>(), 18446744073709551615ULL);
  EXPECT_EQ(r.json()["positions"].size(), 2u);
  expect_refused("random 8-puzzle --seed 18446744073709551616", "at most 18446744073709551615");
  expect_refused("random 8-puzzle --seed -1", "is not a whole number");
}

// 9. knight-swap's IDA* and IDDFS finish: an unsolvable 3x3 board (56 positions) is proved so,
// and the 17-move case on 4x3 is solved optimally (both keep a table of proven bounds).
TEST(RedTeam, KnightSwapIdaFinishes) {
  for (const std::string a : {"idastar", "iddfs"}) {
    const auto u = run_cli("solve knight-swap:3x3 --start '1 0 2 0 0 0 0 0 0' --goal '0 0 0 0 1 0 0 0 2' --algorithm " +
                           a + " --timeout 120 --json");
    ASSERT_EQ(u.code, 1) << a << ": " << u.err;
    EXPECT_FALSE(u.json()["solvable"].get<bool>());
    const std::string inst = "--start '2 2 0 1 0 2 0 1 0 2 0 2' --goal '0 1 2 0 0 2 2 2 0 2 0 1'";
    const auto s = run_cli("solve knight-swap:4x3 " + inst + " --algorithm " + a + " --timeout 120 --json");
    ASSERT_EQ(s.code, 0) << a << ": " << s.err;
    EXPECT_EQ(s.json()["length"], 17) << a;
    // --count: the table's search settles the cost, then the plain search counts at it.
    const auto c = run_cli(
        "solve knight-swap:3x3 --start '1 0 0 0 0 0 0 0 2' --goal '2 0 0 0 0 0 0 0 1' --count "
        "--algorithm " +
        a + " --timeout 120 --json");
    const auto b =
        run_cli("solve knight-swap:3x3 --start '1 0 0 0 0 0 0 0 2' --goal '2 0 0 0 0 0 0 0 1' --count --json");
    ASSERT_EQ(c.code, 0) << a << ": " << c.err;
    ASSERT_EQ(b.code, 0) << b.err;
    EXPECT_EQ(c.json()["count"], b.json()["count"]) << a;
    EXPECT_EQ(c.json()["length"], b.json()["length"]) << a;
  }
}

// Instrumented builds (the asan and tsan presets) run several times slower, and their resident
// set holds the sanitizer's shadow memory and quarantine: the wall bound widens there, and the
// memory walk checks outcomes but not the peak.
#ifdef TANSAKU_TEST_SANITIZED
constexpr double kWallBound = 60.0;
constexpr bool kPeakIsTheProgram = false;
#else
constexpr double kWallBound = 10.0;
constexpr bool kPeakIsTheProgram = true;
#endif

// The class behind 5: every long loop polls the deadline. A walk over the registry's families
// with `random`, `show`, `explore`, `solve` and `pdb` on large inputs under --timeout 0.2: each stops
// with exit 3 (a show may also finish) and promptly. The wall bound is generous (a shared,
// loaded machine): it tells a kept deadline from one ignored for seconds (random once printed a
// million lines).
TEST(RedTeam, RegistryKeepsTimeouts) {
  const std::string hard24 = "'11 19 3 15 18 22 7 8 2 1 23 5 4 17 14 10 9 24 16 6 20 12 21 0 13'";
  const std::string superflip = "'U R2 F B R B2 R U2 L B2 R U2 L B2 R U2 L B2 R U2 F R L'";
  const std::vector<std::string> stops = {
      // random: a million positions each, stopped sooner (a fast machine draws a million
      // positions of the rotating slide in a fifth of a second)
      "random 24-puzzle --count 1000000 --timeout 0.02", "random rotating-slide --count 1000000 --timeout 0.02",
      "random perm:3x3x3 --count 1000000 --timeout 0.02", "random peg:english --count 1000000 --timeout 0.02",
      "random flip:9x9 --count 1000000 --timeout 0.02", "random blocks:century --count 1000000 --timeout 0.02",
      "random knight-swap:5x4 --count 1000000 --timeout 0.02",
      // solve: long searches of every family
      "solve 24-puzzle --start " + hard24, "solve rotating-slide --count", "solve perm:3x3x3 --scramble " + superflip,
      "solve peg:english", "solve blocks:century --distinct --algorithm idastar", "solve coloring:myciel6",
      "solve coloring:queen8_8 --count", "solve knight-tour:8x8 --count", "solve knight-swap:5x4 --count",
      "solve square-sum --n 60 --count",
      // explore: spaces far larger than 0.2 s (those a fast machine explores in about a second
      // stopped sooner)
      "explore sliding:3x4", "explore perm:2x2x2 --timeout 0.05", "explore peg:english",
      "explore blocks:century --distinct --timeout 0.05", "explore knight-swap:5x4 --timeout 0.05",
      // pdb: pattern databases of sliding and perm, into a directory of their own
      "pdb build 15-puzzle --dir " + (temp_dir() / "pdb").string(),
      "pdb build perm:3x3x3 --memory 3G --dir " + (temp_dir() / "pdb").string()};
  const std::vector<std::string> finish = {
      "show perm:3x3x3", "show coloring:queen8_8", "show peg:english",     "show sliding:6x6",
      "show flip:20x20", "show knight-tour:30x30", "show knight-swap:8x8", "show square-sum --n 1000000"};
  auto timed = [](const std::string& args) {
    const auto t0 = std::chrono::steady_clock::now();
    CliResult r = run_cli(args.find("--timeout") == std::string::npos ? args + " --timeout 0.2" : args);
    return std::make_pair(r, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  };
  for (const auto& args : stops) {
    const auto [r, seconds] = timed(args);
    SCOPED_TRACE(args);
    expect_clean(r, 3, "time limit");
    EXPECT_LT(seconds, kWallBound);
  }
  // A stopped build leaves no table and no temporary behind: only its partial state where the
  // builder can go on from it (NAME.partial, which `pdb verify` checks).
  std::error_code ec;
  if (fs::is_directory(temp_dir() / "pdb", ec)) {
    for (const auto& e : fs::directory_iterator(temp_dir() / "pdb"))
      if (e.path().extension() != ".partial") ADD_FAILURE() << "left behind: " << e.path();
    const CliResult v = run_cli("pdb verify --dir " + (temp_dir() / "pdb").string());
    EXPECT_EQ(v.code, 0) << v.out << v.err;
  }
  for (const auto& args : finish) {
    const auto [r, seconds] = timed(args);
    EXPECT_TRUE(r.code == 0 || r.code == 3) << args << ": exit " << r.code << " " << r.err;
    EXPECT_LT(seconds, kWallBound) << args;
  }
}

// Runs `args` as run_cli does, in a child process of its own so that RUSAGE_CHILDREN holds this
// run alone: (exit code, stderr, the peak resident set of the program in bytes).
struct Measured {
  int code = -1;
  std::string err;
  std::uint64_t peak = 0;
};
Measured run_measured(const std::string& args) {
  int fd[2];
  if (::pipe(fd) != 0) return {};
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fd[0]);
    const CliResult r = run_cli(args);
    rusage u{};
    ::getrusage(RUSAGE_CHILDREN, &u);
    const std::string msg = std::to_string(r.code) + " " + std::to_string(u.ru_maxrss) + "\n" + r.err;
    (void)!::write(fd[1], msg.data(), msg.size());
    ::_exit(0);
  }
  ::close(fd[1]);
  std::string text;
  char buf[4096];
  for (ssize_t n; (n = ::read(fd[0], buf, sizeof buf)) > 0;) text.append(buf, static_cast<std::size_t>(n));
  ::close(fd[0]);
  ::waitpid(pid, nullptr, 0);
  Measured m;
  const auto nl = text.find('\n');
  if (nl == std::string::npos) return m;
  long long kb = 0;
  if (std::sscanf(text.c_str(), "%d %lld", &m.code, &kb) != 2) return m;
  m.peak = static_cast<std::uint64_t>(kb) * 1024;
  m.err = text.substr(nl + 1);
  return m;
}

// The class behind 2: what grows with the input is counted against --memory before it is
// allocated. A walk with small budgets and large inputs: whatever the outcome (an answer, a
// refusal, a limit), the program's peak resident set stays within the budget plus the
// program's own size (its code, libraries and thread stacks: 24 MiB allowed).
TEST(RedTeam, MemoryBudgetWalk) {
  constexpr std::uint64_t kMiB = 1 << 20, kOwn = 24 * kMiB;
  const auto wide = temp_file("wide_walk.col", "p edge 8192 1\ne 1 8192\n");
  const std::string hard24 = "'11 19 3 15 18 22 7 8 2 1 23 5 4 17 14 10 9 24 16 6 20 12 21 0 13'";
  const std::vector<std::pair<std::string, std::uint64_t>> walk = {
      {"solve coloring:" + wide, 12},
      {"random 24-puzzle --count 1000000", 64},
      {"random rotating-slide --count 1000000", 64},
      {"random knight-swap:4x3 --count 1000000", 64},
      {"random perm:3x3x3 --count 1000000", 64},
      {"random flip:9x9 --count 1000000", 64},
      {"random peg:english --count 10", 64},
      {"random blocks:century --count 100000", 64},
      {"explore sliding:3x4", 64},
      {"explore perm:2x2x2", 32},
      {"explore peg:english", 64},
      {"explore blocks:century", 32},
      {"solve peg:english", 64},
      {"solve 24-puzzle --start " + hard24, 64},
  };
  for (const auto& [args, mib] : walk) {
    const auto m = run_measured(args + " --memory " + std::to_string(mib) + "M --timeout 2");
    SCOPED_TRACE(args);
    EXPECT_TRUE(m.code >= 0 && m.code <= 3) << "exit " << m.code << ": " << m.err;
    EXPECT_EQ(m.err.find("internal error"), std::string::npos) << m.err;
    EXPECT_GT(m.peak, 0u);
    if (kPeakIsTheProgram) {
      EXPECT_LE(m.peak, mib * kMiB + kOwn)
          << "peak " << (m.peak >> 20) << " MiB under --memory " << mib << "M: " << m.err;
    }
  }
}

}  // namespace
