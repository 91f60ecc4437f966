// The table cache directory (see core/cache_dir.h).
#include "tansaku/core/cache_dir.h"

#include <cstdlib>

namespace tansaku {

std::filesystem::path table_cache_dir() {
  if (const char* d = std::getenv("TANSAKU_PDB_DIR"); d && *d) return d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::filesystem::path(x) / "tansaku";
  if (const char* h = std::getenv("HOME"); h && *h) return std::filesystem::path(h) / ".cache" / "tansaku";
  return std::filesystem::path(".cache") / "tansaku";
}

}  // namespace tansaku
