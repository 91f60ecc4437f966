// Two-phase solving through a declared subgroup (see two_phase.h).
#include "perm/two_phase.h"

#include <algorithm>
#include <array>
#include <climits>
#include <filesystem>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>

#include <fmt/format.h>

#include "perm/pattern_spec.h"
#include "perm/pattern_table.h"
#include "perm/piece_file.h"
#include "perm/piece_table.h"
#include "tansaku/core/cache_dir.h"
#include "tansaku/core/deadline.h"
#include "tansaku/core/error.h"
#include "tansaku/core/input.h"

namespace tansaku::perm {
namespace {

constexpr std::size_t kMaxTables = 8;                          // per phase
constexpr std::uint64_t kMaxEntries = std::uint64_t{1} << 27;  // per table (32 MiB at 2 bits)
constexpr int kMaxPhaseDepth = 200;                            // per phase (a guard: far beyond any table's)

// The subgroup's moves among ms's: the MoveSet of those gens (ms's order, inverses
// re-indexed) and where each sits in ms; "" or why it cannot be formed.
struct SubMoves {
  MoveSet ms;
  std::vector<int> of;  // per sub gen: its index in the whole move set
  std::string missing;
};

SubMoves sub_moves(const Definition& d, const MoveSet& ms, const SubgroupSpec& sg) {
  SubMoves s;
  s.ms.metric = ms.metric;
  s.ms.commute = ms.commute;
  for (const auto& [base, power] : sg.moves) {
    bool found = false;
    for (const auto& g : ms.gens) found = found || (g.base == base && g.power == power);
    if (!found) {
      const auto& m = d.moves[static_cast<std::size_t>(base)];
      int order = 1;
      for (const auto& g : build_moves(d, "htm", m.name).gens) order = g.order;
      s.missing = fmt::format("the subgroup's move {} is not among the moves in use (--moves, --metric)",
                              power_name(m.name, power, order));
      return s;
    }
  }
  for (std::size_t i = 0; i < ms.gens.size(); ++i) {
    const Gen& g = ms.gens[i];
    if (std::find(sg.moves.begin(), sg.moves.end(), std::pair<int, int>{g.base, g.power}) == sg.moves.end()) continue;
    s.ms.gens.push_back(g);
    s.of.push_back(static_cast<int>(i));
    if (std::find(s.ms.bases.begin(), s.ms.bases.end(), g.base) == s.ms.bases.end()) s.ms.bases.push_back(g.base);
  }
  for (auto& g : s.ms.gens) {
    const int inv = g.inverse;
    g.inverse = -1;
    for (std::size_t j = 0; j < s.of.size(); ++j)
      if (s.of[j] == inv) g.inverse = static_cast<int>(j);
  }
  return s;
}

// What the subgroup keeps (SubgroupSpec::keeps) as a test: two positions are in one class
// when each named set holds the same classes of pieces at each position (and the same
// orientations where they are kept).
class Classes {
 public:
  Classes() = default;
  Classes(const Definition& d, const PatternSpec& spec) {
    const auto N = static_cast<std::size_t>(d.positions);
    cls_.assign(N * 256, -1);
    ori_.assign(N, 0);
    for (const auto& ps : spec.sets) {
      const SetDef& sd = d.sets[static_cast<std::size_t>(ps.set)];
      std::vector<int> map(256, -2);  // -2: the set's other pieces, alike
      for (int l : ps.distinct) map[static_cast<std::size_t>(l)] = l;
      for (std::size_t c = 0; c < ps.classes.size(); ++c)
        for (int l : ps.classes[c]) map[static_cast<std::size_t>(l)] = 256 + static_cast<int>(c);
      for (int i = sd.offset; i < sd.offset + sd.size; ++i) {
        positions_.push_back(i);
        std::copy(map.begin(), map.end(),
                  cls_.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(i) * 256));
        ori_[static_cast<std::size_t>(i)] = ps.orientations;
      }
    }
  }
  bool same(const Position& a, const Position& b) const {
    for (int i : positions_) {
      const auto u = static_cast<std::size_t>(i);
      if (cls_[u * 256 + a.lab[u]] != cls_[u * 256 + b.lab[u]] || (ori_[u] && a.ori[u] != b.ori[u])) return false;
    }
    return true;
  }

