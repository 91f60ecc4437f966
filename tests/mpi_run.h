// The tests that run the program under mpirun (explore_mpi_cli.cpp, knights_tour_mpi_cli.cpp):
// whether mpirun is installed, and the command prefix they run it with.
#pragma once
#include <cstdlib>
#include <string>

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
