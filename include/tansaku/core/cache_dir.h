// The one directory where tables built once and kept between runs live (pattern databases
// of any family): $TANSAKU_PDB_DIR, else $XDG_CACHE_HOME/tansaku, else ~/.cache/tansaku.
// Families name their files so that they do not collide; `tansaku serve` may read there.
#pragma once
#include <filesystem>

namespace tansaku {

std::filesystem::path table_cache_dir();

}  // namespace tansaku