 private:
  std::vector<int> positions_;  // the positions of the named sets
  std::vector<int> cls_;        // [position * 256 + label]: the piece's class there
  std::vector<std::uint8_t> ori_;
};

// The subgroup's tables for one move set and goal.
struct Tables {
  SubgroupSpec spec;
  SubMoves sub;
  std::vector<std::uint8_t> in_sub;  // per gen of the whole move set
  Classes keeps;
  std::vector<std::unique_ptr<PatternTable>> p1, p2;
  std::vector<std::string> described;
  std::uint64_t bytes = 0;
  // The first cap on phase 2's length: two thirds of the deepest phase-2 table's depth,
  // rounded up (the 3x3x3: 10 of 14). A lower cap fails cheaply on a phase-1 solution and
  // tries the next, which at the first lengths beat searching phase 2 deep (measured: 21.1
  // moves on average in 0.1 s against 21.8 with the whole depth); it grows by one with each
  // phase-1 length that gave no solution, so one is found in the end.
  int cap2 = 0;
};

// Phase 2's table when the data names none: every piece distinct, with its orientation
// where a subgroup move turns one (elsewhere the orientations stay as phase 1 left them).
PatternSpec every_piece(const Definition& d, const MoveSet& sub) {
  PatternSpec p;
  p.name = "every-piece";
  for (std::size_t s = 0; s < d.sets.size(); ++s) {
    PatternSet ps;
    ps.set = static_cast<int>(s);
    const SetDef& sd = d.sets[s];
    for (const auto& g : sub.gens)
      for (int i = sd.offset; i < sd.offset + sd.size; ++i)
        ps.orientations = ps.orientations || g.p.twist[static_cast<std::size_t>(i)];
    for (int l = 0; l < static_cast<int>(d.sets[s].numbers.size()); ++l) ps.distinct.push_back(l);
    p.sets.push_back(ps);
  }
  return p;
}

// A table from the cache directory's two-phase/ (found by content: the instance key of the
// moves and goal, and the spec in its header), else built and stored there for the next run
// (when the cache may be used: a failure to store is no error, the table is in hand).
std::unique_ptr<PatternTable> table_of(const Definition& d, const MoveSet& ms, const Position& goal,
                                       const PatternSpec& spec, const char* phase, bool cache,
                                       const search::Limits& lim) {
  const std::filesystem::path dir = table_cache_dir() / kTwoPhaseFolder;
  cache = cache && file_allowed(dir.string());
  const std::filesystem::path file = dir / pattern_file_name(d, ms, goal, spec);
  std::error_code ec;
  if (cache && std::filesystem::is_regular_file(file, ec)) {
    try {
      auto t = load_pattern_table(file, d, ms, goal, lim);
      if (t->domain().spec() == spec && t->bits() == 2) return t;
    } catch (const InputError&) {
      // another version or damaged: built again below, and replaced
    }
  }
  auto dom = std::make_unique<PatternDomain>(d, ms, goal, spec, lim.threads, &lim);
  if (dom->size() > kMaxEntries)
    throw InputError(fmt::format("two-phase: the {} table {} has {} entries (at most {})", phase, spec.name,
                                 dom->size(), kMaxEntries));
  auto t = build_pattern_table(std::move(dom), lim);
  if (cache) {
    try {
      std::filesystem::create_directories(dir);
      save_pattern_table(*t, d, instance_key(d, ms, goal), file);
    } catch (const std::exception&) {
      std::filesystem::remove(file.string() + ".tmp", ec);
    }
  }
  return t;
}

std::unique_ptr<Tables> build_tables(const Definition& d, const MoveSet& ms, const Position& goal,
                                     const SubgroupSpec& sg, bool cache, const search::Limits& lim) {
  auto t = std::make_unique<Tables>();
  t->spec = sg;
  t->sub = sub_moves(d, ms, sg);
  t->in_sub.assign(ms.gens.size(), 0);
  for (int i : t->sub.of) t->in_sub[static_cast<std::size_t>(i)] = 1;
  const std::string where = fmt::format("{}:{}", sg.file, sg.line);
  t->keeps = Classes(d, sg.keeps);
  t->described.push_back(
      fmt::format("two-phase through <{}>, the positions that keep {}", sg.written, pattern_text(d, sg.keeps)));
  const std::vector<PatternSpec> p1 = sg.phase1.empty() ? std::vector<PatternSpec>{sg.keeps} : sg.phase1;
  const std::vector<PatternSpec> p2 =
      sg.phase2.empty() ? std::vector<PatternSpec>{every_piece(d, t->sub.ms)} : sg.phase2;
  if (p1.size() > kMaxTables || p2.size() > kMaxTables)
    throw InputError(fmt::format("{}: at most {} tables per phase", where, kMaxTables));
  auto describe = [&](const char* phase, const PatternTable& tab) {
    t->described.push_back(fmt::format("phase {}: {} ({} states, max {})", phase, tab.description(d),
                                       tab.domain().size(), tab.max_distance()));
    t->bytes = std::max(t->bytes, tab.bytes());
  };
  for (const auto& s : p1) {
    t->p1.push_back(table_of(d, ms, goal, s, "phase-1", cache, lim));
    describe("1", *t->p1.back());
  }
  for (const auto& s : p2) {
    t->p2.push_back(table_of(d, t->sub.ms, goal, s, "phase-2", cache, lim));
    describe("2", *t->p2.back());
    t->cap2 = std::max(t->cap2, (2 * t->p2.back()->max_distance() + 2) / 3);
  }
  return t;
}

// Tables by content (the moves, the goal, the subgroup's declaration): a server or a
// Python session solving many cubes builds them once. A few kept, the oldest dropped.
std::shared_ptr<const Tables> tables_for(const Definition& d, const MoveSet& ms, const Position& goal,
                                         const SubgroupSpec& sg, bool cache, const search::Limits& lim) {
  std::string key;
  for (const auto& g : ms.gens) {
    key.append(g.p.perm.begin(), g.p.perm.end());
    key.append(g.p.twist.begin(), g.p.twist.end());
    key += g.name + '\n';
  }
  key.append(reinterpret_cast<const char*>(goal.lab.data()), goal.lab.size());
  key.append(reinterpret_cast<const char*>(goal.ori.data()), goal.ori.size());
  key += sg.written + '\n' + pattern_json(d, sg.keeps).dump();
  for (const auto& p : sg.phase1) key += "\n1" + pattern_json(d, p).dump();
  for (const auto& p : sg.phase2) key += "\n2" + pattern_json(d, p).dump();
  static std::mutex mu;
  static std::list<std::pair<std::string, std::shared_ptr<const Tables>>> kept;
  const std::lock_guard<std::mutex> lock(mu);
  for (const auto& [k, t] : kept)
    if (k == key) return t;
  std::shared_ptr<const Tables> t = build_tables(d, ms, goal, sg, cache, lim);
  kept.emplace_front(key, t);
  if (kept.size() > 4) kept.pop_back();
  return t;
}

// The search: phase-1 IDA* iterations in increasing length, each phase-1 solution (ending in
// the subgroup with a move outside it, else a shorter one reached it first) followed by
// phase-2 IDA* up to the cap.
class Search {
 public:
  Search(const Definition& d, const MoveSet& ms, const Tables& t, const Position& start, const Position& goal,
         const TwoPhaseOptions& opt, const search::Limits& lim)
      : d_(d), ms_(ms), t_(t), start_(start), goal_(goal), opt_(opt), lim_(lim), cap2_(t.cap2) {
    for (const auto& g : ms.gens) base_.push_back(g.base);
    const int nm = static_cast<int>(ms.gens.size());
    for (int last = -1; last < nm; ++last)
      for (int m = 0; m < nm; ++m) allowed_.push_back(allowed_pair(last, m));
    levels_.resize(kMaxPhaseDepth + 2);
    for (auto& l : levels_) l.nb.resize(t.p1.size() * ms.gens.size());
    levels2_.resize(kMaxPhaseDepth + 2);
    for (auto& l : levels2_) l.nb.resize(t.p2.size() * t.sub.ms.gens.size());
  }

