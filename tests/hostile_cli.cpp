// Hostile input, as a new user (or a fuzzer) would try it (issue 17): every case must end
// with its exit code, exactly one line on stderr and nothing on stdout; files go through
// the one input layer (core/input.h: regular files only, a size limit tied to --memory,
// the deadline checked while reading, bytes printed safely).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "blocks/board.h"
#include "cli_util.h"
#include "square_sum/squares.h"
#include "tansaku/core/deadline.h"
#include "tansaku/core/error.h"
#include "tansaku/core/input.h"

namespace {

namespace fs = std::filesystem;


// Address space for a child run: the budget given with --memory plus room for the binary,
// its libraries and the thread stacks. A run that allocates beyond its budget gets
// std::bad_alloc ("out of memory") instead of the refusal the tests expect.
// Under AddressSanitizer (the asan preset) the shadow memory needs terabytes of address
// space, so no limit is set there: the refusals are still checked, before any allocation.
std::string vm_limit(std::uint64_t mib) {
#ifdef TANSAKU_TEST_SANITIZED
  (void)mib;
  return "";
#else
  return "ulimit -v " + std::to_string(mib * 1024) + ";";
#endif
}

class Hostile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("tansaku_hostile_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string file(const std::string& name, const std::string& content) const {
    const fs::path p = dir_ / name;
    std::ofstream(p, std::ios::binary) << content;
    return p.string();
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  fs::path dir_;
};

const char* kReversed15 = "\"0 15 14 13 12 11 10 9 8 7 6 5 4 3 2 1\"";

}  // namespace

// 1. --threads: any whole number is clamped to the cores (no TBB warning); beyond the parse
// bound (1048576) it is refused, naming the bound (issue 37: README promises the clamp).
TEST_F(Hostile, ThreadsOutOfRange) {
  expect_clean(run_cli(std::string("solve 15-puzzle --start ") + kReversed15 + " --threads 2000000"), 2,
               "at most 1048576");
  expect_clean(run_cli("solve 8-puzzle --threads 99999999999999999999999"), 2, "--threads");
  expect_clean(run_cli("bench --threads 2000000"), 2, "--threads");
  expect_clean(run_cli("pdb build 8-puzzle --threads 2000000 --dir " + path("pdb")), 2, "--threads");
  for (const char* n : {"200", "50000"}) {
    auto ok = run_cli(std::string("solve 8-puzzle --threads ") + n + " --quiet --json");
    EXPECT_EQ(ok.code, 0);
    EXPECT_EQ(ok.err, "");
    EXPECT_EQ(ok.json()["length"], 31);
  }
}

