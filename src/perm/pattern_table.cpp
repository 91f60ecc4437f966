// Pattern tables (see pattern_table.h): the projection, the build, exact values.
#include "perm/pattern_table.h"

#include <algorithm>

#include <fmt/format.h>

#include "perm/ranked_domain.h"
#include "perm/symmetry.h"
#include "tansaku/core/error.h"
#include "tansaku/pdb/build.h"

namespace tansaku::perm {
namespace {

constexpr std::uint8_t kRest = 254;  // the pieces of a named set that are neither distinct nor in a class

}  // namespace

PatternDomain::PatternDomain(const Definition& d, const MoveSet& ms, const Position& goal, PatternSpec spec,
                             unsigned threads, const search::Limits* lim, const ClassTable* classes,
                             const SymMoveTable* sym_moves, bool searching, SolveCap cap, const ClassReps* reps)
    : spec_(std::move(spec)), pd_(d), pms_(ms) {
  const auto N = static_cast<std::size_t>(d.positions);
  lab_map_.assign(N * 256, kRest);
  std::vector<bool> keep_ori(N, false);
  // Every moving piece distinct with its orientation, set by set (whole()).
  std::vector<bool> set_whole(d.sets.size(), false);
  for (const auto& ps : spec_.sets) {
    if (ps.set < 0 || ps.set >= static_cast<int>(d.sets.size())) throw InputError("a pattern names no set");
    const SetDef& sd = d.sets[static_cast<std::size_t>(ps.set)];
    if (ps.classes.size() > 120) throw InputError(fmt::format("set {}: a pattern of more than 120 classes", sd.name));
    std::vector<std::uint8_t> map(256, kRest);
    for (int l : ps.distinct) map[static_cast<std::size_t>(l)] = static_cast<std::uint8_t>(l);
    for (std::size_t c = 0; c < ps.classes.size(); ++c)
      for (int l : ps.classes[c]) map[static_cast<std::size_t>(l)] = static_cast<std::uint8_t>(kRest - 1 - c);
    for (int i = sd.offset; i < sd.offset + sd.size; ++i) {
      std::copy(map.begin(), map.end(),
                lab_map_.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(i) * 256));
      keep_ori[static_cast<std::size_t>(i)] = ps.orientations;
    }
    set_whole[static_cast<std::size_t>(ps.set)] =
        static_cast<int>(ps.distinct.size()) >= sd.size - 1 && (ps.orientations || sd.omod < 2);
  }
  for (std::size_t i = 0; i < N; ++i)
    if (!keep_ori[i]) pd_.omod[i] = 1;
  for (auto& g : pms_.gens)
    for (std::size_t i = 0; i < N; ++i)
      if (!keep_ori[i]) g.p.twist[i] = 0;
  pd_.solved = project(goal);
  whole_ = true;
  for (std::size_t i = 0; i < N; ++i) {
    bool moves = false;
    for (const auto& g : ms.gens) moves = moves || g.p.perm[i] != i || g.p.twist[i];
    if (moves && !set_whole[static_cast<std::size_t>(d.set_of[i])]) whole_ = false;
  }
  if (spec_.reduced) {
    search::Limits l = lim ? *lim : search::Limits{};
    l.threads = threads;
    red_ = std::make_unique<PatternReduction>(d, lab_map_, pd_, pms_, symmetry_group(d, ms, goal), l, classes,
                                              sym_moves, cap, reps);
    goal_rank_ = red_->state(pd_.solved);
  } else {
    const std::uint64_t move_tables = searching && whole_ ? 0 : std::uint64_t{256} << 20;
    space_ = std::make_unique<Space>(pd_, pms_, pd_.solved, move_tables, threads, lim ? lim->deadline : nullptr);
    goal_rank_ = space_->rank(pd_.solved);
  }
}

Position PatternDomain::project(const Position& p) const {
  Position q;
  for (int i = 0; i < pd_.positions; ++i) {
    const auto u = static_cast<std::size_t>(i);
    q.lab[u] = lab_map_[u * 256 + p.lab[u]];
    q.ori[u] = pd_.omod[u] > 1 ? p.ori[u] : 0;
  }
  return q;
}

PatternDomain::~PatternDomain() = default;

bool PatternDomain::rank(const Position& p, std::uint64_t& r) const {
  const Position q = project(p);
  if (red_) {
    if (!red_->contains(q)) return false;
    r = red_->state(q);
    return true;
  }
  if (!space_->contains(q)) return false;
  r = space_->rank(q);
  return true;
}

std::uint64_t PatternDomain::rank_reachable(const Position& p) const {
  const Position q = project(p);
  return red_ ? red_->state(q) : space_->rank(q);
}

PatternDomain::PendingRank PatternDomain::rank_start(const Position& p) const {
  const Position q = project(p);
  PendingRank r;
  if (red_) red_->parts(q, r.a, r.b);
  else r.a = space_->rank(q);
  return r;
}

int PatternTable::exact(std::uint64_t r) const {
  if (bits_ == 4) {
    const unsigned e = cells_->get4(dom_->cell(r));
    return e == 15 ? -1 : static_cast<int>(e);
  }
  unsigned v = cells_->get(dom_->cell(r));
  if (v == 3) return -1;
  int dist = 0;
  const std::uint64_t goal = dom_->cell(dom_->goal_rank());  // states of one position may differ (reduced)
  while (dom_->cell(r) != goal) {
    const unsigned want = (v + 2) % 3;  // one closer
    bool stepped = false;
    dom_->for_each_move_rank(r, [&](int, std::uint64_t t) {
      if (!stepped && cells_->get(dom_->cell(t)) == want) r = t, stepped = true;
    });
    v = want;
    if (!stepped || ++dist > 1000000) throw std::logic_error("perm: a pattern table without a way down to the goal");
  }
  return dist;
}

std::string PatternTable::description(const Definition& d) const {
  return fmt::format("pattern {} ({})", dom_->spec().name, pattern_text(d, dom_->spec()));
}

std::unique_ptr<PatternTable> build_pattern_table(std::unique_ptr<PatternDomain> dom, const search::Limits& lim,
                                                  int bits, tansaku::pdb::Checkpoint* cp) {
  if (bits != 2 && bits != 4) throw std::logic_error("perm: pattern cells of 2 or 4 bits");
  tansaku::pdb::BuiltTable t;
  if (const PatternReduction* red = dom->reduction()) {
    const std::uint64_t c0 = red->cell(dom->goal_rank());
    const PatternReduction::Cells cells(*red, c0);
    // What the budget leaves beside the class and sym-move tables (the build chooses by it
    // whether to run in place).
    search::Limits l = lim;
    const std::uint64_t held = red->side_bytes();
    l.memory = lim.memory > held ? lim.memory - held : 0;
    t = tansaku::pdb::build_table(cells, std::span<const std::uint64_t>(&c0, 1), bits, l, cp);
  } else {
    const std::uint64_t r0 = dom->goal_rank();
    const RankedDomain rd(dom->projected(), dom->projected_moves(), dom->space());
    t = tansaku::pdb::build_table(rd, std::span<const std::uint64_t>(&r0, 1), bits, lim, cp);
  }
  return std::make_unique<PatternTable>(std::move(dom), std::move(t.cells), t.max_distance, bits);
}

}  // namespace tansaku::perm