  void run() {
    Level root;
    int h = 0;
    for (std::size_t i = 0; i < t_.p1.size(); ++i) {
      std::uint64_t r = 0;
      const PatternTable& tab = *t_.p1[i];
      const int e = tab.domain().rank(start_, r) ? tab.exact(r) : -1;
      if (e < 0) throw std::logic_error("two-phase: a reachable start outside a phase-1 table");
      root.r[i] = r;
      root.e[i] = static_cast<std::uint8_t>(e);
      h = std::max(h, e);
    }
    root.last = -1;
    for (int d1 = h; d1 < best_ && d1 <= kMaxPhaseDepth && !stop_; ++d1) {
      phase1(root, 0, d1);
      // No solution yet: phase 2 may need more than the tables' depth (the cap grows, so
      // a solution is found in the end).
      if (best_ == INT_MAX) ++cap2_;
    }
  }

  int best() const { return best_; }
  const std::vector<int>& moves() const { return best_moves_; }
  int phase1_length() const { return best_phase1_; }
  std::uint64_t nodes() const { return nodes_; }
  bool stopped_by_limit() const { return limit_hit_; }

 private:
  struct Level {
    std::array<std::uint64_t, kMaxTables> r{};
    std::array<std::uint8_t, kMaxTables> e{};
    int last = -1;
    std::vector<std::uint64_t> nb;  // [table * moves + move]: the neighbours' ranks
  };