// 2. Devices and FIFOs are refused before a byte is read (they would never end, or block).
TEST_F(Hostile, DevicesAndFifosAreNotFiles) {
  expect_clean(run_cli("solve flip:4x4 --start @/dev/zero"), 2, "is a character device");
  expect_clean(run_cli("solve peg:/dev/zero --timeout 10"), 2, "is a character device");
  expect_clean(run_cli("solve coloring:/dev/zero"), 2, "is a character device");
  expect_clean(run_cli("solve 8-puzzle --batch /dev/zero"), 2, "is a character device");
  const std::string fifo = path("board.fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  expect_clean(run_cli("solve peg:" + fifo), 2, "FIFO");
  expect_clean(run_cli("solve flip:4x4 --goal @" + fifo), 2, "FIFO");
}

// 2. A file is read whole only within a quarter of --memory.
TEST_F(Hostile, FileSizeFollowsTheMemoryBudget) {
  const std::string board = file("big.txt", "lattice: square\n" + std::string(20000, '#') + "\no o o\n");
  expect_clean(run_cli("solve peg:" + board + " --memory 64K"), 2, "larger than 16.0 KiB");
  const std::string batch = file("big-batch.txt", std::string(30000, '#') + "\n8 6 7 2 5 4 3 0 1\n");
  expect_clean(run_cli("solve 8-puzzle --batch " + batch + " --memory 64K"), 2, "larger than 16.0 KiB");
  const std::string grid = file("grid.txt", "1111\n1111\n1111\n1111\n" + std::string(30000, ' '));
  expect_clean(run_cli("solve flip:4x4 --start @" + grid + " --memory 64K"), 2, "larger than 16.0 KiB");
  // Within the budget the same files are read.
  EXPECT_EQ(run_cli("solve 8-puzzle --batch " + batch + " --quiet").code, 0);
}

// 2. The deadline is checked while a file is read.
TEST_F(Hostile, DeadlineWhileReading) {
  const std::string f = file("x.txt", "lattice: square\no o o\n");
  tansaku::Deadline d(1e-6);
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  EXPECT_THROW(tansaku::read_file(f, "board file", 1 << 30, &d), tansaku::LimitError);
  EXPECT_EQ(tansaku::read_file(f, "board file", 1 << 30, nullptr), "lattice: square\no o o\n");
}

// 3. A flip board too large for the budget is refused before anything is allocated.
TEST_F(Hostile, FlipRefusedBeforeItStarts) {
  expect_clean(run_sh(vm_limit(900), "solve flip:16384x16384 --memory 1G"), 2, "needs");
  expect_clean(run_sh(vm_limit(900), "show flip:16384x16384 --memory 1G"), 2, "needs");
}

// 4. The report (moves as JSON and text) counts against --memory.
TEST_F(Hostile, KnightTourReportCountsAgainstMemory) {
  expect_clean(run_cli("solve knight-tour:5000x5000 --memory 1.13G --json"), 2, "needs");
  // A board that is accepted stays within its budget, JSON included.
  auto r = run_sh(vm_limit(1200), "solve knight-tour:1000x1000 --memory 400M --json --quiet");
  EXPECT_EQ(r.code, 0) << r.err;
}

// 5. square-sum: the degrees cost O(1) each and the deadline holds for large N.
TEST_F(Hostile, SquareSumLargeNRespectsTheDeadline) {
  expect_clean(run_cli("solve square-sum --n 20000000 --timeout 0.5"), 3, "time limit");
  auto r = run_cli("show square-sum --n 20000000 --json");
  EXPECT_EQ(r.code, 0) << r.err;
  for (int n : {1, 2, 15, 50, 333})
    for (int v = 1; v <= n; ++v) {
      int d = 0;
      tansaku::square_sum::for_each_neighbour(n, v, [&](int) { ++d; });
      EXPECT_EQ(tansaku::square_sum::degree(n, v), d) << n << " " << v;
    }
}

// 6. --timeout must be a finite number of seconds in (0, 1e9].
TEST_F(Hostile, TimeoutValues) {
  for (const char* t : {"1e10", "inf", "nan", "0", "-1", "1s", "\"\""})
    expect_clean(run_cli(std::string("solve 8-puzzle --timeout ") + t), 2, "--timeout");
}

// 7. Bytes that are not UTF-8 are refused at input (they would break the JSON output).
TEST_F(Hostile, InvalidUtf8IsRefusedAtInput) {
  expect_clean(run_cli("solve 8-puzzle --start \"$(printf '\\377 2 3 4 5 6 7 8 0')\" --goal \"1 2 3 4 5 6 7 8 0\" --json"), 2,
               "not valid UTF-8");
  file("\xff.txt", "lattice: square\no o .\n");
  expect_clean(run_cli("solve \"peg:$(printf '" + path("") + "\\377.txt')\" --json"), 2, "not valid UTF-8");
  const std::string batch = file("b.txt", "8 6 7 2 5 4 3 0 1\n1 2 3 4 5 6 7 8 0\n\xff 1 2 3 4 5 6 7 8 0\n");
  expect_clean(run_cli("solve 8-puzzle --batch " + batch + " --json"), 2, "line 3 column 1");
  // A bad instance late in the file: nothing is printed before the error.
  const std::string late = file("late.txt", "8 6 7 2 5 4 3 0 1\n1 2 3 4 5 6 7 8 0\n1 2 3 4 5 6 7 8 x\n");
  expect_clean(run_cli("solve 8-puzzle --batch " + late + " --json"), 2, late + ":3");
}

// 8. An impossible --dir is bad input, found before any table is built.
TEST_F(Hostile, PdbBuildIntoImpossibleDir) {
  expect_clean(run_cli("pdb build 8-puzzle --dir /dev/null/x"), 2, "--dir /dev/null/x");
}

// 9. A failed write of the output is an error (exit 4), not a success.
TEST_F(Hostile, FailedWriteIsAnError) {
  auto r = run_sh("", "solve 8-puzzle --quiet", "/dev/full");
  EXPECT_EQ(r.code, 4);
  EXPECT_NE(r.err.find("cannot write the output"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

// 10. --groups "" is refused, not read as "the default tables".
TEST_F(Hostile, PdbEmptyGroups) {
  expect_clean(run_cli("pdb build 15-puzzle --groups \"\" --dir " + path("pdb")), 2, "--groups");
  EXPECT_FALSE(fs::exists(path("pdb")) && !fs::is_empty(path("pdb")));
}

// 11. Bytes from files reach messages escaped: no terminal escape, no cut at a NUL.
TEST_F(Hostile, MessagesEscapeFileBytes) {
  const std::string col = file("esc.col", "p edge 3 1\n\x1b[31mred\n");
  auto r = run_cli("solve coloring:" + col);
  expect_clean(r, 2, "line 2 column 1: control character \\x1b");
  EXPECT_EQ(r.err.find('\x1b'), std::string::npos);
  const std::string peg = file("nul.txt", std::string("lattice: square\no o\0o\n", 22));
  r = run_cli("solve peg:" + peg);
  expect_clean(r, 2, "line 2 column 4: control character \\x00 (a text file in UTF-8 was expected)");
  EXPECT_EQ(tansaku::printable(std::string("a\0b\x1b[1m\xff\n", 9)), "a\\x00b\\x1b[1m\\xff\\n");
}

// 12. A directory is not a file.
TEST_F(Hostile, DirectoryIsNotAFile) {
  const std::string d = dir_.string();
  expect_clean(run_cli("solve peg:" + d), 2, "is a directory");
  expect_clean(run_cli("solve peg --file " + d), 2, "is a directory");
  expect_clean(run_cli("solve 8-puzzle --batch " + d), 2, "is a directory");
  expect_clean(run_cli("solve flip:4x4 --start @" + d), 2, "is a directory");
  expect_clean(run_cli("solve coloring:" + d + "/"), 2, "is a directory");
}

// 13. A key given twice in a board file is refused, not "the last wins".
TEST_F(Hostile, PegBoardRepeatedKey) {
  const std::string two = file("two.txt", "lattice: square\nlattice: triangular\no o o\n");
  expect_clean(run_cli("solve peg:" + two), 2, "line 2: a second 'lattice:' line (the first is line 1)");
  const std::string names = file("names.txt", "name: a\nlattice: square\nname: b\no o o\n");
  expect_clean(run_cli("show peg:" + names), 2, "line 3: a second 'name:' line");
}

// 14. pdb list of a directory that does not exist.
TEST_F(Hostile, PdbListMissingDir) {
  expect_clean(run_cli("pdb list --dir " + path("nonexistent")), 2, "no such directory");
}

// Also: a 16-byte DIMACS header cannot claim gigabytes, and the declared edge count does
// not reserve memory the file does not hold.
TEST_F(Hostile, DimacsHeaderCannotClaimMemory) {
  expect_clean(run_cli("solve coloring:" + file("big.col", "p edge 200000 0\n")), 2, "at most 65536");
  auto r = run_sh(vm_limit(600), "show coloring:" + file("claims.col", "p edge 10 50000000\ne 1 2\n") + " --json");
  EXPECT_EQ(r.code, 0) << r.err;
}

// Also: knight-swap on a big board: the breadth-first searches, which may store every
// arrangement, are refused before they start; IDA* and IDDFS (which keep only a bounded table of
// proven bounds) run within the budget: IDA* answers (its heuristic is exact here), IDDFS runs
// to its deadline.
TEST_F(Hostile, KnightSwapRefusedBeforeItStarts) {
  expect_clean(run_sh(vm_limit(700), "solve knight-swap:8x8"), 2, "arrangements");
  expect_clean(run_sh(vm_limit(700), "solve knight-swap:8x8 --count"), 2, "arrangements");
  const auto ida = run_sh(vm_limit(700), "solve knight-swap:8x8 --algorithm idastar --timeout 60 --json");
  ASSERT_EQ(ida.code, 0) << ida.err;
  EXPECT_EQ(ida.json()["length"], 64);
  expect_clean(run_sh(vm_limit(700), "solve knight-swap:8x8 --algorithm iddfs --timeout 0.5"), 3, "time limit");
}

// Found by fuzz_states: a size of 2^64 bytes or more was converted with undefined behaviour.
TEST_F(Hostile, MemorySizeBeyondSixtyFourBits) {
  for (const char* m : {"18446744073709551615", "18446744073709551616", "1e30", "17179869184G"})
    expect_clean(run_cli(std::string("solve 8-puzzle --memory ") + m), 2, "too large");
}

// Found by fuzz_blocks_board: a Knuth-format text with nothing but comments read the first
// line of an empty list (undefined behaviour); the CLI never passes such a text, the
// library refuses it.
TEST_F(Hostile, KnuthPictureWithoutLines) {
  EXPECT_THROW(tansaku::blocks::parse_knuth("; Knuth's own small example\n; nothing else\n", "k.txt"),
               tansaku::InputError);
  EXPECT_THROW(tansaku::blocks::parse_knuth("", "k.txt"), tansaku::InputError);
  // ... and a size of ten digits overflowed an int before it was checked.
  EXPECT_THROW(tansaku::blocks::parse_knuth("1111111111 x 4\n", "k.txt"), tansaku::InputError);
}
