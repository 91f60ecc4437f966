// The move strings a permutation-puzzle search never plays, as automata of the engine's move
// pruning (tansaku/search/move_pruning.h), over the moves of a MoveSet in their order:
// - the pairwise rules: two powers of one base move whose sum is the identity or one move of
//   the metric, and (for one solution) two commuting base moves in one order only;
// - the redundant strings: a string is redundant when a string earlier in shortlex order
//   (shorter, or as long and first move by move in the MoveSet's order) has the same effect on
//   the puzzle (the permutation of the positions with the orientation changes). Every position
//   keeps one string of least length that holds none (its shortlex-least), so an IDA* that
//   follows the automaton still finds an optimal solution. Found by enumerating the strings
//   level by level and hashing their effects; their depth 2 holds the pairwise rules (with
//   commuting moves ordered as the MoveSet orders them).
// Not for searches that must keep every optimal sequence (--all, --count: the pairwise rule
// of one base move only) or that pass by Illegal positions (an earlier string may pass
// through one where the later does not).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "perm/definition.h"
#include "perm/generators.h"
#include "tansaku/search/limits.h"
#include "tansaku/search/move_pruning.h"

namespace tansaku::perm {

// The pairwise rules as words of two moves: "a b" where ms.redundant_pair(a, b) and, with
// `commute`, where a and b turn different base moves that commute and b's base move comes
// first in the definition (as the searches' allowed(last, m) had them).
std::vector<search::MoveWord> pair_words(const MoveSet& ms, bool commute);

// The automaton of pair_words, kept for the process per move set.
const search::MoveAutomaton& pair_automaton(const Definition& d, const MoveSet& ms, bool commute);

// The automaton of every minimal redundant string of up to `depth` moves, or of fewer when
// the enumeration would take more than lim.memory (the last complete length; its depth()
// says which). Honours lim's deadline (LimitError) and progress.
search::MoveAutomaton redundant_strings(const Definition& d, const MoveSet& ms, int depth,
                                        const search::Limits& lim = {});

// The same, kept for the process per move set and depth (built on first use).
const search::MoveAutomaton& kept_redundant_strings(const Definition& d, const MoveSet& ms, int depth,
                                                    const search::Limits& lim = {});

// The longest strings whose enumeration fits `memory` (counted ahead from the pairwise
// rules' strings, which are at least as many), at most `cap`, at least 2.
int affordable_depth(const Definition& d, const MoveSet& ms, std::uint64_t memory, int cap);

// The automaton a one-solution IDA* starts with: the redundant strings whose enumeration
// takes at most kQuickPruningMemory (about a millisecond), kept for the process.
inline constexpr std::uint64_t kQuickPruningMemory = std::uint64_t{128} << 10;
const search::MoveAutomaton& quick_pruning(const Definition& d, const MoveSet& ms);

// Whether deeper strings are worth enumerating: the quick automaton already allows at least 1%
// fewer strings of its longest length than the pairwise rules do (the 2x2x2 and the skewb with
// all their moves: 11% and 15% at 3 moves; the 3x3x3 none: its 6-move words save 1.5% of the
// nodes of a 17-move solve, less than they cost).
bool deeper_pruning_pays(const Definition& d, const MoveSet& ms);

// The automaton it switches to once an iteration has expanded kDeepPruningAfter nodes: the
// redundant strings of up to kDeepPruningDepth moves whose enumeration fits a quarter of
// lim.memory and kDeepPruningMemory (the 3x3x3: 6 moves, 128 MiB, a few seconds), read from
// the table directory or enumerated and written there (`disk`: else in memory only).
inline constexpr std::uint64_t kDeepPruningAfter = std::uint64_t{1} << 20;
inline constexpr std::uint64_t kDeepPruningMemory = std::uint64_t{256} << 20;
inline constexpr int kDeepPruningDepth = 10;
// `cap`: the longest strings asked for (kDeepPruningDepth, or --prune-depth).
const search::MoveAutomaton& deep_pruning(const Definition& d, const MoveSet& ms, const search::Limits& lim, bool disk,
                                          int cap = kDeepPruningDepth);

}  // namespace tansaku::perm
