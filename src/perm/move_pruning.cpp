// Permutation puzzles' move strings never played (see move_pruning.h): the pairwise rules as
// words, and the effect of a move string for the engine's enumeration of redundant ones.
#include "perm/move_pruning.h"

#include <algorithm>

#include <fmt/format.h>

#include "tansaku/core/cache_dir.h"

namespace tansaku::perm {
namespace {

// What a string of moves does: played on the identity (each position holds its own label,
// orientation 0), so equal results are equal permutations with orientation changes.
class PermEffects {
 public:
  PermEffects(const Definition& d, const MoveSet& ms, int depth) : d_(d), ms_(ms) {
    for (int i = 0; i < d.positions; ++i) {
      bool moved = false;
      for (const auto& g : ms.gens)
        moved = moved || g.p.perm[static_cast<std::size_t>(i)] != i || g.p.twist[static_cast<std::size_t>(i)];
      if (moved) active_.push_back(static_cast<std::uint8_t>(i));
    }
    Position id;
    for (int i = 0; i < d.positions; ++i) id.lab[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(i);
    stack_.assign(static_cast<std::size_t>(depth) + 1, id);
    replay_ = id;
    std::uint64_t z = 0x243f6a8885a308d3ULL;
    for (std::size_t i = 0; i < active_.size(); ++i) key_.push_back(mix(z += 0x9e3779b97f4a7c15ULL) | 1);
  }
  int letters() const { return static_cast<int>(ms_.gens.size()); }
  void push(int a) {
    apply(a, stack_[top_], stack_[top_ + 1]);
    ++top_;
  }
  void pop() { --top_; }
  std::uint64_t hash() const { return hash_of(stack_[top_]); }
  bool replaces(const search::MoveWord& t, const search::MoveWord& s) {
    play(t, a_);
    play(s, b_);
    for (auto i : active_)
      if (a_.lab[i] != b_.lab[i] || a_.ori[i] != b_.ori[i]) return false;
    return true;
  }

 private:
  static std::uint64_t mix(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  std::uint64_t hash_of(const Position& p) const {
    std::uint64_t h = 0;
    for (std::size_t k = 0; k < active_.size(); ++k) {
      const auto i = active_[k];
      h += key_[k] * (static_cast<std::uint64_t>(p.lab[i]) * 256 + p.ori[i] + 1);
    }
    return mix(h);
  }
  void apply(int a, const Position& s, Position& t) const {
    const Perm& m = ms_.gens[static_cast<std::size_t>(a)].p;
    for (auto i : active_) {
      const auto from = m.perm[i];
      t.lab[i] = s.lab[from];
      const int o = s.ori[from] + m.twist[i];
      const int n = d_.omod[i];
      t.ori[i] = static_cast<std::uint8_t>(o >= n ? o - n : o);
    }
  }
  void play(const search::MoveWord& w, Position& out) {
    out = replay_;
    Position next = replay_;
    for (char16_t a : w) {
      apply(a, out, next);
      std::swap(out, next);
    }
  }

  const Definition& d_;
  const MoveSet& ms_;
  std::vector<std::uint8_t> active_;  // the positions some move changes
  std::vector<std::uint64_t> key_;    // per active position
  std::vector<Position> stack_;       // the current string's positions, by length
  std::size_t top_ = 0;
  Position replay_, a_, b_;
};

// The move set as a key: its moves' permutations and twists, in order.
std::string key_of(const Definition& d, const MoveSet& ms, const char* what) {
  std::uint64_t h = 1469598103934665603ULL;
  auto add = [&](std::uint64_t v) { h = (h ^ v) * 1099511628211ULL; };
  add(static_cast<std::uint64_t>(d.positions));
  for (auto o : d.omod) add(o);
  for (const auto& g : ms.gens) {
    add(0xffff);
    for (auto x : g.p.perm) add(x);
    for (auto x : g.p.twist) add(x);
    add(static_cast<std::uint64_t>(g.base));
  }
  return fmt::format("perm-{}-{:016x}", what, h);
}

}  // namespace

std::vector<search::MoveWord> pair_words(const MoveSet& ms, bool commute) {
  std::vector<search::MoveWord> out;
  const int n = static_cast<int>(ms.gens.size());
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b) {
      bool drop = ms.redundant_pair(a, b);
      const int x = ms.gens[static_cast<std::size_t>(a)].base, y = ms.gens[static_cast<std::size_t>(b)].base;
      drop =
          drop || (commute && x != y && y < x && ms.commute[static_cast<std::size_t>(x)][static_cast<std::size_t>(y)]);
      if (drop) out.push_back({static_cast<char16_t>(a), static_cast<char16_t>(b)});
    }
  return out;
}

const search::MoveAutomaton& pair_automaton(const Definition& d, const MoveSet& ms, bool commute) {
  const int n = static_cast<int>(ms.gens.size());
  return search::MoveAutomaton::kept(key_of(d, ms, commute ? "pairs" : "same-base"), n, 2,
                                     [&] { return search::MoveAutomaton(n, 2, pair_words(ms, commute)); });
}

search::MoveAutomaton redundant_strings(const Definition& d, const MoveSet& ms, int depth, const search::Limits& lim) {
  const int n = static_cast<int>(ms.gens.size());
  if (n == 0 || depth < 1) return search::MoveAutomaton(std::max(n, 1));
  depth = std::min(depth, search::detail::PackedStrings::max_depth(n));
  PermEffects e(d, ms, depth);
  auto found = search::find_redundant_words(e, depth, lim);
  return search::MoveAutomaton(n, found.depth, std::move(found.words));
}

const search::MoveAutomaton& kept_redundant_strings(const Definition& d, const MoveSet& ms, int depth,
                                                    const search::Limits& lim) {
  return search::MoveAutomaton::kept(
      fmt::format("{}-{}", key_of(d, ms, "moves"), lim.memory), std::max<int>(1, static_cast<int>(ms.gens.size())),
      depth, [&] { return redundant_strings(d, ms, depth, lim); }, {}, true);
}

int affordable_depth(const Definition& d, const MoveSet& ms, std::uint64_t memory, int cap) {
  const int n = static_cast<int>(ms.gens.size());
  if (n == 0) return 2;
  cap = std::min(cap, search::detail::PackedStrings::max_depth(n));
  const auto counts = pair_automaton(d, ms, true).accepted(cap);
  std::uint64_t strings = 0;
  int depth = 2;
  for (int l = 0; l <= cap; ++l) {
    strings = counts[static_cast<std::size_t>(l)] > ~std::uint64_t{0} - strings
                  ? ~std::uint64_t{0}
                  : strings + counts[static_cast<std::size_t>(l)];
    if (search::detail::PackedStrings::bytes_for(strings) > memory) break;
    depth = std::max(depth, l);
  }
  return depth;
}

const search::MoveAutomaton& quick_pruning(const Definition& d, const MoveSet& ms) {
  search::Limits lim;
  lim.memory = kQuickPruningMemory;
  return kept_redundant_strings(d, ms, affordable_depth(d, ms, lim.memory, kDeepPruningDepth), lim);
}

bool deeper_pruning_pays(const Definition& d, const MoveSet& ms) {
  const search::MoveAutomaton& q = quick_pruning(d, ms);
  const auto pruned = q.accepted(q.depth()).back(), pairs = pair_automaton(d, ms, true).accepted(q.depth()).back();
  return static_cast<double>(pruned) < 0.99 * static_cast<double>(pairs);
}

const search::MoveAutomaton& deep_pruning(const Definition& d, const MoveSet& ms, const search::Limits& lim, bool disk,
                                          int cap) {
  search::Limits fsm_lim = lim;
  fsm_lim.memory = std::min(lim.memory / 4, kDeepPruningMemory);
  const int depth = affordable_depth(d, ms, fsm_lim.memory, cap);
  const int n = std::max<int>(1, static_cast<int>(ms.gens.size()));
  const std::string key = key_of(d, ms, "moves");
  std::function<std::filesystem::path(int)> name_for;
  if (disk) name_for = [&](int at) { return table_cache_dir() / fmt::format("{}-{}.fsm.zst", key, at); };
  return search::MoveAutomaton::kept(
      fmt::format("{}-{}", key, fsm_lim.memory), n, depth, [&] { return redundant_strings(d, ms, depth, fsm_lim); },
      name_for, true);
}

}  // namespace tansaku::perm
