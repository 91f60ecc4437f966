// The CLI under mpirun (see mpi.cpp).
#pragma once

namespace tansaku {

// Runs main_fn: as is in a plain run; under mpirun with MPI initialised, world() set (core/
// cluster.h), stdout and stderr of every rank but 0 sent to /dev/null, MPI finalised after.
// The lean `tansaku` has no MPI: under mpirun it becomes tansaku-full (cli/full.h).
int run_with_mpi(int argc, char** argv, int (*main_fn)(int, char**));

}  // namespace tansaku
