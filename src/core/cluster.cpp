// The process-wide cluster (core/cluster.h): set by the CLI under mpirun.
#include "tansaku/core/cluster.h"

namespace tansaku {
namespace {
Cluster* g_world = nullptr;
}
Cluster* world() { return g_world; }
void set_world(Cluster* c) { g_world = c; }
}  // namespace tansaku