  // Whether move m may follow move last (-1: none): not the same base move, and of two
  // commuting base moves only the lower first.
  bool allowed_pair(int last, int m) const {
    if (last < 0) return true;
    if (ms_.redundant_pair(last, m)) return false;
    const int a = base_[static_cast<std::size_t>(last)], b = base_[static_cast<std::size_t>(m)];
    return !(a != b && b < a && ms_.commute[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)]);
  }
  bool allowed(int last, int m) const {
    return allowed_[static_cast<std::size_t>(last + 1) * ms_.gens.size() + static_cast<std::size_t>(m)];
  }

  // Every move's neighbour in each of a phase's tables ([table * nm + move] of nb), its cell
  // fetched ahead (the lookups wait on memory).
  using PhaseTables = std::vector<std::unique_ptr<PatternTable>>;
  static void neighbours(const PhaseTables& tables, std::size_t nm, const Level& node, std::vector<std::uint64_t>& nb) {
    for (std::size_t i = 0; i < tables.size(); ++i) {
      const PatternTable& tab = *tables[i];
      tab.domain().for_each_move_rank(node.r[i], [&](int m, std::uint64_t r) {
        nb[i * nm + static_cast<std::size_t>(m)] = r;
        tab.mod3().prefetch_read(tab.domain().cell(r));
      });
    }
  }
  // The child by move m: its rank and distance in each table (the distance from the parent's
  // and the table's entry mod 3). Returns the largest distance, or one past `togo` as soon
  // as a table says so (the rest are not read).
  static int child_bound(const PhaseTables& tables, std::size_t nm, const Level& node,
                         const std::vector<std::uint64_t>& nb, std::size_t m, int togo, Level& child) {
    int h = 0;
    for (std::size_t i = 0; i < tables.size() && h <= togo; ++i) {
      const PatternTable& tab = *tables[i];
      const std::uint64_t r = nb[i * nm + m];
      child.r[i] = r;
      child.e[i] = static_cast<std::uint8_t>(PieceTable::recover(node.e[i], tab.mod3().get(tab.domain().cell(r))));
      h = std::max<int>(h, child.e[i]);
    }
    return h;
  }

