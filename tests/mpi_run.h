// The tests that run the program under mpirun (explore_mpi_cli.cpp, knights_tour_mpi_cli.cpp):
// whether mpirun is installed, and the command prefix they run it with.
#pragma once
#include <cstdlib>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli_util.h"

inline bool have_mpirun() { return std::system("command -v mpirun >/dev/null 2>&1") == 0; }

// As root, OpenMPI wants both variables; every rank may use every core (no binding), as one
// process does. In the asan build, LeakSanitizer is off in the ranks: OpenMPI's plugins
// (dlopened, without frame pointers) leave allocations to exit whose stacks it cannot
// symbolize or suppress; AddressSanitizer still checks every access, and the same engines
// run leak-checked with ranks as threads (explore_distributed.cpp, knights_tour.cpp) and in
// plain runs.
inline std::string mpirun(int ranks) {
  return "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 "
         "mpirun -q --oversubscribe --bind-to none -np " +
         std::to_string(ranks);
}

// `cmd --json` under mpirun with each of `ranks` ranks answers as one process does: exit 0,
// nothing on stderr, and the same JSON once `comparable` has removed what depends on the ranks
// or the clock. Returns the runs' JSON, for the caller's own checks.
template <class Comparable>
std::vector<nlohmann::json> expect_same_on_ranks(const std::string& cmd, const std::vector<int>& ranks,
                                                 Comparable comparable) {
  SCOPED_TRACE(cmd);
  std::vector<nlohmann::json> runs;
  const CliResult one = run_cli(cmd + " --json");
  EXPECT_EQ(one.code, 0) << one.err;
  if (one.code != 0) return runs;
  for (int k : ranks) {
    SCOPED_TRACE(k);
    const CliResult many = run_sh(mpirun(k), cmd + " --json");
    EXPECT_EQ(many.code, 0) << many.err;
    if (many.code != 0) continue;
    EXPECT_EQ(many.err, "");
    runs.push_back(many.json());
    EXPECT_EQ(comparable(runs.back()), comparable(one.json()));
  }
  return runs;
}
