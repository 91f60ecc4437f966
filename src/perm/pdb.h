// Pattern databases for permutation puzzles: the puzzle projected onto some of its pieces
// (the others made identical, and orientations dropped where not kept) is a smaller
// permutation puzzle; its distance table (by the engine's distance_table over its ranked
// Space) is an admissible heuristic. Projections are chosen automatically: per orbit of
// positions, groups of pieces with their orientations as large as the budget allows, and
// small groups of different orbits merged into one table. Tables of some size are kept in
// the table cache directory (tansaku/pdb/table_file.h), named by the content hash of the
// definition, moves, goal and projection, so that the next solve of the instance (or of a
// copy of its definition under another name) loads them instead of building them again.
#pragma once
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "perm/space.h"
#include "tansaku/search/limits.h"

namespace tansaku::perm {

class PatternDb {
 public:
  // keep_label[pos * 256 + label]: the label stays distinct; keep_ori[pos]: its orientation stays.
  // `deadline` (may be null) stops the construction of its ranked space (LimitError).
  PatternDb(const Definition& d, const MoveSet& ms, const Position& goal, std::vector<bool> keep_label,
            std::vector<bool> keep_ori, const Deadline* deadline = nullptr);
  std::uint64_t size() const { return space_->size(); }
  const Space& space() const { return *space_; }
  void build(const search::Limits& lim);
  // The table from the cache when a sound file of it is there, else built (and written there
  // when it can be: a read-only or full directory only means building next time too).
  void load_or_build(const search::Limits& lim);
  // Its file in the table cache: "perm-projection-HASH.tab".
  std::filesystem::path cache_file() const;
  // The content hash it is found by (definition, moves, goal, what the projection keeps).
  const std::string& content_key() const { return key_; }
  bool loaded() const { return loaded_; }  // read from the cache rather than built
  int h(const Position& p) const { return dist_[space_->rank(project(p))]; }
  int max_value() const { return max_; }
  const std::string& description() const { return description_; }

 private:
  Position project(const Position& p) const {
    Position q;
    for (int i = 0; i < positions_; ++i) {
      const auto u = static_cast<std::size_t>(i);
      q.lab[u] = lab_map_[u * 256 + p.lab[u]];
      q.ori[u] = keep_ori_[u] ? p.ori[u] : 0;
    }
    return q;
  }
  int positions_;
  std::vector<std::uint8_t> lab_map_;
  std::vector<bool> keep_ori_;
  Definition pd_;
  MoveSet pms_;
  std::unique_ptr<Space> space_;
  std::vector<std::uint8_t> dist_;
  int max_ = 0;
  std::string description_;
  std::string puzzle_, key_;
  bool loaded_ = false;
};

// The projections for `goal`, each of at most `budget` states (ready to use): loaded from
// the table cache or built (use_cache: false builds them all and writes nothing).
std::vector<std::unique_ptr<PatternDb>> make_pattern_dbs(const Definition& d, const MoveSet& ms, const Position& goal,
                                                         std::uint64_t budget, const search::Limits& lim,
                                                         bool use_cache = true);

// Projections of at least this many states (2^20 by default) are kept in the table cache
// (smaller ones build faster than a file is written); tests lower it.
void set_projection_cache_from(std::uint64_t states);

// The cache files' kind (TableHeader::kind) and the names they have.
inline constexpr const char* kProjectionKind = "perm-projection";
bool is_projection_file_name(const std::string& name);
// What `pdb list` shows of a projection file (header only) and `pdb verify` checks.
std::pair<std::string, nlohmann::ordered_json> describe_projection_file(const std::filesystem::path& file);
void verify_projection_file(const std::filesystem::path& file, const search::Limits& lim);

}  // namespace tansaku::perm