  // Every so many nodes: the limits and the budget.
  void tick() {
    if ((++nodes_ & 1023) != 0) return;
    if (lim_.deadline && lim_.deadline->expired()) {
      if (lim_.deadline->cancelled() || best_ == INT_MAX) throw LimitError(lim_.deadline->message());
      stop_ = limit_hit_ = true;
    }
    if (!opt_.max_length && best_ != INT_MAX && clock_.seconds() >= TwoPhaseOptions::kBudget) stop_ = true;
  }

  void phase1(const Level& node, int g, int d1) {
    tick();
    if (stop_) return;
    if (g == d1) {
      // In the subgroup: every phase-1 table at 0 (they need not keep all the subgroup keeps:
      // the position itself decides, in phase2).
      for (std::size_t i = 0; i < t_.p1.size(); ++i)
        if (node.e[i]) return;
      if (d1 == 0 || !t_.in_sub[static_cast<std::size_t>(node.last)]) phase2(d1, node.last);
      return;
    }
    const std::size_t nm = ms_.gens.size();
    Level& child = levels_[static_cast<std::size_t>(g) + 1];
    std::vector<std::uint64_t>& nb = levels_[static_cast<std::size_t>(g)].nb;
    neighbours(t_.p1, nm, node, nb);
    const int togo = d1 - g - 1;
    for (std::size_t m = 0; m < nm && !stop_; ++m) {
      if (!allowed(node.last, static_cast<int>(m))) continue;
      if (togo == 0 && t_.in_sub[m]) continue;
      if (child_bound(t_.p1, nm, node, nb, m, togo, child) > togo) continue;
      // Short of the leaves a position in the subgroup is left again with a move outside it
      // (one inside would only lead to a longer way into it); h = 0 there says little.
      child.last = static_cast<int>(m);
      path1_[static_cast<std::size_t>(g)] = static_cast<int>(m);
      phase1(child, g + 1, d1);
    }
  }

  // From the phase-1 solution path1_[0..n1): the shortest phase 2 within the cap.
  void phase2(int n1, int last) {
    Position p = start_, q;
    for (int i = 0; i < n1; ++i) {
      d_.apply(ms_.gens[static_cast<std::size_t>(path1_[static_cast<std::size_t>(i)])].p, p, q);
      p = q;
    }
    if (!t_.keeps.same(p, goal_)) return;
    Level& root = levels2_[0];
    int h = 0;
    for (std::size_t j = 0; j < t_.p2.size(); ++j) {
      std::uint64_t r = 0;
      const PatternTable& tab = *t_.p2[j];
      const int e = tab.domain().rank(p, r) ? tab.exact(r) : -1;
      if (e < 0) return;  // outside the subgroup's orbit of the goal (the data's claim fails here)
      root.r[j] = r;
      root.e[j] = static_cast<std::uint8_t>(e);
      h = std::max(h, e);
    }
    root.last = last;
    const int cap = best_ == INT_MAX ? cap2_ : std::min(cap2_, best_ - 1 - n1);
    p2start_ = p;
    for (int d2 = h; d2 <= cap && !stop_; ++d2) {
      if (phase2_dfs(0, d2)) {
        best_ = n1 + d2;
        best_phase1_ = n1;
        best_moves_.assign(path1_.begin(), path1_.begin() + n1);
        for (int i = 0; i < d2; ++i)
          best_moves_.push_back(t_.sub.of[static_cast<std::size_t>(path2_[static_cast<std::size_t>(i)])]);
        if (opt_.max_length && best_ <= opt_.max_length) stop_ = true;
        return;
      }
    }
  }

