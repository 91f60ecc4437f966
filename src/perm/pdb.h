// Pattern databases for permutation puzzles: the puzzle projected onto some of its pieces
// (the others made identical, and orientations dropped where not kept) is a smaller
// permutation puzzle; its distance table (by the engine's distance_table over its ranked
// Space) is an admissible heuristic. Projections are chosen automatically: per orbit of
// positions, groups of pieces with their orientations as large as the budget allows, and
// small groups of different orbits merged into one table.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "perm/space.h"
#include "tansaku/search/limits.h"

namespace tansaku::perm {

class PatternDb {
 public:
  // keep_label[pos * 256 + label]: the label stays distinct; keep_ori[pos]: its orientation stays.
  PatternDb(const Definition& d, const MoveSet& ms, const Position& goal, std::vector<bool> keep_label,
            std::vector<bool> keep_ori);
  std::uint64_t size() const { return space_->size(); }
  const Space& space() const { return *space_; }
  void build(const search::Limits& lim);
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
};

// The projections for `goal`, each of at most `budget` states (built, ready to use).
std::vector<std::unique_ptr<PatternDb>> make_pattern_dbs(const Definition& d, const MoveSet& ms, const Position& goal,
                                                         std::uint64_t budget, const search::Limits& lim);

}  // namespace tansaku::perm
