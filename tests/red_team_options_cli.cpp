// The command-line defects a red team found in a fifth pass, each as a user meets it: options
// that took the next option as their value, were given twice, or were accepted and ignored;
// loops that did not poll --timeout on large boards; a memory budget below any search's
// least; messages in the parser's words or quoting a byte instead of the character.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "cli_util.h"

namespace {

namespace fs = std::filesystem;

fs::path temp_dir() {
  static const fs::path d = [] {
    fs::path p = fs::temp_directory_path() / ("tansaku_red_options_" + std::to_string(::getpid()));
    fs::create_directories(p);
    return p;
  }();
  return d;
}

// An option that takes a value, followed by another option: refused, naming both (it used to
// write a file named `--json`, or read `--json` as the start).
TEST(RedTeamOptions, AnOptionDoesNotTakeTheNextOptionAsItsValue) {
  const fs::path cwd = fs::current_path();
  fs::current_path(temp_dir());
  const auto r = run_cli("solve 8-puzzle --svg --json");
  fs::current_path(cwd);
  expect_clean(r, 2, "--svg needs a value, and the next argument is the option --json");
  EXPECT_FALSE(fs::exists(temp_dir() / "--json"));
  expect_refused("solve 8-puzzle --start --json", "--start needs a value");
  expect_refused("solve 8-puzzle --start --memory 2G", "--start needs a value");
  // A value that only looks like an option is no option: the family reads it.
  expect_refused("solve 8-puzzle --start=--frob", "start");
}

// The parser's own errors, said in the command's terms.
TEST(RedTeamOptions, ParseErrorsNameTheProblem) {
  expect_refused("solve 8-puzzle --memory 1K --memory 2G", "--memory is given more than once");
  expect_refused("solve 8-puzzle extra", "solve: unexpected argument 'extra'");
  expect_refused("pdb frob", "unknown pdb command 'frob'");
  expect_refused("pdb", "pdb needs a command");
  expect_refused("solve 8-puzzle --threads", "--threads needs a value");
  // The suggestion for a misspelt option is one the command has.
  const auto r = run_cli("list --jsn");
  expect_clean(r, 2, "did you mean '--json'");
  EXPECT_EQ(run_cli("list --bogus").err.find("--torus"), std::string::npos);
}

// Options that were accepted and did nothing: refused before any work.
TEST(RedTeamOptions, OptionsThatCannotApplyAreRefused) {
  expect_refused("solve knight-tour:5x5 --checkpoint " + (temp_dir() / "cp").string(), "--count --closed");
  expect_refused("solve knight-tour:5x8 --closed --count --checkpoint /etc/passwd", "not a directory that can be made");
  expect_refused("explore 8-puzzle --spill /etc/passwd", "--spill /etc/passwd: not a directory");
  expect_refused("pdb build 8-puzzle --dir ''", "--dir: an empty DIR names nothing");
  expect_refused("solve 2x2x2 --moves U,U --scramble U", "--moves: 'U' is named twice");
}

// `pdb build` takes the puzzle names `solve` takes.
TEST(RedTeamOptions, PdbBuildTakesAliases) {
  const auto r = run_cli("pdb build 2x2x2 --memory 1K --dir " + temp_dir().string());
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(r.err.find("name a permutation puzzle"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("memory budget"), std::string::npos) << r.err;
}

// random on a large flip board polls --timeout inside a configuration (it checked between
// configurations only, and a 5000x5000 one took half a second).
TEST(RedTeamOptions, LargeFlipBoardsKeepTheTimeout) {
  const auto r = run_cli("random flip:3000x3000 --rule lights-out --timeout 0.001 --memory 2G");
  expect_clean(r, 3, "time limit");
}

// A peg solve below the least transposition table is refused, not left to run without end.
TEST(RedTeamOptions, PegSolveBelowItsLeastMemoryIsRefused) {
  expect_refused("solve peg:english --memory 1M", "a peg solve (a transposition table of 1 MiB");
  expect_refused("solve peg:english --memory 1K", "memory budget");
}

// Messages quote what was typed, and a character as a character.
TEST(RedTeamOptions, MessagesQuoteTheInput) {
  expect_refused("solve 8-puzzle --memory 2Gi", "unknown unit 'Gi'");
  const fs::path blocks = temp_dir() / "umlaut.txt";
  std::ofstream(blocks, std::ios::binary) << "start:\nAA.\nA\xc3\x84.\n";
  expect_refused("solve blocks:" + blocks.string(), "unexpected character '\xc3\x84'");
  expect_refused("random peg:english --pegs 0", "--pegs 0: give 1 to 33");
  // A stray token among a set's numbers is named (it was reported as a count of numbers).
  expect_refused("solve perm:2x2x2 --start \"CORNERS 1 2 3 4 5 6 7 -8 0 0 0 0 0 0 0 0\"",
                 "set 'CORNERS': '-8' is not a piece number or orientation");
  expect_refused("solve perm:2x2x2 --start \"CORNERS 1 2 3 4 5 6 7\"", "needs 8 piece numbers");
}

// Two-phase stopped by --timeout before a solution within --max-length: a limit (exit 3),
// not a success; the message gives the shortest length found.
TEST(RedTeamOptions, MaxLengthUnmetAtTheTimeoutIsALimit) {
  const auto r =
      run_cli("solve cube --scramble \"R U F D L B R' U' F2 D2 L B2 R2 U\" --max-length 5 --timeout 1 --json");
  EXPECT_EQ(r.code, 3) << r.err;
  EXPECT_NE(r.err.find("more than --max-length 5"), std::string::npos) << r.err;
  EXPECT_EQ(r.json().value("stopped", ""), "timeout") << r.out;
}

// IDA* asked for on a start that no move sequence reaches, in a definition with identical
// pieces (no membership test) and a space small enough to search whole: unsolvable, exit 1
// (it ran to its limit and reported a lower bound of 261).
TEST(RedTeamOptions, ForcedIdaOnAnUnreachableStartIsAnswered) {
  const fs::path file = temp_dir() / "blkid.tws";
  std::ofstream(file) << "Set P 6 2\nSolved\nP\n1 1 2 3 3 4\n0 0 0 0 0 0\nEnd\n"
                         "Move A\nP\n2 3 1 5 6 4\n1 0 0 0 0 1\nEnd\nMove B\nP\n4 5 6 1 2 3\nEnd\n";
  const auto r =
      run_cli("solve perm:" + file.string() + " --start 'P 2 1 1 3 3 4 1 1 1 0 1 0' --algorithm idastar --json");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(r.json()["solvable"], false) << r.out;
  EXPECT_NE(r.json()["reason"].get<std::string>().find("not reachable"), std::string::npos) << r.out;
  // A reachable start is still solved by the solver asked for.
  const auto ok = run_cli("solve perm:" + file.string() + " --scramble 'A B A' --algorithm idastar --json");
  EXPECT_EQ(ok.code, 0) << ok.err;
  EXPECT_EQ(ok.json()["algorithm"], "idastar") << ok.out;
}

}  // namespace