  bool phase2_dfs(int g, int d2) {
    tick();
    if (stop_) return false;
    const Level& node = levels2_[static_cast<std::size_t>(g)];
    const std::size_t nt = t_.p2.size(), nm = t_.sub.ms.gens.size();
    if (g == d2) {
      for (std::size_t j = 0; j < nt; ++j)
        if (node.e[j]) return false;
      Position p = p2start_, q;
      for (int i = 0; i < d2; ++i) {
        d_.apply(t_.sub.ms.gens[static_cast<std::size_t>(path2_[static_cast<std::size_t>(i)])].p, p, q);
        p = q;
      }
      return p == goal_;
    }
    Level& child = levels2_[static_cast<std::size_t>(g) + 1];
    std::vector<std::uint64_t>& nb = levels2_[static_cast<std::size_t>(g)].nb;
    neighbours(t_.p2, nm, node, nb);
    const int togo = d2 - g - 1;
    for (std::size_t m = 0; m < nm; ++m) {
      const int whole = t_.sub.of[m];
      if (!allowed(node.last, whole)) continue;
      if (child_bound(t_.p2, nm, node, nb, m, togo, child) > togo) continue;
      child.last = whole;
      path2_[static_cast<std::size_t>(g)] = static_cast<int>(m);
      if (phase2_dfs(g + 1, d2)) return true;
      if (stop_) return false;
    }
    return false;
  }

  const Definition& d_;
  const MoveSet& ms_;
  const Tables& t_;
  Position start_, goal_, p2start_;
  TwoPhaseOptions opt_;
  const search::Limits& lim_;
  int cap2_;
  std::vector<int> base_;
  std::vector<std::uint8_t> allowed_;  // [(last + 1) * moves + move]
  std::vector<Level> levels_, levels2_;
  std::array<int, kMaxPhaseDepth + 2> path1_{}, path2_{};
  int best_ = INT_MAX, best_phase1_ = 0;
  std::vector<int> best_moves_;
  std::uint64_t nodes_ = 0;
  bool stop_ = false, limit_hit_ = false;
  Stopwatch clock_;
};

}  // namespace

std::string two_phase_refusal(const Definition& d, const MoveSet& ms, const Position& goal) {
  const TableList list = load_table_list(d);
  if (!list.subgroup) return fmt::format("{} declares no subgroup (a Subgroup block in its .pat file)", d.name);
  if (!d.illegal.empty()) return "two-phase does not keep out of Illegal positions";
  const SubMoves sub = sub_moves(d, ms, *list.subgroup);
  if (!sub.missing.empty()) return sub.missing;
  // The subgroup's moves keep the goal's class (the goal is where phase 2 ends).
  const Classes keeps(d, list.subgroup->keeps);
  for (const auto& g : sub.ms.gens) {
    if (!keeps.same(d.applied(g.p, goal), goal))
      return fmt::format(
          "the subgroup's move {} changes the goal's class (two-phase needs a goal that the subgroup "
          "keeps in its class, such as the Solved position)",
          g.name);
  }
  return "";
}

void two_phase_solve(const Definition& d, const MoveSet& ms, const Position& start, const Position& goal,
                     const TwoPhaseOptions& opt, const search::Limits& lim, SolveResult& out) {
  const TableList list = load_table_list(d);
  if (!list.subgroup) throw std::logic_error("two-phase without a subgroup");
  const auto tables = tables_for(d, ms, goal, *list.subgroup, opt.use_cache, lim);
  out.heuristics = tables->described;
  out.table_bytes = tables->bytes;
  Search s(d, ms, *tables, start, goal, opt, lim);
  s.run();
  out.path.stats.expanded = s.nodes();
  if (s.best() == INT_MAX) throw LimitError("two-phase found no solution");
  // Stopped by --timeout before a solution within --max-length: what was asked is not done.
  if (opt.max_length && s.best() > opt.max_length && s.stopped_by_limit())
    throw LimitError(fmt::format("{}: the shortest solution found has {} moves, more than --max-length {}",
                                 lim.deadline ? lim.deadline->message() : "stopped", s.best(), opt.max_length));
  out.path.found = true;
  out.path.optimal = false;
  out.path.cost = s.best();
  out.path.moves = s.moves();
  out.phases = {s.phase1_length(), s.best() - s.phase1_length()};
}

}  // namespace tansaku::perm
